"""Shared test settings: hypothesis profiles, and mDNS on a loopback the test may use.

The default profile keeps the suite quick; `HYPOTHESIS_PROFILE=long pytest -m slow` (or
with the whole suite) runs the long fuzzing campaign documented in README.md.

Discovery tests need multicast on 127.0.0.1. Where the machine's own loopback already
carries it, they use it as it is. Otherwise, as root, each such test is run again in a
private network namespace (`unshare --net`) whose own `lo` gets multicast switched on; the
namespace vanishes with that process. The machine's own interfaces are never changed.
"""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from private_network import why_no_private_namespace

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Messages follow the locale unless --lang is given: the tests read English, whatever the
# locale of the machine running them (the host processes they start inherit this).
os.environ["LANGUAGE"] = "en"
# Nothing a test runs writes into the user's own settings (the remembered name, resume
# tokens): the session has private config and state folders, which the programs the tests
# start inherit. A test that needs a first run's folders makes its own.
_PRIVATE_HOME = Path(tempfile.mkdtemp(prefix="dalmuti-tests-"))
atexit.register(shutil.rmtree, _PRIVATE_HOME, ignore_errors=True)
os.environ["XDG_CONFIG_HOME"] = str(_PRIVATE_HOME / "config")
os.environ["XDG_STATE_HOME"] = str(_PRIVATE_HOME / "state")

LOOPBACK = ["127.0.0.1"]
MDNS_GROUP = "224.0.0.251"
# Set, to the test's node id, in the pytest that runs that test inside its namespace.
INSIDE_NAMESPACE = "DALMUTI_TEST_PRIVATE_NETWORK"
NAMESPACE_RUN_TIMEOUT_S = 180
RUN_IN_NAMESPACE = pytest.StashKey[bool]()


def loopback_multicast_works() -> bool:
    """Whether a multicast datagram sent out of 127.0.0.1 comes back to a group member."""
    with (
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as receiver,
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender,
    ):
        try:
            receiver.bind(("", 0))
            port = receiver.getsockname()[1]
            membership = socket.inet_aton(MDNS_GROUP) + socket.inet_aton("127.0.0.1")
            receiver.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
            sender.setsockopt(
                socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1")
            )
            sender.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, struct.pack("B", 1))
            sender.sendto(b"probe", (MDNS_GROUP, port))
        except OSError:
            return False
        receiver.settimeout(1)
        try:
            return receiver.recv(16) == b"probe"
        except (TimeoutError, OSError):
            return False


@pytest.fixture(autouse=True)
def private_state_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each test its own state folder (seats, and the tables every host saves there): a
    host one test kills would otherwise be offered again to the next test's host."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@pytest.fixture
def loopback(request: pytest.FixtureRequest) -> list[str]:
    """The interfaces a discovery test binds zeroconf to: always 127.0.0.1.

    Where multicast does not work on this machine's loopback, the test runs in a private
    network namespace instead (see the module's docstring), or is skipped with the reason.
    """
    if os.environ.get(INSIDE_NAMESPACE) == request.node.nodeid:
        if not loopback_multicast_works():
            pytest.skip("multicast on lo does not work even in a private network namespace")
        return LOOPBACK
    if loopback_multicast_works():
        return LOOPBACK
    reason = why_no_private_namespace()
    if reason is not None:
        pytest.skip(f"multicast on 127.0.0.1 does not work here and {reason}")
    request.node.stash[RUN_IN_NAMESPACE] = True
    return LOOPBACK


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if not pyfuncitem.stash.get(RUN_IN_NAMESPACE, False):
        return None
    run_in_private_namespace(pyfuncitem)
    return True


def run_in_private_namespace(item: pytest.Function) -> None:
    """Run one test in a fresh pytest inside `unshare --net`; report its outcome here."""
    with tempfile.TemporaryDirectory(prefix="dalmuti-netns-") as folder:
        report_file = Path(folder) / "report.xml"
        pytest_command = [
            sys.executable,
            *("-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "", "-n", "0"),
            f"--junitxml={report_file}",
            item.nodeid,
        ]
        script = "ip link set lo up && ip link set lo multicast on && exec " + shlex.join(
            pytest_command
        )
        finished = subprocess.run(
            ["unshare", "--net", "--", "sh", "-c", script],
            cwd=item.config.rootpath,
            env={**os.environ, INSIDE_NAMESPACE: item.nodeid},
            capture_output=True,
            text=True,
            timeout=NAMESPACE_RUN_TIMEOUT_S,
        )
        try:
            case = ElementTree.parse(report_file).find(".//testcase")
        except (OSError, ElementTree.ParseError):
            case = None
    output = f"(run in a private network namespace)\n{finished.stdout}{finished.stderr}"
    if case is None:
        pytest.fail(f"the test did not run in its namespace:\n{output}", pytrace=False)
    skipped = case.find("skipped")
    if skipped is not None:
        pytest.skip(skipped.get("message", "skipped in the private network namespace"))
    if finished.returncode != 0 or case.find("failure") is not None:
        pytest.fail(output, pytrace=False)


# pytest-xdist runs the suite on one worker more than the machine has cores (pyproject's
# addopts: `-n auto --dist loadgroup`). Most tests wait (on a host process, a socket, a
# browser, a host's real timer) more than they compute: with a worker a core, a quiet
# two-core run kept its cores about half busy (342 s of CPU in 321 s, tests/README.md),
# the conformance suite's worker idle for most of its 40 s. A third worker computes
# while the other two wait. Tests that announce or browse over mDNS share the one loopback
# multicast group: they run one after another on a single worker, so no two of them hear
# each other's tables or clash on an instance name.
MAX_WORKERS = 4
"""More workers than this only add hosts and browsers fighting over the same cores."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min((cores or 1) + 1, MAX_WORKERS))


LONG_POLES = (
    "tests/conformance/test_conformance_suite.py",
    "tests/clients/test_quick_start_bot.py",
    "tests/web/test_web_browser.py",
    "tests/web/test_web_phone.py",
    "tests/web/test_web_screen_reader.py",
    "tests/web/test_web_seat_proof.py",
)
"""Files whose tests take 10 s to a few minutes each (tests/README.md lists why). They are
collected first, so the workers start them first: collected last (tests/web), the two
browser tests (44 s and 40 s) ran alone on one worker at the end of a quiet run while the
other idled (the run used 105% of the 2 cores). Whole files move, so a module's
fixtures are still set up once; the longest first."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "loopback" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("mdns"))

    def first(item: pytest.Item) -> int:
        poles = [n for n, path in enumerate(LONG_POLES) if item.nodeid.startswith(path)]
        return poles[0] if poles else len(LONG_POLES)

    items.sort(key=first)

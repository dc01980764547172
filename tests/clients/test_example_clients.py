"""The third-party example clients in client/ each play a whole game at a real host.

Each example is started as its own process, as a user would start it, and takes the
fourth seat of a `dalmuti host --headless` on 127.0.0.1 with three heuristic bots. The
game only finishes if the example answered every decision it was sent.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from host_process import REPO, assert_full_game, running_host

from dalmuti_net.protocol import FrameReader, unpack

PYTHON_CLIENT = REPO / "client" / "python" / "dalmuti_bot.py"
NODE_CLIENT_DIR = REPO / "client" / "node"
GAME_TIMEOUT_S = 60
NPM_TIMEOUT_S = 120


def check_client_output(output: str) -> None:
    assert "table ended (hand_limit)" in output, output
    decisions = re.search(r"after (\d+) decisions", output)
    assert decisions is not None and int(decisions.group(1)) > 0, output
    standings = re.findall(r"^\s+(\d)\. player \d+: \d+ points", output, re.MULTILINE)
    assert len(standings) == 4, output
    assert output.count("<- this bot") == 1, output


def test_python_example_imports_only_the_standard_library_and_msgpack() -> None:
    tree = ast.parse(PYTHON_CLIENT.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported - set(sys.stdlib_module_names) == {"msgpack"}


def test_python_example_plays_a_whole_game(rules_file: Path) -> None:
    with running_host(rules_file, seed=3) as host:
        finished = subprocess.run(
            [sys.executable, str(PYTHON_CLIENT), host.address, "--name", "Py example"],
            capture_output=True,
            text=True,
            timeout=GAME_TIMEOUT_S,
        )
        host_output = host.stop()
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert finished.stderr == ""
    check_client_output(finished.stdout)
    assert_full_game(host_output, "Py example")


NODE_FILES = ("dalmuti_bot.js", "package.json", "package-lock.json")


@pytest.fixture(scope="session")
def node_example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder where client/node runs with its locked packages installed.

    The checkout's own folder when someone ran `npm ci` there; otherwise a copy in a
    temporary folder, installed there, so the test never writes node_modules into the
    tree. Skips when Node.js is missing or the packages cannot be installed (offline).
    """
    if shutil.which("node") is None:
        pytest.skip("Node.js is not installed (no `node` on PATH): client/node is not tested")
    if (NODE_CLIENT_DIR / "node_modules" / "@msgpack" / "msgpack").is_dir():
        return NODE_CLIENT_DIR
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: client/node's packages cannot be installed")
    folder = tmp_path_factory.mktemp("node-example")
    for name in NODE_FILES:
        shutil.copy2(NODE_CLIENT_DIR / name, folder / name)
    command = [npm, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--fetch-retries=1"]
    try:
        installed = subprocess.run(
            command, cwd=folder, capture_output=True, text=True, timeout=NPM_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        pytest.skip(f"`npm ci` for client/node took over {NPM_TIMEOUT_S} s (offline?)")
    if installed.returncode != 0:
        lines = (installed.stderr or installed.stdout).strip().splitlines()
        first = " / ".join(lines[:2]) or f"exit status {installed.returncode}"
        pytest.skip(f"client/node's packages could not be installed ({first})")
    return folder


def test_node_example_plays_a_whole_game(rules_file: Path, node_example: Path) -> None:
    node = shutil.which("node")
    assert node is not None
    with running_host(rules_file, seed=4) as host:
        finished = subprocess.run(
            [node, "dalmuti_bot.js", host.address, "--name", "Node example"],
            cwd=node_example,
            capture_output=True,
            text=True,
            timeout=GAME_TIMEOUT_S,
        )
        host_output = host.stop()
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert finished.stderr == ""
    check_client_output(finished.stdout)
    assert_full_game(host_output, "Node example")


def test_node_example_uses_only_the_locked_msgpack_package() -> None:
    package = json.loads((NODE_CLIENT_DIR / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((NODE_CLIENT_DIR / "package-lock.json").read_text(encoding="utf-8"))
    assert list(package["dependencies"]) == ["@msgpack/msgpack"]
    assert set(lock["packages"]) == {"", "node_modules/@msgpack/msgpack"}
    assert "dalmuti_net" not in (NODE_CLIENT_DIR / "dalmuti_bot.js").read_text(encoding="utf-8")


class CuttingRelay:
    """Stands between an example client and the host, as a Wi-Fi link does: forwards every
    connection, cuts the first one once the game is on (at its first `cards_dealt`), and
    keeps what each connection carried, both ways, to check after."""

    def __init__(self, host_port: int) -> None:
        self.host_port = host_port
        self.sent: list[bytearray] = []
        """Per connection: what the client sent."""
        self.received: list[bytearray] = []
        """Per connection: what the host sent."""

    async def handle(self, client: trio.SocketStream) -> None:
        index = len(self.sent)
        self.sent.append(bytearray())
        self.received.append(bytearray())
        host = await trio.open_tcp_stream("127.0.0.1", self.host_port)
        async with client, host, trio.open_nursery() as nursery:

            async def up() -> None:
                async for data in client:
                    self.sent[index] += data
                    await host.send_all(data)
                nursery.cancel_scope.cancel()

            async def down() -> None:
                async for data in host:
                    await client.send_all(data)
                    self.received[index] += data
                    if index == 0 and b"cards_dealt" in self.received[index]:
                        break  # the link goes down mid-game
                nursery.cancel_scope.cancel()

            nursery.start_soon(up)
            nursery.start_soon(down)


def frames(data: bytes) -> list[dict[str, object]]:
    return [unpack(body) for body in FrameReader().feed(data)]


async def play_through_a_cut(rules_file: Path, command: list[str], cwd: Path) -> None:
    """The example takes its seat back after the cut, never sending its token, and plays
    the whole table in the same seat."""
    with running_host(rules_file, seed=5) as host:
        relay = CuttingRelay(host.port)
        async with trio.open_nursery() as nursery:
            listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
            port = listeners[0].socket.getsockname()[1]
            nursery.start_soon(trio.serve_listeners, relay.handle, listeners)
            with trio.fail_after(GAME_TIMEOUT_S):
                finished = await trio.run_process(
                    [*command, f"127.0.0.1:{port}", "--name", "Cut example"],
                    cwd=cwd,
                    capture_stdout=True,
                    capture_stderr=True,
                    check=False,
                )
            nursery.cancel_scope.cancel()
        host_output = host.stop()
    out, err = finished.stdout.decode(), finished.stderr.decode()
    assert finished.returncode == 0, out + err
    assert err == "" and "taking the seat back" in out
    check_client_output(out)
    assert_full_game(host_output, "Cut example")
    assert len(relay.sent) >= 2
    welcome = next(m for m in frames(relay.received[0]) if m["type"] == "welcome")
    token = welcome["token"]
    assert isinstance(token, str)
    said_again = frames(relay.sent[1])
    assert [m["type"] for m in said_again[:3]] == ["about", "hello", "prove"]
    for data in [*relay.sent, *relay.received[1:]]:
        assert token.encode() not in data, "the token crossed the wire after its welcome"
    again = next(m for m in frames(relay.received[1]) if m["type"] == "welcome")
    assert again["player"] == welcome["player"] and again["token"] is None


async def test_python_example_takes_its_seat_back_after_a_cut(rules_file: Path) -> None:
    await play_through_a_cut(rules_file, [sys.executable, str(PYTHON_CLIENT)], REPO)


async def test_node_example_takes_its_seat_back_after_a_cut(
    rules_file: Path, node_example: Path
) -> None:
    node = shutil.which("node")
    assert node is not None
    await play_through_a_cut(rules_file, [node, "dalmuti_bot.js"], node_example)

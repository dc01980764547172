"""Join codes guessed from one address: how many a second a host looks at.

A real ``dalmuti host --headless --code 4321 --no-web --no-announce`` on 127.0.0.1
(a subprocess), and one guesser as fast as it can: connect, ``hello`` with a wrong code,
read the refusal, close, again. For each refusal it counts whether the code was looked at
(``this table needs the right join code``) or not (the address must wait: ``try again in
N s``). The same run against the host of another commit (``--against``, taken from git at
run time) gives the figure before, in one run on one machine.

Also counts the lines the host player was shown about wrong codes (the host's stderr).

Run by hand (not a test): ``python bench/guesses.py [--seconds S] [--against COMMIT]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from io import BytesIO
from pathlib import Path

import trio
from wake import cpu_model  # bench/, beside this file

from dalmuti_net.protocol import PROTOCOL_VERSION, FrameReader, encode, unpack

REPO = Path(__file__).resolve().parent.parent


@contextmanager
def source_of(commit: str | None) -> Iterator[Path]:
    """A folder holding ``dalmuti_net`` as of ``commit`` (None: this checkout)."""
    if commit is None:
        yield REPO
        return
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", commit, "dalmuti_net"],
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        yield Path(folder)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def running_host(
    source: Path, arguments: list[str], wait_port: int
) -> Iterator[subprocess.Popen[str]]:
    """`dalmuti host ARGUMENTS` from ``source``, in a private HOME, once ``wait_port``
    accepts connections (both benchmarks that compare two commits start hosts this way)."""
    with tempfile.TemporaryDirectory() as home:
        env = {
            **os.environ,
            "PYTHONPATH": str(source),
            "HOME": home,
            "XDG_STATE_HOME": home,
            "XDG_CONFIG_HOME": home,
        }
        command = [sys.executable, "-m", "dalmuti_net", "host", *arguments]
        process = subprocess.Popen(
            command, env=env, cwd=home, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", wait_port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or process.poll() is not None:
                        raise RuntimeError("the host did not start") from None
                    time.sleep(0.1)
            yield process
        finally:
            process.terminate()
            process.wait(10)


def host(source: Path, port: int, code: str) -> AbstractContextManager[subprocess.Popen[str]]:
    return running_host(
        source,
        [
            *("--headless", "--no-web", "--no-announce", "--interface", "127.0.0.1"),
            *("--port", str(port), "--code", code, "--lang", "en"),
        ],
        port,
    )


async def guess(port: int, seconds: float) -> tuple[int, int]:
    """(codes looked at, refused unlooked) in ``seconds`` of guessing as fast as possible."""
    looked = unlooked = 0
    number = 0
    with trio.move_on_after(seconds):
        while True:
            number += 1
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            async with stream:
                hello = {
                    "type": "hello",
                    "version": PROTOCOL_VERSION,
                    "role": "player",
                    "name": "Guesser",
                    "code": f"{number % 10000:04d}" if number % 10000 != 4321 else "0",
                }
                await stream.send_all(encode(hello))
                frames = FrameReader()
                answer = None
                while answer is None:
                    data = await stream.receive_some(65536)
                    if not data:
                        break
                    for body in frames.feed(data):
                        message = unpack(body)
                        if message.get("type") == "error":
                            answer = message
                if answer is None or answer.get("code") != "bad_code":
                    continue
                if "try again" in str(answer.get("message")):
                    unlooked += 1
                else:
                    looked += 1
    return looked, unlooked


def run(label: str, commit: str | None, seconds: float) -> None:
    with source_of(commit) as source:
        port = free_port()
        with host(source, port, "4321") as process:
            looked, unlooked = trio.run(guess, port, seconds)
            process.terminate()
            _, stderr = process.communicate(timeout=10)
    told = [line for line in stderr.splitlines() if "wrong join code" in line]
    print(
        f"  {label:<28} looked at {looked:>7,} ({looked / seconds:>8,.1f}/s, "
        f"{looked / seconds * 60:>9,.0f}/min)   refused unlooked {unlooked:>7,}   "
        f"host player told {len(told)} times"
    )
    for line in told:
        print(f"      {line.strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--against", metavar="COMMIT", help="the host before, from git")
    args = parser.parse_args()
    print(
        f"{cpu_model()}, {os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}; one guesser on 127.0.0.1 for {args.seconds:g} s"
    )
    if args.against:
        run(f"as of {args.against}", args.against, args.seconds)
    run("this checkout", None, args.seconds)


if __name__ == "__main__":
    main()

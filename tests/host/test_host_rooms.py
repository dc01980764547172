"""The table core and its rooms stay sans-I/O and below the client and the web table."""

import subprocess
import sys

ROOMS = [
    "table",
    "state",
    "records",
    "handshake",
    "journal",
    "lobby",
    "snapshot",
    "ratelimit",
    "countdowns",
    "admission",
]


def test_the_rooms_of_the_table_core_import_no_io_and_nothing_above_the_host() -> None:
    code = (
        "import sys\n"
        + "".join(f"import dalmuti_net.host.{room}\n" for room in ROOMS)
        + "above = ('dalmuti_net.client', 'dalmuti_net.web', 'trio', 'sqlite3')\n"
        + "print(sorted({m for m in sys.modules if m.startswith(above)}))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert found == "[]"

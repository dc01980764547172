"""Developer tools: the generators of the message catalogs, the protocol kit (schema,
golden frames, PROTOCOL.md's tables) and host/README.md's rules-file tables.

They ship in the sdist, not in the wheel: an installed dalmuti-net has nothing here to
run, and these never write into site-packages. Run them from a checkout's top folder,
``python -m tools.NAME`` (README's Development section lists them).
"""

from __future__ import annotations

from pathlib import Path

import dalmuti_net

REPO_ROOT = Path(__file__).resolve().parents[1]
"""The checkout (or unpacked sdist) these tools belong to: where they read and write."""
PACKAGE_DIR = Path(dalmuti_net.__file__).resolve().parent
"""The ``dalmuti_net`` package being used: the checkout's own, or (when the tests run from
an sdist without it) the installed one, which the tools only read."""


def package_is_the_checkouts() -> bool:
    """True when ``dalmuti_net`` is imported from this checkout, so its files may be
    rewritten."""
    return PACKAGE_DIR.is_relative_to(REPO_ROOT)

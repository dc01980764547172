"""Whether this process may make a private network namespace for a test (Linux, root,
`unshare` and `ip`): there a test may switch multicast on, or host on every interface,
without touching this machine's own network."""

from __future__ import annotations

import os
import shutil
import sys


def why_no_private_namespace() -> str | None:
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux only"
    if os.geteuid() != 0:
        return "creating a private network namespace needs root"
    for tool, package in (("unshare", "util-linux"), ("ip", "iproute2")):
        if shutil.which(tool) is None:
            return f"the `{tool}` tool ({package}) is not installed"
    return None

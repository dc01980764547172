"""The history tests play tables with the host tests' harness and recording clients."""

from __future__ import annotations

import sys
from pathlib import Path

for folder in ("host", "ui", "plain", "clients"):
    sys.path.insert(0, str(Path(__file__).parent.parent / folder))

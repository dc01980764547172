"""``python -m dalmuti_net``: the ``dalmuti`` command, for when its script is not on PATH."""

import sys

from .cli import main

sys.exit(main())

"""The web table's address as a QR code drawn with text, for the host's terminal.

segno makes the code (a QR encoder is many pages of Reed-Solomon and masking rules: not
something to write by hand); this draws it two rows of modules a line with half blocks,
light modules lit, as a terminal's light text on its dark background shows them (phone
cameras read the code either way round).
"""

from __future__ import annotations

import segno

QUIET_ZONE = 2
"""Modules of light border: the standard asks 4, phone scanners are happy with 2."""


def qr_lines(url: str) -> list[str]:
    code = segno.make(url, error="m", micro=False)
    rows = [[bool(module) for module in row] for row in code.matrix_iter(border=QUIET_ZONE)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    glyphs = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    return [
        "".join(glyphs[(top, bottom)] for top, bottom in zip(upper, lower, strict=True))
        for upper, lower in zip(rows[::2], rows[1::2], strict=True)
    ]

"""Just enough PNG decoding to look at a browser's screenshots (8-bit RGB or RGBA, not
interlaced, as Chromium writes them): no imaging library for a test to depend on."""

from __future__ import annotations

import struct
import zlib


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat = 8, b""
    width = height = channels = 0
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, "an unusual PNG"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                best = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[x] = (line[x] + best) & 255
        previous = line
        rgb = bytes(line) if channels == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3)
        rows.append(rgb)
    return width, height, rows


def region(rows: list[bytes], top: int, bottom: int) -> list[bytes]:
    return rows[max(0, top) : max(0, bottom)]


def distinct_colors(rows: list[bytes], step: int = 3) -> int:
    seen = set()
    for row in rows[::step]:
        for x in range(0, len(row) - 2, 3 * step):
            seen.add(row[x : x + 3])
    return len(seen)


def share_of_commonest(rows: list[bytes], step: int = 3) -> float:
    counts: dict[bytes, int] = {}
    total = 0
    for row in rows[::step]:
        for x in range(0, len(row) - 2, 3 * step):
            pixel = row[x : x + 3]
            counts[pixel] = counts.get(pixel, 0) + 1
            total += 1
    return max(counts.values()) / total if total else 1.0


def differing_share(a: list[bytes], b: list[bytes], step: int = 3) -> float:
    """The share of sampled pixels that differ between two images of one size."""
    differ = total = 0
    for row_a, row_b in zip(a[::step], b[::step], strict=False):
        for x in range(0, min(len(row_a), len(row_b)) - 2, 3 * step):
            total += 1
            differ += row_a[x : x + 3] != row_b[x : x + 3]
    return differ / total if total else 0.0


def has_color_near(rows: list[bytes], color: tuple[int, int, int], tolerance: int = 24) -> bool:
    r, g, b = color
    for row in rows[::2]:
        for x in range(0, len(row) - 2, 6):
            if (
                abs(row[x] - r) <= tolerance
                and abs(row[x + 1] - g) <= tolerance
                and abs(row[x + 2] - b) <= tolerance
            ):
                return True
    return False

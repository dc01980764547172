"""Golden frames: every example message as the exact bytes the codec sends.

``protocol/vectors/<direction>/<key>.json`` holds ``direction``, ``type``, ``source`` (the
transcript and line it was recorded at, or that it was written by hand), ``hex`` (the
whole frame: 4-byte length header and msgpack body) and ``decoded`` (the map as JSON).
``python -m tools.vectors`` rewrites the folder from ``examples``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from dalmuti_net.protocol.codec import decode, encode

from . import REPO_ROOT
from .examples import EXAMPLES, Example

VECTORS_DIR = REPO_ROOT / "protocol" / "vectors"


def vector_path(root: Path, item: Example) -> Path:
    return root / item.direction.value / f"{item.key}.json"


def vector(item: Example) -> dict[str, Any]:
    frame = encode(item.message)
    # Only valid messages become golden frames.
    decode(frame[4:], item.direction)
    return {
        "direction": item.direction.value,
        "type": item.message["type"],
        "source": item.source,
        "hex": frame.hex(),
        "decoded": item.message,
    }


def render_vector(item: Example) -> str:
    return json.dumps(vector(item), indent=2, ensure_ascii=False) + "\n"


def rendered_vectors(root: Path = VECTORS_DIR) -> dict[Path, str]:
    return {vector_path(root, item): render_vector(item) for item in EXAMPLES}


def write_vectors(root: Path = VECTORS_DIR) -> list[Path]:
    expected = rendered_vectors(root)
    for stale in root.glob("*/*.json"):
        if stale not in expected:
            stale.unlink()
    for path, text in expected.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return sorted(expected)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or any(arg.startswith("-") for arg in args):
        print(
            f"usage: python -m {__spec__.name if __spec__ else __name__} [OUT_DIR]", file=sys.stderr
        )
        return 2
    root = Path(args[0]) if args else VECTORS_DIR
    written = write_vectors(root)
    print(f"wrote {len(written)} golden frames under {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

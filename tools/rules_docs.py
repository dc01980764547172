"""The rules-file format and the presets' values, written into host/README.md from the code.

    python -m tools.rules_docs [README]

rewrites the blocks between ``<!-- generated: NAME -->`` and ``<!-- end generated -->``
(``rules-file``, ``presets``) from ``engine.Rules`` and the catalogue's rule fields, the
``[table]`` keys of ``host.settings`` and its presets. A test fails when they are stale.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

from dalmuti_net.engine import Rules
from dalmuti_net.host.settings import (
    MAX_TABLE_SECONDS,
    PRESET_HELP,
    PRESETS,
    TABLE_KEY_RANGES,
    TABLE_KEYS,
    TableSettings,
)
from dalmuti_net.protocol.catalogue import RULES as RULE_FIELDS

from . import REPO_ROOT
from .protocol_docs import BLOCK

README_PATH = REPO_ROOT / "host" / "README.md"


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _type(spec_text: str) -> str:
    """The catalogue's field type in TOML words (nil is a key left out)."""
    if spec_text == "bool":
        return "true or false"
    if spec_text.endswith(" or nil"):
        return _type(spec_text[: -len(" or nil")]) + ", or absent"
    for prefix, word in (("int ", "whole number"), ("number ", "number")):
        if spec_text.startswith(prefix):
            low, high = spec_text[len(prefix) :].split("..")
            return f"{word} {low} to {high}"
    return spec_text


def render_rules_file() -> str:
    defaults = Rules()
    settings = TableSettings()
    lines = ["| Key | Section | Type | Default | Meaning |", "| --- | --- | --- | --- | --- |"]
    for rule in fields(Rules):
        field = RULE_FIELDS.fields[rule.name]
        default = getattr(defaults, rule.name)
        if rule.name == "hand_limit":
            shown = f"none; {Rules(scoring=True).hand_limit} with `scoring`"
        else:
            shown = _value(default)
        kind = _type(field.spec.describe())
        lines.append(f"| `{rule.name}` | `[rules]` | {kind} | {shown} | {field.doc} |")
    for key, meaning in TABLE_KEYS.items():
        default = getattr(settings, key)
        shown = "none" if default is None else f"{default:g}"
        kind = f"seconds, {TABLE_KEY_RANGES.get(key, f'0 to {MAX_TABLE_SECONDS}')}"
        lines.append(f"| `{key}` | `[table]` | {kind} | {shown} | {meaning} |")
    return "\n".join(lines)


def render_presets() -> str:
    names = list(PRESETS)
    lines = [
        "| Rule | " + " | ".join(f"`{name}`" for name in names) + " |",
        "| --- |" + " --- |" * len(names),
    ]
    for rule in fields(Rules):
        values = [_value(getattr(PRESETS[name], rule.name)) for name in names]
        lines.append(f"| `{rule.name}` | " + " | ".join(values) + " |")
    lines.append("| In short | " + " | ".join(PRESET_HELP[name] for name in names) + " |")
    return "\n".join(lines)


RENDERERS: dict[str, Callable[[], str]] = {
    "rules-file": render_rules_file,
    "presets": render_presets,
}


def rewrite(text: str) -> str:
    """``text`` with its rules-file blocks rendered afresh (other blocks are left alone)."""

    def replace(match: Any) -> str:
        renderer = RENDERERS.get(match["name"])
        if renderer is None:
            return str(match[0])
        return f"{match[1]}{renderer()}\n{match[4]}"

    return BLOCK.sub(replace, text)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or any(arg.startswith("-") for arg in args):
        print("usage: python -m tools.rules_docs [README]", file=sys.stderr)
        return 2
    path = Path(args[0]) if args else README_PATH
    text = path.read_text(encoding="utf-8")
    path.write_text(rewrite(text), encoding="utf-8")
    print(f"rewrote the rules-file tables in {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

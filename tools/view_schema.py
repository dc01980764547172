"""The JSON Schema (draft 2020-12) of the web table's page channel, generated from the
client model's typed view and intents.

``$defs`` holds one object per class of the typed view (``client/model/display.py``:
``Display``, ``SeatRow``...), named as the class, and ``intents``: a ``oneOf`` over what
the page may send at the table (``web/view.PAGE_INTENTS``, each ``{"do": name, ...}``,
and ``answer`` by its index). The root is the view, as the page receives it in
``{"view": ...}``. The page's script reads only names this schema holds (a test checks).

``python -m tools.view_schema`` rewrites ``dalmuti_net/web/static/view.schema.json``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from enum import Enum
from typing import Any

from dalmuti_net.client.model import display
from dalmuti_net.web.view import ANSWER, PAGE_INTENTS, intent_fields

from . import REPO_ROOT

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_PATH = REPO_ROOT / "dalmuti_net" / "web" / "static" / "view.schema.json"
JsonSchema = dict[str, Any]


def _type(kind: Any, defs: dict[str, JsonSchema]) -> JsonSchema:
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        options = [_type(option, defs) for option in typing.get_args(kind)]
        return {"anyOf": options}
    if kind is type(None):
        return {"type": "null"}
    if kind is bool:
        return {"type": "boolean"}
    if kind is int:
        return {"type": "integer"}
    if kind is float:
        return {"type": "number"}
    if kind is str:
        return {"type": "string"}
    if kind is Any:
        return {"type": ["boolean", "integer", "number", "string", "null"]}
    if isinstance(kind, type) and issubclass(kind, Enum):
        return {"enum": [member.value for member in kind]}
    if typing.get_origin(kind) is tuple:
        item = typing.get_args(kind)[0]
        return {"type": "array", "items": _type(item, defs)}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        _object(kind, defs)
        return {"$ref": f"#/$defs/{kind.__name__}"}
    raise TypeError(f"no schema for {kind!r}")


def _object(cls: type, defs: dict[str, JsonSchema]) -> None:
    if cls.__name__ in defs:
        return
    defs[cls.__name__] = {}  # (named before its fields: a class may name itself)
    hints = typing.get_type_hints(cls, vars(display))
    properties = {f.name: _type(hints[f.name], defs) for f in dataclasses.fields(cls)}
    schema: JsonSchema = {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
        schema["description"] = " ".join(cls.__doc__.split())
    defs[cls.__name__] = schema


def _intents(defs: dict[str, JsonSchema]) -> JsonSchema:
    options: list[JsonSchema] = [
        {
            "type": "object",
            "properties": {"do": {"const": ANSWER}, "index": {"type": "integer"}},
            "required": ["do", "index"],
            "additionalProperties": False,
        }
    ]
    for name, cls in sorted(PAGE_INTENTS.items()):
        fields = intent_fields(cls)
        properties = {"do": {"const": name}}
        properties |= {key: _type(kind, defs) for key, kind in fields.items()}
        required = ["do"] + [
            f.name
            for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        options.append(
            {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            }
        )
    return {"oneOf": options}


def build() -> JsonSchema:
    defs: dict[str, JsonSchema] = {}
    _object(display.Display, defs)
    defs["intents"] = _intents(defs)
    return {
        "$schema": DRAFT,
        "$id": "urn:dalmuti-net:web-view",
        "title": "The web table's view (host to page) and intents (page to host)",
        "$ref": "#/$defs/Display",
        "$defs": dict(sorted(defs.items())),
    }


def text() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    SCHEMA_PATH.write_text(text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH.relative_to(REPO_ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The JSON Schema (draft 2020-12) of every message, generated from the catalogue.

One document describes the whole protocol. Its ``$defs`` hold:

- one entry per message, named ``<direction>.<type>`` (``client_to_host.hello``), an object
  whose ``type`` property is a constant;
- the named shapes the messages share (``CardSet``, ``Rules``, ``Table``, ``Decision_play``...);
- ``client_to_host`` and ``host_to_client``: a ``oneOf`` over that direction's messages.

The root accepts a message of either direction (``anyOf``: ``heartbeat`` travels both
ways). Objects never set ``additionalProperties``: receivers ignore unknown fields, so a
compatible version may add them. The schema describes the decoded msgpack map in the JSON
data model (msgpack nil is JSON null).

``python -m tools.schema`` rewrites ``protocol/schema.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from dalmuti_net.protocol.catalogue import MESSAGES, PROTOCOL_VERSION, Direction, Message
from dalmuti_net.protocol.spec import (
    Either,
    Field,
    JsonSchema,
    List,
    Nullable,
    Obj,
    Spec,
    Tagged,
    named_objects,
)

from . import REPO_ROOT

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID = f"urn:dalmuti-net:protocol:{PROTOCOL_VERSION}"
SCHEMA_PATH = REPO_ROOT / "protocol" / "schema.json"


def message_def_name(message: Message) -> str:
    return f"{message.direction.value}.{message.name}"


def _render(spec: Spec) -> JsonSchema:
    """``spec`` as a schema, with field descriptions inside unnamed objects."""
    if isinstance(spec, Obj):
        return {"$ref": f"#/$defs/{spec.name}"} if spec.name else _object(spec)
    if isinstance(spec, Nullable):
        return {"anyOf": [_render(spec.inner), {"type": "null"}]}
    if isinstance(spec, Either):
        return {"anyOf": [_render(option) for option in spec.options]}
    if isinstance(spec, List):
        return {**spec.schema(), "items": _render(spec.item)}
    if isinstance(spec, Tagged):
        return {
            "oneOf": [
                _object(option, {spec.tag: {"const": kind}})
                for kind, option in spec.options.items()
            ]
        }
    return spec.schema()


def _property(field: Field) -> JsonSchema:
    return {**_render(field.spec), "description": field.doc}


def _object(obj: Obj, extra: dict[str, JsonSchema] | None = None) -> JsonSchema:
    properties = dict(extra or {})
    properties.update({key: _property(field) for key, field in obj.fields.items()})
    required = [*(extra or {}), *(key for key, field in obj.fields.items() if field.required)]
    return {"type": "object", "properties": properties, "required": required}


def message_schema(message: Message) -> JsonSchema:
    type_property = {"type": {"const": message.name, "description": "The message type."}}
    body: JsonSchema
    if isinstance(message.body, Obj):
        body = _object(message.body, type_property)
    else:
        # A union of named objects (``decision``): the type constant plus one of them.
        body = {
            "type": "object",
            "properties": type_property,
            "required": ["type"],
            "allOf": [_render(message.body)],
        }
    return {"description": message.doc, **body}


def build_schema() -> JsonSchema:
    shapes: dict[str, Obj] = {}
    for message in MESSAGES.values():
        named_objects(message.body, shapes)
    defs: dict[str, JsonSchema] = {}
    for direction in Direction:
        messages = [m for m in MESSAGES.values() if m.direction is direction]
        defs[direction.value] = {
            "description": f"Any message travelling {direction.value.replace('_', ' ')}.",
            "oneOf": [{"$ref": f"#/$defs/{message_def_name(m)}"} for m in messages],
        }
        for message in messages:
            defs[message_def_name(message)] = message_schema(message)
    for name in sorted(shapes):
        defs[name] = _object(shapes[name])
    return {
        "$schema": DRAFT,
        "$id": SCHEMA_ID,
        "title": f"dalmuti-net wire protocol, version {PROTOCOL_VERSION}",
        "description": (
            "One decoded frame body (a msgpack map). Generated from the message catalogue; "
            "PROTOCOL.md is normative."
        ),
        "anyOf": [{"$ref": f"#/$defs/{direction.value}"} for direction in Direction],
        "$defs": defs,
    }


def render_schema() -> str:
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or any(arg.startswith("-") for arg in args):
        print(
            f"usage: python -m {__spec__.name if __spec__ else __name__} [OUT_FILE]",
            file=sys.stderr,
        )
        return 2
    path = Path(args[0]) if args else SCHEMA_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_schema(), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

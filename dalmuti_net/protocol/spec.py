"""A small language for describing message fields: validation and JSON Schema from one source.

Every message in the catalogue is an ``Obj`` of fields; ``validate`` checks hostile input
against it and ``json_schema`` renders it. Unknown fields are allowed and ignored (a
compatible protocol change may add fields), so ``Obj`` never rejects extra keys.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import ErrorCode, ProtocolError
from .text import JSON_PATTERN, first_control

JsonSchema = dict[str, Any]


class Spec:
    """One field type: ``check`` raises ``ProtocolError`` naming the field's path."""

    def check(self, value: Any, path: str) -> None:
        raise NotImplementedError

    def schema(self) -> JsonSchema:
        raise NotImplementedError

    def describe(self) -> str:
        """A short human form for PROTOCOL.md tables."""
        raise NotImplementedError


def _fail(path: str, expected: str, value: Any) -> ProtocolError:
    shown = type(value).__name__ if not isinstance(value, int | str | bool) else repr(value)
    if isinstance(value, str) and len(value) > 20:
        shown = "a string of " + str(len(value)) + " characters"
    return ProtocolError(ErrorCode.BAD_MESSAGE, f"{path}: expected {expected}, got {shown}")


@dataclass(frozen=True)
class Int(Spec):
    minimum: int
    maximum: int

    def check(self, value: Any, path: str) -> None:
        if type(value) is not int or not self.minimum <= value <= self.maximum:
            raise _fail(path, f"an integer from {self.minimum} to {self.maximum}", value)

    def schema(self) -> JsonSchema:
        return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum}

    def describe(self) -> str:
        return f"int {self.minimum}..{self.maximum}"


@dataclass(frozen=True)
class Float(Spec):
    minimum: float
    maximum: float

    def check(self, value: Any, path: str) -> None:
        if type(value) not in (int, float) or not (
            math.isfinite(value) and self.minimum <= value <= self.maximum
        ):
            raise _fail(path, f"a number from {self.minimum} to {self.maximum}", value)

    def schema(self) -> JsonSchema:
        return {"type": "number", "minimum": self.minimum, "maximum": self.maximum}

    def describe(self) -> str:
        return f"number {self.minimum}..{self.maximum}"


@dataclass(frozen=True)
class Bool(Spec):
    def check(self, value: Any, path: str) -> None:
        if type(value) is not bool:
            raise _fail(path, "true or false", value)

    def schema(self) -> JsonSchema:
        return {"type": "boolean"}

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True)
class Str(Spec):
    max_length: int
    min_length: int = 0

    def check(self, value: Any, path: str) -> None:
        if type(value) is not str or not self.min_length <= len(value) <= self.max_length:
            raise _fail(
                path, f"a string of {self.min_length} to {self.max_length} characters", value
            )
        control = first_control(value)
        if control is not None:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"{path}: control character U+{ord(control):04X} not allowed in text",
            )

    def schema(self) -> JsonSchema:
        return {
            "type": "string",
            "minLength": self.min_length,
            "maxLength": self.max_length,
            "not": {"pattern": JSON_PATTERN},
        }

    def describe(self) -> str:
        return f"str {self.min_length}..{self.max_length} chars"


@dataclass(frozen=True)
class Hex(Spec):
    """Exactly ``length`` lowercase hexadecimal digits: a nonce, a seat id, a proof."""

    length: int

    def check(self, value: Any, path: str) -> None:
        if (
            type(value) is not str
            or len(value) != self.length
            or any(char not in _HEX_DIGITS for char in value)
        ):
            raise _fail(path, f"{self.length} lowercase hexadecimal digits", value)

    def schema(self) -> JsonSchema:
        return {"type": "string", "pattern": f"^[0-9a-f]{{{self.length}}}$"}

    def describe(self) -> str:
        return f"hex str of {self.length} chars"


_HEX_DIGITS = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class Enum(Spec):
    values: tuple[str, ...]

    def check(self, value: Any, path: str) -> None:
        if type(value) is not str or value not in self.values:
            raise _fail(path, "one of " + ", ".join(repr(v) for v in self.values), value)

    def schema(self) -> JsonSchema:
        return {"type": "string", "enum": list(self.values)}

    def describe(self) -> str:
        return " \\| ".join(f'"{v}"' for v in self.values)


CODE_PATTERN = "^[a-z][a-z0-9_]{0,39}$"
_CODE = re.compile(CODE_PATTERN)


@dataclass(frozen=True)
class Codes(Enum):
    """The codes of an enumeration only the host sends, to which a compatible change may
    add (PROTOCOL.md, Versions and compatibility): the documented ones, or a later code of
    the same shape, which a client takes as it is told to (an error by its ``fatal``)."""

    def check(self, value: Any, path: str) -> None:
        if type(value) is not str or (value not in self.values and not _CODE.fullmatch(value)):
            raise _fail(path, "a code (one of " + ", ".join(self.values) + ", or later)", value)

    def schema(self) -> JsonSchema:
        return {"type": "string", "anyOf": [{"enum": list(self.values)}, {"pattern": CODE_PATTERN}]}


@dataclass(frozen=True)
class Nullable(Spec):
    inner: Spec

    def check(self, value: Any, path: str) -> None:
        if value is not None:
            self.inner.check(value, path)

    def schema(self) -> JsonSchema:
        return {"anyOf": [self.inner.schema(), {"type": "null"}]}

    def describe(self) -> str:
        return f"{self.inner.describe()} or nil"


@dataclass(frozen=True)
class Either(Spec):
    options: tuple[Spec, ...]

    def check(self, value: Any, path: str) -> None:
        for option in self.options:
            try:
                option.check(value, path)
            except ProtocolError:
                continue
            return
        raise _fail(path, " or ".join(o.describe() for o in self.options), value)

    def schema(self) -> JsonSchema:
        return {"anyOf": [option.schema() for option in self.options]}

    def describe(self) -> str:
        return " or ".join(option.describe() for option in self.options)


@dataclass(frozen=True)
class List(Spec):
    item: Spec
    max_items: int
    min_items: int = 0

    def check(self, value: Any, path: str) -> None:
        if type(value) is not list or not self.min_items <= len(value) <= self.max_items:
            raise _fail(path, f"a list of {self.min_items} to {self.max_items} items", value)
        for index, item in enumerate(value):
            self.item.check(item, f"{path}[{index}]")

    def schema(self) -> JsonSchema:
        return {
            "type": "array",
            "items": self.item.schema(),
            "minItems": self.min_items,
            "maxItems": self.max_items,
        }

    def describe(self) -> str:
        return f"list of ({self.item.describe()}), at most {self.max_items}"


@dataclass(frozen=True)
class Tagged(Spec):
    """A map whose ``tag`` field names which of ``options`` it is, checked against that
    one (the events a snapshot carries: ``{"type": "played", ...}``)."""

    tag: str
    options: dict[str, Obj]
    name: str

    def check(self, value: Any, path: str) -> None:
        if type(value) is not dict:
            raise _fail(path, "a map", value)
        kind = value.get(self.tag)
        option = self.options.get(kind) if type(kind) is str else None
        if option is None:
            raise _fail(f"{path}.{self.tag}", f"the {self.tag} of a known {self.name}", kind)
        option.check(value, path)

    def schema(self) -> JsonSchema:
        options = []
        for kind, option in self.options.items():
            body = option.object_schema()
            body["properties"] = {self.tag: {"const": kind}, **body["properties"]}
            body["required"] = [self.tag, *body["required"]]
            options.append(body)
        return {"oneOf": options}

    def describe(self) -> str:
        return self.name


@dataclass(frozen=True)
class Field:
    spec: Spec
    doc: str
    required: bool = True


@dataclass(frozen=True)
class Obj(Spec):
    fields: dict[str, Field] = field(default_factory=dict)
    name: str = ""
    """A named object is documented once and referenced by name in tables and schema."""

    def check(self, value: Any, path: str) -> None:
        if type(value) is not dict:
            raise _fail(path, "a map", value)
        for key, spec in self.fields.items():
            if key in value:
                spec.spec.check(value[key], f"{path}.{key}" if path else key)
            elif spec.required:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE, f"{path + '.' if path else ''}{key}: missing"
                )

    def schema(self) -> JsonSchema:
        if self.name:
            return {"$ref": f"#/$defs/{self.name}"}
        return self.object_schema()

    def object_schema(self) -> JsonSchema:
        return {
            "type": "object",
            "properties": {key: f.spec.schema() for key, f in self.fields.items()},
            "required": [key for key, f in self.fields.items() if f.required],
        }

    def describe(self) -> str:
        return self.name or "map"


def named_objects(spec: Spec, found: dict[str, Obj] | None = None) -> dict[str, Obj]:
    """Every named object used inside ``spec``, for the schema's ``$defs``."""
    found = {} if found is None else found
    if isinstance(spec, Obj):
        if spec.name and spec.name not in found:
            found[spec.name] = spec
        for f in spec.fields.values():
            named_objects(f.spec, found)
    elif isinstance(spec, Nullable):
        named_objects(spec.inner, found)
    elif isinstance(spec, List):
        named_objects(spec.item, found)
    elif isinstance(spec, Either):
        for option in spec.options:
            named_objects(option, found)
    return found

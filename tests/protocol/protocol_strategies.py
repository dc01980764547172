"""Hypothesis strategies that build valid messages straight from the catalogue's specs."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from dalmuti_net.protocol.catalogue import Message
from dalmuti_net.protocol.spec import (
    Bool,
    Either,
    Enum,
    Float,
    Hex,
    Int,
    List,
    Nullable,
    Obj,
    Spec,
    Str,
    Tagged,
)

MAX_LIST = 5
"""Long enough to exercise lists, short enough to keep frames small and tests fast."""

TEXT = st.characters(
    exclude_categories=("Cc", "Cs"),
    exclude_characters="\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069",
)
"""Every character a str may hold (dalmuti_net/protocol/text.py)."""


def values(spec: Spec) -> st.SearchStrategy[Any]:
    if isinstance(spec, Int):
        return st.integers(spec.minimum, spec.maximum)
    if isinstance(spec, Float):
        return st.floats(spec.minimum, spec.maximum, allow_nan=False, allow_infinity=False)
    if isinstance(spec, Bool):
        return st.booleans()
    if isinstance(spec, Str):
        return st.text(TEXT, min_size=spec.min_length, max_size=min(spec.max_length, 40))
    if isinstance(spec, Hex):
        return st.text("0123456789abcdef", min_size=spec.length, max_size=spec.length)
    if isinstance(spec, Enum):
        return st.sampled_from([str(v) for v in spec.values])
    if isinstance(spec, Nullable):
        return st.none() | values(spec.inner)
    if isinstance(spec, Either):
        return st.one_of([values(option) for option in spec.options])
    if isinstance(spec, List):
        most = min(spec.max_items, max(spec.min_items, MAX_LIST))
        return st.lists(values(spec.item), min_size=spec.min_items, max_size=most)
    if isinstance(spec, Tagged):
        return st.one_of(
            [
                values(option).map(lambda body, kind=kind: {spec.tag: kind, **body})
                for kind, option in spec.options.items()
            ]
        )
    if isinstance(spec, Obj):
        required = {k: values(f.spec) for k, f in spec.fields.items() if f.required}
        optional = {k: values(f.spec) for k, f in spec.fields.items() if not f.required}
        return st.fixed_dictionaries(required, optional=optional)
    raise TypeError(spec)


def messages(message: Message) -> st.SearchStrategy[dict[str, Any]]:
    return values(message.body).map(lambda body: {"type": message.name, **body})

"""The protocol's generated documents.

- ``protocol/REFERENCE.md`` is generated whole: every message's field table, example and
  hex dump, the shared shapes and every decision kind, from the catalogue (the same
  objects the host validates against) and the examples (bytes from the codec).
- ``PROTOCOL.md`` (the normative text) and ``protocol/WALKTHROUGH.md`` (a worked hand) are
  written by hand except for blocks between ``<!-- generated: NAME -->`` and
  ``<!-- end generated -->``, rendered from the catalogue, the example bot and the
  transcripts recorded from the host.

``python -m tools.protocol_docs`` writes all three.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dalmuti_net.protocol import codec, text
from dalmuti_net.protocol.catalogue import (
    DECISION_KINDS,
    MAX_CHAT_CHARS,
    MAX_CODE_CHARS,
    MAX_FRAME_BYTES,
    MAX_NAME_CHARS,
    MAX_TABLE_NAME_CHARS,
    MAX_TOKEN_CHARS,
    MESSAGES,
    PROTOCOL_VERSION,
    Direction,
    Message,
)
from dalmuti_net.protocol.errors import DESCRIPTIONS, FATAL_CODES, FATAL_WHEN, ErrorCode
from dalmuti_net.protocol.spec import (
    Bool,
    Codes,
    Either,
    Enum,
    Field,
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

from . import REPO_ROOT
from .examples import DECISIONS, EXAMPLES, Example

PROTOCOL_PATH = REPO_ROOT / "PROTOCOL.md"
REFERENCE_PATH = REPO_ROOT / "protocol" / "REFERENCE.md"
WALKTHROUGH_PATH = REPO_ROOT / "protocol" / "WALKTHROUGH.md"
COMMAND = "python -m tools.protocol_docs"
EXAMPLE_BOT_PATH = REPO_ROOT / "protocol" / "example_bot.py"
TRANSCRIPTS_DIR = REPO_ROOT / "protocol" / "transcripts"

BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z0-9-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)",
    re.DOTALL,
)

ARROW = {Direction.TO_HOST: "client → host", Direction.TO_CLIENT: "host → client"}

GROUPS: dict[str, list[tuple[Direction, str]]] = {
    "session": [
        (Direction.TO_HOST, "about"),
        (Direction.TO_CLIENT, "about"),
        (Direction.TO_HOST, "hello"),
        (Direction.TO_CLIENT, "challenge"),
        (Direction.TO_HOST, "prove"),
        (Direction.TO_CLIENT, "welcome"),
        (Direction.TO_CLIENT, "error"),
        (Direction.TO_CLIENT, "ack"),
        (Direction.TO_HOST, "heartbeat"),
        (Direction.TO_CLIENT, "heartbeat"),
        (Direction.TO_HOST, "goodbye"),
        (Direction.TO_CLIENT, "goodbye"),
        (Direction.TO_HOST, "snapshot_request"),
        (Direction.TO_CLIENT, "snapshot"),
    ],
    "lobby": [
        (Direction.TO_CLIENT, "table"),
        (Direction.TO_HOST, "ready"),
        (Direction.TO_HOST, "start"),
        (Direction.TO_HOST, "add_bot"),
        (Direction.TO_HOST, "remove_bot"),
        (Direction.TO_HOST, "set_rules"),
        (Direction.TO_HOST, "set_timing"),
        (Direction.TO_HOST, "kick"),
        (Direction.TO_HOST, "end_table"),
        (Direction.TO_HOST, "rematch"),
        (Direction.TO_HOST, "leave"),
        (Direction.TO_HOST, "chat"),
        (Direction.TO_CLIENT, "chat"),
    ],
    "answers": [
        (Direction.TO_CLIENT, "decision"),
        (Direction.TO_CLIENT, "timers"),
        (Direction.TO_CLIENT, "moved_for"),
        (Direction.TO_HOST, "nudge"),
        (Direction.TO_HOST, "skip"),
        (Direction.TO_CLIENT, "nudged"),
        (Direction.TO_HOST, "play"),
        (Direction.TO_HOST, "pass"),
        (Direction.TO_HOST, "revolution"),
        (Direction.TO_HOST, "tax"),
        (Direction.TO_HOST, "exchange"),
        (Direction.TO_HOST, "misdeal"),
        (Direction.TO_HOST, "place"),
    ],
    "events": [(m.direction, m.name) for m in MESSAGES.values() if m.is_event],
}

HEX_BYTES_SHOWN = 256
"""Longer frames are shown up to here; the full bytes are in protocol/vectors."""


# ---------------------------------------------------------------------- small pieces


def message_heading(direction: Direction, name: str) -> str:
    return f"### `{name}` ({ARROW[direction]})"


def message_link(direction: Direction, name: str) -> str:
    """A link from PROTOCOL.md to a message's section of REFERENCE.md."""
    return f"protocol/REFERENCE.md#{anchor(message_heading(direction, name).lstrip('# '))}"


def anchor(title: str) -> str:
    """The GitHub-style anchor of a markdown heading."""
    text = re.sub(r"[^\w\- ]", "", title.lower())
    return text.replace(" ", "-")


def describe(spec: Spec) -> str:
    """A field's type in a table cell; named shapes link to their section."""
    if isinstance(spec, Obj):
        return f"[{spec.name}](#{anchor(spec.name)})" if spec.name else "map (rows below)"
    if isinstance(spec, Nullable):
        return f"{describe(spec.inner)} or nil"
    if isinstance(spec, List):
        if spec.min_items == spec.max_items:
            size = f"exactly {spec.max_items}"
        else:
            size = f"{spec.min_items}..{spec.max_items}"
        return f"list ({size}) of {describe(spec.item)}"
    if isinstance(spec, Either):
        if all(isinstance(o, Obj) and o.name.startswith("Decision_") for o in spec.options):
            return "[Decision](#decision-kinds)"
        return " or ".join(describe(option) for option in spec.options)
    if isinstance(spec, Tagged):
        return "an [event](#events) without `seq`"
    if isinstance(spec, Codes):
        return " \\| ".join(f'`"{value}"`' for value in spec.values) + " \\| a later code"
    if isinstance(spec, Enum):
        return " \\| ".join(f'`"{value}"`' for value in spec.values)
    if isinstance(spec, Int):
        return f"int {spec.minimum}..{spec.maximum}"
    if isinstance(spec, Float):
        return f"float {spec.minimum}..{spec.maximum}"
    if isinstance(spec, Str):
        return f"str {spec.min_length}..{spec.max_length} chars"
    if isinstance(spec, Hex):
        return f"hex str of exactly {spec.length} chars (`0-9a-f`)"
    if isinstance(spec, Bool):
        return "bool"
    raise TypeError(f"no description for {spec!r}")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _nested_object(spec: Spec) -> tuple[Obj, str] | None:
    """An unnamed object inside ``spec`` (whose fields get rows of their own)."""
    suffix = ""
    while isinstance(spec, Nullable | List):
        if isinstance(spec, List):
            suffix += "[]"
            spec = spec.item
        else:
            spec = spec.inner
    if isinstance(spec, Obj) and not spec.name:
        return spec, suffix
    return None


def field_rows(fields: dict[str, Field], prefix: str = "") -> list[str]:
    rows = []
    for key, field in fields.items():
        required = "yes" if field.required else "no"
        rows.append(
            f"| `{prefix}{key}` | {describe(field.spec)} | {required} | {_cell(field.doc)} |"
        )
        nested = _nested_object(field.spec)
        if nested is not None:
            obj, suffix = nested
            rows.extend(field_rows(obj.fields, f"{prefix}{key}{suffix}."))
    return rows


def field_table(fields: dict[str, Field], type_value: str | None = None) -> str:
    lines = ["| Field | Type | Required | Meaning |", "| --- | --- | --- | --- |"]
    if type_value is not None:
        lines.append(f'| `type` | `"{type_value}"` | yes | The message type. |')
    lines.extend(field_rows(fields))
    return "\n".join(lines)


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def pretty_json(value: Any, indent: int = 0, width: int = 88) -> str:
    """JSON that keeps short lists and maps on one line."""
    text = compact_json(value)
    if len(text) + indent <= width or not isinstance(value, dict | list) or not value:
        return text
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{inner}{json.dumps(key)}: {pretty_json(item, indent + 2, width)}"
            for key, item in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{inner}{pretty_json(item, indent + 2, width)}" for item in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def hex_dump(frame: bytes, limit: int = HEX_BYTES_SHOWN) -> str:
    shown = frame[:limit]
    lines = [shown[i : i + 16].hex(" ") for i in range(0, len(shown), 16)]
    if len(frame) > limit:
        lines.append(f"... ({len(frame)} bytes in all)")
    return "\n".join(lines)


def example_block(item: Example) -> str:
    frame = codec.encode(item.message)
    where = f"vectors/{item.direction.value}/{item.key}.json"  # beside REFERENCE.md
    return (
        f"Example, {_linked_source(item.source)} ([golden frame]({where}),"
        f" {len(frame)} bytes with the header):\n\n"
        f"```json\n{pretty_json(item.message)}\n```\n\n"
        f"```text\n{hex_dump(frame)}\n```"
    )


def _linked_source(source: str) -> str:
    """ "recorded from the host: transcripts/X.jsonl, line N" with the file linked."""
    return re.sub(r"(transcripts/[\w.]+\.jsonl)", r"[\1](\1)", source)


def _examples_for(direction: Direction, name: str) -> list[Example]:
    return [e for e in EXAMPLES if e.direction is direction and e.message["type"] == name]


# ---------------------------------------------------------------------- blocks


def render_message(direction: Direction, name: str) -> str:
    message: Message = MESSAGES[(direction, name)]
    parts = [message_heading(direction, name), "", message.doc, ""]
    if isinstance(message.body, Obj):
        parts.append(field_table(message.body.fields, name))
    else:
        kinds = describe(Enum(tuple(DECISION_KINDS)))
        parts.append(
            "\n".join(
                [
                    field_table({}, name),
                    f"| `kind` | {kinds} | yes | Which decision; the other fields depend on it. |",
                    "| (per kind) | | | See [Decision kinds](#decision-kinds). |",
                ]
            )
        )
    # Every decision kind has its example under Decision kinds; show one here.
    shown = _examples_for(direction, name)
    for item in shown[:1] if name == "decision" else shown:
        parts += ["", example_block(item)]
    return "\n".join(parts)


def render_group(group: str) -> str:
    return "\n\n".join(render_message(direction, name) for direction, name in GROUPS[group])


def render_shapes() -> str:
    from dalmuti_net.protocol.spec import named_objects

    shapes: dict[str, Obj] = {}
    for message in MESSAGES.values():
        named_objects(message.body, shapes)
    parts = []
    for name, obj in shapes.items():
        if name.startswith("Decision_"):
            continue
        parts.append(f"### {name}\n\n{field_table(obj.fields)}")
    return "\n\n".join(parts)


def decision_shapes() -> dict[str, Obj]:
    """Each decision kind's own shape, as the catalogue validates a `decision` message."""
    decision = MESSAGES[(Direction.TO_CLIENT, "decision")].body
    assert isinstance(decision, Either)
    shapes = {}
    for option in decision.options:
        assert isinstance(option, Obj)
        kind = option.fields["kind"].spec
        assert isinstance(kind, Enum) and len(kind.values) == 1
        shapes[kind.values[0]] = option
    assert list(shapes) == list(DECISION_KINDS), "a decision kind without its shape"
    return shapes


def render_decisions() -> str:
    parts = []
    for kind, shape in decision_shapes().items():
        doc = DECISION_KINDS[kind][0]
        table = field_table(shape.fields, "decision")
        example = next(e for e in EXAMPLES if e.key == f"decision.{kind}")
        assert example.message["kind"] == kind == DECISIONS[kind]["kind"]
        parts.append(f"### Decision `{kind}`\n\n{doc}\n\n{table}\n\n{example_block(example)}")
    return "\n\n".join(parts)


def render_error_codes() -> str:
    lines = ["| Code | Closes the connection | Meaning |", "| --- | --- | --- |"]
    for code in ErrorCode:
        closes = "yes" if code in FATAL_CODES else "no"
        if code in FATAL_WHEN:
            closes = f"yes {FATAL_WHEN[code]}, else no"
        lines.append(f"| `{code}` | {closes} | {_cell(DESCRIPTIONS[code])} |")
    return "\n".join(lines)


def render_limits() -> str:
    limits = codec._LIMITS
    rows = [
        ("Frame body", f"at most {MAX_FRAME_BYTES} bytes (64 KiB), refused from the header"),
        ("msgpack str", f"at most {limits['max_str_len']} bytes each"),
        ("msgpack bin, ext", "not allowed (any bin or ext value is a `bad_frame`)"),
        ("msgpack array", f"at most {limits['max_array_len']} items each"),
        ("msgpack map", f"at most {limits['max_map_len']} entries each; keys are strings"),
        (
            "Nesting",
            f"at most {codec.MAX_DEPTH} levels, counting the message map as level 1 "
            "(every value, scalars too, sits at a level)",
        ),
        (
            "Characters in any str",
            f"none of {text.REFUSED} (a `bad_message`); emoji sequences with the "
            "zero-width joiner are fine",
        ),
        ("Player name", f"1..{MAX_NAME_CHARS} characters"),
        ("Table name", f"0..{MAX_TABLE_NAME_CHARS} characters"),
        ("Chat text", f"1..{MAX_CHAT_CHARS} characters"),
        ("Resume token", f"1..{MAX_TOKEN_CHARS} characters"),
        ("Join code", f"0..{MAX_CODE_CHARS} characters"),
        ("Request `id`", "int 0..2147483647 or str of at most 64 characters"),
    ]
    lines = ["| Limit | Value |", "| --- | --- |"]
    lines += [f"| {name} | {value} |" for name, value in rows]
    return "\n".join(lines)


def render_example_bot() -> str:
    source = EXAMPLE_BOT_PATH.read_text(encoding="utf-8").rstrip("\n")
    return f"```python\n{source}\n```"


def render_conformance_cases() -> str:
    """Each section of this document and the conformance cases that hold it."""
    from dalmuti_net.conformance.cases import all_cases
    from dalmuti_net.conformance.registry import NOT_HELD, SECTIONS

    cases = all_cases()
    lines = ["| Section | Conformance cases |", "| --- | --- |"]
    for section in SECTIONS:
        ids = sorted(c.id for c in cases if c.section == section)
        if ids:
            lines.append(
                f"| [{section}](#{anchor(section)}) | {', '.join(f'`{i}`' for i in ids)} |"
            )
    lines.append("")
    lines.append(f"{len(cases)} cases in all. No case holds these sections:")
    lines.append("")
    lines.extend(f"- [{section}](#{anchor(section)}): {why}." for section, why in NOT_HELD.items())
    return "\n".join(lines)


# ---------------------------------------------------------------------- a hand, from a transcript

PLAY_SHOWN = 14
SEQUENCE_LINE_CHARS = 150
SHORT_VALUE_CHARS = 24
"""In a shortened message, values up to this long are still shown."""
END_SHOWN = 10


def _transcript_lines(name: str) -> list[dict[str, Any]]:
    path = TRANSCRIPTS_DIR / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _sequence_line(entry: dict[str, Any]) -> str:
    message = dict(entry["message"])
    arrow = "→" if entry["from"] == "client" else "←"
    kind = message.pop("type")
    seq = message.pop("seq", None)
    label = f"{kind} #{seq}" if seq is not None else kind
    body = compact_json(message)
    if len(body) > SEQUENCE_LINE_CHARS:  # long values give way; short ones stay readable
        body = (
            "{"
            + ", ".join(
                f"{json.dumps(key)}: "
                + (shown if len(shown := compact_json(value)) <= SHORT_VALUE_CHARS else "...")
                for key, value in message.items()
            )
            + "}"
        )
    return f"{arrow} {label} {body}"


def render_hand_sequence() -> str:
    """One seat's whole hand with a misdeal and a merchant exchange, from the transcript."""
    game = json.loads((TRANSCRIPTS_DIR / "game.json").read_text(encoding="utf-8"))
    hand = game["sequence_hand"]
    entries = _transcript_lines(game["sequence_seat"])
    start = next(
        i
        for i, e in enumerate(entries)
        if e["message"].get("type") == "hand_started" and e["message"]["hand"] == hand
    )
    end = next(
        i for i, e in enumerate(entries) if i > start and e["message"].get("type") == "hand_ended"
    )
    hand_entries = entries[start : end + 1]
    first_play = next(i for i, e in enumerate(hand_entries) if e["message"].get("type") == "played")
    head = hand_entries[: first_play + PLAY_SHOWN]
    tail = hand_entries[-END_SHOWN:]
    skipped = len(hand_entries) - len(head) - len(tail)
    lines = [_sequence_line(e) for e in head]
    if skipped > 0:
        lines.append(f"   ... {skipped} more messages of play ...")
        lines += [_sequence_line(e) for e in tail]
    else:
        lines = [_sequence_line(e) for e in hand_entries]
    return f"```text\n{chr(10).join(lines)}\n```"


def _game() -> dict[str, Any]:
    game: dict[str, Any] = json.loads((TRANSCRIPTS_DIR / "game.json").read_text(encoding="utf-8"))
    return game


def _find(entries: list[dict[str, Any]], start: int, kind: str, **fields: Any) -> int:
    """The index of the first message of type ``kind`` (with ``fields``) from ``start``."""
    return next(
        i
        for i in range(start, len(entries))
        if entries[i]["message"].get("type") == kind
        and all(entries[i]["message"].get(k) == v for k, v in fields.items())
    )


def _excerpt(entries: list[dict[str, Any]]) -> list[str]:
    return [_sequence_line(e) for e in entries if e["message"].get("type") != "heartbeat"]


def _text_block(lines: list[str]) -> str:
    return f"```text\n{chr(10).join(lines)}\n```"


def render_misdeal_sequence() -> str:
    """The misdeal of the hand-sequence hand, as the Greater Dalmuti who decided it and
    the Greater Peon who dealt it received it, from the exposed card to the deal's end."""
    game = _game()
    lines: list[str] = []
    for role, seat in (("Greater Dalmuti", "decider"), ("Greater Peon", "peon")):
        name = game["misdeal"][seat]
        entries = _transcript_lines(name)
        start = _find(entries, 0, "hand_started", hand=game["sequence_hand"])
        first = _find(entries, start, "misdeal_exposed")
        last = _find(entries, first, "deal_finished")
        lines.append(f"# {name}, the {role}:")
        lines += _excerpt(entries[first : last + 1])
    return _text_block(lines)


def render_newcomer_sequence() -> str:
    """A newcomer joining during a hand, as the newcomer received it, and its placement by
    the next hand's Greater Dalmuti, from the hand's end to the next hand's start."""
    scenes = _game()["scenes"]
    newcomer, decider, hand = (
        scenes["newcomer"],
        scenes["placement"]["seat"],
        scenes["placement"]["hand"],
    )
    joined = _transcript_lines(newcomer)
    lines = [f"# {newcomer}, who joins during hand {hand - 1}:"]
    lines += _excerpt(joined[: _find(joined, 0, "snapshot") + 1])
    ended = _find(joined, 0, "hand_ended", hand=hand - 1)
    lines.append(f"# ... the rest of hand {hand - 1} (left out here), then its end:")
    lines += _excerpt(joined[ended : _find(joined, ended, "table") + 1])
    entries = _transcript_lines(decider)
    first = _find(entries, 0, "hand_ended", hand=hand - 1)
    last = _find(entries, first, "hand_started", hand=hand)
    lines.append(f"# {decider}, the Greater Dalmuti of hand {hand}, who seats {newcomer}:")
    lines += _excerpt(entries[first : last + 1])
    return _text_block(lines)


def render_greater_revolution_sequence() -> str:
    """A Greater Revolution, as the Greater Peon who declared it received and sent it."""
    scenes = _game()["scenes"]
    name, hand = scenes["greater_revolution"]["seat"], scenes["greater_revolution"]["hand"]
    entries = _transcript_lines(name)
    start = _find(entries, 0, "hand_started", hand=hand)
    last = _find(entries, start, "played")
    return _text_block(_excerpt(entries[start : last + 1]))


def render_timer_sequence() -> str:
    """A turn timer running out, as the seat on turn and a spectator arriving meanwhile
    received it, from the third recorded game (played through the host's server)."""
    scene = _game()["timers"]
    seat, spectator = scene["players"][0], scene["spectator"]
    entries = _transcript_lines(seat)
    moved = _find(entries, 0, "moved_for")
    first = max(i for i in range(moved) if entries[i]["message"].get("type") == "decision")
    lines = [f"# {seat}, who leads and lets the turn timer answer:"]
    lines += _excerpt(entries[first : _find(entries, moved, "played") + 1])
    watched = _transcript_lines(spectator)
    moved = _find(watched, 0, "moved_for")
    lines.append(f"# {spectator}, a spectator arriving while the timer runs:")
    lines += _excerpt(watched[: _find(watched, moved, "timers") + 1])
    return _text_block(lines)


def render_stdio_transcript() -> str:
    """What `dalmuti bot --exec` writes to a program and what the program answers: a
    seat's first decisions in the recorded game, and the table's end."""
    path = TRANSCRIPTS_DIR / "stdio.jsonl"
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(raw)
        lines.append(("to program:   " if "to" in entry else "from program: ") + entry["line"])
    return _text_block(lines)


GROUP_TITLES = {
    "session": "Session",
    "lobby": "Lobby and table",
    "answers": "Decisions and answers",
    "events": "Events",
}

GROUP_INTROS = {
    "session": "Connecting, replies, heartbeats, leaving, snapshots.",
    "lobby": "The table's state and the requests that change it (most only the host player's).",
    "answers": "What a seat owes and how it answers; countdowns; moves made for a seat.",
    "events": (
        "Every event carries `seq` (PROTOCOL.md, Numbering and resumes). Who is sent each one"
        " is in PROTOCOL.md, Secrecy."
    ),
}


def render_reference() -> str:
    """protocol/REFERENCE.md, whole."""
    contents = [f"- [{title}](#{anchor(title)})" for title in GROUP_TITLES.values()]
    contents += ["- [Shared shapes](#shared-shapes)", "- [Decision kinds](#decision-kinds)"]
    parts = [
        f"<!-- Generated by `{COMMAND}` from dalmuti_net/protocol/catalogue.py and"
        " tools/examples.py (its examples recorded from the host where the transcripts hold"
        " them): do not edit; change those and run the command. -->",
        "",
        f"# dalmuti-net protocol reference, version {PROTOCOL_VERSION}",
        "",
        "Every message's fields, an example of each and its bytes, the shapes messages share"
        " and every decision kind, generated from the message catalogue the host validates"
        " against. [PROTOCOL.md](../PROTOCOL.md) is the normative text: what the messages"
        " mean, when they are sent, and what each side MUST do; its limits and error codes"
        " are generated from the same catalogue.",
        "",
        "Each message is a msgpack map; its `type` key names it. `Required: no` marks an"
        " optional field, which a sender MAY leave out; `or nil` marks a field that is always"
        " present but may be nil. Every message from the client MAY carry `id`; the host's"
        " `ack` and `error` carry it back as `re`. Lengths of strings are in characters"
        " (code points). The examples are shown as JSON (nil as `null`); the bytes are the"
        " frame with its 4-byte length, and every example is also a golden frame in"
        " [vectors/](vectors/). Each example says where it comes from: recorded from the"
        " host in a game of [transcripts/](transcripts/), or, for what those games never"
        " send, written by hand.",
        "",
        *contents,
    ]
    for group, title in GROUP_TITLES.items():
        parts += ["", f"## {title}", "", GROUP_INTROS[group], "", render_group(group)]
    parts += ["", "## Shared shapes", "", render_shapes()]
    parts += [
        "",
        "## Decision kinds",
        "",
        "The fields of a `decision` message (and of a snapshot's `decision`) for each `kind`.",
        "",
        render_decisions(),
    ]
    return "\n".join(parts) + "\n"


def render_unnumbered() -> str:
    """The host's messages that are not events (no ``seq`` of their own to count)."""
    names = [
        name
        for (direction, name), message in MESSAGES.items()
        if direction is Direction.TO_CLIENT and not message.is_event and name != "snapshot"
    ]
    return ", ".join(f"`{name}`" for name in names)


RENDERERS: dict[str, Callable[[], str]] = {
    "limits": render_limits,
    "unnumbered": render_unnumbered,
    "error-codes": render_error_codes,
    "example-bot": render_example_bot,
    "conformance-cases": render_conformance_cases,
    "hand-sequence": render_hand_sequence,
    "misdeal-sequence": render_misdeal_sequence,
    "newcomer-sequence": render_newcomer_sequence,
    "greater-revolution-sequence": render_greater_revolution_sequence,
    "timer-sequence": render_timer_sequence,
    "stdio-transcript": render_stdio_transcript,
}

PAGES: dict[Path, tuple[str, ...]] = {
    PROTOCOL_PATH: ("limits", "error-codes", "unnumbered", "example-bot", "conformance-cases"),
    WALKTHROUGH_PATH: (
        "hand-sequence",
        "misdeal-sequence",
        "newcomer-sequence",
        "greater-revolution-sequence",
        "timer-sequence",
        "stdio-transcript",
    ),
}
"""The hand-written pages and the generated blocks each holds."""


def render_block(name: str) -> str:
    renderer = RENDERERS.get(name)
    if renderer is None:
        raise KeyError(f"a page has a generated block {name!r} that nothing renders")
    return renderer()


def blocks(text: str) -> dict[str, str]:
    """The generated blocks in ``text``, by name (their bodies without the markers)."""
    found: dict[str, str] = {}
    for match in BLOCK.finditer(text):
        name = match["name"]
        if name in found:
            raise ValueError(f"generated block {name!r} appears twice")
        found[name] = match["body"]
    return found


def rewrite(text: str) -> str:
    """``text`` with every generated block rendered afresh."""

    def replace(match: re.Match[str]) -> str:
        body = render_block(match["name"])
        return f"{match[1]}{body}\n{match[4]}"

    return BLOCK.sub(replace, text)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args:
        print(f"usage: {COMMAND}", file=sys.stderr)
        return 2
    for path, names in PAGES.items():
        text = path.read_text(encoding="utf-8")
        found = set(blocks(text))
        if found != set(names):
            print(
                f"{path.relative_to(REPO_ROOT)} must hold exactly the blocks"
                f" {', '.join(names)}; it holds {', '.join(sorted(found)) or 'none'}",
                file=sys.stderr,
            )
            return 1
        path.write_text(rewrite(text), encoding="utf-8")
        print(f"rewrote {len(found)} generated blocks in {path.relative_to(REPO_ROOT)}")
    REFERENCE_PATH.write_text(render_reference(), encoding="utf-8")
    print(f"wrote {REFERENCE_PATH.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

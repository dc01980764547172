"""The protocol kit stays in step with the catalogue: schema, golden frames, PROTOCOL.md."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import jsonschema
import pytest

from dalmuti_net.protocol import codec
from dalmuti_net.protocol.catalogue import DEFAULT_PORT, MESSAGES, Direction
from dalmuti_net.protocol.errors import ErrorCode
from dalmuti_net.protocol.framing import FrameReader
from tools import protocol_docs as docs
from tools import schema, vectors
from tools.examples import EXAMPLES, Example

ROOT = schema.REPO_ROOT
VECTOR_FILES = sorted((ROOT / "protocol" / "vectors").glob("*/*.json"))


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    document = json.loads(schema.SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(document)


# ------------------------------------------------------------------ schema


def test_committed_schema_is_fresh() -> None:
    committed = schema.SCHEMA_PATH.read_text(encoding="utf-8")
    assert committed == schema.render_schema(), (
        "protocol/schema.json is stale: run `python -m tools.schema`"
    )


def test_schema_is_valid_draft_2020_12_and_names_every_message() -> None:
    document = schema.build_schema()
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for direction, name in MESSAGES:
        definition = document["$defs"][f"{direction.value}.{name}"]
        assert definition["properties"]["type"] == {
            "const": name,
            "description": "The message type.",
        }
        reference = {"$ref": f"#/$defs/{direction.value}.{name}"}
        assert reference in document["$defs"][direction.value]["oneOf"]


@functools.cache
def _direction_validator(direction: Direction) -> jsonschema.Draft202012Validator:
    document = json.loads(schema.SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(
        {**document, "anyOf": [{"$ref": f"#/$defs/{direction.value}"}]}
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.direction.value}/{e.key}")
def test_every_example_is_valid_for_its_direction_in_the_schema(example: Example) -> None:
    _direction_validator(example.direction).validate(example.message)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "hello", "version": 1, "name": "", "role": "player"},
        {"type": "hello", "version": 1, "name": "Ana", "role": "dealer"},
        {"type": "play", "set": {"rank": 14, "count": 1, "jesters": 0}},
        {"type": "tax", "cards": [1, 2, 3]},
        {"type": "chat", "text": "x" * 501},
        {"type": "decision", "kind": "play", "sets": [], "may_pass": "yes", "to_beat": None},
        {"type": "nonsense"},
        {"version": 1},
    ],
)
def test_schema_rejects_what_the_codec_rejects(message: dict[str, object]) -> None:
    assert not _validator().is_valid(message)
    direction = Direction.TO_CLIENT if message.get("type") == "decision" else Direction.TO_HOST
    with pytest.raises(codec.ProtocolError):
        codec.validate(message, direction)


# ------------------------------------------------------------------ golden frames


def test_committed_vectors_are_fresh(tmp_path: Path) -> None:
    expected = vectors.rendered_vectors(vectors.VECTORS_DIR)
    assert sorted(expected) == VECTOR_FILES, (
        "protocol/vectors has missing or extra files: run `python -m tools.vectors`"
    )
    for path, text in expected.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.name} is stale: run `python -m tools.vectors`"
        )


def test_there_is_a_golden_frame_for_every_catalogue_message() -> None:
    covered = set()
    for path in VECTOR_FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert path.parent.name == data["direction"]
        assert path.stem.split(".")[0] == data["type"]
        covered.add((Direction(data["direction"]), data["type"]))
    assert covered == set(MESSAGES)


def test_every_decision_kind_has_a_golden_frame() -> None:
    from dalmuti_net.protocol.catalogue import DECISION_KINDS

    kinds = {
        json.loads(p.read_text(encoding="utf-8"))["decoded"]["kind"]
        for p in VECTOR_FILES
        if p.stem.startswith("decision.")
    }
    assert kinds == set(DECISION_KINDS)


@pytest.mark.parametrize("path", VECTOR_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_frame_decodes_to_its_json_and_reencodes_identically(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    frame = bytes.fromhex(data["hex"])
    reader = FrameReader()
    (body,) = reader.feed(frame)
    assert reader.buffered == 0
    decoded = codec.decode(body, Direction(data["direction"]))
    assert decoded == data["decoded"]
    assert decoded["type"] == data["type"]
    assert codec.encode(data["decoded"]) == frame


# ------------------------------------------------------------------ PROTOCOL.md and its pages


@pytest.mark.parametrize("page", list(docs.PAGES), ids=lambda p: p.name)
def test_generated_blocks_are_fresh(page: Path) -> None:
    found = docs.blocks(page.read_text(encoding="utf-8"))
    assert sorted(found) == sorted(docs.PAGES[page]), f"{page.name} has the wrong blocks"
    for name, body in found.items():
        assert body == docs.render_block(name) + "\n", (
            f"{page.name} block {name!r} is stale: run `python -m tools.protocol_docs`"
        )


def test_every_block_has_one_page() -> None:
    placed = [name for names in docs.PAGES.values() for name in names]
    assert sorted(placed) == sorted(docs.RENDERERS)


def test_reference_is_fresh_and_says_it_is_generated() -> None:
    text = docs.REFERENCE_PATH.read_text(encoding="utf-8")
    assert text == docs.render_reference(), (
        "protocol/REFERENCE.md is stale: run `python -m tools.protocol_docs`"
    )
    banner = text.splitlines()[0]
    assert banner.startswith("<!-- Generated by `python -m tools.protocol_docs`")
    assert text.count("Generated by") == 1


def test_reference_documents_every_message_and_protocol_md_every_error_code() -> None:
    reference = docs.REFERENCE_PATH.read_text(encoding="utf-8")
    for direction, name in MESSAGES:
        assert f"\n{docs.message_heading(direction, name)}\n" in reference, (direction, name)
    protocol = docs.PROTOCOL_PATH.read_text(encoding="utf-8")
    for code in ErrorCode:
        assert f"| `{code}` |" in protocol, code
    grouped = [key for group in docs.GROUPS.values() for key in group]
    assert sorted(grouped) == sorted(MESSAGES), "every message belongs to exactly one group"


def test_decision_tables_are_the_catalogues_shapes() -> None:
    """Each decision kind's table lists the fields the host validates, decision_id too."""
    reference = docs.REFERENCE_PATH.read_text(encoding="utf-8")
    for kind, shape in docs.decision_shapes().items():
        section = reference.split(f"### Decision `{kind}`\n", 1)[1].split("\n### ", 1)[0]
        for field, spec in shape.fields.items():
            required = "yes" if spec.required else "no"
            assert f"| `{field}` | {docs.describe(spec.spec)} | {required} |" in section, field
    assert "| `decision_id` |" in reference.split("### Decision `play`", 1)[1]


def test_reference_hex_dumps_come_from_the_codec() -> None:
    text = docs.REFERENCE_PATH.read_text(encoding="utf-8")
    for example in EXAMPLES:
        first_line = codec.encode(example.message)[:16].hex(" ")
        assert first_line in text, example.key


def test_rewrite_leaves_hand_written_text_alone() -> None:
    text = "intro\n<!-- generated: error-codes -->\nSTALE-TEXT\n<!-- end generated -->\noutro\n"
    rewritten = docs.rewrite(text)
    assert rewritten.startswith("intro\n<!-- generated: error-codes -->\n| Code |")
    assert rewritten.endswith("\n<!-- end generated -->\noutro\n")
    assert "STALE-TEXT" not in rewritten
    with pytest.raises(KeyError):
        docs.rewrite("<!-- generated: nothing-renders-this -->\n<!-- end generated -->")


def test_protocol_md_and_the_example_bot_use_the_default_port() -> None:
    """The quick start and Transports name the port the host listens on by default."""
    text = docs.PROTOCOL_PATH.read_text(encoding="utf-8")
    assert f"the default port is **{DEFAULT_PORT}**" in text
    assert f"port **{DEFAULT_PORT}** by default" in text
    assert f'port="{DEFAULT_PORT}"' in docs.EXAMPLE_BOT_PATH.read_text(encoding="utf-8")


def test_every_section_of_protocol_md_names_the_tests_that_hold_it() -> None:
    """ "How this text is held true": a row for every section that states rules, naming
    test files that exist."""
    text = docs.PROTOCOL_PATH.read_text(encoding="utf-8")
    table = text.split("## How this text is held true", 1)[1]
    rows = [line.split(" | ", 1) for line in table.splitlines() if line.startswith("| ")]
    named = {title.strip() for first, _ in rows[2:] for title in first[2:].split(";")}
    sections = {
        line[3:].strip()
        for line in text.splitlines()
        if line.startswith("## ") and not line.startswith("## Contents")
    }
    summaries = {"What each role MUST do", "How this text is held true"}
    assert sections - summaries - {"Quick start: a bot in one page"} <= named | {"Quick start"}
    assert "Quick start" in named
    for _, tests in rows[2:]:
        for path in re.findall(r"`(tests/[\w/]+\.py)`", tests):
            assert (ROOT / path).is_file(), path

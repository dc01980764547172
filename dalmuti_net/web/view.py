"""What a browser is sent, and what its taps mean: the typed view out, intents in.

Sans-I/O. ``view_json`` turns the client model's typed view (``client/model/display.py``)
into the JSON the page lays out itself, already in the viewer's language; its schema is
generated from the same classes (``tools/view_schema.py``, ``web/static/view.schema.json``).
``page_intent`` turns a message from the page (``{"do": "pick_card", "card": 5}``) into an
intent of the model (``client/model/intents.py``), which checks it as it checks every front
end's: the page sends intents, never another front end's keys.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..client.model import intents as do
from ..client.model.choosers import whole_answers
from ..client.model.client_model import ClientModel
from ..client.model.display import (
    CONNECTION_WORDS,
    Display,
    FieldView,
    NoticeView,
    QuestionView,
    connection_mark,
    field_view,
    notice_view,
    question_view,
)
from ..client.model.help import clocks_section, game_sections
from ..client.model.seat_marks import Mark
from ..client.status import Status
from ..lang.i18n import LANGUAGE_TAGS, LANGUAGES, N_, Translator

MAX_TEXT = 1000
"""Characters of any text an intent from the page carries (a chat line is cut further)."""


def json_of(value: Any) -> Any:
    """A typed view as JSON data: a dataclass an object, a tuple an array, an enum its
    value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_of(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [json_of(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    return value


def view_json(view: Display) -> dict[str, Any]:
    return typing.cast(dict[str, Any], json_of(view))


def view_text(view: Display) -> str:
    """What the page is sent, ``{"view": ...}``: the text ``json.dumps`` gives for
    ``view_json``, made in one pass of the JSON encoder (in C) that asks for a dataclass's
    fields only as it meets one. A view holds hundreds of values and every page is sent
    one at each change: walking them in Python first was half the cost of a view."""
    return json.dumps({"view": view}, ensure_ascii=False, default=_fields_of)


@dataclass(frozen=True)
class OwnParts:
    """What is a watching page's own in its view, from its own client model: where its
    connection stands, its notice, the question it was asked, a field to type, its
    auto-pass, and whether it closed the results the table shows. Small and hashable:
    the pages of one watch whose own parts are equal are sent one text."""

    status: str
    connection: Mark
    question: QuestionView | None
    field: FieldView | None
    notice: NoticeView | None
    auto_pass: bool
    results_closed: bool

    @classmethod
    def of(cls, own: ClientModel, *, results_closed: bool) -> OwnParts:
        return cls(
            own.status.value,
            connection_mark(own),
            question_view(own),
            field_view(own),
            notice_view(own),
            own.preferences.auto_pass,
            results_closed,
        )


def watching_view(watched: Display, own: OwnParts) -> Display:
    """A watching page's view: the table as the watch of its language shows it
    (``web/watch.py``: the same for every spectator), with what is the page's own (its
    notice, else the table's, said to every watcher); without the results it closed."""
    table, can = watched.table, watched.can
    if own.results_closed and table is not None and table.results is not None:
        table = dataclasses.replace(table, results=None)
        can = tuple(name for name in can if name != "close_results")
    if own.question is not None:
        can = ("exit",)  # as ``display.can``: a question is answered first
    return dataclasses.replace(
        watched,
        status=own.status,
        connection=own.connection,
        table=table,
        question=own.question,
        field=own.field,
        notice=own.notice or watched.notice,
        auto_pass=own.auto_pass,
        can=can,
    )


_FIELDS: dict[type, tuple[str, ...]] = {}
"""Each dataclass's field names, looked up once."""


def _fields_of(value: Any) -> Any:
    """A dataclass as its fields, an enum as its value: what ``json_of`` makes of them one
    level down (the encoder goes on into them)."""
    names = _FIELDS.get(type(value))
    if names is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            if isinstance(value, Enum):
                return value.value
            raise TypeError(f"{type(value).__name__} is not in a view")
        names = _FIELDS[type(value)] = tuple(f.name for f in dataclasses.fields(value))
    return {name: getattr(value, name) for name in names}


# ----------------------------------------------------------------------------- intents


def _name(cls: type) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


PAGE_INTENTS: dict[str, type] = {
    _name(cls): cls
    for cls in typing.get_args(do.Intent)
    if cls not in (do.Answer, do.JoinListing, do.JoinAddress, do.GiveName)
}
"""The intents a page may send, by name (finding a table is not the page's: it belongs
to one table; an answer given whole goes by its index, ``answer``)."""
ANSWER = "answer"


def intent_fields(cls: type) -> dict[str, Any]:
    """An intent's fields and their types (``int``, ``str``, ``bool``, ``Any``, or a union
    with ``None``)."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


class BadIntent(ValueError):
    """What the page sent is not an intent it can send (a hostile or broken page)."""


def _checked(value: object, kind: Any) -> object:
    options = typing.get_args(kind) if isinstance(kind, types.UnionType) else (kind,)
    for option in options:
        if option is Any:
            if value is None or isinstance(value, bool | int | float | str):
                return value
        elif option is type(None):
            if value is None:
                return value
        elif option is int:
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**31:
                return value
        elif option is str:
            if isinstance(value, str) and len(value) <= MAX_TEXT:
                return value
        elif option is bool and isinstance(value, bool):
            return value
    raise BadIntent(f"not a {kind}")


def page_intent(model: ClientModel, message: dict[str, Any]) -> do.Intent | None:
    """The intent a message from the page means (``None``: an answer no longer offered,
    the view having changed meanwhile); ``BadIntent`` for anything else."""
    name = message.get("do")
    if name == ANSWER:
        index = _checked(message.get("index"), int)
        answers = [] if model.choosing is None else whole_answers(model.choosing)
        if set(message) != {"do", "index"}:
            raise BadIntent("an answer is its index")
        assert isinstance(index, int)
        if not 0 <= index < len(answers):
            return None
        return do.Answer(answers[index][1])
    if not isinstance(name, str) or name not in PAGE_INTENTS:
        raise BadIntent("no such intent")
    cls = PAGE_INTENTS[name]
    fields = intent_fields(cls)
    extra = set(message) - {"do"} - set(fields)
    if extra:
        raise BadIntent("unknown fields")
    values = {key: _checked(message[key], kind) for key, kind in fields.items() if key in message}
    try:
        intent: do.Intent = cls(**values)
    except TypeError:
        raise BadIntent("missing fields") from None
    return intent


# ----------------------------------------------------------------------------- the page's words

PAGE_STRINGS = {
    "name": N_("Your name:"),
    "code": N_("Join code:"),
    "join": N_("Join the table"),
    "watch": N_("Watch"),
    "language": N_("Language"),
    # The page's own link lost, no view can say so: the view's words (CONNECTION_WORDS).
    "reconnecting": CONNECTION_WORDS[Status.RECONNECTING][0],
    "closed": N_("The connection to the host is closed."),
    "again": N_("Join again"),
    "empty_name": N_("Your name cannot be empty."),
    "send": N_("OK"),
    "cancel": N_("Cancel"),
    "back": N_("Back"),
    "unproven": N_(
        "The host at this address could not prove that it holds your seat, so nothing more "
        "was sent to it. It may be another program standing in for your table: ask whoever "
        "hosts it."
    ),
    "seat_gone": N_("This table no longer has a seat for you. Join it again?"),
    "unreadable": N_(
        "What answers at this address sent something this page cannot read, so nothing more "
        "was sent to it. The host may be of another version, or another program: ask whoever "
        "hosts the table."
    ),
    "other_table": N_(
        "Another table is open at this address now, not the one you were at. Join it?"
    ),
    "ready": N_("Ready"),
    "not_ready": N_("Not ready"),
    "start": N_("Start"),
    "add_bot": N_("Add a bot"),
    "remove_bot": N_("Remove bot"),
    "kick": N_("Kick"),
    "nudge": N_("Nudge"),
    "skip": N_("Skip"),
    "rematch": N_("Rematch"),
    "auto_pass_on": N_("Auto-pass: on"),
    "auto_pass_off": N_("Auto-pass: off"),
    "chat": N_("Chat"),
    "say": N_("Say:"),
    "help": N_("Help"),
    "close": N_("Close"),
    "quit": N_("Quit"),
    "read": N_("Ready for the next hand"),
    "back_to_table": N_("Back to the table"),
    "final_standings": N_("Final standings"),
    "rules": N_("Change the rules"),
    "log": N_("Log and chat"),
    "legal_sets": N_("Legal sets"),
    "lobby_wait": N_("Waiting for the host player to start."),
    "set": N_("Type a number"),
    "newer": N_("Newer entries below"),
    "watching": N_("You are watching"),
    "you_left": N_("You have left the table."),
    # A picked tax card's mark, as a screen reader says it ({card}: "12 Peasant").
    "take_back": N_("Chosen: {n}. Take one back: {card}"),
}
"""The page's own words (its join form and buttons), in the catalogs; where the connection
stands is the view's ``connection``, but for the page's own link lost."""


def page_strings(t: Translator) -> dict[str, str]:
    return {key: t._(text) for key, text in PAGE_STRINGS.items()}


def _named(t: Translator, label: str) -> str:
    """A page's button named in a sentence, as its label reads."""
    return t._("“{label}”").format(label=t._(label))


def page_help(t: Translator) -> list[list[str]]:
    """The page's help: its buttons named as they read, never a key; the game and its
    roles as every front end says them."""
    clocks = clocks_section(
        t,
        {
            # Each button named by the very label it shows (PAGE_STRINGS), so that the help
            # and the page cannot word it two ways.
            **{key: _named(t, PAGE_STRINGS[key]) for key in ("rules", "nudge", "skip")},
            "auto_pass": t._("its button"),
            **{key: _named(t, PAGE_STRINGS[key]) for key in ("read", "rematch", "ready")},
        },
    )
    return [list(clocks), *map(list, game_sections(t))]


def languages() -> list[list[str]]:
    return [[LANGUAGE_TAGS[code], name] for code, name in LANGUAGES.items()]

"""A sentence told later, in the reader's language.

Code that does not know the reader's language (the engine, bots, history, the client's
connection; the engine sits below the language layer, ``dalmuti_net.lang``) cannot
translate: it marks each sentence's English template with ``N_`` (the catalogs'
extractor finds every ``N_`` call in the package) and keeps its values apart, and the
command or screen that shows it prints ``told(t._)``. A warning for the user is logged as
a ``Told`` (``log.warning(Told(N_("..."), ...))``): the console's and the table screen's
log handlers tell it in the reader's language (``told_record``), a log file in English.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable


def N_(text: str) -> str:
    """Mark ``text`` for the catalogs; it is translated where it is told."""
    return text


class Told(Exception):
    """One sentence: an English template and its values (``str()`` is the English)."""

    def __init__(self, template: str, **values: object) -> None:
        super().__init__(template.format(**values) if values else template)
        self.template = template
        self.values = values

    def __reduce__(self) -> tuple[object, ...]:
        # Whole across processes (a sim worker's error): the template and values too, for
        # any subclass's own __init__.
        return (_unpickled, (type(self), self.args, self.__dict__))

    def told(self, translate: Callable[[str], str]) -> str:
        """The sentence in the language of ``translate`` (a ``Translator._``)."""
        if not self.values:
            return translate(self.template)
        values = {key: _told_value(value, translate) for key, value in self.values.items()}
        return translate(self.template).format(**values)


def _unpickled(cls: type[Told], args: tuple[object, ...], state: dict[str, object]) -> Told:
    told = cls.__new__(cls)
    told.args = args
    told.__dict__.update(state)
    return told


NEXT_IN_LIST = N_("{first}, {then}")
"""A list so far and its next item (Chinese: the enumeration comma between them)."""
NEXT_CLAUSE = N_("{first}; {then}")
"""Clauses so far and the next one (Chinese: the full-width semicolon)."""


class Listed:
    """A value of a ``Told``: items listed the reader's language's way (``a, b``, ``a、b``;
    with ``NEXT_CLAUSE``, ``a; b``). An item with a ``told`` is told in the language too."""

    def __init__(self, items: Iterable[object], pattern: str = NEXT_IN_LIST) -> None:
        self.items = tuple(items)
        self.pattern = pattern

    def __str__(self) -> str:
        separator = self.pattern.format(first="", then="")  # the English ", " or "; "
        return separator.join(str(item) for item in self.items)

    def told(self, translate: Callable[[str], str]) -> str:
        items = [_told(item, translate) for item in self.items]
        if not items:
            return ""
        listed, pattern = items[0], translate(self.pattern)
        for item in items[1:]:
            listed = pattern.format(first=listed, then=item)
        return listed


def _told(item: object, translate: Callable[[str], str]) -> str:
    told = getattr(item, "told", None)
    return told(translate) if callable(told) else str(item)


def _told_value(value: object, translate: Callable[[str], str]) -> object:
    """A ``Told``'s value as told: anything with a ``told`` (a ``Told``, ``Listed``, a bot's
    name) in the language, any other value as it is (its format spec still applies)."""
    told = getattr(value, "told", None)
    return told(translate) if callable(told) else value


def told_record(record: logging.LogRecord, translate: Callable[[str], str]) -> str:
    """A log record's message for the user: a ``Told`` logged as the message
    (``log.warning(Told(N_("..."), ...))``) in the language of ``translate``; any other
    record's message as it is. (A log file gets ``str()``, the English.)"""
    if isinstance(record.msg, Told) and not record.args:
        return record.msg.told(translate)
    return record.getMessage()

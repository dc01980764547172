"""The language of a command's messages and help, one ``--lang`` spelling for every subcommand.

``--lang`` takes ``en``, ``zh-Hant`` or ``es``; other spellings of the same languages
(``zh_TW``, ``zh-TW``, ``zh_Hant``, ``es_ES``, ``en_US.UTF-8``...) are taken as aliases.
A command gets its ``_`` with ``messages(args.lang)._`` and prints through it, so its
lines come from the same catalogs as the table screen's.

The help is written in English and marked with ``N_`` where the options are declared;
``translate_parser`` puts it in the language ``--lang`` (read from the command line before
it is parsed) or the locale asks for, and ``argparse_speaking`` does the same for
argparse's own words (``usage:``, its errors).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..lang.i18n import LANGUAGE_TAGS, N_, Translator, translator_for
from ..lang.text import width, wrap
from ..told import Listed

LANG_HELP = N_(
    "language of the messages and the table: {tags} (zh_TW, es_ES... work too; "
    "default: from the locale)"
)


class Told(str):
    """A help text with values to put in after it is translated (``{port}``)."""

    values: dict[str, Any]

    def __new__(cls, text: str, **values: Any) -> Told:
        told = super().__new__(cls, text)
        told.values = values
        return told


def add_lang_argument(parser: argparse.ArgumentParser, dest: str = "lang") -> None:
    """The one ``--lang`` option, with the same spellings in every command."""
    parser.add_argument(
        "--lang",
        dest=dest,
        metavar="LANG",
        help=Told(LANG_HELP, tags=Listed(LANGUAGE_TAGS.values())),
    )


def messages(requested: str | None) -> Translator:
    """The translator for ``--lang`` (or the locale when it is not given).

    Raises ``ValueError`` with a sentence in the locale's language when ``requested`` is
    not a language we have.
    """
    return translator_for(requested)


def language_asked(argv: Sequence[str]) -> str | None:
    """The ``--lang`` value on a command line not parsed yet (the help needs it first)."""
    for index, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def help_translator(argv: Sequence[str]) -> Translator:
    """The language of the help and of argparse's errors: ``--lang``, else the locale (a
    ``--lang`` we do not have is reported by the command, once parsed)."""
    try:
        return translator_for(language_asked(argv))
    except ValueError:
        return translator_for(None)


_WIDE_TITLE = re.compile(r"^(\S[^\n]*[^\x00-\x7f]):$", re.MULTILINE)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, its lines wrapped by the cells they take on screen (a Chinese
    character takes two, and there are no spaces to break at between them)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(" ".join(text.split()), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines = wrap(" ".join(text.split()), width - len(indent))
        return "\n".join(indent + line for line in lines)

    def _format_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None,
    ) -> str:
        # argparse indents the usage's wrapped lines by the prefix's length in characters:
        # "用法：" is 3 of them but 6 cells. It wraps behind a stand-in as wide as the prefix.
        if prefix is None:
            prefix = argparse._("usage: ")  # type: ignore[attr-defined]
        stand_in = " " * width(prefix)
        text = super()._format_usage(usage, actions, groups, stand_in)
        return prefix + text[len(stand_in) :]

    def format_help(self) -> str:
        # argparse puts an ASCII colon after each section's title: a Chinese title takes
        # the full-width one.
        return _WIDE_TITLE.sub("\\1：", super().format_help())


class RawDescriptionHelpFormatter(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """The same, with the description and epilog kept as written (the exit codes' table)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return argparse.RawDescriptionHelpFormatter._fill_text(self, text, width, indent)


def _translated(t: Translator, text: str) -> str:
    told = t._(str(text))
    if not isinstance(text, Told):
        return told
    values = {k: v.told(t._) if isinstance(v, Listed) else v for k, v in text.values.items()}
    return told.format(**values)


def translate_parser(parser: argparse.ArgumentParser, t: Translator) -> None:
    """Every help text of ``parser`` and its subcommands in ``t``'s language."""
    for text_of in ("description", "epilog"):
        text = getattr(parser, text_of)
        if text:
            setattr(parser, text_of, _translated(t, text))
    for group in parser._action_groups:
        if group.title:
            group.title = _translated(t, group.title)
        if group.description:
            group.description = _translated(t, group.description)
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            action.help = _translated(t, action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = _translated(t, choice.help)
            for sub in dict.fromkeys(action.choices.values()):
                translate_parser(sub, t)


@contextmanager
def argparse_speaking(t: Translator) -> Iterator[None]:
    """argparse's own words (``usage:``, ``options``, its errors) in ``t``'s language.

    argparse translates them through the ``gettext`` and ``ngettext`` it imported, whose
    language comes from the environment alone; for the length of a parse, it is given
    ``t``'s instead (the strings are in our catalogs: ``ARGPARSE_WORDS``).
    """
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = t._, t.n_  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def in_argparse_language(template: str, **values: object) -> str:
    """``template`` (marked with ``N_``) in the language argparse speaks now: the command's
    during a parse (``argparse_speaking``), for an option's ``type=`` to refuse a value."""
    return str(argparse._(template)).format(**values)  # type: ignore[attr-defined]


def n_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for the catalogs (argparse asks for it through ``ngettext``)."""
    return singular, plural


ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    n_("expected %s argument", "expected %s arguments"),
)
"""What argparse says that a user meets (Python 3.11-3.13 spell these the same)."""

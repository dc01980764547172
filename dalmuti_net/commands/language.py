"""The language of a command's messages, one ``--lang`` spelling for every subcommand.

``--lang`` takes ``en``, ``zh-Hant`` or ``es``; other spellings of the same languages
(``zh_TW``, ``zh-TW``, ``zh_Hant``, ``es_ES``, ``en_US.UTF-8``...) are taken as aliases.
A command gets its ``_`` with ``messages(args.lang)._`` and prints through it, so its
lines come from the same catalogs as the table screen's.
"""

from __future__ import annotations

import argparse

from ..client.ui.i18n import LANGUAGE_TAGS, N_, Translator, translator_for

LANG_HELP = N_(
    "language of the messages and the table: {tags} (zh_TW, es_ES... work too; "
    "default: from the locale)"
)


def add_lang_argument(parser: argparse.ArgumentParser) -> None:
    """The one ``--lang`` option, with the same spellings for ``host`` and ``join``."""
    t = messages(None)
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=t._(LANG_HELP).format(tags=", ".join(LANGUAGE_TAGS.values())),
    )


def messages(requested: str | None) -> Translator:
    """The translator for ``--lang`` (or the locale when it is not given).

    Raises ``ValueError`` with a sentence in the locale's language when ``requested`` is
    not a language we have.
    """
    return translator_for(requested)

"""The message catalogs' tooling, on Babel: find every translatable string in the project's
source (every module of ``dalmuti_net``: the tables, the commands' messages, the host's
console lines), update each language's .po with them and compile its .mo (the stdlib's
``gettext`` reads only .mo, so the program itself needs no Babel).

``python -m tools.catalogs`` (from the checkout's top folder) rewrites each language's .po
with every string in the source (keeping the translations it has; a string gone from the
source goes from the .po too) and compiles its .mo. ``--check`` changes nothing: it reports
strings that are missing, untranslated or whose placeholders differ from the source, and
a .po or .mo that does not hold what the source and the .po say it should.

Babel is a development and test tool here (``pip install -e '.[test]'``), never a
dependency of the game.
"""

from __future__ import annotations

import argparse
import gettext
import io
import string
import sys
from collections.abc import Iterator
from pathlib import Path

try:
    from babel.messages.catalog import Catalog, Message
    from babel.messages.extract import extract_from_dir
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po, write_po
except ModuleNotFoundError as missing:  # pragma: no cover - a developer's set-up
    sys.exit(f"tools.catalogs needs Babel ({missing}): pip install -e '.[test]'")

from dalmuti_net import __version__
from dalmuti_net.lang.i18n import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES, LOCALE_DIR

from . import PACKAGE_DIR, package_is_the_checkouts

PROJECT = "dalmuti-net"
SOURCE_DIR = PACKAGE_DIR
"""The ``dalmuti_net`` package: every module in it may mark strings."""
KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "n_": (1, 2), "Nn_": (1, 2)}
"""What marks a string: ``t._(text)`` and ``N_(text)``; ``t.n_(singular, plural, n)`` and
``Nn_(singular, plural)`` (see ``dalmuti_net.lang.i18n`` and ``dalmuti_net.told``)."""
PLURAL_FORMS = {
    "zh_Hant": "nplurals=1; plural=0;",
    "es": "nplurals=2; plural=(n != 1);",
}
"""Each language's plural rule as gettext writes it. Babel's own rules come from CLDR,
which gives Spanish a third form for large round numbers (``un millón de``) that no count
in this game reaches; the catalogs keep the two forms gettext has always used."""
WIDTH = 0
"""No wrapping in the .po: one line per string, so a change to a string is one line."""


def extract(source_dir: Path = SOURCE_DIR) -> Catalog:
    """Every literal passed to ``_``, ``n_`` (methods too), ``N_`` or ``Nn_`` in the modules
    under ``source_dir``, in the order of the files and of the lines in them."""
    template = Catalog(domain=DOMAIN, project=PROJECT, version=__version__, fuzzy=False)
    found = extract_from_dir(
        str(source_dir), [("**.py", "python")], keywords=KEYWORDS, comment_tags=()
    )
    for filename, lineno, message, _comments, context in found:
        template.add(message, locations=[(filename, lineno)], context=context)
    return template


def source_messages(template: Catalog) -> Iterator[Message]:
    """The template's messages, without its header (the entry whose id is ``""``)."""
    return (message for message in template if message.id)


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def read_catalog(language: str, path: Path | None = None) -> Catalog:
    """The language's .po as it is, or a new catalog for it."""
    path = po_path(language) if path is None else path
    if not path.exists():
        catalog = Catalog(locale=language, domain=DOMAIN)
    else:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=language, domain=DOMAIN)
    catalog.header_comment = f"# dalmuti-net: {LANGUAGES[language]}"
    catalog.project, catalog.version = PROJECT, __version__
    # No address to report to and no one person translating: Babel's placeholders
    # ("EMAIL@ADDRESS", "FULL NAME") would only look like something to fill in.
    catalog.msgid_bugs_address = catalog.last_translator = catalog.language_team = ""
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[language])]
    return catalog


def updated(language: str, template: Catalog) -> Catalog:
    """The language's catalog with exactly the template's strings, each keeping the
    translation it had. No fuzzy matching: a changed string is a new string, untranslated
    until someone translates it (a guess from a similar one would ship unseen)."""
    catalog = read_catalog(language)
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    return catalog


def po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, no_location=True, ignore_obsolete=True)
    return out.getvalue()


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def translations(message: Message) -> tuple[str, ...]:
    """A message's translation, or each of its plural forms."""
    found = message.string
    if found is None:  # read from a .po, Babel may leave an empty translation as None
        return ("",)
    return (found,) if isinstance(found, str) else tuple(found)


def problems(language: str, template: Catalog, catalog: Catalog) -> list[str]:
    """What is missing, untranslated, fuzzy or has placeholders that differ from the source."""
    found = []
    for entry in source_messages(template):
        have = catalog.get(entry.id)
        texts = translations(have) if have is not None else ()
        msgid = entry.id if isinstance(entry.id, str) else entry.id[0]
        if have is None or not texts or not all(texts) or have.fuzzy:
            found.append(f"{language}: untranslated: {msgid!r}")
            continue
        wanted = _fields(msgid)
        if any(_fields(text) != wanted for text in texts):
            found.append(f"{language}: placeholders differ: {msgid!r}")
    return found


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def compiled(path: Path) -> dict[object, str]:
    """A .mo as the program reads it (``gettext``): msgid, or (msgid, plural index), to its
    translation; the header left out."""
    with path.open("rb") as handle:
        catalog: dict[object, str] = dict(gettext.GNUTranslations(handle)._catalog)  # type: ignore[attr-defined]
    catalog.pop("", None)
    return catalog


def expected(catalog: Catalog) -> dict[object, str]:
    """What the .mo compiled from ``catalog`` must hold, keyed as ``compiled`` keys it."""
    out: dict[object, str] = {}
    for message in source_messages(catalog):
        if message.fuzzy or not any(translations(message)):
            continue
        if isinstance(message.id, str):
            out[message.id] = translations(message)[0]
        else:
            for index, text in enumerate(translations(message)):
                out[(message.id[0], index)] = text or message.id[min(index, 1)]
    return out


def stale(language: str, wanted: Catalog) -> list[str]:
    """Where the .po or .mo on disk differs from what the source and the .po make: compared
    by content, not bytes, so a newer Babel writing its header another way is not stale."""
    found = []
    po, mo = po_path(language), mo_path(language)
    if not po.exists() or _contents(read_catalog(language)) != _contents(wanted):
        found.append(f"{language}: {po.name} is not up to date with the source")
    if not mo.exists() or compiled(mo) != expected(wanted):
        found.append(f"{language}: {mo.name} was not compiled from {po.name}")
    return found


def _contents(catalog: Catalog) -> dict[object, tuple[tuple[str, ...], bool]]:
    return {m.id: (translations(m), m.fuzzy) for m in source_messages(catalog)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="report, change nothing")
    args = parser.parse_args(argv)
    if not args.check and not package_is_the_checkouts():
        print(
            f"dalmuti_net is imported from {PACKAGE_DIR}, not from this checkout: run this "
            "from the checkout's top folder (or add --check)",
            file=sys.stderr,
        )
        return 2
    template = extract()
    trouble: list[str] = []
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        catalog = updated(language, template)
        trouble += problems(language, template, catalog)
        if args.check:
            trouble += stale(language, catalog)
            continue
        po_path(language).parent.mkdir(parents=True, exist_ok=True)
        po_path(language).write_bytes(po_bytes(catalog))
        mo_path(language).write_bytes(mo_bytes(catalog))
    for line in trouble:
        print(line, file=sys.stderr)
    return 1 if trouble else 0


if __name__ == "__main__":
    sys.exit(main())

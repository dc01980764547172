"""The message catalogs' tooling: find every translatable string in the project's source
(the table UI, the commands' messages, the host's console lines: every module of
``dalmuti_net``), read and write .po files, compile .mo files (the stdlib reads only .mo).

``python -m tools.catalogs`` (from the checkout's top folder) rewrites each language's
.po with every string in the source (keeping the translations it has) and compiles its .mo;
``--check`` only reports strings that are missing or untranslated.
"""

from __future__ import annotations

import argparse
import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from dalmuti_net.lang.i18n import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES, LOCALE_DIR

from . import PACKAGE_DIR, package_is_the_checkouts

SOURCE_DIR = PACKAGE_DIR
"""The ``dalmuti_net`` package: every module in it may mark strings."""
PLURAL_FORMS = {
    "zh_Hant": "nplurals=1; plural=0;",
    "es": "nplurals=2; plural=(n != 1);",
}


@dataclass(frozen=True)
class Entry:
    msgid: str
    plural: str | None = None
    translations: tuple[str, ...] = field(default=(), compare=False)


def extract(source_dir: Path = SOURCE_DIR) -> list[Entry]:
    """Every literal passed to ``_``, ``n_`` (methods), ``N_`` or ``Nn_`` in the modules under
    ``source_dir``, in source order."""
    found: dict[str, Entry] = {}
    for path in sorted(source_dir.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else None
            if isinstance(node.func, ast.Name):
                name = node.func.id
            texts = [
                a.value
                for a in node.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
            if name in ("_", "N_") and len(texts) >= 1 and texts[0]:
                found.setdefault(texts[0], Entry(texts[0]))
            elif name in ("n_", "Nn_") and len(texts) >= 2:
                found.setdefault(texts[0], Entry(texts[0], texts[1]))
    return list(found.values())


# ----------------------------------------------------------------------------- .po files


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _unquote(text: str) -> str:
    body = text.strip()[1:-1]
    out, index = [], 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            nxt = body[index + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, nxt))
            index += 2
        else:
            out.append(char)
            index += 1
    return "".join(out)


def read_po(text: str) -> dict[str, Entry]:
    """msgid -> entry; the header (msgid "") is skipped."""
    entries: dict[str, Entry] = {}
    current: dict[str, list[str]] = {}
    key = ""

    def finish() -> None:
        if "msgid" in current:
            msgid = "".join(current["msgid"])
            plural = "".join(current["msgid_plural"]) if "msgid_plural" in current else None
            translations: tuple[str, ...]
            if plural is None:
                translations = ("".join(current.get("msgstr", [])),)
            else:
                translations = tuple(
                    "".join(current[k])
                    for k in sorted(k for k in current if k.startswith("msgstr["))
                )
            if msgid:
                entries[msgid] = Entry(msgid, plural, translations)
        current.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                finish()
            continue
        if line.startswith('"'):
            current.setdefault(key, []).append(_unquote(line))
            continue
        key, _, rest = line.partition(" ")
        if key == "msgid" and "msgid" in current:
            finish()
        current[key] = [_unquote(rest)]
    finish()
    return entries


def write_po(language: str, entries: list[Entry]) -> str:
    lines = [
        f"# dalmuti-net terminal client: {LANGUAGES[language]}",
        'msgid ""',
        'msgstr ""',
        _quote("Project-Id-Version: dalmuti-net\n"),
        _quote("MIME-Version: 1.0\n"),
        _quote("Content-Type: text/plain; charset=UTF-8\n"),
        _quote("Content-Transfer-Encoding: 8bit\n"),
        _quote(f"Language: {language}\n"),
        _quote(f"Plural-Forms: {PLURAL_FORMS[language]}\n"),
        "",
    ]
    for entry in entries:
        lines.append(f"msgid {_quote(entry.msgid)}")
        if entry.plural is None:
            lines.append(f"msgstr {_quote(entry.translations[0] if entry.translations else '')}")
        else:
            lines.append(f"msgid_plural {_quote(entry.plural)}")
            forms = entry.translations or ("",)
            for index, form in enumerate(forms):
                lines.append(f"msgstr[{index}] {_quote(form)}")
        lines.append("")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- .mo files


def compile_mo(language: str, entries: list[Entry]) -> bytes:
    """GNU .mo bytes (little-endian, no hash table), as gettext.GNUTranslations reads."""
    header = (
        "Content-Type: text/plain; charset=UTF-8\n"
        f"Language: {language}\n"
        f"Plural-Forms: {PLURAL_FORMS[language]}\n"
    )
    pairs: list[tuple[bytes, bytes]] = [(b"", header.encode())]
    for entry in entries:
        if not any(entry.translations):
            continue
        if entry.plural is None:
            pairs.append((entry.msgid.encode(), entry.translations[0].encode()))
        else:
            key = entry.msgid.encode() + b"\0" + entry.plural.encode()
            pairs.append((key, "\0".join(entry.translations).encode()))
    pairs.sort()
    count = len(pairs)
    originals_at = 28
    translations_at = originals_at + 8 * count
    data_at = translations_at + 8 * count
    data = b""
    originals, translations = [], []
    for key, _ in pairs:
        originals.append((len(key), data_at + len(data)))
        data += key + b"\0"
    for _, value in pairs:
        translations.append((len(value), data_at + len(data)))
        data += value + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, 0)
    for length, offset in originals + translations:
        out += struct.pack("<2I", length, offset)
    return out + data


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def problems(language: str, source: list[Entry], catalog: dict[str, Entry]) -> list[str]:
    """What is missing, untranslated or has placeholders that differ from the source."""
    import string

    found = []
    for entry in source:
        have = catalog.get(entry.msgid)
        if have is None or not all(have.translations) or not have.translations:
            found.append(f"{language}: untranslated: {entry.msgid!r}")
            continue
        wanted = {f for _, f, _, _ in string.Formatter().parse(entry.msgid) if f}
        for translation in have.translations:
            fields = {f for _, f, _, _ in string.Formatter().parse(translation) if f}
            if fields != wanted:
                found.append(f"{language}: placeholders differ: {entry.msgid!r}")
    return found


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
    source = extract()
    trouble: list[str] = []
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        path = po_path(language)
        catalog = read_po(path.read_text(encoding="utf-8")) if path.exists() else {}
        trouble += problems(language, source, catalog)
        if args.check:
            continue
        merged = [
            Entry(e.msgid, e.plural, catalog[e.msgid].translations if e.msgid in catalog else ())
            for e in source
        ]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(write_po(language, merged), encoding="utf-8")
        mo_path(language).write_bytes(compile_mo(language, merged))
    for line in trouble:
        print(line, file=sys.stderr)
    return 1 if trouble else 0


if __name__ == "__main__":
    sys.exit(main())

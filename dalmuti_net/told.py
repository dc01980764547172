"""A sentence told later, in the reader's language.

The layers below the table UI's catalogs (bots, history, the client's connection) cannot
translate: they mark each sentence's English template with ``N_`` (the catalogs'
extractor finds every ``N_`` call in the package) and keep its values apart, and the
command or screen that shows it prints ``told(t._)``.
"""

from __future__ import annotations

from collections.abc import Callable


def N_(text: str) -> str:
    """Mark ``text`` for the catalogs; it is translated where it is told."""
    return text


class Told(Exception):
    """One sentence: an English template and its values (``str()`` is the English)."""

    def __init__(self, template: str, **values: object) -> None:
        super().__init__(template.format(**values) if values else template)
        self.template = template
        self.values = values

    def told(self, translate: Callable[[str], str]) -> str:
        """The sentence in the language of ``translate`` (a ``Translator._``)."""
        if not self.values:
            return translate(self.template)
        values = {
            key: value.told(translate) if isinstance(value, Told) else value
            for key, value in self.values.items()
        }
        return translate(self.template).format(**values)

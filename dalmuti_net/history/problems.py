"""What a history, replay or standings command cannot do, as one sentence in the reader's
language.

``history`` sits below the table UI's catalogs, so it cannot translate; it marks each
sentence's English template with ``N_`` (the catalogs' extractor finds every ``N_`` call
in the package) and keeps the values apart, and the command prints ``told(t._)``.
"""

from __future__ import annotations

from collections.abc import Callable


def N_(text: str) -> str:
    """Mark ``text`` for the catalogs; it is translated where it is told."""
    return text


class Problem(Exception):
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
            key: value.told(translate) if isinstance(value, Problem) else value
            for key, value in self.values.items()
        }
        return translate(self.template).format(**values)

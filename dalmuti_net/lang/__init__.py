"""The language layer: how the program says things, below everything that speaks.

``i18n`` (the catalogs in ``locale/``, plural forms, card and role names), ``words``
(cards, sets and roles in words and symbols) and ``text`` (terminal text measured in
cells: cutting, padding, wrapping, Chinese typography). It imports only the engine (for
card and role names) and no terminal or I/O library; the layers below it mark sentences
with ``told``.
"""

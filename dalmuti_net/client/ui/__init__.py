"""The terminal table: a prompt_toolkit application on asyncio with trio as its guest.

``i18n`` picks the language; ``choosers`` and ``lobby`` turn keys into requests for the
decision or lobby at hand; ``state`` keeps what the screen shows; ``screen`` draws it as
text for a width and height; ``app`` and ``runtime`` connect that to a terminal and to the
host. Only ``app`` and ``runtime`` import prompt_toolkit or asyncio.
"""

"""The table screen's options, shared by the commands that show it: how your turn is told
(``join``, ``host``), which symbols the roles are drawn with (``join``, ``replay``)."""

from __future__ import annotations

import argparse

from ..lang.i18n import N_


def add_turn_alert_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-bell", action="store_true", help=N_("do not ring the terminal bell on your turn")
    )
    parser.add_argument(
        "--no-title",
        action="store_true",
        help=N_("leave the window title alone (it says when it is your turn)"),
    )


def add_ascii_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ascii", action="store_true", help=N_("plain letters instead of the role symbols")
    )

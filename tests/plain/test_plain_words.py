"""End to end (issue 33.6): counts in every language take their plural forms, and
spectators are named in the lobby and the log."""

from __future__ import annotations

import re
from pathlib import Path

from host_process import QUICK_RULES, running_host
from test_plain_departures import read_until
from test_plain_e2e import PlainProcess

from dalmuti_net.lang.i18n import Translator


def test_one_seated_is_singular_and_a_spectator_is_named(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(QUICK_RULES, encoding="utf-8")
    es = Translator("es")
    with running_host(rules, bots=0) as host:
        (tmp_path / "ana").mkdir()
        ana = PlainProcess(
            ["join", "--plain", "--lang", "es", "--player-name", "Ana", host.address],
            tmp_path / "ana",
        )
        lobby = es._("Type ready when you are ready, or help for the commands.")
        read_until(ana, re.compile("^" + re.escape(lobby) + "$"), answer=False)
        ana.send(es._("start").split("|")[0])
        read_until(ana, re.compile(r"^Una mesa empieza con 4 a 8 jugadores; hay 1 sentado\.$"))
        (tmp_path / "eli").mkdir()
        eli = PlainProcess(
            ["join", "--plain", "--spectate", "--player-name", "Eli", host.address],
            tmp_path / "eli",
        )
        read_until(ana, re.compile(r"^Eli está mirando\.$"), answer=False)
        ana.send(es._("table").split("|")[0])
        read_until(ana, re.compile(r"^Miran: Eli$"), answer=False)
        for client in (eli, ana):
            client.send("quit")
            client.finish()

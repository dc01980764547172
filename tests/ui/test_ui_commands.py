"""`dalmuti join` and `dalmuti hosts`: arguments, the remembered name, listings for scripts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dalmuti_net.cli import main
from dalmuti_net.client.ui.config import config_dir, load_name, save_name
from dalmuti_net.commands.hosts import listing_dict, listing_line
from dalmuti_net.protocol import PROTOCOL_VERSION
from dalmuti_net.protocol.discovery import listing_from_record

CURRENT = str(PROTOCOL_VERSION).encode()
"""The protocol version a table of this version announces (TXT key ``pv``)."""


def test_the_name_is_remembered_in_the_config_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_dir() == tmp_path / "dalmuti-net"
    assert load_name() is None
    save_name("小明")
    assert load_name() == "小明"
    (tmp_path / "dalmuti-net" / "client.json").write_text("not json")
    assert load_name() is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders are Linux's")
def test_the_config_dir_is_where_it_always_was_on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player upgrading keeps the name remembered before platformdirs found the folder."""
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", "/home/ana")
    assert config_dir() == Path("/home/ana/.config/dalmuti-net")
    monkeypatch.setenv("XDG_CONFIG_HOME", "")  # empty is unset (XDG Base Directory spec)
    assert config_dir() == Path("/home/ana/.config/dalmuti-net")


def test_join_refuses_bad_arguments_in_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["join", "--lang", "klingon", "127.0.0.1"]) == 2
    assert "unknown language 'klingon'" in capsys.readouterr().err
    assert main(["join", "127.0.0.1:99999"]) == 2
    assert "port must be a number from 1 to 65535" in capsys.readouterr().err
    assert main(["join", "--player-name", "  ", "127.0.0.1"]) == 2
    assert "--player-name cannot be empty" in capsys.readouterr().err
    assert main(["join", "--name", "  ", "127.0.0.1"]) == 2  # the old spelling
    assert "--player-name cannot be empty" in capsys.readouterr().err


def listing(version: bytes = CURRENT, code: bytes = b"0") -> object:
    return listing_from_record(
        instance_name="Ana's table._dalmuti._tcp.local.",
        server="ana.local.",
        addresses=["192.168.1.20"],
        port=7341,
        txt={
            b"pv": version,
            b"name": b"Ana's table",
            b"phase": b"playing",
            b"seats": b"5/8",
            b"code": code,
        },
    )


def test_hosts_lines_and_json() -> None:
    good = listing(code=b"1")
    assert (
        listing_line(good) == "Ana's table  192.168.1.20:7341  seats 5/8  playing  join code needed"
    )  # type: ignore[arg-type]
    old = listing(version=b"7")
    assert listing_line(old).endswith(
        f"incompatible  (protocol version 7, ours is {PROTOCOL_VERSION})"
    )  # type: ignore[arg-type]
    data = listing_dict(good)  # type: ignore[arg-type]
    assert json.loads(json.dumps(data)) == data
    assert data["seats_taken"] == 5 and data["compatible"] is True and data["phase"] == "playing"


def test_hosts_says_what_to_check_when_nothing_answers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hosts", "--timeout", "0"]) == 2
    capsys.readouterr()
    found = main(["hosts", "--timeout", "0.3", "--interface", "127.0.0.1"])
    if found == 0:  # someone else's table is announced on this machine right now
        assert capsys.readouterr().out
        return
    assert found == 4
    err = capsys.readouterr().err
    assert "No table answered within 0.3 s" in err and "dalmuti join HOST[:PORT]" in err


def test_the_host_player_takes_the_name_dalmuti_join_remembers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dalmuti_net.cli import build_parser
    from dalmuti_net.commands.host import options_from

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    save_name("Bea")
    assert options_from(build_parser().parse_args(["host"])).player_name == "Bea"
    given = build_parser().parse_args(["host", "--player-name", "Ana"])
    assert options_from(given).player_name == "Ana"  # --player-name overrides


def garbled_listing(version: bytes = CURRENT) -> object:
    return listing_from_record(
        instance_name="Bo._dalmuti._tcp.local.",
        server="bo.local.",
        addresses=["192.168.1.21"],
        port=7341,
        txt={b"pv": version, b"name": b"Bo", b"seats": b"9/2", b"code": b"maybe"},
    )


def test_what_an_announcement_lacks_is_told_in_the_language() -> None:
    from dalmuti_net.lang.i18n import Translator

    garbled = garbled_listing()
    assert listing_line(garbled).endswith(  # type: ignore[arg-type]
        "(phase missing or garbled; seats missing or garbled; join code flag missing or garbled)"
    )
    assert listing_line(garbled, Translator("zh_Hant")).endswith(  # type: ignore[arg-type]
        "（階段缺少或無法辨識；座位數缺少或無法辨識；加入碼標記缺少或無法辨識）"
    )
    old = listing(version=b"7")
    assert listing_line(old, Translator("es")).endswith(  # type: ignore[arg-type]
        f"incompatible  (versión del protocolo 7, la nuestra es {PROTOCOL_VERSION})"
    )
    assert listing_dict(garbled)["issues"] == [  # type: ignore[arg-type]
        "phase missing or garbled",
        "seats missing or garbled",
        "join code flag missing or garbled",
    ]


def test_the_host_chooser_says_what_the_chosen_announcement_lacks() -> None:
    from ui_support import draw

    from dalmuti_net.client.ui.state import ClientUi
    from dalmuti_net.lang.i18n import Translator

    for language, told in (
        ("zh_Hant", "它的廣播資訊不完整：階段缺少或無法辨識；座位數缺少或無法辨識；"),
        ("es", "Su anuncio está incompleto: fase ausente o ilegible; asientos ausentes"),
    ):
        ui = ClientUi(Translator(language), name="Ana")
        ui.set_listings([listing(), garbled_listing()])  # type: ignore[list-item]
        assert "Su anuncio" not in draw(ui) and "廣播" not in draw(ui)  # the first is whole
        ui.press("down")
        assert told in draw(ui).replace("\n", "")
        ui.set_listings([garbled_listing(b"x")])  # type: ignore[list-item]
        screen = draw(ui)
        assert "versión del protocolo" not in screen and "協定版本缺少" not in screen
        assert "protocolo ?" in screen or "協定 ?" in screen  # said once, by the chooser

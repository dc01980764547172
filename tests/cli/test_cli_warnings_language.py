"""What the host and the clients warn about while they run is told in the language asked
for: one line on stderr without a table screen (its own log's line with one), never a
traceback; a log file keeps the English."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
import trio.testing

from dalmuti_net.cli import main, takes_the_screen
from dalmuti_net.client.runner import UNREADABLE, ClientRunner
from dalmuti_net.client.session import ClientSession
from dalmuti_net.commands.common import configure_logging, stop_logging
from dalmuti_net.host.announce import CANNOT_UPDATE
from dalmuti_net.host.server import BOT_FAILED, TableServer
from dalmuti_net.host.table import StartBot, Table
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.protocol import PROTOCOL_VERSION, encode
from dalmuti_net.told import Told, told_record

ZH, ES = Translator("zh_Hant"), Translator("es")


@pytest.fixture
def clean_logging() -> Iterator[None]:
    yield
    stop_logging()


def _console(language: str, **more: object) -> argparse.Namespace:
    return argparse.Namespace(verbose=0, log_file=None, lang=language, **more)


@pytest.mark.usefixtures("clean_logging")
@pytest.mark.parametrize(
    ("t", "told"),
    [
        (
            ZH,
            "無法更新牌桌在區域網路上的公告（Network is unreachable）；恢復之前，正在找牌桌的"
            "玩家看到的可能是舊的資訊。\n",
        ),
        (
            ES,
            "No se pudo actualizar el anuncio de la mesa en la red local (Network is "
            "unreachable); quienes buscan mesas pueden verla desactualizada hasta que vuelva "
            "a funcionar.\n",
        ),
    ],
)
def test_a_warning_is_one_line_in_the_language_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, t: Translator, told: str
) -> None:
    log_file = tmp_path / "host.log"
    configure_logging(argparse.Namespace(verbose=0, log_file=log_file), screen=False, t=t)
    warning = Told(CANNOT_UPDATE, reason="Network is unreachable")
    logging.getLogger("dalmuti_net.host.announce").warning(warning)
    assert capsys.readouterr().err == told
    assert "Could not update the table's announcement" in log_file.read_text(encoding="utf-8")


@pytest.mark.usefixtures("clean_logging")
def test_a_bots_name_in_a_chinese_warning_is_its_one_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure_logging(argparse.Namespace(verbose=1, log_file=None), screen=False, t=ZH)
    told = Told(BOT_FAILED, name="Heuristic bot (2)", error="RuntimeError: x")
    logging.getLogger("dalmuti_net.host.server").warning(told)
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.endswith(
        "WARNING dalmuti_net.host.server: Heuristic bot (2) 因為錯誤而停止了（RuntimeError: x）；"
        "寬限時間過後，由代打的機器人接手它的座位。請回報這個問題。\n"
    )


@pytest.mark.usefixtures("clean_logging")
def test_configured_twice_a_warning_is_still_said_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for t in (ZH, ES):  # as cli.main called twice in one process
        configure_logging(argparse.Namespace(verbose=0, log_file=None), screen=False, t=t)
    logging.getLogger("dalmuti_net.test").warning("plain English, from a developer")
    assert capsys.readouterr().err == "plain English, from a developer\n"
    stop_logging()
    assert not logging.getLogger("dalmuti_net").handlers


def test_plain_tables_write_lines_so_their_warnings_go_to_stderr() -> None:
    join = argparse.Namespace(command="join", plain=True)
    host = argparse.Namespace(command="host", plain=True, headless=False)
    assert not takes_the_screen(join) and not takes_the_screen(host)
    assert takes_the_screen(argparse.Namespace(command="join", plain=False))


async def test_a_bot_that_fails_on_the_host_is_one_sentence_not_a_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(stream: trio.abc.Stream, bot: StartBot) -> None:
        raise ExceptionGroup("a bot's nursery", [RuntimeError("simulated bug")])

    table = Table("Mesa")
    table.add_bot()
    server = TableServer(table, run_bot=broken, between_hands=0)
    with caplog.at_level(logging.WARNING, logger="dalmuti_net"):
        async with trio.open_nursery() as nursery:
            await nursery.start(server.run)
            await server.flush()
            with trio.fail_after(5):
                while not caplog.records:
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
    record = caplog.records[0]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert record.getMessage() == (
        "Heuristic bot stopped because of an error (RuntimeError: simulated bug); a stand-in "
        "plays its seat after the grace period. Please report it."
    )
    assert told_record(record, ES._).startswith(
        "Heuristic bot se detuvo por un error (RuntimeError: simulated bug); pasado el periodo"
    )


async def test_a_host_that_sends_something_unreadable_is_told_once_in_the_language(
    caplog: pytest.LogCaptureFixture, autojump_clock: trio.testing.MockClock
) -> None:
    """A bot reconnects to such a host and meets it again: the connection closed is said
    once, not once per connection, with no technical English in it (the sentence that
    ends it all gives that as details)."""
    connections = 0

    welcome = {
        "type": "welcome",
        "version": PROTOCOL_VERSION,
        "player": 1,
        "token": "token",
        "host": False,
        "table": "Liars",
        "table_id": "liars",
        "software": "liar/1",
        "rules": {},
        "limits": {
            "max_frame_bytes": 65536,
            "heartbeat_interval_ms": 5000,
            "heartbeat_timeout_ms": 20000,
            "grace_period_ms": 60000,
            "turn_timer_ms": None,
            "max_messages_per_second": 20,
            "max_chat_chars": 500,
        },
    }

    async def host(host_end: trio.abc.Stream) -> None:
        await host_end.receive_some()  # the hello
        await host_end.send_all(encode(welcome))
        await host_end.send_all(encode({"type": "chat"}))  # no player, no text...

    async with trio.open_nursery() as nursery:

        async def connect() -> trio.abc.Stream:
            nonlocal connections
            connections += 1
            client_end, host_end = trio.testing.memory_stream_pair()
            nursery.start_soon(host, host_end)
            return client_end

        session = ClientSession("Ana")
        runner = ClientRunner(session, connect)
        with caplog.at_level(logging.WARNING, logger="dalmuti_net"):
            with trio.fail_after(60):
                await runner.run()
    assert connections == 3 and session.broken == "player: missing"
    [record] = caplog.records
    assert isinstance(record.msg, Told) and record.msg.template == UNREADABLE
    assert told_record(record, ZH._) == (
        "主持人送來了這個程式讀不懂的訊息，因此已關閉與主持人的連線；正在重試。"
    )
    assert told_record(record, ES._) == (
        "El anfitrión envió un mensaje que este programa no puede leer, así que se cerró la "
        "conexión con él; se vuelve a intentar."
    )


@pytest.mark.parametrize(
    ("language", "told"),
    [
        ("zh-Hant", "--interface 需要這台電腦的 IP 位址，例如 127.0.0.1 或 192.168.1.20，而不是"),
        ("es", "--interface necesita una dirección IP de esta máquina, como 127.0.0.1 o"),
    ],
)
def test_every_interface_is_not_one_interfaces_address(
    capsys: pytest.CaptureFixture[str], language: str, told: str
) -> None:
    # 0.0.0.0 would be listened on, then fail to be announced ("unexpected error").
    for address in ("0.0.0.0", "::", "224.0.0.251"):
        host = ["host", "--headless", "--interface", address, "--lang", language]
        assert main(host) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"dalmuti host: {told}") and err.count("\n") == 1, err
        assert err.endswith(f"{address}\n")

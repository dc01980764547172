"""One `--lang` spelling for every command, the host's console lines in its language."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from ui_support import LocalTable, draw

from dalmuti_net.cli import build_parser, main
from dalmuti_net.client.model.client_model import ClientModel, Screen
from dalmuti_net.client.model.display import display
from dalmuti_net.client.runner import Status
from dalmuti_net.client.session import ClientSession
from dalmuti_net.commands.host import check_options, options_from
from dalmuti_net.commands.host_runtime import PreparedHost
from dalmuti_net.commands.language import messages
from dalmuti_net.lang.i18n import LANGUAGE_TAGS, Translator, normalize_language
from dalmuti_net.lang.words import describe_cards
from tests.tables import seat, table_view

ALIASES = {
    "en": ["en", "EN", "en_US", "en-GB", "en_US.UTF-8", "C"],
    "zh_Hant": ["zh-Hant", "zh_Hant", "zh_TW", "zh-TW", "zh_TW.UTF-8", "zh-hant", "zh_HK"],
    "es": ["es", "es_ES", "es-ES", "es_MX.UTF-8", "ES"],
}


@pytest.mark.parametrize("language", list(ALIASES))
def test_every_spelling_of_a_language_is_an_alias(language: str) -> None:
    for spelling in ALIASES[language]:
        assert normalize_language(spelling) == language, spelling
        assert messages(spelling).language == language
    assert normalize_language(LANGUAGE_TAGS[language]) == language


@pytest.mark.parametrize("command", ["host", "join"])
def test_host_and_join_take_the_same_spellings(command: str) -> None:
    parser = build_parser()
    for spelling in ("zh-Hant", "zh_TW", "es_ES", "en"):
        args = parser.parse_args([command, "--lang", spelling])
        assert messages(args.lang).language == normalize_language(spelling)
    help_text = next(
        action.help
        for action in parser._subparsers._group_actions[0].choices[command]._actions  # type: ignore[union-attr]
        if "--lang" in action.option_strings
    )
    assert help_text is not None and "en, zh-Hant, es" in help_text


def test_an_unknown_language_is_refused_in_one_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["host", "--lang", "klingon", "--headless"]) == 2
    err = capsys.readouterr().err
    assert err == "dalmuti host: unknown language 'klingon'; choose one of en, zh-Hant, es\n"


def test_lists_in_chinese_take_the_enumeration_comma(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    zh = Translator("zh_Hant")
    assert describe_cards(zh, [3, 6, 6]) == "伯爵元帥 ×1、騎士 ×2"
    assert describe_cards(Translator("es"), [3, 6, 6]) == "Conde Mariscal ×1, Caballero ×2"
    parser = build_parser(zh)
    help_text = parser._subparsers._group_actions[0].choices["host"].format_help()  # type: ignore[union-attr]
    assert "en、zh-Hant、es（zh_TW" in help_text
    monkeypatch.setenv("LANGUAGE", "zh_TW")  # the locale's language tells --lang's mistake
    assert main(["host", "--lang", "klingon", "--headless"]) == 2
    assert capsys.readouterr().err == (
        "dalmuti host: 不認得的語言 'klingon'；請從 en、zh-Hant、es 中選一個\n"
    )


def _host_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["host", *argv])


def test_option_problems_are_told_in_the_chosen_language() -> None:
    options = options_from(_host_args("--bots", "9", "--lang", "es"))
    assert check_options(options, messages("es")) == "--bots debe estar entre 0 y 7"
    zh = check_options(options, messages("zh-Hant"))
    assert zh == "--bots 必須介於 0 到 7"
    assert check_options(options) == "--bots must be from 0 to 7"


@pytest.mark.parametrize(
    ("language", "dealt"),
    [
        ("en", "Hand 1 is being dealt."),
        ("zh-Hant", "正在發第 1 手牌。"),
        ("es", "Se reparte la mano 1."),
    ],
)
def test_the_host_console_speaks_the_hosts_language(language: str, dealt: str) -> None:
    options = options_from(_host_args("--headless", "--bots", "4", "--lang", language))
    host = PreparedHost.create(options)
    said: list[str] = []
    host.say = said.append
    host.table.start()
    host._report()
    assert said == [dealt]


def test_a_bot_has_one_name_on_every_screen() -> None:
    """Its name is not translated per viewer: "Heuristic bot (2) cheated" in the chat
    names the same seat for everyone (issue 33.10); its kind is told in the language."""
    screens = {}
    for language in ("en", "zh_Hant", "es"):
        table = LocalTable(language=language, seed=3)
        screens[language] = draw(table.ui)
        assert "Random bot (3)" in screens[language]
        assert table.ui.t._("bot") in screens[language]
    assert "隨機機器人" not in screens["zh_Hant"] and "Bot aleatorio" not in screens["es"]


def test_chinese_says_whose_move_it_was_and_an_undealt_hand_as_a_reader_would() -> None:
    # "還沒發完" read as "not finished dealing", "（不是你：" as "(it is not you:": a
    # newcomer's hand is not dealt yet, and a move made for you was not made by you.
    zh = Translator("zh_Hant")
    assert zh._("Your hand: not dealt yet") == "你的手牌：還沒發牌"
    assert zh._("(not you: the turn timer ran out and made the default move)") == (
        "（非你親自出手：時間到，自動採取了預設動作）"
    )
    assert zh._("(not you: the bot standing in for you)") == "（非你親自出手：是代你出牌的機器人）"


def test_the_views_log_is_set_in_taiwanese_typography_for_every_front_end() -> None:
    # The page drew 阿明 過牌。 and Lucía 打出 農民 ×1。 (the templates' spaces around a
    # name or a card that turned out Chinese), where the terminal drew 阿明過牌。
    session = ClientSession("阿明")
    session.player = 0
    session.table = table_view(seat(0, "阿明"), seat(1, "Lucía"), phase="playing")
    model = ClientModel(Translator("zh_Hant"), session, lists_tables=False)
    model.on_status(Status.CONNECTED)
    model.screen = Screen.TABLE
    model.add_log("event", "阿明 過牌。")
    model.add_log("event", "Lucía 打出 農民 ×1。")
    shown = [entry.text for entry in display(model).log[-2:]]
    assert shown == ["阿明過牌。", "Lucía 打出農民 ×1。"]


def test_a_chinese_host_players_table_is_named_without_a_gap(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The evening's header read 阿明 的牌桌 (the template's space for a Latin name) where
    # its own log line said 阿明的牌桌.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    named = options_from(_host_args("--player-name", "阿明", "--lang", "zh-Hant")).name
    assert named == "阿明的牌桌"
    latin = options_from(_host_args("--player-name", "Ana", "--lang", "zh-Hant")).name
    assert latin == "Ana 的牌桌"


def test_a_crashed_tables_line_in_chinese_has_no_gap_after_its_parenthesis() -> None:
    zh = Translator("zh_Hant")
    table = "「阿明的牌桌」（2026-12-07 21:29 開桌；已發 2 手牌；阿明、Bo）"
    resume = zh._("{table} did not end cleanly: dalmuti host --resume {file} goes on with it.")
    assert resume.format(table=table, file="t.save").startswith(table + "沒有正常結束：")
    assert zh._("{table} did not end cleanly.").format(table=table) == table + "沒有正常結束。"

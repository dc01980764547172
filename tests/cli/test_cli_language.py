"""Every command's help and messages in the language asked for (en, zh-Hant, es), with the
same `--lang` spellings everywhere."""

from __future__ import annotations

import argparse

import pytest

from dalmuti_net.cli import COMMANDS, build_parser, main
from dalmuti_net.commands.common import EXIT_CODES_HELP
from dalmuti_net.commands.language import ARGPARSE_WORDS, help_translator, language_asked
from dalmuti_net.lang.i18n import Translator
from dalmuti_net.lang.text import width

TRANSLATED = ["zh-Hant", "es"]
SAME_IN_EVERY_LANGUAGE = {"incompatible"}
"""English help texts whose translation is spelled the same in some language."""


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    subparsers = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    found: argparse.ArgumentParser = subparsers.choices[name]
    return found


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    return [
        str(action.help)
        for action in parser._actions
        if action.help and action.help is not argparse.SUPPRESS
    ]


def _help_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_option_of_every_command_is_explained_in_the_language(language: str) -> None:
    english = build_parser(Translator("en"))
    told = build_parser(help_translator(["--lang", language]))
    for name in COMMANDS:
        pairs = zip(_helps(_subparser(english, name)), _helps(_subparser(told, name)), strict=True)
        for english_help, told_help in pairs:
            if english_help not in SAME_IN_EVERY_LANGUAGE:
                assert told_help != english_help, (name, language, english_help)
        assert _subparser(told, name).description != _subparser(english, name).description


@pytest.mark.parametrize("language", ["en", *TRANSLATED])
@pytest.mark.parametrize("command", [*COMMANDS, None])
def test_the_help_fits_80_columns(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str | None,
    language: str,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    out = _help_of(capsys, *([command] if command else []), "--lang", language)
    assert all(width(line) <= 80 for line in out.splitlines()), out
    t = Translator(help_translator(["--lang", language]).language)
    assert out.startswith(t._("usage: "))
    assert t._("show this help message and exit") in out
    if command is None:
        assert t._(EXIT_CODES_HELP).splitlines()[0] in out
    if language == "zh-Hant":
        assert "選項：" in out and "選項:" not in out  # full-width colon after a title


def test_argparse_errors_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["host", "--bots", "x", "--lang", "zh_TW"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("用法：dalmuti host")
    assert "dalmuti host：錯誤：引數 --bots：無效的 int 值：'x'" in err
    with pytest.raises(SystemExit):
        main(["bot", "--count", "--lang=es_ES"])
    assert "argumento --count: se esperaba un valor" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["sim", "--hands"])  # the locale's language (the tests run in English)
    assert "argument --hands: expected one argument" in capsys.readouterr().err


def test_argparse_gets_its_own_words_back_after_a_parse() -> None:
    main_parser = build_parser(Translator("es"))
    with pytest.raises(SystemExit):
        main(["hosts", "--timeout", "x", "--lang", "es"])
    assert argparse._("usage: ") == "usage: "  # type: ignore[attr-defined]
    assert main_parser.format_usage().startswith("usage: ")  # argparse's word, outside a parse


@pytest.mark.parametrize(
    ("argv", "told"),
    [
        (["bot", "--count", "9", "--lang", "es"], "dalmuti bot: --count debe estar entre 1 y 8\n"),
        (
            ["bot", "--exec-timeout", "0", "--lang", "zh-TW"],
            "dalmuti bot: --exec-timeout 必須大於 0、最多 3600\n",
        ),
        (
            ["bot", "--exec", " ", "--lang", "es"],
            "dalmuti bot: --exec necesita una orden que ejecutar\n",
        ),
        (
            ["hosts", "--timeout", "0", "--lang", "es_ES.UTF-8"],
            "dalmuti hosts: --timeout debe ser mayor que 0 y como mucho 600\n",
        ),
        (
            ["sim", "--players", "3", "--lang", "zh_Hant"],
            "dalmuti sim: --players 必須介於 4 到 8，而不是 3\n",
        ),
        (
            ["sim", "--hands", "0", "--lang", "es"],
            "dalmuti sim: --hands debe ser al menos 1, no 0\n",
        ),
        (
            ["join", "ana-laptop:99999", "--lang", "es"],
            "dalmuti join: 'ana-laptop:99999': el puerto debe ser un número del 1 al 65535\n",
        ),
        (["bot", ":7341", "--lang", "zh-Hant"], "dalmuti bot: ':7341'：缺少主機名稱\n"),
        (
            ["bot", "127.0.0.1:8600", "--strategy", "nope", "--lang", "es"],
            "dalmuti bot: estrategia desconocida 'nope'; estrategias conocidas: heuristic, "
            "learned, montecarlo, random (o paquete.módulo:atributo para la tuya)\n",
        ),
        (
            ["sim", "--strategies", "no_such_module_8600:Bot", "--lang", "zh-Hant"],
            "dalmuti sim: 無法為策略 'no_such_module_8600:Bot' 匯入 'no_such_module_8600'："
            "No module named 'no_such_module_8600'\n",
        ),
        (
            ["bot", "--lang", "klingon"],
            "dalmuti bot: unknown language 'klingon'; choose one of en, zh-Hant, es\n",
        ),
        (
            ["hosts", "--lang", "klingon"],
            "dalmuti hosts: unknown language 'klingon'; choose one of en, zh-Hant, es\n",
        ),
    ],
)
def test_command_messages_in_the_language(
    capsys: pytest.CaptureFixture[str], argv: list[str], told: str
) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err == told


def test_a_mistyped_address_is_told_in_the_table_screens_language() -> None:
    from dalmuti_net.client.ui.state import ClientUi

    ui = ClientUi(Translator("es"), name="Ana")
    ui.press("a")  # the discovery screen's "type an address"
    for key in "ana:0":
        ui.press(key)
    ui.press("enter")
    assert ui.model.notice is not None
    assert ui.model.notice.text == "'ana:0': el puerto debe ser un número del 1 al 65535"


def test_every_argparse_word_is_in_the_catalogs() -> None:
    for language in ("zh_Hant", "es"):
        t = Translator(language)
        for word in ARGPARSE_WORDS:
            if isinstance(word, tuple):
                assert t.n_(*word, 2) != word[1]
            else:
                assert t._(word) != word or word.startswith("%(prog)s"), (language, word)


def test_the_language_is_read_before_the_command_line_is_parsed() -> None:
    assert language_asked(["host", "--lang", "es"]) == "es"
    assert language_asked(["host", "--lang=zh_TW", "--bots", "3"]) == "zh_TW"
    assert language_asked(["bot", "--", "--lang", "es"]) is None
    assert language_asked(["bot", "--lang"]) is None
    assert help_translator(["--lang", "klingon"]).language == "en"  # the locale's (English here)

"""What a save or a rules file that cannot be used makes a command say: one line in the
language asked for (the host and sim refuse them before anything starts)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dalmuti_net.cli import main
from dalmuti_net.engine import Rules, RulesError
from dalmuti_net.host.savefile import SaveFile
from dalmuti_net.host.settings import settings_from_dict
from dalmuti_net.host.table import UnplayableChange
from dalmuti_net.lang.i18n import Translator

HEADER = {"table_id": "8600", "name": "Mesa", "code": None, "seed": 1, "headless": True}


def _refusal(capsys: pytest.CaptureFixture[str], code: int, *argv: str) -> str:
    assert main(list(argv)) == code
    out, err = capsys.readouterr()
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err  # one line, no traceback
    return err


def _host(path: Path, how: str, language: str) -> list[str]:
    return ["host", "--headless", how, str(path), "--no-announce", "--lang", language]


RULES_FILES = [
    (
        "[rules]\nscoring = 3\n",
        "{f}：[rules]：scoring 必須是 true 或 false",
        "{f}: [rules]: scoring debe ser true o false",
    ),
    (
        "[rulez]\n",
        "{f}：不認得的區段 rulez；應該是 [rules] 與 [table]",
        "{f}: secciones desconocidas rulez; se esperaban [rules] y [table]",
    ),
    (
        "[table]\nbot_pace = 1\nturn = 3\npace = 1\n",
        "{f}：[table]：不認得的鍵 pace、turn；認得的有：between_hands、bot_pace、grace_period、"
        "turn_timer",
        "{f}: [table]: claves desconocidas pace, turn; conocidas: between_hands, bot_pace, "
        "grace_period, turn_timer",
    ),
    (
        "[table]\nbot_pace = -1\n",
        "{f}：[table] 的 bot_pace 必須是秒數，0 或以上",
        "{f}: [table] bot_pace debe ser un número de segundos, 0 o más",
    ),
    (
        "[rules]\nhand_limit = 5000\n",
        "{f}：[rules]：hand_limit 最多只能是 1000",
        "{f}: [rules]: hand_limit puede ser como mucho 1000",
    ),
    (
        "[rules]\nmerchants = true\n",
        "{f}：[rules]：不認得的規則選項：merchants",
        "{f}: [rules]: opciones de reglas desconocidas: merchants",
    ),
]


@pytest.mark.parametrize(("text", "zh", "es"), RULES_FILES)
def test_a_rules_file_that_cannot_be_used_is_told_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, zh: str, es: str
) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    for language, told in (("zh-Hant", zh), ("es", es)):
        told = told.format(f=path)
        host = ["host", "--headless", "--rules", str(path), "--no-announce"]
        assert _refusal(capsys, 2, *host, "--lang", language) == f"dalmuti host: {told}\n"
        sim = ["sim", "--rules", str(path), "--hands", "1"]
        assert _refusal(capsys, 2, *sim, "--lang", language) == f"dalmuti sim: {told}\n"


def test_sims_own_rule_options_are_told_in_the_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sim = ["sim", "--hands", "1", "--rules"]
    told = _refusal(capsys, 2, *sim, "party,hand_limit=x", "--lang", "zh-Hant")
    assert told == "dalmuti sim: hand_limit 必須是整數，不是 'x'\n"
    told = _refusal(capsys, 2, *sim, "merchant_exchange=maybe", "--lang", "es")
    assert told == "dalmuti sim: merchant_exchange se activa o desactiva (true/false), no 'maybe'\n"
    told = _refusal(capsys, 2, *sim, "nope.toml", "--lang", "es")
    assert told == (
        "dalmuti sim: 'nope.toml' no es ni un archivo de reglas ni un conjunto (conjuntos: "
        "basic, scoring, party, all)\n"
    )


def test_a_file_that_is_not_a_save_is_told_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty, text = tmp_path / "empty", tmp_path / "notes.txt"
    empty.touch()
    text.write_text("not a save\n")
    told = _refusal(capsys, 2, *_host(empty, "--resume", "zh-Hant"))
    assert told == f"dalmuti host: {empty} 是空的：它不是 dalmuti-net 的存檔\n"
    told = _refusal(capsys, 2, *_host(text, "--resume", "es"))
    assert told == (
        f"dalmuti host: {text} no es una partida guardada de dalmuti-net (no es una base de "
        "datos SQLite)\n"
    )


def test_a_save_in_use_by_another_host_is_told_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.save"
    running = SaveFile.create(path, HEADER)  # the other host holds the file's lock
    try:
        told = _refusal(capsys, 3, *_host(path, "--resume", "zh-Hant"))
        assert told == (
            f"dalmuti host: {path} 正由另一個執行中的主持人使用；請先停止那個主持人，或把這桌存"
            "到另一個檔案\n"
        )
        told = _refusal(capsys, 3, *_host(path, "--resume", "es"))
        assert told.startswith(f"dalmuti host: {path} lo está usando otro anfitrión en marcha;")
    finally:
        running.close()


def test_a_damaged_save_is_told_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.save"
    save = SaveFile.create(path, HEADER)
    save.append([{"op": "join", "name": "Ana"}, {"op": "join", "name": "Bo"}])
    save.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE changes SET crc = crc + 1 WHERE seq = 2")
    db.close()
    told = _refusal(capsys, 2, *_host(path, "--resume", "zh-Hant"))
    assert told == f"dalmuti host: {path} 已損壞：第 2 筆變更與其校驗和不符\n"
    told = _refusal(capsys, 2, *_host(path, "--resume", "es"))
    assert told == (
        f"dalmuti host: {path} está dañado: el cambio 2 no coincide con su suma de comprobación\n"
    )
    told = _refusal(capsys, 2, "history", str(path), "--lang", "es")
    assert told.endswith(
        f"{path} está dañado: el cambio 2 no coincide con su suma de comprobación\n"
    )


def test_sentences_within_sentences_are_told_in_the_same_language() -> None:
    zh, es = Translator("zh_Hant"), Translator("es")
    with pytest.raises(RulesError) as caught:
        Rules(philanthropic_scoring=True)
    assert caught.value.told(es._) == "philanthropic_scoring necesita que scoring esté activado"
    with pytest.raises(ValueError) as wrapped:
        settings_from_dict({"rules": {"misdeal_chance": 2}})
    assert wrapped.value.told(zh._) == (  # type: ignore[attr-defined]
        "規則檔：[rules]：misdeal_chance 必須是 0（關閉）到 1 之間的數字"
    )
    unplayable = UnplayableChange(7, KeyError("player"))
    assert str(unplayable) == "change 7 cannot be played again (it lacks 'player')"
    assert unplayable.told(zh._) == "第 7 筆變更無法重新套用（它缺少 'player'）"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "zh-Hant",
            [
                "4 位玩家，12 手，種子 2；規則：scoring、hand_limit=20",
                "座位  策略",
                "手數  平均名次  每手得分  GD  GP  革命  交換",
                "95% 信賴區間，以 1 桌為樣本：",
            ],
        ),
        (
            "es",
            [
                "4 jugadores, 12 manos, semilla 2; reglas: scoring, hand_limit=20",
                "asiento  estrategia",
                "manos  puesto medio  pts/mano  GD  GP  revol.  interc.",
                "intervalos de confianza del 95 %, con 1 mesa como muestra:",
            ],
        ),
    ],
)
def test_the_sim_report_is_in_the_language_in_columns_of_screen_cells(
    capsys: pytest.CaptureFixture[str], language: str, words: list[str]
) -> None:
    from dalmuti_net.lang.text import width

    argv = ["sim", "--hands", "12", "--seed", "2", "--jobs", "1", "--ci", "--lang", language]
    assert main([*argv, "--strategies", "heuristic,random"]) == 0
    out = capsys.readouterr().out
    for wanted in words:
        assert wanted in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith(words[1]))
    table = lines[header : header + 5]  # the header and the four seats
    # The figures are right-aligned under their headings: every row ends in the same cell.
    assert len({width(line) for line in table}) == 1, table
    assert [line.split()[0] for line in table[1:]] == ["1", "2", "3", "4"]


@pytest.mark.parametrize("language", ["en", "zh-Hant", "es"])
def test_the_usage_wraps_under_the_commands_first_option(
    capsys: pytest.CaptureFixture[str], language: str
) -> None:
    from dalmuti_net.lang.text import width

    with pytest.raises(SystemExit) as exit_:
        main(["host", "--port", "abc", "--lang", language])
    assert exit_.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    usage = [line for line in lines if not line.startswith("dalmuti host")]
    assert len(usage) >= 3  # the usage takes several lines, then argparse's error
    first, rest = usage[0], [line for line in usage[1:] if line.startswith(" ")]
    under = width(first[: first.index("[")])  # "用法：dalmuti host " is 19 cells
    assert under == width(first.split("dalmuti host")[0]) + len("dalmuti host ")
    assert rest and all(len(line) - len(line.lstrip()) == under for line in rest), usage


def test_a_sentence_is_wrapped_at_words_on_a_terminal_and_kept_whole_in_a_pipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io
    import os
    import shutil

    from dalmuti_net.commands.common import tell
    from dalmuti_net.lang.text import width

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(shutil, "get_terminal_size", lambda *_: os.terminal_size((80, 24)))
    sentence = (
        "Ninguna mesa respondió en 1 s. Comprueba que estás en la misma red que el "
        "anfitrión, que ningún cortafuegos bloquea el puerto UDP 5353 y que no hay una VPN"
    )
    terminal, pipe = Terminal(), io.StringIO()
    tell(sentence, terminal)
    tell(sentence, pipe)
    assert pipe.getvalue() == sentence + "\n"
    lines = terminal.getvalue().splitlines()
    assert len(lines) == 3 and all(width(line) <= 80 for line in lines)
    assert " ".join(lines) == sentence  # broken between words only
    tell(
        "1 秒內沒有任何牌桌回應。請確認你和主持人在同一個網路、沒有防火牆擋住 UDP 連接埠 5353",
        terminal,
    )
    assert all(width(line) <= 80 for line in terminal.getvalue().splitlines())


def test_an_option_value_refused_by_its_type_is_told_in_the_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["sim", "--players", "x", "--lang", "es"])
    assert capsys.readouterr().err.endswith(
        "argumento --players: un número de jugadores, o una lista separada por comas como "
        "4,6,8, no 'x'\n"
    )


def test_dalmuti_bot_sits_down_named_in_the_language_asked_for() -> None:
    from dalmuti_net.commands.bot import default_bot_name

    assert default_bot_name(Translator("es"), "heuristic") == "Bot astuto"
    assert default_bot_name(Translator("zh_Hant"), "heuristic") == "聰明機器人"
    assert default_bot_name(Translator("en"), "random") == "Random bot"
    assert default_bot_name(Translator("es"), None) == "Bot externo"
    assert default_bot_name(Translator("es"), "montecarlo") == "Bot Montecarlo"
    assert default_bot_name(Translator("zh_Hant"), "mine:Cautious") == "Cautious 機器人"
    assert default_bot_name(Translator("es"), "passer") == "Bot Passer"  # a strategy of your own

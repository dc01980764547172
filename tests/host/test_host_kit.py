"""The dedicated host kit (the top-level host/ folder): its rules files load, and the
systemd start script resumes a saved table or saves a new one, with arguments that
`dalmuti host` accepts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dalmuti_net.cli import build_parser
from dalmuti_net.commands.host import check_options, options_from
from dalmuti_net.host.settings import load_settings

KIT = Path(__file__).resolve().parents[2] / "host"
RULES_FILES = sorted((KIT / "rules").glob("*.toml"))
START_SCRIPT = KIT / "systemd" / "dalmuti-host-start"


def test_the_kit_has_the_four_rules_files() -> None:
    assert [path.name for path in RULES_FILES] == [
        "basic.toml",
        "every-rule.toml",
        "party-night.toml",
        "tournament.toml",
    ]


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda path: path.name)
def test_each_rules_file_loads(path: Path) -> None:
    settings = load_settings(str(path))
    rules = settings.rules
    if path.name == "basic.toml":
        assert not rules.scoring and rules.hand_limit is None and settings.turn_timer == 60
        assert rules.misdeal_chance == 0 and not rules.merchant_exchange
    elif path.name == "every-rule.toml":
        assert rules.first_deal_revolution and rules.stripped_decks and rules.scoring
        assert rules.philanthropic_scoring and rules.merchant_exchange
        assert rules.misdeal_chance > 0 and rules.hand_limit == 20
    elif path.name == "tournament.toml":
        assert rules.scoring and rules.hand_limit == 20
        assert settings.turn_timer is not None and settings.turn_timer > 0
    else:
        assert rules.scoring and rules.hand_limit == 10 and settings.turn_timer == 90


needs_sh = pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")


def run_start_script(tmp_path: Path, table_file: Path, **settings: str) -> list[str]:
    """The arguments the start script gives `dalmuti` (a stub that prints them)."""
    stub = tmp_path / "dalmuti-stub"
    stub.write_text(f"#!{sys.executable}\nimport sys\nprint('\\n'.join(sys.argv[1:]))\n")
    stub.chmod(0o755)
    environment = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DALMUTI": str(stub),
        "DALMUTI_TABLE_FILE": str(table_file),
        **settings,
    }
    done = subprocess.run(
        ["sh", str(START_SCRIPT)], env=environment, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def accepted_by_dalmuti_host(arguments: list[str]) -> None:
    parsed = build_parser().parse_args(arguments)
    assert parsed.command == "host"
    assert check_options(options_from(parsed)) is None


@needs_sh
def test_the_start_script_opens_a_new_table_when_nothing_is_saved(tmp_path: Path) -> None:
    table_file = tmp_path / "table.dat"
    arguments = run_start_script(
        tmp_path,
        table_file,
        DALMUTI_TABLE_NAME="Office table",
        DALMUTI_RULES=str(KIT / "rules" / "tournament.toml"),
        DALMUTI_CODE="4521",
        DALMUTI_BOTS="2",
        DALMUTI_INTERFACE="127.0.0.1",
        DALMUTI_NO_ANNOUNCE="1",
    )
    assert arguments[:4] == ["host", "--headless", "--port", "7341"]
    assert "--save" in arguments and "--resume" not in arguments
    assert arguments[arguments.index("--save") + 1] == str(table_file)
    assert arguments[arguments.index("--table-name") + 1] == "Office table"
    assert {"--code", "--bots", "--rules", "--no-announce", "--interface"} <= set(arguments)
    accepted_by_dalmuti_host(arguments)
    table_file.write_bytes(b"")  # an empty file holds no table yet
    assert "--save" in run_start_script(tmp_path, table_file)


@needs_sh
def test_the_start_script_resumes_a_saved_table(tmp_path: Path) -> None:
    table_file = tmp_path / "table.dat"
    table_file.write_bytes(b"\x00\x00\x00\x01\x80")
    arguments = run_start_script(
        tmp_path, table_file, DALMUTI_TABLE_NAME="Ignored", DALMUTI_PORT="7400"
    )
    assert arguments == ["host", "--headless", "--port", "7400", "--resume", str(table_file)]
    accepted_by_dalmuti_host(arguments)


def test_the_systemd_unit_runs_the_start_script_as_its_own_user() -> None:
    unit = (KIT / "systemd" / "dalmuti-host.service").read_text()
    settings = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and line[0].isalpha()
    )
    assert settings["ExecStart"].endswith("/dalmuti-host-start")
    assert "User" not in settings and settings["DynamicUser"] == "yes"
    assert settings["Restart"] == "on-failure"
    assert settings["KillSignal"] == "SIGTERM" and settings["StateDirectory"] == "dalmuti"
    assert settings["CapabilityBoundingSet"] == "" and settings["UMask"] == "0077"
    assert settings["SystemCallFilter"] == "@system-service"
    assert os.access(START_SCRIPT, os.X_OK)
    # It installs what README.md installs: the checkout, with pipx.
    readme = (KIT.parent / "README.md").read_text(encoding="utf-8")
    assert "pipx install ." in readme and "pipx install .\n" in unit
    assert "Environment=DALMUTI=/usr/local/bin/dalmuti\n" in unit


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    unit = tmp_path / "dalmuti-host.service"
    unit.write_text((KIT / "systemd" / "dalmuti-host.service").read_text(), encoding="utf-8")
    start = tmp_path / "dalmuti-host-start"
    start.write_text("#!/bin/sh\n", encoding="utf-8")
    start.chmod(0o755)
    text = unit.read_text().replace("/usr/local/lib/dalmuti-host-start", str(start))
    unit.write_text(text, encoding="utf-8")
    checked = subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    problems = [
        line
        for line in (checked.stdout + checked.stderr).splitlines()
        if str(unit) in line or "dalmuti-host.service" in line
    ]
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------- the rules-file docs


def test_the_rules_file_tables_in_host_readme_are_generated_from_the_code() -> None:
    from tools import rules_docs

    text = (KIT / "README.md").read_text(encoding="utf-8")
    assert "<!-- generated: rules-file -->" in text and "<!-- generated: presets -->" in text
    assert rules_docs.rewrite(text) == text, "run `python -m tools.rules_docs`"


def test_every_documented_key_is_accepted_and_nothing_else() -> None:
    import re

    from dalmuti_net.host.settings import SettingsError, settings_from_dict

    text = (KIT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| `\[(rules|table)\]` \|", text, re.MULTILINE)
    assert len(rows) == 11
    for key, section in rows:
        value: object = True if section == "rules" and key != "hand_limit" else 1
        if key == "turn_timer":
            value = 5  # the shortest turn timer there is
        if key == "misdeal_chance":
            value = 0.5
        data = (
            {section: {key: value}}
            if key != "philanthropic_scoring"
            else {"rules": {key: True, "scoring": True}}
        )
        settings_from_dict(data)
    with pytest.raises(SettingsError, match="unknown key"):
        settings_from_dict({"table": {"turn_time": 3}})
    with pytest.raises(SettingsError, match="unknown section"):
        settings_from_dict({"rule": {}})
    with pytest.raises(SettingsError, match="turn_timer must be 0"):
        settings_from_dict({"table": {"turn_timer": 2}})
    with pytest.raises(SettingsError, match="between_hands must be 600"):
        settings_from_dict({"table": {"between_hands": 601}})


def test_the_presets_table_shows_each_presets_values() -> None:
    from dalmuti_net.host.settings import PRESETS

    text = (KIT / "README.md").read_text(encoding="utf-8")
    assert "| `misdeal_chance` | 0.0 | 0.0 | 0.0 | 0.05 |" in text
    assert PRESETS["all"].misdeal_chance == 0.05 and PRESETS["all"].hand_limit == 20


@needs_sh
def test_the_settings_file_example_starts_a_table(tmp_path: Path) -> None:
    """host/README.md's /etc/dalmuti/host.env, with the rules file the install copies there."""
    page = (KIT / "README.md").read_text(encoding="utf-8")
    block = page.split("`systemd/dalmuti-host-start`. For example:\n\n", 1)[1].split("\n\n")[0]
    settings = dict(line.strip().split("=", 1) for line in block.splitlines())
    assert settings.pop("DALMUTI_RULES") == "/etc/dalmuti/rules.toml"
    unit = (KIT / "systemd" / "dalmuti-host.service").read_text(encoding="utf-8")
    assert "cp host/rules/party-night.toml /etc/dalmuti/rules.toml" in unit
    rules = str(KIT / "rules" / "party-night.toml")
    table_file = tmp_path / "table.dat"
    arguments = run_start_script(tmp_path, table_file, DALMUTI_RULES=rules, **settings)
    assert arguments[arguments.index("--table-name") + 1] == settings["DALMUTI_TABLE_NAME"]
    assert arguments[arguments.index("--code") + 1] == settings["DALMUTI_CODE"]
    assert arguments[arguments.index("--bots") + 1] == settings["DALMUTI_BOTS"]
    accepted_by_dalmuti_host(arguments)

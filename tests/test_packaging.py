"""The runtime package holds only what a player runs: the developer generators live in
tools/ (the sdist has them, the wheel does not; .ci/run checks the built wheel itself)."""

from __future__ import annotations

import ast
from pathlib import Path

import dalmuti_net
import tools

PACKAGE = Path(dalmuti_net.__file__).resolve().parent
ENTRY_POINTS = {
    PACKAGE / "__main__.py",
    PACKAGE / "cli.py",
    # The learned bot's training recipe (issue 42), behind the research extra:
    # `python -m dalmuti_net.research.train`, documented for researchers, never run by a game.
    PACKAGE / "research" / "train.py",
}


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_only_the_dalmuti_command_runs_from_the_package() -> None:
    runnable = []
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            test = node.test if isinstance(node, ast.If) else None
            if isinstance(test, ast.Compare) and ast.unparse(test) in (
                "__name__ == '__main__'",
                "'__main__' == __name__",
            ):
                runnable.append(path)
    assert modules() and set(runnable) <= ENTRY_POINTS, [str(p) for p in runnable]


def test_the_package_never_imports_the_developer_tools() -> None:
    importing = []
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else []
            )
            if any(name == "tools" or name.startswith("tools.") for name in names):
                importing.append(str(path))
    assert importing == []


def test_the_tools_are_beside_the_package_not_in_it() -> None:
    tools_dir = Path(tools.__file__).resolve().parent
    assert not tools_dir.is_relative_to(PACKAGE)
    assert {p.stem for p in tools_dir.glob("*.py")} >= {
        "catalogs",
        "schema",
        "vectors",
        "protocol_docs",
        "rules_docs",
    }
    assert not any((PACKAGE / "protocol" / f"{name}.py").exists() for name in ("docs", "schema"))

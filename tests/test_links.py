"""Links: README.md's point at the project's canonical address (a package index renders
README.md as the project's description, where a relative link leads nowhere); every other
page's relative links, and every anchor, resolve in the tree."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import dalmuti_net

ROOT = Path(__file__).resolve().parents[1]
URLS: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
BASE = URLS["Source"]
PACKAGE = Path(dalmuti_net.__file__).resolve().parent
LINK = re.compile(r"\]\(([^)\s]+)\)|<(https?://[^>\s]+)>")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)


def markdown_pages() -> list[Path]:
    return sorted(path for path in ROOT.rglob("*.md") if not _ignored(path))


def _ignored(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return any(part.startswith(".") or part in ("node_modules", "build") for part in parts) or (
        parts[0].endswith(".egg-info")
    )


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [a or b for a, b in LINK.findall(text)]


def anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings (lower case, punctuation dropped,
    spaces to hyphens, repeats numbered)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        text = re.sub(r"`|\*|\[([^]]*)\]\([^)]*\)", r"\1", heading)
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def in_tree(file: Path) -> Path:
    """Where a file of the tree is: the package's own pages are wherever ``dalmuti_net`` is
    imported from (.ci/run tests the installed wheel from an sdist without the package)."""
    if file.is_relative_to(ROOT / "dalmuti_net") and not (ROOT / "dalmuti_net").exists():
        return PACKAGE / file.relative_to(ROOT / "dalmuti_net")
    return file


def resolves(page: Path, target: str) -> str | None:
    """Why ``target``, relative to ``page``, does not resolve in the tree (None if it does)."""
    path, _, anchor = target.partition("#")
    file = in_tree((page.parent / path).resolve()) if path else page
    if not file.exists():
        return f"{target}: no {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}"
    if anchor and file.suffix == ".md" and anchor not in anchors(file):
        return f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}"
    return None


def test_the_project_urls_share_the_canonical_address() -> None:
    assert set(URLS) >= {"Homepage", "Source", "Issues", "Documentation"}
    assert urlsplit(BASE).scheme == "https" and not BASE.endswith("/")
    for name, url in URLS.items():
        assert url == BASE or url.startswith((f"{BASE}/", f"{BASE}#")), (name, url)
    assert f"<{BASE}>" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_links_are_absolute_at_the_canonical_address() -> None:
    readme = ROOT / "README.md"
    found = links(readme)
    assert len(found) >= 10
    wrong = []
    for target in found:
        if not target.startswith(BASE):
            wrong.append(f"{target}: not under {BASE} (a package index cannot follow it)")
            continue
        rest = target[len(BASE) :]
        where = re.fullmatch(r"/(blob|tree)/main/([^#]+)(#.*)?|(#.+)?", rest)
        if where is None:
            wrong.append(f"{target}: neither the home page nor a file on main")
            continue
        kind, path, anchor, home_anchor = where.groups()
        if kind is None:
            problem = resolves(readme, home_anchor or "")
        else:
            file = in_tree(ROOT / path)
            if (kind == "tree") != file.is_dir():
                wrong.append(f"{target}: {path} is {'a folder' if file.is_dir() else 'a file'}")
                continue
            problem = resolves(ROOT / "README.md", path + (anchor or ""))
        if problem:
            wrong.append(problem)
    assert wrong == []


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve_in_the_tree(page: Path) -> None:
    wrong = [
        problem
        for target in links(page)
        if not urlsplit(target).scheme and (problem := resolves(page, target))
    ]
    assert wrong == []

"""Links: the project has no public address, so every page (README.md too) links to the
project's own files relatively, each link and anchor resolves in the tree, and no page and
no package metadata names an address for the project."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import dalmuti_net

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
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


def test_the_package_metadata_names_no_project_address() -> None:
    """An address for the project would be invented (none exists): no project URLs."""
    assert "urls" not in PROJECT


def test_no_page_links_to_a_hosted_copy_of_the_project() -> None:
    """Links into the project are relative, so they work in a clone, a checkout and an
    unpacked sdist; an absolute link to a code host would lead nowhere."""
    wrong = [
        f"{page.relative_to(ROOT)}: {target}"
        for page in markdown_pages()
        for target in links(page)
        if urlsplit(target).hostname in ("github.com", "gitlab.com", "codeberg.org")
    ]
    assert wrong == []


def test_readme_links_into_the_project_relatively() -> None:
    found = [t for t in links(ROOT / "README.md") if not urlsplit(t).scheme]
    assert len(found) >= 10
    assert "PROTOCOL.md" in found and "protocol/REFERENCE.md" in found


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve_in_the_tree(page: Path) -> None:
    wrong = [
        problem
        for target in links(page)
        if not urlsplit(target).scheme and (problem := resolves(page, target))
    ]
    assert wrong == []

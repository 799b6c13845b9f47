"""The plain walks of ``html_walk`` find what BeautifulSoup's own searches find, in the same
order, on real pages (the corpus's HTML) and on a namespaced XML tree (prefixed names)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from omnireader.formats.web.html_markdown import html_to_text
from omnireader.formats.web.html_walk import gone, named, parent_named, tags

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "markitdown"
PAGES = sorted(CORPUS.glob("*.html"))
NAME_SETS = [("a",), ("table",), ("td", "th"), ("ul", "ol"), ("h1", "h2", "h3", "p", "div")]


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(html_to_text(path.read_bytes(), str(path)), "lxml")


def _same(found: list, expected: list) -> bool:
    return len(found) == len(expected) and all(f is g for f, g in zip(found, expected))


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_tags_and_parents_match_bs4_searches(path: Path) -> None:
    soup = _soup(path)
    assert _same(tags(soup), soup.find_all(True))
    for names in NAME_SETS:
        assert _same(tags(soup, names), soup.find_all(list(names)))
    for el in tags(soup)[::7]:
        for names in NAME_SETS:
            assert parent_named(el, names) is el.find_parent(list(names))


def test_prefixed_names_match_as_bs4_matches_them() -> None:
    soup = BeautifulSoup(
        '<root xmlns:ix="urn:x"><ix:header><ix:hidden>a</ix:hidden></ix:header>'
        "<header><p>b</p></header></root>",
        "xml",
    )
    hidden = soup.find("ix:hidden")
    assert hidden is not None and hidden.prefix == "ix"
    for names in (["ix:header"], ["header"], ["ix:hidden", "p"]):
        assert tags(soup, names) == soup.find_all(names)
        assert parent_named(hidden, names) is hidden.find_parent(names)
    assert named(hidden, ["ix:hidden"]) and named(hidden, ["hidden"])


def test_gone_is_decomposed_without_searching() -> None:
    soup = BeautifulSoup("<div><p>a<b>b</b></p><p>c</p></div>", "lxml")
    first, second = soup.find_all("p")
    bold = first.b
    first.decompose()
    assert [gone(el) for el in (first, bold, second)] == [True, True, False]
    assert [el.decomposed for el in (first, bold, second)] == [True, True, False]

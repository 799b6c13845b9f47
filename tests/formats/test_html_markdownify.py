"""Our converter's tree walk (``process_tag`` / ``process_text`` asking ``parent_tags`` and a
cache of block names instead of a ``find_parent("pre")`` per tag) writes what markdownify's
own walk writes, on real pages and on the cases its shortcuts depend on: text in and around
``<pre>``, a root inside ``<pre>``, whitespace between blocks."""

from __future__ import annotations

from pathlib import Path

import markdownify
import pytest
from bs4 import BeautifulSoup

from omnireader.formats.web.html_markdown import html_to_text
from omnireader.formats.web.html_markdownify import converter_class

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "markitdown"
PAGES = sorted(CORPUS.glob("*.html"))
CASES = [
    "<div><p>a</p>\n  <pre><code>x = 1\n\n\n<span>y</span>  = 2\n</code></pre>\n<p>b  c</p></div>",
    "<pre>one <b>bold</b>\n\n\ntwo<i> it </i></pre><p> after <em>pre</em> </p>",
    "<ul>\n <li> one </li>\n <li>two<ul><li>three</li></ul></li>\n</ul><h2> T <b>b</b> </h2>",
    "<table><tr><td> a </td><td>b\n</td></tr><tr><td>1</td><td> </td></tr></table>",
    "<blockquote>\n<p>q</p>\n</blockquote>\n\n<dl><dt>t</dt> <dd>d</dd></dl><!-- c -->x",
]


def _reference() -> type:
    """Our converter with markdownify's own walk put back."""
    ours = converter_class()
    walk = {"process_tag", "process_text", "convert_soup"}
    return type("Reference", (ours,), {n: getattr(markdownify.MarkdownConverter, n) for n in walk})


def _both(root: object) -> tuple[str, str]:
    return converter_class()().convert_soup(root), _reference()().convert_soup(root)


@pytest.mark.parametrize("path", PAGES, ids=[p.name for p in PAGES])
def test_real_pages_convert_as_markdownify_walks_them(path: Path) -> None:
    soup = BeautifulSoup(html_to_text(path.read_bytes(), str(path)), "lxml")
    ours, reference = _both(soup.body)
    assert ours == reference and len(ours) > 1000


@pytest.mark.parametrize("html", CASES)
def test_whitespace_and_pre_as_markdownify(html: str) -> None:
    ours, reference = _both(BeautifulSoup(html, "lxml").body)
    assert ours == reference


def test_a_root_inside_pre_keeps_its_newlines() -> None:
    # Inside <pre> the blank lines around the paragraphs are not collapsed to one.
    soup = BeautifulSoup("<pre><div><p>a</p><p>b</p></div></pre>", "lxml")
    ours, reference = _both(soup.find("div"))
    assert ours == reference and "a\n\n\n\nb" in ours

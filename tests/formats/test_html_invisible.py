"""Invisible format characters a page writes for the browser (zero-width space, word
joiner, a BOM used as one) are not read from HTML, in headings or text; the joiners that
shape words and emoji (ZWJ, ZWNJ) are."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown

INVISIBLE = ("\u200b", "\u2060", "\ufeff")


def test_a_heading_with_an_anchor_marker_reads_as_its_words(tmp_path: Path) -> None:
    path = tmp_path / "post.html"
    path.write_text(
        "<html><head><title>Tuning&ZeroWidthSpace;</title></head><body><main>"
        '<h2 id="setup">Experiment Setup<a href="#setup">&ZeroWidthSpace;</a></h2>'
        "<p>We tuned GPT-4 on 120 problems.</p></main></body></html>",
        encoding="utf-8",
    )
    [item] = Reader().read(path)
    assert item.metadata.extra["heading_path"] == ["Experiment Setup"]
    assert item.metadata.key == "Tuning"
    assert item.memory.startswith("## Experiment Setup\n\nWe tuned")


def test_joiners_and_byte_order_marks_go_from_the_text() -> None:
    text = html_markdown(
        "<p>122°7′42″W\ufeff / \ufeff47.63972°N, a long\u200bpath, a no\u2060break</p>"
    ).text
    assert text == "122°7′42″W / 47.63972°N, a longpath, a nobreak"


def test_zwj_and_zwnj_shape_words_and_stay() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji, three joined
    persian = "می\u200cخواهم"  # "I want": the non-joiner keeps the prefix apart
    assert html_markdown(f"<p>{family} {persian}</p>").text == f"{family} {persian}"


def test_the_corpus_pages_keep_no_invisible_characters(corpus: Path) -> None:
    # The docs site's "Experiment Setup&ZeroWidthSpace;" anchors; Wikipedia's coordinates.
    for name in ("test_blog.html", "test_wikipedia.html"):
        items = Reader().read(corpus / "markitdown" / name)
        paths = [h for i in items for h in i.metadata.extra.get("heading_path", [])]
        assert "Experiment Setup" in paths or name != "test_blog.html"
        for item in items:
            seen = item.memory + "".join(item.metadata.extra.get("heading_path", []))
            assert not any(c in seen for c in INVISIBLE), (name, item.memory[:80])

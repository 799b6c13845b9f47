"""A web page's footnote and citation marks stay in their sentence as "[n]", next to
nothing they could be glued to ("in 2023[1]", never "in 20231"), when the note they point
to is on the page; a mark whose note is not there points nowhere and goes."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown

WIKIPEDIA = "markitdown/test_wikipedia.html"  # in ../shared/corpus (the corpus fixture)


def test_wikipedias_marks_stay_where_the_page_holds_their_notes(corpus: Path) -> None:
    text = "\n".join(i.memory for i in Reader().read(corpus / WIKIPEDIA))
    assert "headquartered in Redmond, Washington.[2] Microsoft's best-known" in text
    assert "in October 2023,[4] followed by" in text
    # the notes those marks point to, numbered as the marks are
    assert '2. "Microsoft Investor Relations - FAQs".' in text
    # this saved copy holds 10 of its ~300 notes: the other marks point nowhere and go,
    # and so do the page locators after them (": 228")
    assert "[10]" not in text and "[228]" not in text and "IBM: 228" not in text


def test_a_blogs_superscript_marks_are_not_glued_to_the_word_before() -> None:
    page = (
        "<article><p>Revenue grew in 2023<sup><a href='#fn1' id='r1'>1</a></sup> and "
        "costs fell<a href='#fn2' class='footnote-ref'><sup>2</sup></a>.</p>"
        "<p>Margins held<sup><a href='#gone'>3</a></sup>; see <sup><a href='#fn1'>the "
        "first note above</a></sup>.</p>"
        "<ol><li id='fn1'>Audited figures.</li><li id='fn2'>Before tax.</li></ol></article>"
    )
    text = html_markdown(page).text
    assert "Revenue grew in 2023[1] and costs fell[2]." in text
    assert "Margins held; see the first note above." in text  # a note not on the page
    assert "1. Audited figures.\n2. Before tax." in text

"""A table of labelled values (Wikipedia's infobox, a site's fact box) reads as its caption
and one "Label: value" line a row, not as a pile of paragraphs with every label far from
its value, nor as a Markdown table whose first pair became the header."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown

WIKIPEDIA = "markitdown/test_wikipedia.html"  # in ../shared/corpus (the corpus fixture)


def test_wikipedias_infobox_reads_as_label_value_lines_under_its_caption(corpus: Path) -> None:
    items = Reader().read(corpus / WIKIPEDIA)
    text = "\n".join(i.memory for i in items)
    lines = [line for line in text.splitlines() if line]
    start = lines.index("Microsoft Corporation")  # the box's caption, then its rows
    box = lines[start : start + 30]
    for line in (
        "Company type: Public",
        "Founders: Bill Gates; Paul Allen",
        # inline <div>s are runs of the same line, not paragraphs
        "Headquarters: One Microsoft Way, Redmond, Washington, U.S.",
        "Key people: Satya Nadella (Chairman & CEO); Brad Smith (Vice Chairman & President);"
        " Bill Gates (technical adviser)",
        "Number of employees: 221,000 (2023)",
        "Website: microsoft.com",
    ):
        assert line in box
    # a full-width row (the picture and its caption) stays a line of its own
    assert "Building 92 on the Microsoft Redmond campus" in box


def test_a_box_without_lists_is_no_table_with_its_first_pair_as_header() -> None:
    page = (
        "<h1>Acme</h1><table class='infobox'><caption>Acme Inc.</caption>"
        "<tr><th scope='row'>Founded</th><td>1975</td></tr>"
        "<tr><th scope='row'>Headquarters</th><td><a href='/x'>One Way</a>, "
        "<div style='display: inline;'>Redmond</div>, U.S.</td></tr>"
        "<tr><td colspan='2'>Figures as of 2023</td></tr></table>"
        "<p>Acme makes things.</p>"
    )
    text = html_markdown(page).text
    assert text == (
        "# Acme\n\nAcme Inc.\nFounded: 1975\nHeadquarters: One Way, Redmond, U.S.\n"
        "Figures as of 2023\n\nAcme makes things."
    )


def test_a_two_column_table_with_a_header_row_stays_a_table() -> None:
    page = (
        "<table><tr><th>Country</th><th>Capital</th></tr>"
        "<tr><th scope='row'>France</th><td>Paris</td></tr>"
        "<tr><th scope='row'>Norway</th><td>Oslo</td></tr></table>"
    )
    text = html_markdown(page).text
    assert text.splitlines() == [
        "| Country | Capital |",
        "| --- | --- |",
        "| France | Paris |",
        "| Norway | Oslo |",
    ]

"""A table of contents is read as a list of its entries, never as headings: an entry set
like the heading it names ("1 Introduction 2", bold and large) would else head the pages
after the contents."""

from __future__ import annotations

import re

from omnireader import Reader
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf, paragraph

_BODY = [
    "This report describes what the company did during the year and what it expects to do",
    "in the years to come, with the figures that support it and the risks that it faces.",
]
_ENTRIES = ["1 Introduction 2", "2 Results 3", "3 Outlook 4"]


def _contents_page(title: str | None) -> list[Text]:
    top = [Text(72, 80, title, 18, bold=True)] if title else []
    return [*top, *(Text(72, 130 + 40 * i, e, 14, bold=True) for i, e in enumerate(_ENTRIES))]


def _chapter(title: str) -> list[Text]:
    return [Text(72, 80, title, 14, bold=True), *paragraph(72, 110, _BODY)]


def _pages(pdf: bytes) -> list[str]:
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        return [s.text for s in doc.sections if s.part is None]


def test_contents_entries_are_a_list_under_the_contents_title() -> None:
    pdf = build_pdf([_contents_page("Table of Contents"), _chapter("1 Introduction")])
    contents, chapter = _pages(pdf)
    assert re.fullmatch(r"#+ Table of Contents", contents.splitlines()[0])
    assert [line for line in contents.splitlines() if line.startswith("- ")] == [
        f"- {e}" for e in _ENTRIES
    ]
    assert re.match(r"#+ 1 Introduction\n", chapter)


def test_entries_in_a_row_with_their_pages_going_up_are_contents_without_a_title() -> None:
    contents, _ = _pages(build_pdf([_contents_page(None), _chapter("1 Introduction")]))
    assert "#" not in contents
    assert contents.split("\n") == [f"- {e}" for e in _ENTRIES]


def test_neither_the_last_entry_nor_the_title_heads_the_text_after_the_contents() -> None:
    # The page after the contents opens with text: its path is not "3 Outlook 4", nor
    # "Contents"; the contents' own chunk sits under its title.
    pdf = build_pdf([_contents_page("Contents"), paragraph(72, 80, _BODY)])
    items = [i for i in Reader().read(pdf) if not i.metadata.extra.get("section")]
    contents, body = (
        next(i for i in items if i.source is not None and i.source.page == page) for page in (1, 2)
    )
    assert contents.metadata.extra.get("heading_path") == ["Contents"]
    assert body.metadata.extra.get("heading_path") is None


def test_headings_ending_in_a_year_are_no_contents() -> None:
    page = [
        *_chapter("Fiscal 2019"),
        Text(72, 160, "Fiscal 2018", 14, bold=True),
        *paragraph(72, 190, _BODY),
        Text(72, 240, "Fiscal 2017", 14, bold=True),
        *paragraph(72, 270, _BODY),
    ]
    (text,) = _pages(build_pdf([page]))
    headings = [line.lstrip("# ") for line in text.splitlines() if line.startswith("#")]
    assert headings == ["Fiscal 2019", "Fiscal 2018", "Fiscal 2017"]


def test_a_title_ending_in_index_over_a_column_of_page_numbers_is_contents() -> None:
    # Filings print their entries without numbers and the numbers as a column apart,
    # which reads as one block of numbers below them: "4 20 23".
    entries = [
        Text(72, 130 + 40 * i, e, 14, bold=True)
        for i, e in enumerate(["Part I", "Item 1. Business", "Item 2. Properties"])
    ]
    numbers = [Text(500, 260 + 12 * i, n, 10) for i, n in enumerate(["4", "20", "23"])]
    page = [
        Text(72, 80, "Form 10-K for the Fiscal Year 2023 Index", 14, bold=True),
        *entries,
        *numbers,
    ]
    (text,) = _pages(build_pdf([page]))
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        next(line for line in text.splitlines() if line.endswith("2023 Index"))
    ]
    assert "- Item 1. Business" in text

"""A table of contents is read as a list of its entries, never as headings: an entry set
like the heading it names ("1 Introduction 2", bold and large) would else head the pages
after the contents."""

from __future__ import annotations

import re

import pytest

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


@pytest.mark.parametrize("beside", [False, True], ids=["below", "on the baselines"])
def test_a_title_ending_in_index_over_a_column_of_page_numbers_is_contents(beside: bool) -> None:
    # Filings print their entries without numbers and the numbers as a column apart:
    # below them, one block of numbers ("4 20 23"); on their baselines, given back to them.
    entries = [
        Text(72, 130 + 40 * i, e, 14, bold=True)
        for i, e in enumerate(["Part I", "Item 1. Business", "Item 2. Properties"])
    ]
    at = [130.0, 170.0, 210.0] if beside else [260.0, 272.0, 284.0]
    numbers = [Text(500, y, n, 10) for y, n in zip(at, ["4", "20", "23"])]
    page = [
        Text(72, 80, "Form 10-K for the Fiscal Year 2023 Index", 14, bold=True),
        *entries,
        *numbers,
    ]
    (text,) = _pages(build_pdf([page]))
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        next(line for line in text.splitlines() if line.endswith("2023 Index"))
    ]
    entry = "Item 1. Business 20" if beside else "- Item 1. Business"
    assert entry in text.splitlines()


# A filing's contents: the entries, and far right of them each one's page number on its
# baseline, no leader between. A short entry over a long one used to run into it, and
# the numbers were a block of their own under the entries ("3 6 15").
_FILING = [
    ("Item 1. Business", "3"),
    ("Item 1A. Risk Factors", "6"),
    ("Item 1B. Unresolved Staff Comments", "15"),
    ("Item 2. Properties", "16"),
    ("Item 3. Legal Proceedings", "16"),
]


def _filing_contents(numbers: list[str]) -> list[Text]:
    page = [Text(72, 80, "Table of Contents", 14, bold=True)]
    for i, ((entry, _), number) in enumerate(zip(_FILING, numbers)):
        page += [Text(72, 130 + 14 * i, entry, 10), Text(520, 130 + 14 * i, number, 10)]
    return page


def test_page_numbers_printed_apart_end_the_entries_on_their_baselines() -> None:
    (text,) = _pages(build_pdf([_filing_contents([n for _, n in _FILING])]))
    lines = [line.removeprefix("- ") for line in text.splitlines() if line.strip()]

    assert lines[1:] == [f"{entry} {number}" for entry, number in _FILING]


def test_a_wrapped_entry_takes_the_number_on_its_last_line() -> None:
    page = [
        Text(72, 80, "Contents", 14, bold=True),
        Text(72, 130, "Item 5. Market for the Registrant's Common Equity, Related", 10),
        Text(72, 142, "Stockholder Matters and Issuer Purchases of Equity Securities", 10),
        Text(520, 142, "17", 10),
        Text(72, 160, "Item 6. Reserved", 10),
        Text(520, 160, "18", 10),
        Text(72, 178, "Item 7. Management's Discussion and Analysis", 10),
        Text(520, 178, "19", 10),
    ]
    (text,) = _pages(build_pdf([page]))
    lines = [line.removeprefix("- ") for line in text.splitlines() if line.strip()]

    assert lines[1:] == [
        "Item 5. Market for the Registrant's Common Equity, Related Stockholder Matters and "
        "Issuer Purchases of Equity Securities 17",
        "Item 6. Reserved 18",
        "Item 7. Management's Discussion and Analysis 19",
    ]


def test_a_column_of_numbers_going_down_is_no_page_numbers() -> None:
    # Figures beside their labels (a count falling year by year) are not pages: the lines
    # are left as they were read.
    falling = ["90", "70", "40", "20", "10"]
    paired = _pages(build_pdf([_filing_contents([n for _, n in _FILING])]))[0]
    (text,) = _pages(build_pdf([_filing_contents(falling)]))

    assert "Item 1. Business 90" not in text and "Item 1. Business 3" in paired
    assert all(entry in text for entry, _ in _FILING)


def test_headings_above_a_list_of_statements_and_their_pages_still_head_the_page() -> None:
    # Item 15 of a filing: its headings, then the statements with the pages they are on.
    # The list is contents without a title; "PART IV" above it only looks like an entry.
    statements = ["Consolidated Balance Sheets", "Statements of Earnings", "Notes"]
    page = [
        Text(72, 110, "PART IV", 14, bold=True),
        Text(72, 140, "ITEM 15. Exhibits and Financial Statement Schedules", 14, bold=True),
        *paragraph(72, 170, _BODY),
    ]
    for i, (name, number) in enumerate(zip(statements, ["67", "68", "72"])):
        page += [Text(72, 230 + 14 * i, name, 10), Text(520, 230 + 14 * i, number, 10)]
    (text,) = _pages(build_pdf([page]))
    lines = text.splitlines()

    assert [line.lstrip("# ") for line in lines if line.startswith("#")] == [
        "PART IV",
        "ITEM 15. Exhibits and Financial Statement Schedules",
    ]
    assert "Consolidated Balance Sheets 67" in lines and "Notes 72" in lines


def test_a_column_of_check_marks_is_no_page_numbers() -> None:
    rows = ["Schema document", "Calculation linkbase", "Definition linkbase"]
    page = [Text(72, 80, "Exhibits", 14, bold=True)]
    for i, row in enumerate(rows):
        page += [Text(72, 130 + 14 * i, row, 10), Text(520, 130 + 14 * i, "X", 10)]
    (text,) = _pages(build_pdf([page]))

    assert not any(line.endswith(" X") for line in text.splitlines())

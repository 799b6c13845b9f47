"""Short bold lines that belong to a table, not to the outline: a head over a table's
figure columns the finder left above it, a unit note, a one-word answer ("None.").
Set bold (or in a filing whose every glyph reports a bold weight) they read as headings
and then headed every page after them."""

from __future__ import annotations

from omnireader.formats.document import Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Line, Text, build_pdf, paragraph

LEAD_IN = [
    "Net sales grew in the year, driven by volume and by price and mix, and the",
    "components of the growth are shown in the following table:",
]
AFTER = [
    "The volume growth came from all of the segments of the company, and the",
    "price and mix grew in the larger segments over the year as a whole.",
]
LABELS = [
    "Contributions from volume growth",
    "Net price realization and mix",
    "Foreign currency exchange",
    "Net sales growth",
]
POINTS = ["8 pts", "(1)pt", "Flat", "5 pts"]


def _page(above: list[Text], figures: list[str] = POINTS) -> list[Text | Line]:
    """A section title, a lead-in, the lines ``above`` the table, a two-column table of
    labels and figures, and a paragraph after it."""
    items: list[Text | Line] = [Text(72, 72, "Results of Operations", 10, bold=True)]
    items += paragraph(72, 100, LEAD_IN)
    items += above
    for n, (label, figure) in enumerate(zip(LABELS, figures)):
        items += [Text(72, 166 + 13 * n, label, 10), Text(300, 166 + 13 * n, figure, 10)]
    items += paragraph(72, 240, AFTER)
    return items


def _sections(pdf: bytes) -> list[Section]:
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        return [s for s in doc.sections if s.part is None]


def _headings(section: Section) -> list[str]:
    return [line for line in section.text.splitlines() if line.startswith("#")]


def test_a_bold_head_over_a_column_of_figures_is_no_heading() -> None:
    # "8 pts", "Flat": not figures to the table finder, which leaves the head above it.
    head = [Text(300, 150, "Fiscal 2020", 10, bold=True)]
    first, second = _sections(build_pdf([_page(head), paragraph(72, 72, AFTER)]))
    assert _headings(first) == ["##### Results of Operations"]
    assert "Fiscal 2020" in first.text
    # It no longer heads the page after it either.
    assert second.heading_path == ["Results of Operations"]


def test_a_bold_title_at_the_tables_left_edge_stays_a_heading() -> None:
    title = [Text(72, 150, "Organic Net Sales Growth", 10, bold=True)]
    [page] = _sections(build_pdf([_page(title)]))
    assert _headings(page) == ["##### Results of Operations", "##### Organic Net Sales Growth"]


def test_a_bold_line_over_a_column_of_words_stays_a_heading() -> None:
    # Over a column of words, not of figures: nothing says it heads the column.
    words = ["Volume", "Price", "Currency", "Total"]
    head = [Text(300, 150, "Fiscal Drivers", 10, bold=True)]
    [page] = _sections(build_pdf([_page(head, words)]))
    assert "##### Fiscal Drivers" in _headings(page)


def test_a_unit_note_above_a_table_is_no_heading() -> None:
    units = [Text(72, 150, "In Millions", 10, bold=True)]
    [page] = _sections(build_pdf([_page(units, ["$120.0", "101.7", "85.0", "63.8"])]))
    assert _headings(page) == ["##### Results of Operations"]
    assert "In Millions" in page.text


def test_a_one_word_answer_is_no_heading() -> None:
    # A filing answers an item it has nothing to report under with "None." alone.
    items: list[Text | Line] = [Text(72, 72, "Item 1B. Unresolved Staff Comments", 10, True)]
    items += [Text(72, 94, "None.", 10, bold=True)]
    items += [Text(72, 116, "Item 2. Properties", 10, bold=True)]
    items += paragraph(72, 138, AFTER)
    [page] = _sections(build_pdf([items]))
    titles = [line.lstrip("# ") for line in _headings(page)]
    assert titles == ["Item 1B. Unresolved Staff Comments", "Item 2. Properties"]
    assert "None." in page.text

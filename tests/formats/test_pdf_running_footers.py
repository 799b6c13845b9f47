"""Running headers and footers that carry the page number: found by the number counting up
with the pages, wherever on the page they stand, and told apart from titles and lines that
merely repeat."""

from __future__ import annotations

from omnireader.formats.document import Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf, paragraph


def body_lines(n: int, count: int = 3) -> list[str]:
    """Lines of a page's own text (pages that said the same would be furniture)."""
    return [
        f"Line {i} of the body of page {n} runs on as a report does, in plain text."
        for i in range(count)
    ]


def read(pages: list[list[Text]]) -> list[Section]:
    with extract_pdf(Blob(data=build_pdf(pages)), layout=True) as doc:
        return list(doc.sections)


def test_a_footer_whose_number_counts_up_leaves_the_body_at_any_height() -> None:
    # A filing rendered from HTML ends each page where its text does: the footer stands
    # lower or higher from page to page, and alternates between two forms.
    pages = []
    for n in range(1, 5):
        lines = body_lines(n, 30 if n % 2 else 36)
        bottom = 150 + 12 * len(lines) + 20
        footer = f"2019 FORM 10-K {n}" if n % 2 else f"{n} NIKE, INC."
        pages.append(paragraph(72, 150, lines) + [Text(72, bottom, footer, 8)])
    sections = read(pages)
    body = [s for s in sections if s.part is None]
    assert [s.page_label for s in body] == ["1", "2", "3", "4"]
    assert all("10-K" not in s.text and "NIKE" not in s.text for s in body)
    footers = [s.text for s in sections if s.part == "footer"]
    assert footers == ["2019 FORM 10-K 1", "2 NIKE, INC."]  # once each, not once a page


def test_a_chapters_running_header_over_two_pages_only_is_a_header() -> None:
    pages = [
        paragraph(72, 150, body_lines(1)),
        [Text(72, 50, "Chapter 2: Structure handling 3")] + paragraph(72, 150, body_lines(2)),
        [Text(72, 50, "Chapter 2: Structure handling 4")] + paragraph(72, 150, body_lines(3)),
        paragraph(72, 150, body_lines(4)),
    ]
    sections = read(pages)
    body = [s for s in sections if s.part is None]
    assert all("Chapter 2" not in s.text for s in body)
    assert [s.page_label for s in body[1:3]] == ["3", "4"]
    assert [s.text for s in sections if s.part == "header"] == ["Chapter 2: Structure handling 3"]


def test_titles_and_dates_that_repeat_without_counting_up_stay_in_the_body() -> None:
    # "Exhibit 21" atop one page and "Exhibit 23" atop the next: two titles, numbers that
    # do not follow the pages. A date line at the foot of two letters: the same each time.
    pages = [
        [Text(72, 50, title)]
        + paragraph(72, 150, body_lines(n))
        + [Text(72, 760, "Date: March 24, 2017")]
        for n, title in enumerate(("Exhibit 21", "Exhibit 23"), start=1)
    ]
    sections = read(pages)
    body = [s for s in sections if s.part is None]
    assert [s.text.splitlines()[0] for s in body] == ["Exhibit 21", "Exhibit 23"]
    assert all(s.text.endswith("Date: March 24, 2017") for s in body)
    assert [s for s in sections if s.part] == []


def test_a_page_number_under_text_that_ends_above_the_middle_counts_with_the_pages() -> None:
    # A filing rendered from HTML prints each page's number where its text ends: on a page
    # of a few lines, a third of the way down. The pages around count on from it.
    lengths = (30, 4, 30, 30)
    pages = []
    for n, count in enumerate(lengths, start=11):
        lines = body_lines(n, count)
        pages.append(paragraph(72, 100, lines) + [Text(300, 100 + 12 * count + 30, str(n))])
    body = [s for s in read(pages) if s.part is None]
    assert [s.page_label for s in body] == ["11", "12", "13", "14"]
    assert all(not s.text.rstrip().endswith(str(n)) for n, s in enumerate(body, start=11))


def test_a_lone_number_under_a_short_page_that_does_not_count_on_stays() -> None:
    # A year set alone under a cover's few lines follows no page numbering: it is text.
    pages = [paragraph(72, 100, body_lines(1, 4)) + [Text(300, 178, "2023")]]
    pages += [paragraph(72, 100, body_lines(n, 30)) + [Text(300, 750, str(n))] for n in (2, 3)]
    body = [s for s in read(pages) if s.part is None]
    assert body[0].text.rstrip().endswith("2023")
    assert [s.page_label for s in body[1:]] == ["2", "3"]


def test_an_appendixs_lettered_page_numbers_are_page_numbers() -> None:
    # An exhibit's pages numbered "A-1", "A-2"… at their feet (financial statements'
    # "F-12" alike): the page's label, not a paragraph at the end of its text.
    pages = [paragraph(72, 100, body_lines(n, 20)) + [Text(300, 750, f"A-{n}")] for n in (1, 2)]
    body = [s for s in read(pages) if s.part is None]
    assert [s.page_label for s in body] == ["A-1", "A-2"]
    assert all("A-" not in s.text for s in body)


def test_a_running_footer_under_text_that_ends_above_the_middle_leaves_the_body() -> None:
    # NIKE's filings: "2021 FORM 10-K 23" right under a short page's last paragraph, a
    # third of the way down; the pages around print it at their feet, counting on.
    lengths = (30, 4, 30, 30)
    pages = []
    for n, count in enumerate(lengths, start=22):
        lines = body_lines(n, count)
        pages.append(
            paragraph(72, 100, lines) + [Text(72, 100 + 12 * count + 30, f"2021 FORM 10-K {n}", 8)]
        )
    sections = read(pages)
    body = [s for s in sections if s.part is None]
    assert [s.page_label for s in body] == ["22", "23", "24", "25"]
    assert all("FORM 10-K" not in s.text for s in body)
    assert [s.text for s in sections if s.part == "footer"] == ["2021 FORM 10-K 22"]


def test_a_lettered_page_number_under_a_short_pages_text_counts_in_its_series() -> None:
    # Activision's "F-3" under the auditor's report's last lines, high on its page; "F-2"
    # and "F-4" stand at their pages' feet.
    pages = []
    for n, count in enumerate((30, 4, 30), start=2):
        pages.append(
            paragraph(72, 100, body_lines(n, count)) + [Text(300, 100 + 12 * count + 30, f"F-{n}")]
        )
    body = [s for s in read(pages) if s.part is None]
    assert [s.page_label for s in body] == ["F-2", "F-3", "F-4"]
    assert all("F-" not in s.text for s in body)


def test_a_running_header_misread_by_ocr_is_still_a_header() -> None:
    # A scanned book's text layer: the OCR reads the same header a letter apart from page
    # to page ("VICKSBUEG", "SIEGE OP"), which no longer repeats word for word.
    headers = ["THE SIEGE OF VICKSBURG.", "THE SIEGE OF VICKSBUEG.", "THE SIEGE OP VICKSBURG."]
    pages = [
        [Text(150, 50, headers[n % 3], 8)] + paragraph(72, 80, body_lines(n, 20)) for n in range(4)
    ]
    body = [s for s in read(pages) if s.part is None]
    assert all("SIEGE" not in s.text for s in body)


def test_headers_alike_only_in_their_words_stay_text() -> None:
    # Each page's top line names its own note: alike in form, not the same header.
    titles = ["Note 3 - Revenue recognition", "Note 4 - Leases and rentals", "Note 5 - Debt"]
    pages = [
        [Text(72, 50, t, 10)] + paragraph(72, 80, body_lines(n, 20)) for n, t in enumerate(titles)
    ]
    body = [s for s in read(pages) if s.part is None]
    assert [s.text.splitlines()[0] for s in body] == titles


def test_a_page_number_over_the_text_at_its_left_edge_is_no_line_of_it() -> None:
    # A book's even page prints its number in the top corner right above the text's first
    # line, at its left edge: read as that paragraph's first line ("50 buried itself…").
    pages = [[Text(72, 60, str(n))] + paragraph(72, 74, body_lines(n, 20)) for n in range(50, 53)]
    body = [s for s in read(pages) if s.part is None]
    assert [s.page_label for s in body] == ["50", "51", "52"]
    assert all(s.text.startswith("Line 0") for s in body)


def test_page_numbers_between_em_dashes_are_page_numbers() -> None:
    pages = [
        paragraph(72, 100, body_lines(n, 20)) + [Text(290, 750, f"\u2014 {n} \u2014")]
        for n in (1, 2)
    ]
    body = [s for s in read(pages) if s.part is None]
    assert [s.page_label for s in body] == ["1", "2"]
    assert all("\u2014" not in s.text for s in body)


def test_a_tables_column_head_atop_each_page_at_another_height_stays() -> None:
    # A table continued over pages under its head "Increase/(Decrease)", a line lower or
    # higher each time: the table's own words, not a running header misread.
    pages = [
        paragraph(72, 30 + 12 * n, body_lines(n, 2))
        + [Text(300, 62 + 12 * n, "Increase/(Decrease)")]
        + paragraph(72, 120, body_lines(n, 20))
        for n in range(3)
    ]
    body = [s for s in read(pages) if s.part is None]
    assert all("Increase/(Decrease)" in s.text for s in body)


def test_titles_a_word_apart_atop_their_pages_stay_text() -> None:
    # Two certifications, one a page, their titles alike but for the officer they name.
    titles = [
        f"CERTIFICATION OF CHIEF {who} OFFICER PURSUANT TO SECTION 302 OF THE SARBANES-OXLEY ACT"
        for who in ("EXECUTIVE", "FINANCIAL", "OPERATING")
    ]
    pages = [
        [Text(72, 50, t, 10)] + paragraph(72, 80, body_lines(n, 20)) for n, t in enumerate(titles)
    ]
    body = [s for s in read(pages) if s.part is None]
    assert [s.text.splitlines()[0] for s in body] == titles


def test_headers_of_the_same_letters_in_another_order_stay_text() -> None:
    # The letters two headers share bound how alike they can be; sharing them all is not
    # enough: "revenue and leases" over "leases and revenue" is two titles, not one misread.
    titles = ["Note 12 - Revenue and leases", "Note 21 - Leases and revenue", "Note 3 - Debt"]
    pages = [
        [Text(72, 50, t, 10)] + paragraph(72, 80, body_lines(n, 20)) for n, t in enumerate(titles)
    ]
    body = [s for s in read(pages) if s.part is None]
    assert [s.text.splitlines()[0] for s in body] == titles


def test_a_title_under_each_short_pages_number_at_any_height_is_a_footer() -> None:
    # Activision's award agreements (a filing made from HTML): each page ends where its
    # text does, with "A-9" and the agreement's title under it, a third of the way down one
    # page and at the foot of the next. The title is the pages' running footer.
    pages = []
    for n, count in enumerate((20, 6, 30, 12), start=8):
        foot = 100 + 12 * count + 24
        pages.append(
            paragraph(72, 100, body_lines(n, count))
            + [Text(290, foot, f"A-{n}", 10), Text(72, foot + 10, "Global Option Award", 7)]
        )
    sections = read(pages)
    body = [s for s in sections if s.part is None]
    assert [s.page_label for s in body] == ["A-8", "A-9", "A-10", "A-11"]
    assert all("Global Option Award" not in s.text for s in body)
    assert [s.text for s in sections if s.part == "footer"] == ["Global Option Award"]


def test_the_same_last_line_of_short_pages_with_no_number_by_it_stays_text() -> None:
    # A filing's certifications, one a page, each ending "Date: March 24, 2017" where its
    # text does: the date is each letter's, not a footer.
    pages = []
    for n, count in enumerate((20, 6, 30, 12)):
        end = 100 + 12 * count + 24
        pages.append(
            paragraph(72, 100, body_lines(n, count)) + [Text(72, end, "Date: March 24, 2017")]
        )
    body = [s for s in read(pages) if s.part is None]
    assert all(s.text.rstrip().endswith("Date: March 24, 2017") for s in body)

"""A code listing a page break cuts is one fenced listing on the page where it began
(``layout/page_breaks.py: carries_listing``), also when the next page is mostly listing
(which alone is not fenced: a page set in a monospace font is taken for its text)."""

from __future__ import annotations

from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf, courier_line

_HEAD = [
    "int main(void) {",
    "    int total = 0;",
    "    for (int i = 0; i < 10; i++) {",
]
_TAIL = [
    "        total += i;",
    "    }",
    "    return total;",
    "}",
]
_PROSE = [
    "The program below adds the numbers from zero to nine and returns the sum to the",
    "shell that started it, so that a script can test the result and go on from there.",
    "It is the smallest program that shows every part of the loop described above, and",
    "it is used again in the chapters that follow to show how each part can be changed.",
]


def _first_page() -> list[Text]:
    """Prose, then the listing's first rows at the foot of the page."""
    items = [Text(72, 80 + 12 * i, line) for i, line in enumerate(_PROSE * 12)]
    for i, row in enumerate(_HEAD):
        items += courier_line(72, 680 + 12 * i, row)
    return items


def _page_texts(pages: list[list[Text]]) -> dict[int, str]:
    with extract_pdf(Blob(data=build_pdf(pages)), layout=True) as doc:
        return {s.page: s.text for s in doc.sections if s.part is None and s.page}


def test_a_listing_cut_by_a_page_break_is_one_fence() -> None:
    second = [t for i, row in enumerate(_TAIL) for t in courier_line(72, 80 + 12 * i, row)]
    second += [Text(72, 150 + 12 * i, line) for i, line in enumerate(_PROSE)]
    texts = _page_texts([_first_page(), second])
    assert "```\n" + "\n".join(_HEAD + _TAIL) + "\n```" in texts[1]
    assert texts[2].startswith(_PROSE[0]) and "```" not in texts[2]


def test_a_listing_running_on_over_most_of_the_next_page_is_fenced_there_too() -> None:
    # The second page is mostly monospace: alone, it would be read as text.
    rows = _TAIL[:-1] + [f"    /* step {n} of the loop above */" for n in range(20)] + ["}"]
    second = [t for i, row in enumerate(rows) for t in courier_line(72, 80 + 12 * i, row)]
    second.append(Text(72, 80 + 12 * len(rows) + 24, "That is the whole program."))
    texts = _page_texts([_first_page(), second])
    assert "```\n" + "\n".join(_HEAD + rows) + "\n```" in texts[1]
    assert texts[2].strip() == "That is the whole program."


def test_a_page_mostly_in_a_monospace_font_after_prose_stays_text() -> None:
    # Guard: no listing ends the page before, so the typed page is its own text.
    first = [Text(72, 80 + 12 * i, line) for i, line in enumerate(_PROSE)]
    rows = ["CORNER STORE", "2 COFFEE      7.00", "1 BAGEL       2.50", "TOTAL         9.50"]
    second = [t for i, row in enumerate(rows) for t in courier_line(72, 80 + 12 * i, row)]
    texts = _page_texts([first, second])
    assert "```" not in texts[1] + texts[2]


def test_a_one_row_continuation_keeps_its_indent() -> None:
    second = courier_line(72, 80, "    }") + courier_line(72, 92, "}")
    second += [Text(72, 150 + 12 * i, line) for i, line in enumerate(_PROSE)]
    texts = _page_texts([_first_page(), second])
    assert "```\n" + "\n".join([*_HEAD, "    }", "}"]) + "\n```" in texts[1]


def test_a_book_page_set_further_right_indents_its_part_from_its_own_margin() -> None:
    # The second page's text block starts 36 pt further right (a facing page's margin).
    second = [t for i, row in enumerate(_TAIL) for t in courier_line(108, 80 + 12 * i, row)]
    second += [Text(108, 150 + 12 * i, line) for i, line in enumerate(_PROSE)]
    texts = _page_texts([_first_page(), second])
    assert "```\n" + "\n".join(_HEAD + _TAIL) + "\n```" in texts[1]

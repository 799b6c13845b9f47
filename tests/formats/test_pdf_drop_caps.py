"""A drop cap goes back in front of its paragraph's first word (``layout/drop_caps.py``):
a large "I" sunk beside the first lines of "ndia suffers from …" reads "India suffers
from …", not a paragraph "I" over the text."""

from __future__ import annotations

import pypdfium2
import pytest

from omnireader.formats.layout.lines import make_lines
from omnireader.formats.layout.words import page_words
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf

_BESIDE = [
    "ndia suffers from regulatory",
    "cholesterol that is getting in",
    "the way of business. The",
]
_UNDER = ["legislations and rules enacted by the", "governments have created barriers."]


def _page(cap: str = "I", beside: list[str] = _BESIDE) -> list[Text]:
    # The letter at 48 pt spans the three lines beside it (12 pt apart), as a drop cap does.
    items = [Text(72, 130, cap, 48)]
    items += [Text(92, 100 + 12 * i, text) for i, text in enumerate(beside)]
    items += [Text(72, 136 + 12 * i, text) for i, text in enumerate(_UNDER)]
    return items


@pytest.mark.parametrize("compiled", [True, False])
def test_a_drop_cap_opens_the_first_line_beside_it(compiled: bool) -> None:
    page = pypdfium2.PdfDocument(build_pdf([_page()]))[0]
    lines = make_lines(page_words(page, page.get_textpage()), page.get_width(), compiled=compiled)
    assert [line.text for line in lines][:3] == [
        "India suffers from regulatory",
        "cholesterol that is getting in",
        "the way of business. The",
    ]
    assert all(line.text != "I" for line in lines)


@pytest.mark.parametrize("compiled", [True, False])
def test_a_drop_cap_that_is_a_word_of_its_own_keeps_its_space(compiled: bool) -> None:
    # "I" is a word, and "was" stands alone elsewhere on the page: "I was", not "Iwas".
    beside = ["was born in a town that", "was far from the sea and", "the roads were long."]
    page = pypdfium2.PdfDocument(build_pdf([_page("I", beside)]))[0]
    lines = make_lines(page_words(page, page.get_textpage()), page.get_width(), compiled=compiled)
    assert [line.text for line in lines][:2] == [
        "I was born in a town that",
        "was far from the sea and",
    ]


def test_a_one_letter_word_cap_still_opens_a_word_the_page_lacks() -> None:
    # "A" + "fter": "fter" is no word on the page, so the letter begins it.
    beside = ["fter the storm the town", "rebuilt its harbour and", "the roads were long."]
    items = [Text(72, 130, "A", 48)] + [Text(110, 100 + 12 * i, t) for i, t in enumerate(beside)]
    page = pypdfium2.PdfDocument(build_pdf([items]))[0]
    lines = make_lines(page_words(page, page.get_textpage()), page.get_width())
    assert lines[0].text == "After the storm the town"


def test_a_paragraph_opened_by_a_drop_cap_reads_whole() -> None:
    with extract_pdf(Blob(data=build_pdf([_page()])), layout=True) as doc:
        (text,) = [s.text for s in doc.sections if s.part is None]
    assert " ".join(text.split()) == (
        "India suffers from regulatory cholesterol that is getting in the way of business. "
        "The legislations and rules enacted by the governments have created barriers."
    )


def test_a_large_letter_beside_one_line_stays_apart() -> None:
    # A figure's big "B" label beside a single caption line is no drop cap.
    pdf = build_pdf([[Text(72, 130, "B", 48), Text(110, 112, "the load")]])
    page = pypdfium2.PdfDocument(pdf)[0]
    lines = make_lines(page_words(page, page.get_textpage()), page.get_width())
    assert sorted(line.text for line in lines) == ["B", "the load"]

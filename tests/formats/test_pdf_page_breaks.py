"""A paragraph a page break cuts mid-sentence is read whole on the page where it began; the
item says it runs onto the next page (``page_end``). What ends a page on purpose stays."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from omnireader import Reader, Store
from omnireader.formats.layout.model import Block
from omnireader.formats.layout.page_breaks import carries_on, join_column_breaks
from omnireader.formats.layout.reflow import Vocabulary
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.models import MemoryItem
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf, paragraph

_TOP = [
    "Our business is subject to risks from the systems we run for our customers every day.",
    "Some of our systems have experienced past security breaches, and the information they",
    "hold may be exposed again when our people and our partners make mistakes or when",
    "attackers grow more skilled, and",
]
_REST = [
    "although they did not have a material adverse effect on our operating results, there",
    "can be no assurance of a similar result in the future for any of our businesses.",
]
_NEXT = [
    "We also face intense competition in every market where we sell our products, and the",
    "prices we can charge depend on what our competitors choose to do in those markets.",
]


def _pages(top: list[Text], second: list[Text]) -> bytes:
    return build_pdf([top, second])


def _body(pdf: bytes) -> list[tuple[int | None, str]]:
    with extract_pdf(Blob(data=pdf), layout=True) as doc:
        return [(s.page, s.text) for s in doc.sections if s.part is None]


def _items(pdf: bytes) -> list[MemoryItem]:
    return [i for i in Reader().read(pdf) if not i.metadata.extra.get("section")]


def test_a_sentence_cut_by_the_page_break_is_one_item_on_the_page_where_it_began() -> None:
    pdf = _pages(paragraph(72, 90, _TOP), [*paragraph(72, 90, _REST), *paragraph(72, 140, _NEXT)])
    (first, text1), (second, text2) = _body(pdf)
    assert "breaches, and the information" in text1
    assert "grow more skilled, and although they did not have" in text1
    assert text2.startswith("We also face intense competition")
    items = _items(pdf)
    whole = next(i for i in items if "and although they did not" in i.memory)
    assert whole.source is not None
    assert (whole.source.page, whole.source.page_end) == (1, 2)
    later = next(i for i in items if "intense competition" in i.memory)
    assert later.source is not None and (later.source.page, later.source.page_end) == (2, None)
    # Where each part stands: the carried lines' box is on page 2.
    pages = [b.get("page") for b in whole.metadata.extra["layout_blocks"]]
    assert pages == [None, 2]


def test_a_word_broken_at_the_page_break_is_joined() -> None:
    top = [*_TOP[:3], "attackers grow more skilled, and the infor-"]
    rest = ["mation we hold is worth more to them every year, whatever we do to protect it."]
    pdf = _pages(paragraph(72, 90, top), paragraph(72, 90, rest))
    (_, text1), (_, text2) = _body(pdf)
    assert text1.endswith(
        "and the information we hold is worth more to them every year, whatever we do to protect it."
    )
    assert text2 == ""


def test_a_page_ending_a_sentence_or_opening_with_a_heading_keeps_its_text() -> None:
    ended = [*_TOP[:3], "attackers grow more skilled."]
    heading = [Text(72, 90, "Competition", 16, bold=True), *paragraph(72, 120, _REST)]
    for top, second, opens in (
        (ended, paragraph(72, 90, _REST), "although they did not"),  # a sentence ended
        (_TOP, heading, "# Competition"),  # the next page opens a section
    ):
        (_, text1), (_, text2) = _body(_pages(paragraph(72, 90, top), second))
        assert text2.startswith(opens), text2
        assert "although" not in text1


def test_a_footnote_in_small_type_does_not_take_the_next_pages_text() -> None:
    note = Text(72, 740, "(1) Includes amounts of our subsidiaries abroad, in millions", 7)
    top = [*paragraph(72, 90, [*_TOP[:3], "attackers grow more skilled."]), note]
    pdf = _pages(top, paragraph(72, 90, _REST))
    (_, text1), (_, text2) = _body(pdf)
    assert text1.rstrip().endswith("in millions")
    assert text2.startswith("although they did not")


def test_the_whole_sentence_is_found_in_a_store_and_says_its_pages(tmp_path: Path) -> None:
    pdf = tmp_path / "risks.pdf"
    pdf.write_bytes(_pages(paragraph(72, 90, _TOP), paragraph(72, 90, _REST)))
    store = Store.open(tmp_path / "db.lance")
    store.add(_items(pdf.read_bytes()))
    hit = store.search("breaches although they did not have a material adverse effect", k=1)[0]
    assert "skilled, and although they did not" in hit.item.memory
    assert hit.item.source is not None and (hit.item.source.page, hit.item.source.page_end) == (
        1,
        2,
    )
    # The command line names both pages where it names the item's place.
    out = subprocess.run(
        [sys.executable, "-m", "omnireader", "read", str(pdf), "--format", "text"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "risks.pdf p.1\u20132" in out


def test_a_sentence_cut_at_a_column_break_is_one_paragraph() -> None:
    filler = [
        "Firms were asked each quarter how",
        "their work went on and what they",
        "expected from the months ahead.",
    ]
    left = [
        *filler,
        "The number of firms working as",
        "usual rose in every phase and",
        "gradually increased over the",
    ]
    right = ["course of the research period, while", "the share of closed firms fell.", *filler]
    # Two columns of the same height: reading goes down the left one, then the right one.
    page = [*paragraph(72, 90, left, leading=14), *paragraph(330, 90, right, leading=14)]
    (text,) = [t for _, t in _body(build_pdf([page]))]
    assert "gradually increased over the course of the research period" in text


def test_a_list_items_line_back_at_the_margin_whose_box_reaches_into_it_joins_it() -> None:
    # 3M's 2018 10-K, an award agreement's "(iii)" (its label set larger, its text an inch
    # in): the wrapped line goes back to the left margin, set so tight that its box starts
    # a point above the item's bottom. It is the item's line, not a paragraph of its own.
    item = Block(
        "list_item",
        "(iii) To the extent permitted by the Administrator, surrendering Shares then "
        "issuable upon settlement of",
        169.5,
        208.88,
        512.81,
        218.84,
        size=7.5,
    )
    rest = Block(
        "paragraph", "the DSUs valued at their Fair Market Value on such date; or", 83.1, 217.75,
        270.84, 226.39, size=7.5,
    )  # fmt: skip
    after = Block("list_item", "(iv) By the deduction of such amount.", 169.5, 235.3, 457, 245)
    joined = join_column_breaks([item, rest, after], Vocabulary())
    assert [b.text for b in joined] == [
        "(iii) To the extent permitted by the Administrator, surrendering Shares then "
        "issuable upon settlement of the DSUs valued at their Fair Market Value on such "
        "date; or",
        "(iv) By the deduction of such amount.",
    ]
    # A line a whole line up (beside it, not under it) is no continuation.
    beside = replace(rest, y0=item.y0, y1=item.y1)
    assert len(join_column_breaks([item, beside], Vocabulary())) == 2


def _block(kind: str, text: str, size: float = 10.0) -> Block:
    return Block(kind, text, 72, 90, 540, 120, size=size)  # type: ignore[arg-type]


_CUT = "Some of our systems have experienced past security breaches, and"


@pytest.mark.parametrize(
    ("last", "first", "carried"),
    [
        (_block("paragraph", _CUT), _block("paragraph", "although they did not"), True),
        (
            _block("list_item", "• our systems, and"),
            _block("paragraph", "our partners' systems"),
            True,
        ),
        # Upper case after a word that cannot end a sentence, in a paragraph long enough.
        (
            _block("paragraph", "filed by the"),
            _block("paragraph", "Company's board of directors on its own behalf."),
            True,
        ),
        (_block("paragraph", "as the report says."), _block("paragraph", "although"), False),
        # An initialism's full stop ends no sentence when the next page goes on in lower case.
        (
            _block("paragraph", "costs we determine are reimbursable under U.S."),
            _block("paragraph", "government contracts."),
            True,
        ),
        (_block("paragraph", "as sold in the U.S."), _block("paragraph", "a. in stores"), False),
        (_block("paragraph", _CUT), _block("paragraph", "f) to any estate or gift"), False),
        (_block("paragraph", "as follows:"), _block("paragraph", "revenue rose"), False),
        (_block("heading", "Risk Factors and"), _block("paragraph", "although"), False),
        (_block("table", ""), _block("paragraph", "although"), False),
        (_block("paragraph", _CUT), _block("heading", "although"), False),
        (_block("paragraph", _CUT), _block("table", ""), False),
        (_block("paragraph", _CUT), _block("list_item", "• although"), False),
        (_block("paragraph", _CUT), _block("caption", "Table 3: results"), False),
        (
            _block("paragraph", "(1) In millions of dollars", 7),
            _block("paragraph", "although"),
            False,
        ),
        # Upper case after a word a sentence may end with: a new sentence, or a title.
        (
            _block("paragraph", "the results we report"),
            _block("paragraph", "Revenue rose in every one of our segments this year."),
            False,
        ),
        (_block("paragraph", "filed by the"), _block("paragraph", "Table of Contents"), False),
    ],
)
def test_what_carries_on_across_a_break(last: Block, first: Block, carried: bool) -> None:
    assert carries_on(last, first) is carried


def test_a_running_header_between_the_halves_is_still_a_header() -> None:
    # "Table of Contents" (a link back, as filings print it) heads every page, right above
    # the rest of the sentence: it is kept out of the body, and the halves join.
    header = Text(72, 50, "Table of Contents", 10)
    pages = [
        [header, *paragraph(72, 90, _TOP)],
        [header, *paragraph(72, 78, _REST), *paragraph(72, 120, _NEXT)],
        [header, *paragraph(72, 90, _NEXT)],
        [header, *paragraph(72, 90, _NEXT[::-1])],
    ]
    with extract_pdf(Blob(data=build_pdf(pages)), layout=True) as doc:
        sections = list(doc.sections)
    body = [s.text for s in sections if s.part is None]
    assert "grow more skilled, and although they did not have" in body[0]
    assert not any("Table of Contents" in t for t in body)
    assert [s.text for s in sections if s.part == "header"] == ["Table of Contents"]

"""A PDF link's target is kept: the web address, ``mailto:`` or ``tel:`` behind the text it
covers becomes a Markdown link where that text stands; a link whose text cannot be placed
surely ends its page in a ``Links:`` block. A target the page already prints, and a link
within the document, add nothing."""

from __future__ import annotations

from omnireader.formats.pdf.extract import extract_pdf
from omnireader.parsers.base import ParseContext
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob
from tests.formats.pdf_builders import annotated_page

# Baselines 720, 704, 688, 672 (16 points apart, from lines_op)
BODY = [
    "Write to the press office.",
    "Call the harbour desk.",
    "Read the annual report.",
    "Visit https://example.org/visible today.",
]


def linked_pdf(annots: list[str]) -> bytes:
    return annotated_page(BODY, annots)


def link(rect: str, action: str) -> str:
    return f"<< /Type /Annot /P 5 0 R /Subtype /Link /Rect [{rect}] /A {action} >>"


LINKS = [
    link("70 716 250 732", "<< /S /URI /URI (mailto:press@example.org) >>"),
    link("70 700 250 716", "<< /S /URI /URI (tel:+442079460000) >>"),
    link("70 684 250 700", "<< /S /URI /URI (https://example.org/ar2023.pdf) >>"),
    link("70 668 350 684", "<< /S /URI /URI (https://example.org/visible) >>"),  # printed
    link("70 684 250 700", "<< /S /URI /URI (mailto:press@example.org) >>"),  # twice
    link("300 300 400 320", "<< /S /GoTo /D [5 0 R /Fit] >>"),  # within the document
]

# Each link's box covers its line's words (up to the stop).
LINKED = [
    "[Write to the press office](mailto:press@example.org).",
    "[Call the harbour desk](tel:+442079460000).",
    "[Read the annual report](https://example.org/ar2023.pdf).",
    "Visit https://example.org/visible today.",
]


def test_link_targets_stand_where_their_text_is() -> None:
    with extract_pdf(Blob(data=linked_pdf(LINKS)), layout=False) as doc:
        [page] = list(doc.sections)
    assert page.text == "\n".join(LINKED)


def test_a_link_whose_text_cannot_be_placed_surely_ends_the_page() -> None:
    # "here" is too short to place, and "the" stands on every line: neither is linked.
    annots = [
        link("70 716 95 732", "<< /S /URI /URI (https://example.org/a) >>"),
        link("70 668 90 684", "<< /S /URI /URI (https://example.org/b) >>"),
    ]
    body = ["here is the press office.", *BODY[1:]]
    with extract_pdf(Blob(data=annotated_page(body, annots)), layout=False) as doc:
        [page] = list(doc.sections)
    text, _, block = page.text.partition("\n\nLinks:\n")
    assert text == "\n".join(body)
    assert block.split("\n")[0].endswith(": https://example.org/a")
    assert len(block.split("\n")) == 2 and block.split("\n")[1].endswith("example.org/b")


def test_the_items_of_a_laid_out_page_carry_the_targets() -> None:
    items = FileParser().parse_fast(Blob(data=linked_pdf(LINKS)), ParseContext())
    text = "\n".join(i.memory for i in items)
    for line in LINKED:  # laid out, the links stand where their text is too
        assert line in text
    assert text.count("https://example.org/visible") == 1


def test_a_page_with_only_internal_links_has_no_links_block() -> None:
    with extract_pdf(Blob(data=linked_pdf(LINKS[-1:])), layout=False) as doc:
        [page] = list(doc.sections)
    assert page.text == "\n".join(BODY)


def test_an_address_the_page_prints_without_its_scheme_is_not_linked_again() -> None:
    from omnireader.formats.link_text import PageLink, with_links

    text = "Watch it at //www.youtube.com/embed/U8 or on example.org/talks."
    links = [
        PageLink("//www.youtube.com/embed/U8", "http://www.youtube.com/embed/U8"),
        PageLink("example.org/talks", "https://example.org/talks/"),
    ]
    assert with_links(text, links) == text

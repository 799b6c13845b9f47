"""Reviewers' comments in a PDF are kept, as one ``comments`` section like a DOCX's.

Sticky notes, highlights (quoting the text they mark), free-text boxes and other markup
become ``- Page N, Author: text`` lines in a section marked ``comments`` after the pages.
Links, popups (which repeat their note) and hidden annotations are not comments.
"""

from __future__ import annotations

from omnireader.formats.document import Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.parsers.base import ParseContext
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob
from tests.formats.pdf_builders import annotated_page

BODY = ["Annotated report body about the river survey.", "The survey covered eleven stations."]


def annotated_pdf(annots: list[str]) -> bytes:
    return annotated_page(BODY, annots)


def annot(body: str) -> str:
    return f"<< /Type /Annot /P 5 0 R {body} >>"


REVIEW = [
    annot("/Subtype /Text /Rect [400 700 420 720] /Contents (please recheck the totals) /T (Ann)"),
    # Over the second line (baseline 704): the marked text is quoted.
    annot("/Subtype /Highlight /Rect [70 700 300 714] /Contents (source needed) /T (Ann)"),
    annot("/Subtype /FreeText /Rect [72 500 400 540] /Contents (free text box\nremark)"),
    annot("/Subtype /Popup /Rect [420 600 520 700] /Contents (please recheck the totals)"),
    annot("/Subtype /Link /Rect [72 400 200 420] /Contents (a link) /A << /S /URI /URI (x) >>"),
    annot("/Subtype /Text /Rect [0 0 10 10] /F 2 /Contents (hidden note)"),
    annot("/Subtype /Underline /Rect [70 716 420 730] /T (Bo)"),  # no text: the mark itself
]


def sections(pdf: bytes) -> list[Section]:
    # The text layer as lines (layout off): these tests are about the comments after it.
    with extract_pdf(Blob(data=pdf), layout=False) as doc:
        return list(doc.sections)


def test_comments_come_after_the_pages_as_one_comments_section() -> None:
    page, comments = sections(annotated_pdf(REVIEW))
    assert page.text == "\n".join(BODY)
    assert (comments.part, comments.heading, comments.page) == ("comments", "Comments", None)
    assert comments.text.split("\n") == [
        "- Page 1, Ann: please recheck the totals",
        '- Page 1, Ann, on "The survey covered eleven stations.": source needed',
        "- Page 1: free text box remark",
        '- Page 1, Bo, on "Annotated report body about the river survey." (marked)',
    ]


def test_a_pdf_without_comments_has_no_comments_section() -> None:
    only_link = REVIEW[4]
    assert [s.part for s in sections(annotated_pdf([only_link]))] == [None]


def test_comment_items_are_tagged_like_docx_comments() -> None:
    items = FileParser().parse_fast(Blob(data=annotated_pdf(REVIEW)), ParseContext())
    body, comments = items
    assert body.metadata.tags == ["pdf"]
    assert comments.metadata.tags == ["pdf", "comments"]
    assert comments.metadata.extra["section"] == "comments"
    assert comments.memory.startswith("- Page 1, Ann: please recheck the totals")
    assert body.id != comments.id

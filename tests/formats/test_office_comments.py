"""A DOCX or ODT comment says which words it is about (and an ODT one who wrote it), and
a DOCX reply sits under its comment.

Before, the comments item was a bare list ("- Randy Bartels: COMMENT on par 5", an ODT's
"- Tika is part of the Lucene project."): nothing said what a comment annotated, and
replies read as comments of their own.
"""

from __future__ import annotations

from pathlib import Path

import docx
from odfdo import Document, Paragraph

from omnireader import Reader


def _comments(path: Path) -> str:
    items = Reader().read(path)
    return next(i for i in items if i.metadata.extra.get("section") == "comments").memory


def test_comments_quote_their_anchor_and_nest_their_replies(corpus: Path) -> None:
    text = _comments(corpus / "realworld" / "comments.docx")
    assert text.splitlines()[:4] == [
        '- Randy Bartels on "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do'
        ' eiusmod tempor…": COMMENT',
        "  - Randy Bartels: RESPONSE",
        "  - Shay Hill: Response from Shay Hill",
        '- Shay Hill on "tempor incididunt ut labore et dolore magna aliqua.": Comment on'
        " subset starting with tempor",
    ]


def test_a_comment_made_in_word_names_the_words_it_is_on(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("The harbour opens in May.")
    paragraph = document.add_paragraph("Berth fees rise by 4% next year. ")
    anchored = paragraph.add_run("Ferries pay half.")
    document.add_comment(anchored, text="Check with the ferry operator.", author="Anna Berg")
    path = tmp_path / "harbour.docx"
    document.save(path)
    assert _comments(path) == '- Anna Berg on "Ferries pay half.": Check with the ferry operator.'


def test_a_comment_on_a_point_quotes_its_paragraph(corpus: Path) -> None:
    # test_with_comment.docx's comments have a reference and no range.
    text = _comments(corpus / "markitdown" / "test_with_comment.docx")
    assert text.startswith(
        '- Unknown Author on "AutoGen is an open-source framework that allows developers'
        ' to build LLM…": This is a test comment. 12df-321a'
    )


def test_odt_comments_name_their_author_and_their_words(corpus: Path, tmp_path: Path) -> None:
    # The same for OpenDocument: a comment on a point quotes its paragraph ...
    text = _comments(corpus / "realworld" / "testODFwithOOo3.odt")
    assert (
        text
        == '- Bart Hanssens on "Apache Tika Test Document": Tika is part of the Lucene project.'
    )
    # ... and one on a span (LibreOffice's annotation and annotation-end) the span.
    document = Document("text")
    document.body.clear()
    paragraph = Paragraph("Berth fees rise by 4% next year. Ferries pay half.")
    document.body.append(paragraph)
    paragraph.insert_annotation(
        content="Ferries pay half", body="Check with the ferry operator.", creator="Anna Berg"
    )
    path = tmp_path / "harbour.odt"
    document.save(path)
    assert _comments(path) == '- Anna Berg on "Ferries pay half": Check with the ferry operator.'

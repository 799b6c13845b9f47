"""Lists and contents pages in a PDF's text layer: each item its own Markdown list item,
an item's wrapped lines kept with it, and a contents line per entry."""

from __future__ import annotations

from omnireader.formats.document import Section
from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf, paragraph


def page_text(items: list[Text]) -> str:
    with extract_pdf(Blob(data=build_pdf([items])), layout=True) as doc:
        sections: list[Section] = [s for s in doc.sections if s.part is None]
    assert len(sections) == 1
    return sections[0].text


def test_bulleted_items_that_fill_their_lines_are_each_a_list_item() -> None:
    # Lines this long leave no room at their end, so only the bullets tell the items apart.
    items = paragraph(
        72, 100, ["The main features of the library described in this manual are these:"]
    )
    items += paragraph(
        80,
        116,
        [
            "\u2022 On-line structure management that does not require any code generation.",
            "\u2022 Off-line structure management with code generation containing an array.",
            "\u2022 Encoding rules support for every type it knows of, in either direction.",
        ],
    )
    text = page_text(items)
    assert text.splitlines() == [
        "The main features of the library described in this manual are these:",
        "",
        "- On-line structure management that does not require any code generation.",
        "- Off-line structure management with code generation containing an array.",
        "- Encoding rules support for every type it knows of, in either direction.",
    ]


def test_an_items_wrapped_line_stays_with_it_and_the_text_after_the_list_is_its_own() -> None:
    items = [
        Text(80, 100, "\u2022"),
        Text(92, 100, "It is free software. Anybody can use, modify and redistribute the library"),
        # The hanging indent: under the item's text, not under its bullet.
        Text(
            92, 112, "under the terms of the licence it comes with, version two or any later one."
        ),
        Text(80, 128, "\u2022"),
        Text(92, 128, "Thread safety. No global variables are used and many handles may be open."),
        Text(72, 144, "Further, the older databases have been merged into one single package now."),
    ]
    text = page_text(items)
    assert text.split("\n\n") == [
        "- It is free software. Anybody can use, modify and redistribute the library under the"
        " terms of the licence it comes with, version two or any later one.\n"
        "- Thread safety. No global variables are used and many handles may be open.",
        "Further, the older databases have been merged into one single package now.",
    ]


def test_numbered_items_start_after_a_line_that_ended_and_a_dash_inside_a_sentence_does_not() -> (
    None
):
    lines = [
        "(a) This award is expressed in terms of a target number of shares as set forth above.",
        "(b) The company grants a dividend equivalent for each share that is paid in cash.",
        "Revenue comes from contracts with customers with a single performance obligation",
        "\u2013 the delivery of the product, which happens when control passes to the buyer.",
    ]
    text = page_text(paragraph(72, 100, lines))
    assert text.split("\n\n") == [
        f"{lines[0]}\n{lines[1]}",
        f"{lines[2]} {lines[3]}",  # back at the margin, under no item: the text after them
    ]


def test_a_contents_page_keeps_one_line_per_entry() -> None:
    entries = [
        "2.1 Syntax . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 2",
        "2.2 Naming . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 3",
        "2.3 Simple parsing . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 4",
    ]
    text = page_text(paragraph(72, 100, entries))
    assert text.splitlines() == entries


def test_a_symbol_fonts_bullet_with_a_tiny_box_stays_with_its_item() -> None:
    # A Word-made PDF: each bullet a Symbol glyph (U+F0B7) whose box is 3 points tall, so
    # its size reads 2.8 against its text's 12, a tab to the left of the item's text.
    from omnireader.formats.layout.lines import make_lines
    from omnireader.formats.layout.model import Word

    words = []
    for n, label in enumerate(["Computing - desktops and tablets;", "Appliances - ovens."]):
        top = 417.0 + 20 * n
        words.append(Word("\uf0b7", 34.6, top + 3.1, 37.8, top + 6.4, 2.8, False, "SymbolMT"))
        x = 50.3
        for text in label.split():
            words.append(Word(text, x, top, x + 6 * len(text), top + 9, 12.0, False, "ArialMT"))
            x += 6 * len(text) + 3
    for compiled in (True, False):
        lines = make_lines(words, 612.0, compiled=compiled)
        assert [line.text for line in lines] == [
            "\uf0b7 Computing - desktops and tablets;",
            "\uf0b7 Appliances - ovens.",
        ]
        assert all(line.size == 12.0 for line in lines)

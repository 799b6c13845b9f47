"""A code listing set in a monospace font keeps its lines and indentation, fenced
(``layout/code_blocks.py``); a page set wholly in a monospace font (a receipt) is text."""

from __future__ import annotations

from omnireader.formats.pdf.extract import extract_pdf
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf, courier_line

_LISTING = [
    "<mime-info>",
    '  <mime-type type="text/x-diff">',
    '    <glob pattern="*.diff"/>',
    "  </mime-type>",
    "</mime-info>",
]


def _text(items: list[Text]) -> str:
    with extract_pdf(Blob(data=build_pdf([items])), layout=True) as doc:
        (text,) = [s.text for s in doc.sections if s.part is None]
    return text


def test_a_monospace_listing_keeps_its_lines_and_indents_fenced() -> None:
    items = [
        Text(72, 100, "Here is an example source file, named diff.xml, which the tool reads"),
        Text(72, 112, "and writes out again as the files described below:"),
    ]
    for i, line in enumerate(_LISTING):
        items += courier_line(72, 136 + 12 * i, line)
    items.append(Text(72, 220, "The example above would create an output file."))
    text = _text(items)
    assert "```\n" + "\n".join(_LISTING) + "\n```" in text
    assert text.startswith("Here is an example source file")
    assert text.rstrip().endswith("The example above would create an output file.")


def test_runs_of_spaces_inside_a_listing_line_are_kept() -> None:
    items = [Text(72, 100, "The program below prints one, and returns it to the shell.")]
    rows = ["int main(void) {", "    int x = 1;   /* one */", "    return x;", "}"]
    for i, row in enumerate(rows):
        items += courier_line(72, 124 + 12 * i, row)
    assert "```\n" + "\n".join(rows) + "\n```" in _text(items)


def test_a_receipt_set_wholly_in_a_monospace_font_is_not_code() -> None:
    rows = ["CORNER STORE", "2 COFFEE      7.00", "1 BAGEL       2.50", "TOTAL         9.50"]
    items = [t for i, row in enumerate(rows) for t in courier_line(72, 100 + 12 * i, row)]
    assert "```" not in _text(items)


def test_a_string_in_a_monospace_font_cut_out_of_its_sentence_stays_in_the_text() -> None:
    # A justified line stretched its space before a quoted string past the line-cutting gap.
    items = [
        Text(72, 100, "The call below appends a new element to the sequence named by the path."),
        Text(72, 112, "result=write_value(cert,"),
        *courier_line(240, 112, '"certificate.subject.rdnSequence",'),
        Text(72, 124, "with the value NEW and a length of one, as the example shows."),
    ]
    assert "```" not in _text(items)

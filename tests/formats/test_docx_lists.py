"""DOCX lists as Markdown lists: a list after a paragraph is never indented into a code
block, however deep the document's own level; nested items sit one step under their
parent, by the parent's marker width. Documents are built with python-docx."""

from __future__ import annotations

import io

import docx
from docx.oxml.ns import qn

from omnireader.formats.office.docx import extract_docx
from omnireader.payloads import Blob


def _style_num_id(document, style: str) -> str:
    num = document.styles[style].element.find(qn("w:pPr")).find(qn("w:numPr"))
    return num.find(qn("w:numId")).get(qn("w:val"))


def _level(paragraph, ilvl: int, num_id: str = "1") -> None:
    """Set a paragraph's list level directly (w:numPr/w:ilvl) in list ``num_id``."""
    ppr = paragraph._p.get_or_add_pPr()
    num = ppr.find(qn("w:numPr"))
    if num is None:
        num = ppr.makeelement(qn("w:numPr"), {})
        ppr.append(num)
        num_id = num.makeelement(qn("w:numId"), {qn("w:val"): num_id})
        num.append(num_id)
    ilvl_el = num.makeelement(qn("w:ilvl"), {qn("w:val"): str(ilvl)})
    num.insert(0, ilvl_el)


def _text(document: docx.document.Document) -> str:
    buf = io.BytesIO()
    document.save(buf)
    doc = extract_docx(Blob(data=buf.getvalue(), filename="lists.docx"))
    return "\n\n".join(s.text for s in doc.sections if s.part is None)


def test_a_list_after_a_paragraph_starting_deep_is_not_a_code_block() -> None:
    document = docx.Document()
    document.add_paragraph("We agreed on three things:")
    for text in ("Budget", "Dates", "Owners"):
        _level(document.add_paragraph(text, style="List Bullet"), 2)  # level 3 in Word
    text = _text(document)
    assert "We agreed on three things:\n\n- Budget\n- Dates\n- Owners" in text
    assert not any(line.startswith("    ") for line in text.splitlines())


def test_nested_items_step_one_level_under_their_parent() -> None:
    document = docx.Document()
    document.add_paragraph("Plan:")
    parent = document.add_paragraph("Hire", style="List Bullet")
    deep = document.add_paragraph("two engineers", style="List Bullet")
    _level(parent, 0)
    _level(deep, 3)  # three levels deeper in the document: one step in Markdown
    document.add_paragraph("Ship", style="List Bullet")
    text = _text(document)
    assert "Plan:\n\n- Hire\n  - two engineers\n- Ship" in text


def test_items_under_a_numbered_item_indent_past_its_marker() -> None:
    document = docx.Document()
    numbers = _style_num_id(document, "List Number")
    document.add_paragraph("Open the file", style="List Number")
    sub = document.add_paragraph("check its size", style="List Number")
    _level(sub, 1, numbers)
    text = _text(document)
    # Under "1. " an item nests only when indented 3 columns; 2 would make it a sibling.
    assert "1. Open the file\n   - check its size" in text  # level 1 of that list: bullets


def _outline_list(document, num_id: str, start_override: int | None = None) -> None:
    """Add list ``num_id`` to the numbering part: I. / A. / 1) / (i) / 1.1.1.1. levels."""
    from docx.oxml import parse_xml

    numbering = document.part.numbering_part.element
    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    levels = [("upperRoman", "%1."), ("upperLetter", "%2."), ("decimal", "%3)")]
    levels += [("lowerRoman", "(%4)"), ("decimal", "%1.%2.%3.%4.%5.")]
    body = "".join(
        f'<w:lvl w:ilvl="{n}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
        f'<w:lvlText w:val="{text}"/></w:lvl>'
        for n, (fmt, text) in enumerate(levels)
    )
    abstract = parse_xml(f'<w:abstractNum {w} w:abstractNumId="9{num_id}">{body}</w:abstractNum>')
    numbering.insert(0, abstract)  # abstract definitions come before the w:num elements
    override = (
        f'<w:lvlOverride w:ilvl="0"><w:startOverride w:val="{start_override}"/></w:lvlOverride>'
        if start_override
        else ""
    )
    numbering.append(
        parse_xml(
            f'<w:num {w} w:numId="{num_id}"><w:abstractNumId w:val="9{num_id}"/>{override}</w:num>'
        )
    )


def test_numbered_items_carry_the_labels_word_shows() -> None:
    document = docx.Document()
    _outline_list(document, "71")
    _outline_list(document, "72", start_override=4)
    numbers = _style_num_id(document, "List Number")
    document.add_paragraph("Steps:")
    for text in ("Unpack", "Assemble", "Test"):
        document.add_paragraph(text, style="List Number")
    document.add_paragraph("Outline:")
    for text, level in [
        ("Scope", 0),
        ("Goals", 1),
        ("Cost", 2),
        ("Labour", 2),
        ("Risks", 1),
        ("Fire", 3),
        ("Deep", 4),  # "%1.%2.%3.%4.%5.": each level in its own format, a skipped one at its start
        ("Schedule", 0),
        ("Milestones", 1),  # a new top item restarts the letters
    ]:
        _level(document.add_paragraph(text), level, "71")
    document.add_paragraph("Continued elsewhere:")
    _level(document.add_paragraph("Appendix"), 0, "72")  # this list starts at IV
    text = _text(document)
    assert "Steps:\n\n1. Unpack\n2. Assemble\n3. Test" in text
    assert numbers  # the style's own list is the one counted
    assert (
        "Outline:\n\n- I. Scope\n  - A. Goals\n    1) Cost\n    2) Labour\n  - B. Risks\n"
        "    - (i) Fire\n      - I.B.1.i.1. Deep\n- II. Schedule\n  - A. Milestones"
    ) in text
    assert "- IV. Appendix" in text

"""What Word does not show is not content: text left inside a merged-away cell (a vertical
merge's continuation, a legacy horizontal merge) and runs marked hidden (``w:vanish``)."""

from __future__ import annotations

import copy
from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import qn

from omnireader import Reader

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
HIDDEN = "I should not be included"


def _text(path: Path) -> str:
    return "\n".join(i.memory for i in Reader().read(path))


def _leave_text_in(tc: object) -> None:
    """Put a paragraph into a cell Word merged away, as some writers leave one."""
    tc.append(parse_xml(f"<w:p {W}><w:r><w:t>{HIDDEN}</w:t></w:r></w:p>"))  # type: ignore[attr-defined]


def test_text_in_a_vertically_merged_cell_is_not_read(tmp_path: Path) -> None:
    document = docx.Document()
    table = document.add_table(rows=3, cols=2)
    for r, (k, v) in enumerate([("Region", "Sales"), ("North", "12"), ("South", "9")]):
        table.cell(r, 0).text, table.cell(r, 1).text = k, v
    table.cell(1, 1).merge(table.cell(2, 1))  # "12" spans both rows
    continuation = table.rows[2]._tr.tc_lst[1]
    assert continuation.find(f"{qn('w:tcPr')}/{qn('w:vMerge')}") is not None
    _leave_text_in(continuation)
    path = tmp_path / "merged.docx"
    document.save(path)
    text = _text(path)
    assert "North" in text and "South" in text and HIDDEN not in text


def test_text_in_a_merged_cell_of_a_layout_table_is_not_read(tmp_path: Path) -> None:
    document = docx.Document()
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).paragraphs[0].text = "Contact"
    table.cell(0, 0).paragraphs[0].style = document.styles["Heading 2"]  # layout: a heading
    table.cell(0, 1).text = "Ann Lee, harbour office"
    table.cell(1, 0).text = "Open Monday to Friday"
    table.cell(0, 1).merge(table.cell(1, 1))
    _leave_text_in(table.rows[1]._tr.tc_lst[1])
    path = tmp_path / "layout.docx"
    document.save(path)
    text = _text(path)
    assert "Ann Lee" in text and "Open Monday" in text and HIDDEN not in text


def test_a_legacy_horizontal_merge_continuation_is_not_read(tmp_path: Path) -> None:
    document = docx.Document()
    table = document.add_table(rows=2, cols=2)
    for r, (k, v) in enumerate([("Item", "Cost"), ("Rent", "900")]):
        table.cell(r, 0).text, table.cell(r, 1).text = k, v
    tr = table.rows[0]._tr
    tc = tr.tc_lst[1]
    tc.get_or_add_tcPr().append(parse_xml(f'<w:hMerge {W} w:val="continue"/>'))
    tr.tc_lst[0].get_or_add_tcPr().append(parse_xml(f'<w:hMerge {W} w:val="restart"/>'))
    _leave_text_in(tc)
    path = tmp_path / "hmerge.docx"
    document.save(path)
    text = _text(path)
    assert "Rent" in text and "900" in text and HIDDEN not in text


def test_a_hidden_run_is_not_read_and_its_visible_neighbours_are(tmp_path: Path) -> None:
    document = docx.Document()
    paragraph = document.add_paragraph("The budget is approved.")
    hidden = paragraph.add_run(f" {HIDDEN}.")
    hidden.font.hidden = True
    shown = copy.deepcopy(hidden._r)
    paragraph._p.append(shown)
    paragraph.runs[-1].font.hidden = False  # w:vanish w:val="0": shown after all
    paragraph.runs[-1].text = " Works start in May."
    path = tmp_path / "hidden.docx"
    document.save(path)
    text = _text(path)
    assert "The budget is approved." in text and "Works start in May." in text
    assert HIDDEN not in text

"""A split table repeats atop each later piece the header of the rows it holds: none when
the table's first row is data (a contents page), a block's own header when a sheet stacks
blocks (2023's figures, then 2022's under their own header)."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader
from omnireader.text.structure import structured_chunks
from omnireader.text.table_heads import block_starts, is_header_row


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def test_a_contents_page_repeats_no_rows_as_a_header() -> None:
    entries = [[f"{n}. Chapter about topic number {n}", str(3 + 4 * n)] for n in range(1, 80)]
    text = "Contents\n\n" + _table(entries[0], entries[1:])
    later = [c for c in structured_chunks(text, 64) if c.table_part > 0]
    assert len(later) > 3
    for c in later:
        assert "1. Chapter about topic number 1 |" not in c.chunk.text, c.chunk.text
        assert c.chunk.text.startswith("Contents\n| ")  # the caption still says what it is


def test_a_table_with_a_real_header_repeats_it() -> None:
    rows = [[f"Product line {n}", str(100 + n), str(200 + n)] for n in range(80)]
    chunks = structured_chunks(_table(["Item", "2023", "2022"], rows), 64)
    assert len(chunks) > 3
    assert all(c.chunk.text.startswith("| Item | 2023 | 2022 |") for c in chunks)


def test_stacked_blocks_are_headed_by_their_own_header(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Region", "2023 Q1", "2023 Q2"])
    for n in range(40):
        sheet.append([f"North {n}", 100 + n, 200 + n])
    sheet.append(["Region", "2022 Q1", "2022 Q2"])  # the next block, no blank row between
    for n in range(40):
        sheet.append([f"South {n}", 50 + n, 60 + n])
    path = tmp_path / "stacked.xlsx"
    book.save(path)
    items = Reader(chunk_tokens=96).read(path)
    south = [i.memory for i in items if "South" in i.memory]
    assert len(south) >= 2
    for text in south:
        assert "2023 Q1" not in text, text  # 2023's header never over 2022's rows
        assert "| Region | 2022 Q1 | 2022 Q2 |\n| --- | --- | --- |" in text


def test_header_rows_are_labels_and_years() -> None:
    assert is_header_row("| | 2023 | FY2022 |")
    assert is_header_row("| Name | Role |")
    assert not is_header_row("| Rent | 900 |")
    assert not is_header_row("| 3.2 Methods | 14 |")
    assert not is_header_row("|  |  |")


def test_a_text_table_has_no_blocks_inside() -> None:
    # every row of a table of words looks like a header: none of them starts a block
    rows = [f"| Person {n} | City {n} |" for n in range(20)]
    assert block_starts(rows, "| Name | City |") == []

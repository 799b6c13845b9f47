"""Ruled grids drawn the way word processors draw them, read back as the printed table:
shading boxes inside cells, column lines that frame a header row with no line of its own,
a title above the grid; and the Markdown every table is written as.

The PDFs are written operator by operator with the helpers of ``test_layout_tables``.
"""

from __future__ import annotations

from pathlib import Path

from omnireader.formats.layout.tables import render_table

from .test_layout_tables import layout, pdf, right, text


def _hline(x0: float, x1: float, y: float) -> str:
    return f"{x0} {792 - y} m {x1} {792 - y} l S\n"


def _vline(x: float, y0: float, y1: float) -> str:
    return f"{x} {792 - y0} m {x} {792 - y1} l S\n"


def _box(x0: float, y0: float, x1: float, y1: float) -> str:
    """A filled box (shading), its edges the only lines it draws."""
    return f"0.8 0.9 0.95 rg {x0} {792 - y1} {x1 - x0} {y1 - y0} re f 0 g\n"


def test_shading_inset_in_cells_does_not_cut_them_into_rows(tmp_path: Path) -> None:
    # A two-column grid; each header cell is shaded by boxes inset a few points from the
    # cell's walls, one box per text line (as a word processor shades paragraphs), and
    # each label cell by a box a few points under its row line. The boxes' edges must not
    # become row or column lines (a label would land a row below its value).
    xs, ys = [72, 200, 340], [100, 140, 190, 230]
    body = ""
    for x0, x1 in [(xs[0], xs[1]), (xs[1], xs[2])]:
        body += _box(x0 + 5, ys[0] + 4, x1 - 5, ys[0] + 18) + _box(
            x0 + 5, ys[0] + 18, x1 - 5, ys[0] + 32
        )
    for y0, y1 in [(ys[1], ys[2]), (ys[2], ys[3])]:
        # The label cell shaded wall to wall, from a few points under its row line.
        body += _box(xs[0], y0 + 6, xs[1], y1 - 6)
    body += "0.5 w\n" + "".join(_hline(xs[0], xs[-1], y) for y in ys)
    body += "".join(_vline(x, ys[0], ys[-1]) for x in xs)
    body += text(78, ys[0] + 14, "Competence") + text(78, ys[0] + 28, "area")
    body += text(206, ys[0] + 14, "Statement of what a learner") + text(206, ys[0] + 28, "knows")
    body += text(78, ys[1] + 16, "Knowledge") + text(206, ys[1] + 16, "To know the basics")
    body += text(206, ys[1] + 30, "of the three Rs")
    body += text(78, ys[2] + 16, "Skills") + text(206, ys[2] + 16, "To recycle at home")
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows == [
        ["Competence area", "Statement of what a learner knows"],
        ["Knowledge", "To know the basics of the three Rs"],
        ["Skills", "To recycle at home"],
    ]


def test_column_lines_above_the_first_row_line_frame_the_header_row(tmp_path: Path) -> None:
    # Row lines only under the header, column lines from the header's top to the total
    # row's bottom: the header row and the total row are rows of the grid, not text.
    xs, ys = [72, 110, 300, 400], [120, 140, 160]
    top, bottom = 96, 182
    body = "0.5 w\n" + "".join(_hline(xs[0], xs[-1], y) for y in ys)
    body += "".join(_vline(x, top, bottom) for x in xs[1:])
    body += text(76, 110, "No.") + text(114, 110, "Party") + text(304, 110, "Seats")
    for r, (n, name, seats) in enumerate([("1", "Khmer Party", "35"), ("2", "Grassroots", "32")]):
        y = ys[r] + 14
        body += text(76, y, n) + text(114, y, name) + right(380, y, seats)
    body += text(114, ys[-1] + 14, "Total") + right(380, ys[-1] + 14, "67")
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.ruled
    assert table.rows == [
        ["No.", "Party", "Seats"],
        ["1", "Khmer Party", "35"],
        ["2", "Grassroots", "32"],
        ["", "Total", "67"],
    ]


def test_a_title_above_a_ruled_grid_is_not_its_header(tmp_path: Path) -> None:
    # The grid's header is printed above its first line; the title above the header sits
    # over one column only. It stays text: one cell alone is no header row.
    xs, ys = [72, 200, 330, 460], [130, 150, 170]
    body = "0.5 w\n" + "".join(_hline(xs[0], xs[-1], y) for y in ys)
    body += "".join(_vline(x, ys[0], ys[-1]) for x in xs)
    body += text(240, 108, "Version history")
    body += text(76, 124, "Version") + text(204, 124, "Date") + text(334, 124, "Change")
    body += text(76, 144, "1.0") + text(204, 144, "April 2022") + text(334, 144, "Original")
    body += text(76, 164, "1.1") + text(204, 164, "June 2022") + text(334, 164, "Edits")
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows[0] == ["Version", "Date", "Change"]
    assert "Version history" not in render_table(table)


def test_a_title_above_a_borderless_table_is_not_its_header(tmp_path: Path) -> None:
    body = text(300, 100, "Version history")
    rows = [("Version", "Date", "Change"), ("1.0", "April 30, 2022", "Original")]
    rows += [("1.1", "June 3, 2022", "Small edits"), ("1.2", "May 1, 2023", "New chapter")]
    for r, (a, b, c) in enumerate(rows):
        y = 130 + 16 * r
        body += text(72, y, a) + text(180, y, b) + text(300, y, c)
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows[0] == ["Version", "Date", "Change"]
    assert len(table.rows) == 4


def test_a_two_line_header_keeps_both_rows_in_the_markdown_table(tmp_path: Path) -> None:
    # A header of group names over column names: both are rows of the Markdown table
    # (the separator after the first, as Markdown has it), none left above as a paragraph.
    xs, ys = [72, 200, 300, 400, 500], [100, 116, 132, 150, 168]
    body = "0.5 w\n" + _hline(xs[0], xs[-1], ys[0]) + _hline(xs[1], xs[-1], ys[1])
    body += "".join(_hline(xs[0], xs[-1], y) for y in ys[2:])
    body += _vline(xs[0], ys[0], ys[-1]) + _vline(xs[-1], ys[0], ys[-1])
    body += _vline(xs[1], ys[0], ys[-1]) + _vline(xs[3], ys[0], ys[-1])
    body += _vline(xs[2], ys[1], ys[-1]) + _vline(xs[4] - 0, ys[1], ys[-1])
    body += text(76, 112, "Party") + text(230, 112, "March") + text(430, 112, "April")
    body += text(204, 128, "Communes") + text(304, 128, "Candidates")
    body += text(404, 128, "Communes")
    for r, (name, a, b, c) in enumerate(
        [("Khmer", "35", "498", "30"), ("Grass", "32", "435", "32")]
    ):
        y = ys[2 + r] + 13
        body += text(76, y, name) + right(290, y, a) + right(390, y, b) + right(490, y, c)
    (table,), _ = layout(pdf(body), tmp_path)
    lines = render_table(table).splitlines()
    assert lines[0].startswith("| Party |") and "March" in lines[0]
    assert lines[1] == "| --- | --- | --- | --- |"
    assert lines[2] == "|  | Communes | Candidates | Communes |"


def test_header_cells_a_space_apart_over_a_borderless_table(tmp_path: Path) -> None:
    # The header's cells are wider than the body's columns and set one space apart, so
    # the header line reads as one run across the columns; each cell starts at its
    # column's left edge, and that is where it is cut. A page header above stays text.
    import pypdfium2 as pdfium

    from omnireader.formats.layout.words import page_words

    header = text(74, 80, "Saccharometer DI Water Glucose Solution Yeast")
    (tmp_path / "h.pdf").write_bytes(pdf(header))
    doc = pdfium.PdfDocument(tmp_path / "h.pdf")
    starts = {w.text: w.x0 for w in page_words(doc[0], doc[0].get_textpage())}
    doc.close()
    xs = [starts[k] for k in ("Saccharometer", "DI", "Glucose", "Yeast")]
    body = text(72, 50, "MOHAVE COMMUNITY COLLEGE") + text(480, 50, "BIO181") + header
    rows = [("2", "24 ml", "0 ml", "4 ml"), ("3", "12 ml", "12 ml", "4 ml")]
    rows.append(("4", "4 ml", "12 ml", "12 ml"))
    for r, cells in enumerate(rows):
        body += "".join(text(x, 96 + 16 * r, s) for x, s in zip(xs, cells))
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows == [
        ["Saccharometer", "DI Water", "Glucose Solution", "Yeast"],
        *[list(r) for r in rows],
    ]


def test_shading_strips_one_a_text_line_do_not_split_a_wrapped_cell(tmp_path: Path) -> None:
    # The header's value cells and each label cell are shaded one strip a text line, the
    # strips' edges running between the lines of one wrapped cell (no room between them)
    # and stopping at the shaded columns: the two lines stay one cell.
    xs, ys = [72, 200, 330, 460], [100, 130, 160, 180]
    body = ""
    for y0, y1 in [(100, 113.5), (113.5, 127)]:
        body += _box(xs[1], y0, xs[-1], y1)
    for y0, y1 in [(130, 143.5), (143.5, 157)]:
        body += _box(xs[0], y0, xs[1], y1)
    body += "0.5 w\n" + "".join(_hline(xs[0], xs[-1], y) for y in ys)
    body += "".join(_vline(x, ys[0], ys[-1]) for x in xs)
    body += text(204, 112, "Mitosis") + text(204, 122.5, "(begins with one cell)")
    body += text(334, 112, "Meiosis") + text(334, 122.5, "(begins with one cell)")
    body += text(76, 142, "# chromosomes in") + text(76, 152.5, "parent cells")
    body += text(76, 174, "# DNA replications")
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows == [
        ["", "Mitosis (begins with one cell)", "Meiosis (begins with one cell)"],
        ["# chromosomes in parent cells", "", ""],
        ["# DNA replications", "", ""],
    ]


def test_a_tight_grid_keeps_its_row_lines_between_touching_rows(tmp_path: Path) -> None:
    # Rows a line apart, their text boxes touching, a row line across the whole grid
    # between each: rows, not one paragraph.
    xs, ys = [72, 200, 330], [100 + 10.5 * k for k in range(5)]
    body = "0.5 w\n" + "".join(_hline(xs[0], xs[-1], y) for y in ys)
    body += "".join(_vline(x, ys[0], ys[-1]) for x in xs)
    rows = [["Name", "Value"], ["alpha", "one"], ["beta", "two"], ["gamma", "three"]]
    for r, (a, b) in enumerate(rows):
        body += text(74, ys[r] + 8.5, a) + text(202, ys[r] + 8.5, b)
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows == rows


def _wrapped(x: float, y: float, lines: list[str], pitch: float = 9.0, size: float = 7) -> str:
    return "".join(text(x, y + k * pitch, s, size) for k, s in enumerate(lines))


def test_a_borderless_table_of_sentences_is_a_table(tmp_path: Path) -> None:
    # Four columns, a short header over each, and cells of wrapped sentences (a slide's
    # "explanation" and "benefit" columns): line by line it reads as prose, but the cells
    # of every row start together across the columns.
    xs = [40, 150, 260, 450]
    body = "".join(
        text(x, 90, h, 9) for x, h in zip(xs, ["Stage", "Function", "Explanation", "Benefit"])
    )
    rows = [
        (
            ["1. Project creation"],
            ["Project creation and", "management"],
            ["Select a document type to run project", "creation with the recommended models"],
            ["The interface lets the person in charge", "proceed quickly from creation to release"],
        ),
        (
            ["2. Data labeling and", "fine-tuning"],
            ["Data storage"],
            ["Upload raw data, view it and manage it", "with search, sorting and filtering"],
            ["Manage raw data for the pack and live", "data from the service in one place"],
        ),
        (
            ["3. Deployment"],
            ["Model training"],
            ["Train basic models for each document,", "pause, retrain or cancel the training"],
            ["A foundation to build, manage and", "upgrade the customer's own models"],
        ),
        (
            ["4. Monitoring"],
            ["Project monitoring"],
            ["Watch deployed pipelines and endpoints", "and report performance issues early"],
            ["Follow the key indicators of each", "project and respond to issues quickly"],
        ),
    ]
    y = 110.0
    for row in rows:
        for x, cell in zip(xs, row):
            body += _wrapped(x, y, cell)
        y += 9.0 * max(len(c) for c in row) + 10
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows[0] == ["Stage", "Function", "Explanation", "Benefit"]
    assert table.rows[1] == [
        "1. Project creation",
        "Project creation and management",
        "Select a document type to run project creation with the recommended models",
        "The interface lets the person in charge proceed quickly from creation to release",
    ]
    assert [r[0] for r in table.rows[2:]] == [
        "2. Data labeling and fine-tuning",
        "3. Deployment",
        "4. Monitoring",
    ]


def test_three_columns_of_running_text_under_short_titles_are_not_a_table(tmp_path: Path) -> None:
    # A newsletter page: three narrow columns (a few words a line), a short title over
    # each, paragraphs starting wherever each column's text has got to. No table: few of
    # the paragraphs start beside one another.
    words = "the council met on monday to talk about the new park and the road works".split()
    body = "".join(text(x, 90, t, 9) for x, t in zip([40, 230, 420], ["News", "Sport", "Weather"]))
    for c, x in enumerate([40, 230, 420]):
        y = 110.0
        for p in range(4):
            n = 3 + (p * 2 + c * 3) % 5  # paragraphs of different lengths in each column
            for k in range(n):
                line = " ".join(words[(k + p + c) % 5 : (k + p + c) % 5 + 4])
                body += text(x, y, line, 7)
                y += 9.0
            y += 9.0
    tables, _ = layout(pdf(body), tmp_path)
    assert tables == []


def test_a_sentence_above_a_bulleted_list_is_no_header_row(tmp_path: Path) -> None:
    # A sentence whose third word happens to start where the list's text does: over two
    # columns (a marker and its text) it is not cut into header cells, and the list
    # stays a list.
    import pypdfium2 as pdfium

    from omnireader.formats.layout.words import page_words

    line = text(62, 100, "It had to be:")
    (tmp_path / "h.pdf").write_bytes(pdf(line))
    doc = pdfium.PdfDocument(tmp_path / "h.pdf")
    x = next(w.x0 for w in page_words(doc[0], doc[0].get_textpage()) if w.text == "to")
    doc.close()
    body = line
    for k, item in enumerate(["Collected via surveys", "Put into a database", "Kept on servers"]):
        body += text(72, 116 + 14 * k, "-") + text(x, 116 + 14 * k, item)
    tables, _ = layout(pdf(body), tmp_path)
    assert tables == []


def test_a_pair_of_numbers_in_one_cell_stays_one_cell(tmp_path: Path) -> None:
    # "Average (0.5,  0.5)", the pair set wider than a word space: a number ending in a
    # comma goes on in its cell; two numeric columns are never printed with a comma
    # between them.
    body = text(72, 100, "Model") + text(150, 100, "Method") + text(300, 100, "Score")
    for r, (name, method, score) in enumerate(
        [("Merge v1", "Average (0.5,  0.5)", "74.00"), ("Merge v2", "Average (0.4,  0.6)", "73.93")]
        + [("Merge v3", "SLERP", "73.96")]
    ):
        y = 116 + 16 * r
        body += text(72, y, name) + text(150, y, method) + right(330, y, score)
    (table,), _ = layout(pdf(body), tmp_path)
    assert table.rows[1] == ["Merge v1", "Average (0.5, 0.5)", "74.00"]
    assert len(table.rows[0]) == 3


def _two_tall_cells(left: list[tuple[float, str]], right_: list[tuple[float, str]]) -> bytes:
    """A ruled header row over one tall row of two cells, each holding lines at ``y``."""
    xs, ys = [72, 306, 540], [100, 116, 240]
    body = "0.5 w\n" + "".join(_hline(xs[0], xs[-1], y) for y in ys)
    body += "".join(_vline(x, ys[0], ys[-1]) for x in xs)
    body += text(78, 112, "Reagents") + text(312, 112, "Supplies")
    body += "".join(text(78, y, s) for y, s in left) + "".join(text(312, y, s) for y, s in right_)
    return pdf(body)


def test_two_lists_at_their_own_leading_in_one_drawn_row_stay_one_row(tmp_path: Path) -> None:
    # Each cell is a list of short lines, but the two lists drift apart (12 and 10.4 pt
    # leading): they are no records side by side, the row is one row.
    left = [(130 + 12 * i, f"Reagent {i}") for i in range(8)]
    right_ = [(131 + 10.4 * i, f"Tool {i}") for i in range(9)]
    (table,), _ = layout(_two_tall_cells(left, right_), tmp_path)
    assert table.rows == [
        ["Reagents", "Supplies"],
        [" ".join(s for _, s in left), " ".join(s for _, s in right_)],
    ]


def test_records_side_by_side_in_one_drawn_row_are_one_row_each(tmp_path: Path) -> None:
    # A form: labels and their values level with each other, line by line.
    left = [(130 + 12 * i, f"Field {i}") for i in range(6)]
    right_ = [(130 + 12 * i, f"Value {i}") for i in range(6)]
    (table,), _ = layout(_two_tall_cells(left, right_), tmp_path)
    assert table.rows[1:] == [[f"Field {i}", f"Value {i}"] for i in range(6)]

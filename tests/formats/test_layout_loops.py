"""The layout's hot loops, compiled (``_loops.c``) and in Python, give the same words, the
same ruling lines, the same lines, and the same lines and runs of the table finder.

The compiled module is optional (built where a C compiler is). Where it is built, every
upright page goes through it; a page it reads differently from the Python loop would read
differently depending on the machine, so both are run on the same pages and compared.
"""

from __future__ import annotations

import io
import shutil
import sysconfig
from itertools import pairwise
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from omnireader.formats.layout import pdfium_calls
from omnireader.formats.layout.lines import make_lines
from omnireader.formats.layout.model import Rule, Word
from omnireader.formats.layout.rules import page_rules
from omnireader.formats.layout.rules_merge import merge_rules
from omnireader.formats.layout.tables_ruled import _networks
from omnireader.formats.layout.tables_rules import grid_rules
from omnireader.formats.layout.tables_text import group_lines, runs
from omnireader.formats.layout.text_rotation import text_rotation
from omnireader.formats.layout.words import page_words
from tests.formats.layout_pdfs import Line, Text, build_pdf, paragraph, tall_metrics_font
from tests.formats.pdf_builders import (
    DEJAVU,
    HELVETICA,
    PAGES,
    page_with,
    raw_pdf,
    stream,
    text_pdf,
)
from tests.formats.test_layout_table_grids import _box, _hline, _vline
from tests.formats.test_layout_tables import pdf as table_pdf
from tests.formats.test_layout_tables import text

needs_loops = pytest.mark.skipif(
    pdfium_calls.loops is None, reason="the compiled loops are not built (no C compiler)"
)


def test_the_compiled_loops_are_built_where_a_c_compiler_is() -> None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}): the Python loops run")
    assert pdfium_calls.loops is not None, "setup.py should have built _loops (pip install -e .)"


def both(pdf: bytes | Path) -> list[tuple[int, object, object, object, object]]:
    """Per page: (index, compiled words, Python words, compiled rules, Python rules)."""
    doc = pdfium.PdfDocument(pdf)
    out = []
    try:
        for index in range(len(doc)):
            page = doc[index]
            textpage = page.get_textpage()
            try:
                out.append(
                    (
                        index,
                        page_words(page, textpage, compiled=True),
                        page_words(page, textpage, compiled=False),
                        page_rules(page, compiled=True),
                        page_rules(page, compiled=False),
                    )
                )
            finally:
                textpage.close()
                page.close()
    finally:
        doc.close()
    return out


def assert_same(pdf: bytes | Path) -> int:
    pages = both(pdf)
    for index, words_c, words_py, rules_c, rules_py in pages:
        assert words_c == words_py, f"page {index + 1}: the words differ"
        assert rules_c == rules_py, f"page {index + 1}: the rules differ"
        hs, vs = grid_lines(rules_c, words_c, True)
        assert (hs, vs) == grid_lines(rules_py, words_py, False), (
            f"page {index + 1}: the grid lines differ"
        )
        assert _networks(hs, vs, compiled=True) == _networks(hs, vs, compiled=False), (
            f"page {index + 1}: the grids' networks differ"
        )
    return len(pages)


def grid_lines(rules: object, words: object, compiled: bool) -> tuple[list[Rule], list[Rule]]:
    """The table finder's grid lines of a page's rules (``grid_rules``)."""
    assert isinstance(rules, list) and isinstance(words, list)
    hs = [r for r in rules if r.horizontal]
    vs = [r for r in rules if not r.horizontal]
    return grid_rules(hs, vs, words, compiled=compiled)


def _scaled_text_and_shapes() -> bytes:
    """Text set at ``1 Tf`` and scaled by its matrix (the size comes from the box), numbers
    drawn as two objects a hair apart, and every kind of path the walk tells apart: stroked
    lines, thin filled bars, a filled box, a white rule, a curve, and a form holding rules."""
    content = (
        "BT /F1 1 Tf 10 0 0 10 72 700 Tm (Revenue 2023 and 2024) Tj ET\n"
        "BT /F1 10 Tf 72 680 Td (400.01) Tj ET BT /F1 10 Tf 104.8 680 Td (3) Tj ET\n"
        "0 0 0 RG 0.8 w 72 670 m 540 670 l S\n"  # a stroked line
        "72 660 468 0.5 re f\n"  # a thin filled bar
        "0.9 g 72 600 200 40 re f 0 g\n"  # a filled box: four edges
        "1 1 1 RG 72 590 m 540 590 l S 0 0 0 RG\n"  # white: no rule
        "72 560 m 100 580 130 580 160 560 c S\n"  # a curve: no rule
        "100 500 m 300 500 l 300 400 l 100 400 l h S\n"  # a closed stroked square
        "q 1 0 0 1 0 -100 cm /X1 Do Q\n"  # a form, moved down
    )
    form = stream(
        "72 300 m 540 300 l S 72 250 m 540 250 l S",
        "/Type /XObject /Subtype /Form /BBox [0 0 612 792]",
    )
    return raw_pdf(
        [
            "<< /Type /Catalog /Pages 2 0 R >>",
            PAGES.replace("5 0 R", "4 0 R"),
            HELVETICA,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R"
            " /Resources << /Font << /F1 3 0 R >> /XObject << /X1 6 0 R >> >> >>",
            stream(content),
            form,
        ]
    )


@needs_loops
def test_scaled_text_split_numbers_and_every_kind_of_path_read_the_same() -> None:
    pdf = _scaled_text_and_shapes()
    [(_, words, _, rules, _)] = both(pdf)
    assert [w.text for w in words][:6] == ["Revenue", "2023", "and", "2024", "400.01", "3"]
    assert len(rules) >= 6  # line, bar, the box's edges, the square, the form's two lines
    assert_same(pdf)


@needs_loops
def test_a_table_with_ruled_lines_and_bold_headings_reads_the_same() -> None:
    items: list[Text | Line] = [Text(72, 60, "Quarterly results", 16, bold=True)]
    items += paragraph(72, 90, ["The figures below are unaudited and in millions."])
    for row, y in enumerate((130, 150, 170, 190)):
        items.append(Line(72, y - 12, 540, y - 12))
        cells = ("Segment", "2023", "2024") if row == 0 else (f"Unit {row}", f"{row}1.5", "-")
        for x, cell in zip((76, 300, 420), cells):
            items.append(Text(x, y, cell, 10, bold=row == 0))
    assert assert_same(build_pdf([items, items[:3]])) == 2


@needs_loops
def test_ligatures_accents_and_right_to_left_text_read_the_same() -> None:
    if not DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed")
    pdf = text_pdf([["Diﬃcult eﬀects ﬁnd ﬂow", "Café naïve 12 345,6", "שלום עולם 2024"]])
    assert assert_same(pdf) == 1


@needs_loops
def test_a_font_with_wrong_ascent_and_descent_reads_the_same() -> None:
    if not DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed")
    items = [Text(72, 80, "Set Up", 14, font="Helvetica-Bold")]
    items += paragraph(72, 110, ["Place the tubes 12 in a rack", "and spin them"])
    pdf = build_pdf([items], font_file=tall_metrics_font())
    [(_, words, _, _, _)] = both(pdf)
    assert {w.size for w in words if w.text != "Set" and w.text != "Up"} == {10.0}
    assert assert_same(pdf) == 1


@needs_loops
def test_a_page_turned_by_its_rotate_entry_reads_the_same() -> None:
    doc = pdfium.PdfDocument(build_pdf([paragraph(72, 72, ["Turned page text 42", "line two"])]))
    doc[0].set_rotation(90)
    out = io.BytesIO()
    doc.save(out)
    assert assert_same(out.getvalue()) == 1


@needs_loops
def test_every_page_of_the_shared_corpus_reads_the_same(corpus: Path) -> None:
    pdfs = sorted(corpus.glob("**/*.pdf"))
    pages = 0
    for path in pdfs:
        try:
            pages += assert_same(path)
        except pdfium.PdfiumError:
            continue  # needs a password
    assert pages > 50


def _lines_and_runs(words: list[Word], compiled: bool) -> list[list[list[str]]]:
    return [
        [[w.text for w in run] for run in runs(line, compiled=compiled)]
        for line in group_lines(words, compiled=compiled)
    ]


@needs_loops
def test_the_table_finder_groups_lines_and_cuts_runs_the_same_compiled() -> None:
    # A borderless statement: a label column, numbers a space apart or a column apart,
    # a currency sign before its number, thousands set "12 345", a superscript on a row.
    items: list[Text | Line] = [Text(72, 60, "Statement of income", 14, bold=True)]
    rows = [
        ("Revenue", "$ 1,200", "1,100", "12 345,6"),
        ("Cost of sales", "(400)", "(380)", "n/a"),
        ("Net income", "800 %", "720", "-"),
    ]
    for k, cells in enumerate(rows):
        y = 100 + 16 * k
        for x, cell in zip((72, 260, 340, 420), cells):
            items.append(Text(x, y, cell, 10))
    items.append(Text(130, 97, "1", 6))  # a footnote mark above "Revenue"'s row
    items += paragraph(72, 180, ["A paragraph under the table, its words a space apart."])
    doc = pdfium.PdfDocument(build_pdf([items]))
    page = doc[0]
    textpage = page.get_textpage()
    words = page_words(page, textpage)
    textpage.close()
    page.close()
    doc.close()
    got = _lines_and_runs(words, compiled=True)
    assert got == _lines_and_runs(words, compiled=False)
    assert ["$", "1,200"] in got[1] and ["Cost", "of", "sales"] in got[2]


@needs_loops
def test_words_at_one_place_keep_their_order_and_a_nan_box_falls_back_to_python() -> None:
    # Ties on both sort keys keep the words' order, as Python's stable sort does.
    same = [Word(t, 10.0, 10.0, 20.0, 20.0, 10.0) for t in "abc"]
    # At one x a line keeps its order by centre: "e", a hair higher, before the rest.
    same += [Word("d", 10.0, 9.0, 20.0, 21.0, 10.0), Word("e", 10.0, 9.5, 20.0, 19.5, 10.0)]
    assert [w.text for w in group_lines(same)[0]] == ["e", "a", "b", "c", "d"]
    assert group_lines(same, compiled=True) == group_lines(same, compiled=False)
    odd = [Word("x", float("nan"), 0.0, 5.0, 10.0), Word("y", 1.0, float("nan"), 5.0, 10.0)]
    assert pdfium_calls.loops.group_lines(odd) is None  # type: ignore[union-attr]
    assert group_lines(odd, compiled=True) == group_lines(odd, compiled=False)
    gaps = [Word(t, x, 0.0, x + 5.0, 10.0, 0.0) for t, x in (("1", 0.0), ("2", 8.0), ("a", 30.0))]
    assert runs(gaps, compiled=True) == runs(gaps, compiled=False)


def _page_words(pdf: bytes) -> list[Word]:
    doc = pdfium.PdfDocument(pdf)
    page = doc[0]
    textpage = page.get_textpage()
    try:
        return page_words(page, textpage)
    finally:
        textpage.close()
        page.close()
        doc.close()


@needs_loops
def test_lines_are_made_the_same_compiled_across_gutters_labels_and_sizes() -> None:
    # Two columns a gutter apart narrower than a line's wide gap (found over many rows), a
    # label a tab before its text, a size change within a row: every way a row is cut.
    def page(right: float) -> list[Text | Line]:
        items: list[Text | Line] = [Text(72, 60, "ITEM 1A.", 11, bold=True)]
        items.append(Text(180, 60, "Risk Factors", 11, bold=True))
        items += [Text(72, 80, "Revenue grew", 10), Text(140, 80, "sharply", 16)]
        for k in range(12):
            items.append(Text(72, 110 + 13 * k, f"left column of running text {k:02}", 10))
            items.append(Text(right, 110 + 13 * k, f"right column of running text {k:02}", 10))
        return items

    drawn = _page_words(build_pdf([page(300)]))
    left_end = max(w.x1 for w in drawn if w.x1 < 300 and w.y0 > 100)  # the left column's
    words = _page_words(build_pdf([page(left_end + 12)]))  # 1.2 em: no wide gap
    got = make_lines(words, 612.0, compiled=True)
    assert got == make_lines(words, 612.0, compiled=False)
    texts = [line.text for line in got]
    assert "ITEM 1A. Risk Factors" in texts
    assert "left column of running text 00" in texts  # cut at the gutter alone
    assert "right column of running text 00" in texts
    assert "Revenue grew" in texts and "sharply" in texts  # cut where the size changes


@needs_loops
def test_lines_of_right_to_left_words_and_odd_boxes_are_made_the_same_compiled() -> None:
    words = [Word(t, x, 10.0, x + 20.0, 20.0, 10.0) for t, x in (("שלום", 0.0), ("עולם", 25.0))]
    words += [Word(t, x, 40.0, x + 9.0, 50.0, s) for t, x, s in (("a", 0.0, 9), ("b", 12.0, 9.5))]
    words += [Word("n", 0.0, 70.0, 9.0, 80.0, float("nan")), Word("m", 11.0, 70.0, 19.0, 80.0)]
    assert make_lines(words, compiled=True) == make_lines(words, compiled=False)
    odd = words + [Word("x", float("nan"), 90.0, 5.0, 95.0, 10.0)]
    assert pdfium_calls.loops.bands(odd) is None  # type: ignore[union-attr]
    assert make_lines(odd, compiled=True) == make_lines(odd, compiled=False)


def _helvetica_page(content: str) -> bytes:
    """One Letter page drawing ``content`` (a content stream) with Helvetica as /F1."""
    catalog = "<< /Type /Catalog /Pages 2 0 R >>"
    return raw_pdf([catalog, PAGES, HELVETICA, stream(content), page_with("")])


@needs_loops
@pytest.mark.parametrize(
    ("matrix", "turn"),
    [("1 0 0 1", 0), ("0 1 -1 0", 90), ("-1 0 0 -1", 180), ("0 -1 1 0", 270)],
)
def test_a_page_of_turned_text_is_turned_upright_the_same_compiled(matrix: str, turn: int) -> None:
    # Rows of text set at one angle: both loops vote the same quarter turn from a sample.
    content = "".join(
        f"BT /F1 10 Tf {matrix} {200 + 14 * k} {300 + 14 * k} Tm (Sideways row {k}) Tj ET\n"
        for k in range(10)
    )
    pdf = _helvetica_page(content)
    doc = pdfium.PdfDocument(pdf)
    page = doc[0]
    textpage = page.get_textpage()
    try:
        got = text_rotation(textpage, sample=7, compiled=True)
        assert got == text_rotation(textpage, sample=7, compiled=False)
        assert got == turn
    finally:
        textpage.close()
        page.close()
        doc.close()


@needs_loops
@pytest.mark.parametrize(("rise", "expected"), [(4, ["1,23456"]), (7, ["1,234", "56"])])
def test_a_number_fused_from_two_objects_is_read_box_by_box_the_same(
    rise: int, expected: list[str]
) -> None:
    # "1,234" and a smaller "56" set right after it, raised: PDFium gives one run "1,23456"
    # from two text objects, which both loops read glyph by glyph, cutting where the next
    # glyph's middle leaves the line (a footnote mark set high) and not where it stays.
    content = f"BT /F1 10 Tf 72 680 Td (1,234) Tj ET BT /F1 7 Tf 97.02 {680 + rise} Td (56) Tj ET\n"
    pdf = _helvetica_page(content)
    [(_, words, python_words, _, _)] = both(pdf)
    assert [w.text for w in words] == expected
    assert words == python_words


@needs_loops
def test_shading_inside_a_grid_is_told_from_its_lines_the_same_compiled() -> None:
    # A grid whose cells are shaded by boxes inset from their walls and by strips one a
    # text line (test_layout_table_grids reads it as a table): the box edges are dropped
    # the same way by both loops, and the grid's own lines kept.
    xs, ys = [72, 200, 340], [100, 140, 190, 230]
    body = "".join(
        _box(x0 + 5, ys[0] + 4, x1 - 5, ys[0] + 18) + _box(x0 + 5, ys[0] + 18, x1 - 5, ys[0] + 32)
        for x0, x1 in pairwise(xs)
    )
    body += _box(xs[0], ys[1] + 6, xs[1], ys[2] - 6)
    body += "0.5 w\n" + "".join(_hline(xs[0], xs[-1], y) for y in ys)
    body += _hline(xs[0] + 1, xs[-1] - 1, ys[-1] + 3)  # a double border under it: both kept
    body += "".join(_vline(x, ys[0], ys[-1] + 3) for x in xs)
    body += text(78, ys[0] + 14, "Competence") + text(78, ys[0] + 28, "area")
    body += text(206, ys[0] + 14, "Statement of what") + text(206, ys[0] + 28, "a learner knows")
    body += text(78, ys[1] + 16, "Knowledge") + text(206, ys[1] + 16, "The basics")
    [(_, words, _, rules, _)] = both(table_pdf(body))
    hs, vs = grid_lines(rules, words, True)
    assert sorted(round(h.y0) for h in hs) == [*ys, ys[-1] + 3]  # the shading's edges are gone
    assert sorted(round(v.x0) for v in vs) == xs
    assert (hs, vs) == grid_lines(rules, words, False)
    [(net_h, net_v)] = _networks(hs, vs, compiled=True)  # one grid: every line in it
    assert len(net_h) == len(hs) and len(net_v) == len(vs)
    assert _networks(hs, vs, compiled=False) == [(net_h, net_v)]


@needs_loops
def test_rules_with_a_nan_end_are_merged_and_gridded_by_the_python_loops() -> None:
    nan = float("nan")
    pieces = [Rule(10, 20, 50, 20), Rule(49, 20, 90, 20), Rule(10, 20, 10, nan)]
    assert pdfium_calls.loops is not None
    assert (
        pdfium_calls.loops.merge_pieces([(r.x0, r.y0, r.x1, r.y1) for r in pieces], 1.5, Rule)
        is None
    )
    assert merge_rules(pieces)[0] == Rule(10, 20, 90, 20)
    hs = [Rule(10, 20, 90, 20), Rule(10, 60, 90, nan)]
    vs = [Rule(10, 20, 10, 60), Rule(90, 20, 90, 60)]
    word = Word("x", 20, 30, 30, 40, 10)
    assert grid_rules(hs, vs, [word], compiled=True) == grid_rules(hs, vs, [word], compiled=False)

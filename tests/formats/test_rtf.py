"""RTF: the text, in the document's code page, never its control words."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.office.rtf import rtf_text


def test_code_page_escapes_and_unicode_escapes_are_decoded() -> None:
    data = (
        b"{\\rtf1\\ansi\\ansicpg1250\\deff0{\\fonttbl{\\f0 Arial;}}"
        b"{\\info{\\title Klauzula}{\\author Jan Nowak}}"
        b"\\f0 Prosz\\'ea o zapoznanie si\\'ea\\par Caf\\u233? cr\\u232?me\\par}"
    )
    text, info = rtf_text(data)
    assert text == "Proszę o zapoznanie się\nCafé crème"
    assert info.title == "Klauzula" and info.authors == ["Jan Nowak"]


def test_table_cells_are_kept_apart_and_pictures_dropped(tmp_path: Path) -> None:
    picture = b"{\\pict\\pngblip " + b"89504e470d0a1a0a" * 400 + b"}"
    data = (
        b"{\\rtf1\\ansi\\trowd\\cellx1000\\cellx2000 Plums\\cell 40 kg\\cell\\row "
        + picture
        + b"\\par Done.}"
    )
    path = tmp_path / "menu.rtf"
    path.write_bytes(data)
    [item] = Reader().read(path)
    assert "| Plums | 40 kg |" in item.memory and "Done." in item.memory
    assert "89504e47" not in item.memory and "\\cell" not in item.memory


def test_a_table_is_a_markdown_table_its_cells_one_line_each() -> None:
    # Word's way: each cell paragraph \intbl, a cell of two paragraphs, space runs inside.
    row = b"\\trowd\\cellx2000\\cellx4000\\pard\\intbl "
    data = (
        b"{\\rtf1\\ansi\\pard Menu for the week\\par "
        + row
        + b"Day\\cell Dish\\cell\\row "
        + row
        + b"Monday\\cell Goulash   with bread\\par A, C\\cell\\row "
        + row
        + b"Tuesday\\cell Pea | mint soup\\cell\\row "
        + b"\\pard Allergens as listed.\\par "
        + row
        + b"Closed\\cell Friday\\cell\\row }"
    )
    text, _ = rtf_text(data)
    assert text == (
        "Menu for the week\n\n"
        "| Day | Dish |\n| --- | --- |\n"
        "| Monday | Goulash with bread A, C |\n"
        "| Tuesday | Pea \\| mint soup |\n\n"
        "Allergens as listed.\n\n"
        "| Closed | Friday |\n| --- | --- |"
    )


def test_a_one_column_table_is_read_as_paragraphs() -> None:
    row = b"\\trowd\\cellx9000\\pard\\intbl "
    text, _ = rtf_text(
        b"{\\rtf1\\ansi " + row + b"Boxed note\\cell\\row " + row + b"More\\cell\\row }"
    )
    assert text == "Boxed note\n\nMore"


def test_the_speiseplan_menu_is_a_table_of_days_and_dishes(corpus: Path) -> None:
    path = corpus / "realworld" / "Speiseplan_KW_32-33_Eybl.rtf"
    if not path.is_file():
        pytest.skip("Speiseplan_KW_32-33_Eybl.rtf is not in the corpus")
    text, _ = rtf_text(path.read_bytes())
    assert "| Montag: Suppe: | M 1 | Gemüserostbraten mit Semmelknödel und Salat A,C,G,L, |" in text
    assert "| --- | --- | --- |" in text
    assert "| Profiterolesuppe A,C,L, | M 2 | X: Putenfilet auf Kräuterchampignons" in text
    assert "|M 1|" not in text and "Salat  " not in text  # no pipes run together, no space runs


def test_a_huge_run_of_control_words_is_read_in_linear_time() -> None:
    run = b"\\b\\i\\ul\\b0\\i0\\ulnone" * 40_000  # about 1 MB of formatting
    started = time.perf_counter()
    text, _ = rtf_text(b"{\\rtf1\\ansi Before " + run + b" after.}")
    assert text == "Before after."
    assert time.perf_counter() - started < 30


def test_headers_footers_footnotes_and_comments_are_kept_like_docx_ones(tmp_path: Path) -> None:
    # As Word writes them: left / right / first-page headers, a footer with a page number
    # field, a footnote cited in the body (also as {\*\footnote}), a comment with its author,
    # and a second section repeating the right-hand header.
    data = (
        b"{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fcharset0 Calibri;}"
        b"{\\f1\\fcharset204 Arial Cyr;}}{\\colortbl;\\red0\\green0\\blue0;}"
        b"{\\stylesheet{\\s0 Normal;}}{\\info{\\title Orchard}{\\author Ann Lee}}"
        b"\\sectd{\\headerl \\pard Orchard report (even pages)\\par}"
        b"{\\headerr \\pard Orchard report\\par}{\\headerf \\pard Orchard report, cover\\par}"
        b"{\\footerr \\pard Confidential: staff only\\par}"
        b"\\pard Harvest starts {\\*\\atnid AL}{\\*\\atnauthor Ann Lee}\\chatn"
        b"{\\*\\annotation{\\*\\atnref 1}{\\*\\atndate 1234}\\pard\\plain Check the date with Bo.}"
        b"in May{\\super\\chftn}{\\footnote\\pard\\plain{\\super\\chftn} Weather permitting.}.\\par"
        b"{\\*\\ftnsep \\chftnsep}"
        b"\\sect\\sectd{\\headerr \\pard Orchard report\\par}"
        b"\\pard Pickers: {\\f1 \\'cf\\'e5\\'f2\\'f0}"
        b"{\\super\\chftn}{\\*\\footnote\\pard{\\super\\chftn} {\\f1 \\'cf\\'e5\\'f2\\'f0} leads.}"
        b" and Bo.\\par}"
    )
    path = tmp_path / "report.rtf"
    path.write_bytes(data)
    items = Reader().read(path)
    by_part: dict[str | None, list[str]] = {}
    for item in items:
        by_part.setdefault(item.metadata.extra.get("section"), []).append(item.memory)
    assert by_part == {
        None: [
            # Each footnote on the line after the paragraph citing it (RTF's paragraphs
            # are lines), not listed after the body.
            "Harvest starts in May[^1].\n[^1]: Weather permitting.\n\n"
            "Pickers: Петр[^2] and Bo.\n[^2]: Петр leads."
        ],
        "header": ["Orchard report (even pages)", "Orchard report", "Orchard report, cover"],
        "footer": ["Confidential: staff only"],
        "comments": ["- Ann Lee: Check the date with Bo."],
    }
    header = next(i for i in items if i.metadata.extra.get("section") == "header")
    assert header.metadata.tags == ["rtf", "header"]
    assert header.metadata.extra["heading"] == "Header"


def test_parts_inside_unprinted_groups_and_junk_groups_stay_out() -> None:
    # A "header" inside a picture or a {\*\...} group is never on the page; the font table,
    # colours, styles, document info and list text are never text.
    data = (
        b"{\\rtf1\\ansi{\\fonttbl{\\f0\\fcharset0 Arial;}}"
        b"{\\colortbl;\\red255\\green0\\blue0;}"
        b"{\\stylesheet{\\s1 Heading 1;}}{\\info{\\title T}{\\company Acme}}"
        b"{\\*\\generator Writer}"
        b"{\\*\\listtable{\\list{\\listlevel{\\leveltext \\'01\\u-3913 ?;}}}}"
        b"{\\pict\\pngblip 0a0b{\\header Hidden header}}{\\*\\shpinst{\\footer Hidden footer}}"
        b"\\pard Body only\\par{\\footnote}}"
    )
    text, _ = rtf_text(data)
    assert text == "Body only"

"""RTF: the text, in the document's code page, never its control words."""

from __future__ import annotations

import time
from pathlib import Path

from omnireader import Reader
from omnireader.formats.rtf import rtf_text


def test_code_page_escapes_and_unicode_escapes_are_decoded() -> None:
    data = (b"{\\rtf1\\ansi\\ansicpg1250\\deff0{\\fonttbl{\\f0 Arial;}}"
            b"{\\info{\\title Klauzula}{\\author Jan Nowak}}"
            b"\\f0 Prosz\\'ea o zapoznanie si\\'ea\\par Caf\\u233? cr\\u232?me\\par}")
    text, info = rtf_text(data)
    assert text == "Proszę o zapoznanie się\nCafé crème"
    assert info.title == "Klauzula" and info.authors == ["Jan Nowak"]


def test_table_cells_are_kept_apart_and_pictures_dropped(tmp_path: Path) -> None:
    picture = b"{\\pict\\pngblip " + b"89504e470d0a1a0a" * 400 + b"}"
    data = (b"{\\rtf1\\ansi\\trowd\\cellx1000\\cellx2000 Plums\\cell 40 kg\\cell\\row "
            + picture + b"\\par Done.}")
    path = tmp_path / "menu.rtf"
    path.write_bytes(data)
    [item] = Reader().read(path)
    assert "Plums|" in item.memory and "40 kg" in item.memory and "Done." in item.memory
    assert "89504e47" not in item.memory and "\\cell" not in item.memory


def test_a_huge_run_of_control_words_is_read_in_linear_time() -> None:
    run = b"\\b\\i\\ul\\b0\\i0\\ulnone" * 40_000  # about 1 MB of formatting
    started = time.perf_counter()
    text, _ = rtf_text(b"{\\rtf1\\ansi Before " + run + b" after.}")
    assert text == "Before after."
    assert time.perf_counter() - started < 30

"""Chunks that follow the structure (omnireader.text.structure, parsers/doc_chunks.py): the
rules of issue 26 on generated texts and real files read by the file parser."""

from __future__ import annotations

import random
from pathlib import Path

from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob
from omnireader.text.chunking import chunk_text
from omnireader.text.md_blocks import _HAS_STRUCTURE, has_structure
from omnireader.text.structure import MAX_DEPTH, MAX_TITLE, structured_chunks
from omnireader.text.tokens import count_tokens

WORDS = "revenue grew steadily while costs fell across every region and segment".split()


def prose(seed: int, words: int) -> str:
    rng = random.Random(seed)
    out = []
    for n in range(words):
        out.append(rng.choice(WORDS))
        out.append(". " if n % 13 == 12 else "\n\n" if n % 97 == 96 else " ")
    return "".join(out)


def table(
    rows: int, caption: str = "Consolidated Statements of Cash Flows"
) -> tuple[str, list[str]]:
    body = [
        f"| Purchases of property, plant and equipment line {i} | {i * 7}.25 | -{i}.5 |"
        for i in range(rows)
    ]
    return "\n".join([caption, "| Item | 2018 | 2017 |", "| --- | --- | --- |", *body]) + "\n", body


def test_text_without_headings_is_chunked_as_before() -> None:
    text = prose(1, 6000)
    got = structured_chunks(text, 128)
    assert [s.chunk for s in got] == chunk_text(text, 128)
    assert all(s.heading_path == [] for s in got)
    # A heading path of the section's own still leaves the chunks as they were.
    assert [s.chunk for s in structured_chunks(text, 128, ["Part I"])] == chunk_text(text, 128)


def test_structure_is_a_heading_or_a_table_row_anywhere_in_the_text() -> None:
    # Told without the pattern when the text has neither "#" nor "|"; the same answer.
    texts = [
        "plain words " * 1000,
        "one line, no break: 12.5% (x) y/z " * 1000,
        "prose\n\n" * 500 + "# A heading\nbody",
        "prose\n" * 500 + "| a | b |\n|---|---|\n| 1 | 2 |",
        "issue #12 and a|b inline",
        "#hashtag\n  |not a row",
        "\n# \n",
        "text\n  | cell |  \nmore",
    ]
    for text in texts:
        assert has_structure(text) is (_HAS_STRUCTURE.search(text) is not None), text[-40:]
    assert [has_structure(t) for t in texts] == [
        False,
        False,
        True,
        True,
        False,
        False,
        False,
        True,
    ]


def test_a_chunk_stays_within_its_section() -> None:
    a, b = prose(2, 900), prose(3, 900)
    text = f"# Report\n\n## Results\n\n{a}\n## Risks\n\n{b}"
    got = structured_chunks(text, 128)
    assert len(got) > 4
    for s in got:
        body = s.chunk.text
        assert not ("## Results" in body and "## Risks" in body)
        inside_risks = s.chunk.char_start >= text.index("## Risks")
        assert (
            s.heading_path == ["Report", "Risks" if inside_risks else "Results"]
            or s.heading_path == ["Report"]
            and s.chunk.char_start == 0
        )
        assert body == text[s.chunk.char_start : s.chunk.char_end]
    # Nothing is lost or repeated: the chunks cover the text's words in order.
    assert " ".join("".join(s.chunk.text for s in got).split()) == " ".join(text.split())


def test_small_neighbouring_sections_merge() -> None:
    text = "# Handbook\n\n## Leave\n\nTen days.\n\n## Travel\n\nBook early.\n\n## Pay\n\nMonthly.\n"
    [one] = structured_chunks(text, 128)
    assert one.chunk.text == text
    assert one.heading_path == ["Handbook"]  # what the merged sections share
    # ... and what the chunk is about: each merged section's own title, in order.
    assert one.titles == ("Leave", "Travel", "Pay")


def test_merged_sections_keep_their_titles_below_the_path_they_share() -> None:
    # A balance sheet laid out as two tables, each under a title of its own: the two small
    # sections merge into one chunk, which sits under "Part II" and is about both titles.
    text = (
        "# Part II\n\nItem 8 follows.\n\n## Consolidated Balance Sheets\n\n"
        "| Assets | 2019 |\n| --- | --- |\n| Merchandise inventories | 5,409 |\n\n"
        "## Liabilities and equity\n\n| Liabilities | 2019 |\n| --- | --- |\n"
        "| Accounts payable | 5,257 |\n"
    )
    [one] = structured_chunks(text, 512, ["Annual report"])
    assert one.heading_path == ["Annual report", "Part II"]
    assert one.titles == ("Consolidated Balance Sheets", "Liabilities and equity")
    # A chunk that is one section has its title in its path, and no titles apart.
    whole = structured_chunks(text, 30, ["Annual report"])
    assert [s.heading_path[-1] for s in whole] == [
        "Part II",
        "Consolidated Balance Sheets",
        "Liabilities and equity",
    ]
    assert all(s.titles == () for s in whole)


def test_a_heading_never_ends_a_chunk() -> None:
    # "Part II" heads nothing of its own but the "Item 7" under it; "Item 7"'s text is too
    # long to share a chunk with anything: both headings open its first chunk.
    body = prose(4, 900)
    text = f"# Report\n\nIntro.\n\n## Part II\n\n### Item 7\n\n{body}\n\n### Item 8\n\nLast."
    got = structured_chunks(text, 128)
    for s in got:
        lines = [line for line in s.chunk.text.splitlines() if line.strip()]
        assert not lines[-1].startswith("#"), s.chunk.text
    first = next(s for s in got if "### Item 7" in s.chunk.text)
    assert first.chunk.text.startswith("## Part II\n\n### Item 7\n\n")
    assert first.heading_path == ["Report", "Part II", "Item 7"]
    assert first.chunk.text == text[first.chunk.char_start : first.chunk.char_end]
    # Nothing is lost or repeated.
    assert " ".join("".join(s.chunk.text for s in got).split()) == " ".join(text.split())


def test_a_heading_at_the_texts_end_stays_with_the_chunk_before() -> None:
    # A page's last line is a heading whose text is overleaf: no chunk of its own.
    text = f"## Results\n\n{prose(5, 900)}\n\n## Risks\n"
    got = structured_chunks(text, 128)
    assert got[-1].chunk.text.rstrip().endswith("## Risks")
    assert got[-1].heading_path == ["Results"]
    assert all(s.chunk.text.strip() != "## Risks" for s in got)


def test_with_the_paths_levels_a_heading_takes_its_place_in_it() -> None:
    # A page carrying on "Goodwill" (level 3) in note 3 (level 2), then note 4 begins.
    text = f"{prose(1, 300)}\n\n## 4. Fair Value\n\n{prose(2, 300)}\n\n### Recurring\n\n{prose(3, 300)}"
    carried = ["Item 1. Statements", "3. Goodwill", "Goodwill"]
    paths = [s.heading_path for s in structured_chunks(text, 64, carried, [1, 2, 3])]
    assert paths[0] == carried
    assert ["Item 1. Statements", "4. Fair Value"] in paths
    assert ["Item 1. Statements", "4. Fair Value", "Recurring"] in paths
    # Without the levels, the text's headings go below the carried path.
    assert carried + ["4. Fair Value"] in [
        s.heading_path for s in structured_chunks(text, 64, carried)
    ]


def test_a_table_is_split_only_between_rows_and_every_piece_repeats_caption_and_header() -> None:
    t, rows = table(120)
    text = f"# Filing\n\nSome words before.\n\n{t}\nAfter the table.\n"
    got = structured_chunks(text, 96)
    pieces = [s for s in got if s.table is not None]
    assert len(pieces) > 3 and {s.table_parts for s in pieces} == {len(pieces)}
    seen: list[str] = []
    for s in pieces:
        lines = s.chunk.text.splitlines()
        if s.table_part:
            assert lines[:3] == [
                "Consolidated Statements of Cash Flows",
                "| Item | 2018 | 2017 |",
                "| --- | --- | --- |",
            ]
        assert s.chunk.tokens <= 96
        seen.extend(line for line in lines if line.startswith("| Purchases"))
    assert seen == rows  # every row once, whole, in order: none cut, none dropped


def test_a_row_longer_than_a_chunk_is_kept_whole() -> None:
    wide = "| " + " | ".join(f"{i}.128364559" for i in range(300)) + " |"
    text = (
        "| "
        + " | ".join(f"c{i}" for i in range(300))
        + " |\n| "
        + " | ".join(["---"] * 300)
        + " |\n"
        + "\n".join([wide] * 3)
        + "\n"
    )
    got = structured_chunks(text, 64)
    assert sum(s.chunk.text.count(wide) for s in got) == 3
    assert count_tokens(wide) > 64  # longer than any chunk, yet one piece


def test_the_heading_path_is_capped() -> None:
    long_title = "Very long heading " * 40
    text = "".join(
        f"{'#' * min(n + 1, 6)} {long_title if n == 5 else f'Level {n}'}\n\nText {n}.\n\n"
        for n in range(6)
    )
    got = structured_chunks(text, 8, ["Outer", "Middle"])
    deepest = max(got, key=lambda s: len(s.heading_path))
    assert len(deepest.heading_path) == MAX_DEPTH
    assert all(len(t) <= MAX_TITLE for s in got for t in s.heading_path)


def test_a_wide_csv_is_never_cut_inside_a_row(tmp_path: Path) -> None:
    """The issue's case: a CSV of 370 columns was split mid-number ("-0" / ".128364559")."""
    header = ",".join(f"col{i}" for i in range(370))
    rows = [
        ",".join(f"-0.{(r * 370 + c) % 997:03d}128364559" for c in range(370)) for r in range(6)
    ]
    path = tmp_path / "wide.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    items = FileParser().parse_fast(Blob(path=str(path)), ParseContext())
    assert len(items) >= 6
    cells = [f"-0.{(r * 370 + c) % 997:03d}128364559" for r in range(6) for c in range(370)]
    text = "\n".join(i.memory for i in items)
    assert all(cell in text for cell in cells)
    for item in items:
        lines = [line for line in item.memory.splitlines() if line.strip()]
        assert all(line.startswith("| ") and line.endswith(" |") for line in lines)
        assert lines[0].startswith("| col0 | col1 |")  # every piece repeats the header


def test_document_items_carry_heading_path_and_section_links(tmp_path: Path) -> None:
    path = tmp_path / "guide.md"
    path.write_text("# Guide\n\n## Setup\n\n" + prose(4, 1500) + "\n## Usage\n\nRun it.\n")
    ctx = ParseContext(options=ReadOptions(chunk_tokens=128))
    items = FileParser().parse_fast(Blob(path=str(path)), ctx)
    setup = [i for i in items if i.metadata.extra.get("heading_path") == ["Guide", "Setup"]]
    assert len(setup) > 2
    # Linked in order within their section; the first and last have one neighbour each.
    assert [i.metadata.extra["doc_index"] for i in setup] == list(range(len(setup)))
    assert "doc_prev" not in setup[0].metadata.extra
    assert setup[1].metadata.extra["doc_prev"] == setup[0].id
    assert setup[0].metadata.extra["doc_next"] == setup[1].id
    assert "doc_next" not in setup[-1].metadata.extra
    assert all(
        i.metadata.extra["doc_section"] == setup[0].metadata.extra["doc_section"] for i in setup
    )


def test_a_lead_in_goes_with_what_it_announces() -> None:
    # "… as follows:" and the table under it: the table is too long to share a chunk with
    # the text above, so the lead-in opens the table's chunk instead of ending the one
    # before it.
    rows, body = table(12, caption="")
    text = f"# Costs\n\n{prose(6, 110)}\n\nThe components of the cost are as follows:\n\n{rows}"
    got = structured_chunks(text, 128)
    for s in got:
        assert not s.chunk.text.rstrip().endswith(":"), s.chunk.text[-80:]
    opening = next(s for s in got if "as follows:" in s.chunk.text)
    assert opening.chunk.text.startswith("The components of the cost are as follows:")
    assert "| Item | 2018 | 2017 |" in opening.chunk.text
    assert opening.chunk.tokens <= 128 + 128 // 8
    # Each row once (a later piece repeats the lead-in, as a caption, and the header).
    assert all(sum(row in s.chunk.text for s in got) == 1 for row in body)


def test_a_scrap_is_no_chunk_of_its_own() -> None:
    # A statement's title and "Year Ended December 31," over a table that fills chunks of
    # its own, and a note under it: the title opens the table's first chunk and the note
    # closes its last, which was a later piece of the split table.
    rows, body = table(30, caption="")
    note = "See accompanying notes to consolidated financial statements."
    text = f"# Statements of Cash Flows\n\nYear Ended December 31,\n\n{rows}\n{note}\n"
    got = structured_chunks(text, 128)
    assert len(got) > 2
    assert all(s.chunk.tokens >= 128 // 8 for s in got), [s.chunk.text[:40] for s in got]
    assert got[0].chunk.text.startswith("# Statements of Cash Flows\n\nYear Ended December 31,")
    assert body[0] in got[0].chunk.text
    assert got[-1].chunk.text.rstrip().endswith(note)
    assert got[-1].chunk.text.startswith("Year Ended December 31,\n| Item | 2018 | 2017 |")
    assert all(sum(row in s.chunk.text for s in got) == 1 for row in body)
    assert all(s.chunk.tokens <= 128 + 128 // 8 for s in got)

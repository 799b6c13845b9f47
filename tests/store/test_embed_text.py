"""The text an item is embedded by: the same from the item (batch ingest's workers) as from its
stored row (the store, the writer, ``reembed``); a document chunk's title and headings first
for an embedder that declares ``with_headings`` (the default), never for a chat message."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader, ReadOptions, Store
from omnireader.llm.embedding import make_embedder
from omnireader.models import MemoryItem
from omnireader.store.embed_text import item_texts, row_texts
from omnireader.store.schema import items_to_rows

REPORT = """# Annual report 2023

## Cash flow statement

| Item | 2023 | 2022 |
| --- | --- | --- |
| Purchases of equipment | (1,577) | (1,373) |

## Staff

We employ 900 people in three countries.
"""


@pytest.fixture
def items(tmp_path: Path) -> list[MemoryItem]:
    report = tmp_path / "annual_report.md"
    report.write_text(REPORT)
    chat = [
        {"role": "user", "content": "I adopted a kitten"},
        {"role": "assistant", "content": "Congratulations!"},
        {"role": "user", "content": "She is called Miso"},
    ]
    return [*Reader().read(str(report)), *Reader().read(chat)]


@pytest.mark.parametrize("spec", [None, "static:potion-base-8m", "hashing"])
def test_an_item_and_its_stored_row_give_the_same_text(
    tmp_path: Path, items: list[MemoryItem], spec: str | None
) -> None:
    embedder = make_embedder(spec)
    store = Store.open(tmp_path / "db", embedder=spec)

    rows = items_to_rows(items, store.table.schema)

    assert row_texts(rows, embedder) == item_texts(items, embedder)


def test_the_default_embeds_a_chunk_under_its_title_and_headings_a_message_as_it_is(
    items: list[MemoryItem],
) -> None:
    chunk, *_, first, middle, last = items
    texts = dict(zip([i.id for i in items], item_texts(items, make_embedder(None))))

    assert texts[chunk.id].startswith("Annual report 2023\nannual report\n")
    assert "Cash flow statement" in texts[chunk.id].split(chunk.memory)[0]
    assert texts[chunk.id].endswith(chunk.memory)
    # A chat message: its own words, then its neighbours' (no heading, it has none).
    assert texts[middle.id] == f"{middle.memory}\n{first.memory}\n{last.memory}"


def test_an_embedder_that_does_not_ask_for_headings_gets_the_text_alone(
    items: list[MemoryItem],
) -> None:
    chunk = items[0]
    for spec in ("static:potion-base-8m", "hashing"):
        assert item_texts([chunk], make_embedder(spec)) == [chunk.memory]


def test_a_table_chunk_whose_cells_do_not_say_its_subject_is_found_by_its_heading(
    tmp_path: Path,
) -> None:
    # The question's words are in no cell of the table, only in the heading above it.
    report = tmp_path / "report.md"
    lines = ["Purchases of equipment", "Acquisitions, net", "Dividends paid", "Repurchases"]
    table = "\n".join(  # long enough to be split: its later pieces hold rows alone
        f"| {n} {y} | ({1_000 + 37 * i:,}) | ({900 + 29 * i:,}) |"
        for y in ("Europe", "Asia", "America")
        for i, n in enumerate(lines)
    )
    report.write_text(
        "# Report 2023\n\n## Cash flow statement\n\nIn millions of dollars.\n"
        "| Line | 2023 | 2022 |\n| --- | --- | --- |\n"
        f"{table}\n\n## Holidays\n\nStaff may carry five unused vacation days into next year.\n"
    )
    read = Reader(options=ReadOptions(chunk_tokens=32)).read(str(report))
    chunks = [i for i in read if "|" in i.memory and "cash" not in i.memory.lower()]
    embedder = make_embedder(None)
    query = embedder.embed_query("cash flow statement")

    with_headings = embedder.embed(item_texts(chunks, embedder)) @ query
    alone = embedder.embed([c.memory for c in chunks]) @ query

    assert chunks  # the table's later rows, in chunks of their own below the heading's
    assert (with_headings > alone + 0.1).all(), (with_headings, alone)

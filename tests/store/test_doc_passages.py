"""Document passages and the heading field, on a real LanceDB store in tmp_path: headings are
searched apart and shown as the header, a hit comes with its section neighbours within the
budget, a table hit with its whole table when it fits, a chunk of merged sections is found by
their own titles, and no search writes the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import IngestOptions, Reader, Store, ingest
from omnireader.store.headings import HEADING_COLUMN

FILLER = (
    "The committee reviewed the quarterly figures and noted the usual seasonal pattern "
    "in every region. "
)


def _section(marker: str, n: int) -> str:
    # Paragraphs of filler, one of them holding ``marker``: a section of several chunks.
    paras = [FILLER * 6 for _ in range(n)]
    paras[n // 2] = FILLER * 3 + f"The {marker} was approved. " + FILLER * 3
    return "\n\n".join(paras)


@pytest.fixture
def doc_store(tmp_path: Path) -> tuple[Store, Path]:
    report = tmp_path / "annual_report.md"
    rows = "\n".join(f"| Purchases of equipment, line {i} | {i * 3}.5 |" for i in range(40))
    report.write_text(
        "# Annual report\n\n## Board decisions\n\n"
        + _section("zanzibar budget", 5)
        + "\n\n## Consolidated Statements of Cash Flows\n\nCash flows for the year\n\n"
        "| Item | 2018 |\n| --- | --- |\n" + rows + "\n\n## Outlook\n\nSteady.\n"
    )
    store = Store.open(tmp_path / "store.lance")
    ingest([report], store, reader=Reader(chunk_tokens=128), options=IngestOptions(workers=1))
    return store, report


def test_headings_are_searched_apart_and_shown_as_the_header(doc_store: tuple[Store, Path]) -> None:
    store, _ = doc_store
    assert HEADING_COLUMN in store.table.schema.names
    # "statement" and "flow" are in the heading only, never in a table row.
    hits = store.search("cash flow statement equipment", k=3, view="fts")
    assert hits and hits[0].item.metadata.extra["heading_path"] == [
        "Annual report",
        "Consolidated Statements of Cash Flows",
    ]
    assert hits[0].header == "Annual report › Consolidated Statements of Cash Flows"
    assert hits[0].text.startswith(hits[0].header + "\n")


def test_a_hit_comes_with_its_section_neighbours_within_the_budget(
    doc_store: tuple[Store, Path],
) -> None:
    store, _ = doc_store
    [wide] = store.search("zanzibar", k=1, max_chars=20_000)
    ids = [i.id for i in wide.items]
    assert len(ids) == 3 and ids[1] == wide.item.id  # the chunk before, it, the one after
    assert all(
        i.metadata.extra["heading_path"] == ["Annual report", "Board decisions"] for i in wide.items
    )
    [narrow] = store.search("zanzibar", k=1, max_chars=len(wide.item.memory) + 200)
    assert [i.id for i in narrow.items] == [wide.item.id]  # no room: the chunk alone
    assert len(narrow.text) <= len(wide.item.memory) + 200
    [unbounded] = store.search("zanzibar", k=1)
    assert [i.id for i in unbounded.items] == ids


def test_a_table_hit_returns_the_whole_table_when_it_fits(doc_store: tuple[Store, Path]) -> None:
    store, _ = doc_store
    table = [i for i in store.iter_items() if i.metadata.extra.get("table")]
    assert len(table) > 1 and all(i.metadata.extra.get("table_ids") for i in table)
    [whole] = store.search("line 37", k=1, max_chars=50_000, view="fts")
    assert {i.id for i in whole.items} == {i.id for i in table}
    assert "line 0 |" in whole.text and "line 39 |" in whole.text
    [part] = store.search("line 37", k=1, max_chars=len(whole.item.memory) + 120, view="fts")
    assert [i.id for i in part.items] == [whole.item.id]


def test_no_search_writes_the_store(doc_store: tuple[Store, Path]) -> None:
    store, _ = doc_store
    before = (store.table.version, store.count())
    for view in ("hybrid", "fts", "vector"):
        for max_chars in (None, 500, 6000):
            for filters in (None, {"path": str(doc_store[1])}):
                store.search(
                    "cash flow statement zanzibar FY2018",
                    k=5,
                    view=view,
                    max_chars=max_chars,
                    filters=filters,
                )
    assert (store.table.version, store.count()) == before


def test_room_no_whole_hit_fills_goes_to_the_next_hit_cut(doc_store: tuple[Store, Path]) -> None:
    store, _ = doc_store
    [first, *_] = store.search("committee quarterly figures", k=10, view="fts")
    # room for the best hit alone (its header and chunk) and part of another
    budget = len(first.header or "") + 1 + len(first.item.memory) + 1 + 400
    got = store.search("committee quarterly figures", k=10, max_chars=budget, view="fts")
    assert sum(len(r.text) for r in got) + len(got) - 1 <= budget
    assert len(got) >= 2 and got[-1].text.endswith("…")
    assert got[-1].item.id not in {i.id for r in got[:-1] for i in r.items}


def test_a_chunk_of_merged_sections_is_found_by_their_own_titles(tmp_path: Path) -> None:
    # A balance sheet printed as two small tables, each under a title of its own: one chunk,
    # whose heading path is what the two sections share ("Annual report"). Its sections'
    # titles are searched with the headings all the same: the question "balance sheet"
    # ranks it above the same words printed without headings (bold lines, not titles).
    body = (
        "{0}Consolidated Balance Sheets{1}\n\n"
        "| Assets | 2019 |\n| --- | --- |\n| Merchandise inventories | 5,409 |\n\n"
        "{0}Liabilities and equity{1}\n\n| Liabilities | 2019 |\n| --- | --- |\n"
        "| Accounts payable | 5,257 |\n"
    )
    titled, plain = tmp_path / "filing_one.md", tmp_path / "filing_two.md"
    titled.write_text("# Annual report\n\n" + body.format("## ", ""))
    plain.write_text("# Annual report\n\n" + body.format("**", "**"))
    store = Store.open(tmp_path / "store.lance")
    ingest([titled, plain], store, reader=Reader(), options=IngestOptions(workers=1))
    [sheet] = [i for i in store.iter_items() if i.source and i.source.path == str(titled)]
    assert sheet.metadata.extra["heading_path"] == ["Annual report"]
    assert sheet.metadata.extra["section_titles"] == [
        "Consolidated Balance Sheets",
        "Liabilities and equity",
    ]
    first, second = store.search("balance sheet inventories", k=2, view="fts")
    assert first.item.id == sheet.id and first.score > second.score
    assert first.header == "Annual report"  # shown where it sits

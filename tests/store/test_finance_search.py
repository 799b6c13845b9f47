"""Search over financial documents, on a real LanceDB store in tmp_path: a question in an
analyst's words finds the statement in the filing's words (query expansion), names its
document by the company and year in the file name (routing), and under a budget shows each
long hit as its best lines, so more of the places that may hold the answer fit."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import IngestOptions, Reader, Store, ingest
from omnireader.store.expansion import expand, normal
from omnireader.store.routing import named_documents
from omnireader.store.snippets import WINDOW_CHARS, query_terms, window

FILLER = (
    "Management reviewed the results of the year with the audit committee and found the "
    "usual seasonal pattern in every region of the business. "
)


def _filing(company: str, year: int, capex: int) -> str:
    return (
        f"# {company} annual report {year}\n\n## Risk factors\n\n" + FILLER * 12 + "\n\n"
        "## Consolidated Statements of Cash Flows\n\n"
        "| (Millions) | " + f"{year} | {year - 1} |\n| --- | --- | --- |\n"
        "| Net income | 5,363 | 4,869 |\n"
        f"| Purchases of property, plant and equipment | ({capex}) | (1,373) |\n"
        "| Proceeds from sale of businesses | 846 | 1,065 |\n\n"
        "## Capital resources\n\n"
        "Our capital allocation favours research and new plants. " + FILLER * 8 + "\n"
    )


@pytest.fixture
def filings(tmp_path: Path) -> Store:
    folder = tmp_path / "filings"
    folder.mkdir()
    for name, company, year, capex in [
        ("BESTBUY_2019_10K.md", "Best Buy", 2019, 819),
        ("BESTBUY_2017_10K.md", "Best Buy", 2017, 582),
        ("GLOBEX_2019_10K.md", "Globex", 2019, 1577),
        ("INITECH_2019_10K.md", "Initech", 2019, 2210),
    ]:
        (folder / name).write_text(_filing(company, year, capex))
    # One filing discusses capital expenditure at length, in the question's own words.
    with (folder / "GLOBEX_2019_10K.md").open("a") as fp:
        fp.write(
            "\n## Capital expenditure outlook\n\n"
            + "Capital expenditure will rise; capital expenditure plans are set. " * 6
        )
    store = Store.open(tmp_path / "store.lance")
    ingest([folder], store, reader=Reader(chunk_tokens=128), options=IngestOptions(workers=1))
    return store


def test_a_question_is_expanded_with_the_words_filings_print() -> None:
    asked = expand("What is the FY2018 capital expenditure? Use the cash flow statement.")
    added = set(asked.split()) - set("What is the FY2018 capital expenditure? Use the".split())
    assert {"purchases", "property", "plant", "equipment", "consolidated", "flows"} <= added
    assert "P&L" in expand("the P&L") and "operations" in expand("the P&L").split()
    # Chat questions name nothing in the lexicon; "I'm a" is not "M&A".
    for plain in ("When did Caroline go to the lake?", "I'm a teacher", ""):
        assert expand(plain) == plain
    assert normal("P & L of Amazon's") == "p&l of amazon"


def test_the_statement_is_found_in_the_filings_words(filings: Store) -> None:
    question = "What was Globex's FY2019 capital expenditure according to the cash flow statement?"
    [hit] = filings.search(question, k=1, view="fts")
    assert "Purchases of property, plant and equipment | (1577)" in hit.text
    assert hit.item.source.filename == "GLOBEX_2019_10K.md"


def test_a_question_names_its_documents_by_company_and_year(filings: Store) -> None:
    def names(q: str) -> list[str]:
        return [Path(p).name for p in named_documents(filings.table, q)]

    # "Best Buy" is one word in the file name; the year picks the filing.
    assert names("What were Best Buy's FY2019 inventories?") == ["BESTBUY_2019_10K.md"]
    assert names("Is Best Buy a capital intensive business?") == [
        "BESTBUY_2017_10K.md",
        "BESTBUY_2019_10K.md",
    ]
    # Words every filing's name has, or none has, name nothing in particular.
    assert names("What is in the 10K?") == []
    assert names("What did the committee review?") == []


def test_routing_lifts_the_named_filing_over_the_others(filings: Store) -> None:
    # Without routing, Globex's outlook (the question's words, twice over) ranks first.
    hits = filings.search("What was Initech's capital expenditure?", k=20, view="fts")
    assert hits[0].item.source.filename == "INITECH_2019_10K.md"
    assert "(2210)" in hits[0].text
    # It lifts, it does not filter: the other filings' statements still come after it.
    others = [h for h in hits if h.item.source.filename != "INITECH_2019_10K.md"]
    assert any("(1577)" in h.text for h in others)


def test_a_store_of_chats_names_no_document(store: Store, item) -> None:  # type: ignore[no-untyped-def]
    store.add([item("m1", "Best Buy had a sale in 2019", kind="chat")])
    assert named_documents(store.table, "Best Buy 2019") == []
    assert store.search("Best Buy 2019", k=1)[0].item.id == "m1"


def test_a_window_is_the_run_of_lines_with_the_questions_words() -> None:
    lines = [f"Line {i} of the discussion of results in every region." for i in range(60)]
    lines[40] = "Purchases of property, plant and equipment were 1,577 million in 2018."
    text = "\n".join(lines)
    terms = query_terms("What was the 2018 capital expenditure?")
    best = window(text, terms, 400)
    assert best is not None and len(best) <= 400
    assert "Purchases of property, plant and equipment" in best
    assert best.startswith("…") and best.endswith("…")
    assert window("short text", terms, 400) is None  # fits whole
    assert window(text, query_terms("zebra"), 400) is None  # nothing matches: no window


def test_a_window_inside_a_table_keeps_the_header_row() -> None:
    rows = [f"| Other item {i} | {i} | {i + 1} |" for i in range(50)]
    rows[35] = "| Purchases of property, plant and equipment | (1,577) | (1,373) |"
    text = "\n".join(["| (Millions) | 2018 | 2017 |", "| --- | --- | --- |", *rows])
    best = window(text, query_terms("capital expenditure"), 300)
    assert best is not None
    assert best.splitlines()[:2] == ["| (Millions) | 2018 | 2017 |", "| --- | --- | --- |"]
    assert "(1,577)" in best


def test_under_a_budget_long_hits_show_their_best_lines(tmp_path: Path) -> None:
    # Eight long pages each mention the asked figure once: whole chunks would fit two or
    # three of them in the budget; windows fit more of the places to look.
    pages = []
    for n in range(8):
        body = [FILLER] * 14
        body[7] = f"Deferred revenue of the zircon division was {n}00 million. "
        pages.append(f"## Division {n}\n\n" + "\n".join(body))
    doc = tmp_path / "divisions.md"
    doc.write_text("# Divisions\n\n" + "\n\n".join(pages))
    store = Store.open(tmp_path / "store.lance")
    ingest([doc], store, reader=Reader(chunk_tokens=512), options=IngestOptions(workers=1))
    whole = store.search("zircon deferred revenue", k=8)
    assert len(whole) == 8 and all(len(r.item.memory) > WINDOW_CHARS for r in whole)
    budget = 6000
    shown = store.search("zircon deferred revenue", k=50, max_chars=budget)
    assert sum(len(r.text) for r in shown) + len(shown) <= budget + len(shown)
    assert len(shown) >= 5 > budget // len(whole[0].item.memory)
    assert all("zircon" in r.text for r in shown)
    # Without a budget a hit is its whole chunk.
    assert all(r.text.endswith(r.item.memory) for r in whole)

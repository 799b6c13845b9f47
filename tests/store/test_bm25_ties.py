"""BM25's cut among equal scores: the same question on the same store gives the same hits,
the tied rows with the smallest ids, whatever the partitions of the full-text index."""

from __future__ import annotations

import pytest

from omnireader.store import Store
from omnireader.store.bm25_ties import asked, settle
from omnireader.store.queries import _run, filter_query, fts_query, run_queries

from .conftest import make_item

TIED = [f"t{i:03d}" for i in range(200)]
REPEATS = 10


@pytest.fixture(scope="module")
def twice_optimised(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A store ingested twice, each ingest optimised: its full-text index in two partitions.

    200 rows of the same text (equal BM25 scores), their ids written in descending order,
    the odd ids in the first ingest and the even ones in the second: whichever partition
    LanceDB's search takes its rows from, and in whichever row order, the first rows it
    meets are not the smallest ids.
    """
    store = Store.open(tmp_path_factory.mktemp("ties") / "s.lance")
    filler = [
        make_item(f"f{i:04d}", f"harbour crane number {i} lifts containers") for i in range(300)
    ]

    def tied(odd: int) -> list:
        return [
            make_item(t, "otter otter river", user_id="u1" if int(t[1:]) % 3 == 0 else "u0")
            for t in reversed(TIED)
            if int(t[1:]) % 2 == odd
        ]

    store.add(filler + tied(1))
    store.optimize()
    store.add(tied(0))
    store.optimize()
    return store


@pytest.mark.parametrize("n", [1, 10, 40, 150])
def test_a_cut_inside_equal_scores_keeps_the_smallest_ids_every_time(
    twice_optimised: Store, n: int
) -> None:
    for _ in range(REPEATS):
        (rows,) = run_queries(
            twice_optimised.table, [fts_query("otter", n, None, ["id", "_score"])]
        )
        assert rows.column("id").to_pylist() == TIED[:n]


@pytest.mark.parametrize("view", ["fts", "hybrid"])
def test_the_same_search_gives_the_same_hits_every_time(twice_optimised: Store, view: str) -> None:
    for _ in range(REPEATS):
        hits = twice_optimised.search("otter river", k=5, view=view)
        assert [h.item.id for h in hits] == TIED[:5]
        filtered = twice_optimised.search("otter", k=4, view=view, filters={"user_id": "u1"})
        assert [h.item.id for h in filtered] == ["t000", "t003", "t006", "t009"]


def test_a_query_without_a_tie_at_the_cut_is_asked_once(twice_optimised: Store) -> None:
    table = twice_optimised.table
    # one row holds "7": it alone scores best, the next below it
    (query,) = fts_query("crane 7", 1, None, ["id", "_score"]).per_column[:1]
    (first,) = _run(table, [asked(query, 1)])
    asked_again: list[int] = []

    def run(queries: list) -> list:
        asked_again.extend(q.limit for q in queries)
        return _run(table, queries)

    (rows,) = settle([query], [first], 1, run, filter_query)
    scores = first.column("_score").to_pylist()
    assert len(first) == 2 and min(scores) < max(scores)  # no tie at the cut
    assert asked_again == []
    assert rows.column("id").to_pylist() == ["f0007"]

    (tied,) = fts_query("otter", 5, None, ["id", "memory", "_score"]).per_column[:1]
    (first,) = _run(table, [asked(tied, 5)])
    (rows,) = settle([tied], [first], 5, run, filter_query)
    # grown (ids and scores) until the 200 equal scores were all in hand, then the 5 kept
    # rows the first answer lacked read by id, with their columns and the band's score
    assert asked_again == [96, 1536, 5]
    assert rows.column("id").to_pylist() == TIED[:5]
    assert rows.column("memory").to_pylist() == ["otter otter river"] * 5
    assert rows.column("_score").to_pylist() == [first.column("_score")[0].as_py()] * 5
    assert rows.schema == first.schema

"""Symbolic filters: each one narrows every view, and hostile values stay plain values."""

from __future__ import annotations

import pytest

from omnireader.errors import InvalidInputError
from omnireader.store import SearchFilters, Store

from .conftest import MakeItem

QUERY = "quarterly report"


@pytest.fixture
def filled(store: Store, item: MakeItem) -> Store:
    store.add(
        [
            item(
                "u1-doc",
                "quarterly report for the north region",
                user_id="u1",
                session_id="s1",
                path="/data/reports/north.pdf",
                page=1,
                persons=["Alice", "Bob"],
                entities=["ACME"],
                timestamp="2024-03-31T18:00:00+02:00",
            ),
            item(
                "u1-chat",
                "we discussed the quarterly report",
                user_id="u1",
                session_id="s2",
                kind="chat",
                chat_time="2024-05-02T09:00:00Z",
                memory_type="UserMemory",
                persons=["Carol"],
            ),
            item(
                "u2-doc",
                "quarterly report draft, south region",
                user_id="u2",
                mode="fine",
                path="/data/other/south.pdf",
                page=2,
                entities=["Globex"],
                refine_status="refined",
                timestamp="2023-12-01",
            ),
            item(
                "o'neil",
                "quarterly report by O'Neil",
                user_id="x' OR '1'='1",
                persons=["O'Neil"],
                path="/data/it's/odd.pdf",
            ),
        ]
    )
    return store


CASES = [
    ({"user_id": "u1"}, {"u1-doc", "u1-chat"}),
    ({"session_id": "s2"}, {"u1-chat"}),
    ({"memory_type": "UserMemory"}, {"u1-chat"}),
    ({"mode": "fine"}, {"u2-doc"}),
    ({"source_kind": "chat"}, {"u1-chat"}),
    ({"since": "2024-01-01"}, {"u1-doc", "u1-chat"}),
    ({"until": "2024-03-31"}, {"u1-doc", "u2-doc"}),  # a bare date includes the whole day
    ({"since": "2024-04-01T00:00:00Z", "until": "2024-12-31"}, {"u1-chat"}),
    ({"persons": ["Bob", "Carol"]}, {"u1-doc", "u1-chat"}),  # any of
    ({"entities": ["Globex"]}, {"u2-doc"}),
    ({"path_prefix": "/data/reports/"}, {"u1-doc"}),
    ({"page": 2}, {"u2-doc"}),
    ({"refine_status": "refined"}, {"u2-doc"}),
    ({"refine_status": "none"}, {"u1-doc", "u1-chat", "o'neil"}),
    ({"user_id": "u1", "persons": ["Alice"]}, {"u1-doc"}),  # all filters hold at once
    ({"ids": ["u2-doc", "missing"]}, {"u2-doc"}),
]


@pytest.mark.parametrize("view", ["vector", "fts", "hybrid"])
@pytest.mark.parametrize(("filters", "expected"), CASES, ids=[str(c[0]) for c in CASES])
def test_each_filter_narrows_every_view(
    filled: Store, view: str, filters: dict[str, object], expected: set[str]
) -> None:
    found = {r.item.id for r in filled.search(QUERY, k=10, view=view, filters=filters)}

    assert found == expected
    assert filled.count(filters) == len(expected)


def test_a_filter_applies_before_ranking_so_k_matching_items_come_back(
    store: Store, item: MakeItem
) -> None:
    # 30 strong matches for u1, 3 weak ones for u2: u2's three are still all returned.
    store.add([item(f"a{i}", "solar panel installation guide", user_id="u1") for i in range(30)])
    store.add([item(f"b{i}", f"notes {i} mentioning solar", user_id="u2") for i in range(3)])

    for view in ("vector", "fts", "hybrid"):
        hits = store.search(
            "solar panel installation guide", k=3, view=view, filters={"user_id": "u2"}
        )
        assert {r.item.id for r in hits} == {"b0", "b1", "b2"}


@pytest.mark.parametrize(
    "hostile",
    [
        "x' OR '1'='1",
        "u1' --",
        "u1'; DROP TABLE items; --",
        "u1\\' OR 1=1 --",
        "') OR ('a'='a",
    ],
)
def test_injection_like_values_match_nothing_and_do_not_error(filled: Store, hostile: str) -> None:
    filters = {"user_id": hostile + "?"}  # none of the stored users

    assert filled.search(QUERY, view="hybrid", filters=filters) == []
    assert filled.count(filters) == 0
    assert filled.count({"path_prefix": hostile}) == 0
    assert filled.count({"persons": [hostile]}) == 0
    assert filled.count() == 4  # and nothing was dropped


def test_values_with_quotes_match_exactly(filled: Store) -> None:
    assert filled.count({"user_id": "x' OR '1'='1"}) == 1  # a real user id that looks hostile
    assert filled.count({"persons": ["O'Neil"]}) == 1
    assert filled.count({"path_prefix": "/data/it's/"}) == 1


def test_where_clause_quotes_values_and_uses_known_columns_only() -> None:
    clause = SearchFilters(user_id="a'b", since="2024-01-01T12:00:00+02:00", page=3).where()

    assert clause == (
        "user_id = 'a''b' AND timestamp >= TIMESTAMP '2024-01-01 10:00:00.000000' "
        "AND (page = 3 OR (page < 3 AND page_end >= 3))"
    )
    assert SearchFilters().where() is None


@pytest.mark.parametrize(
    "bad",
    [
        {"user": "u1"},  # unknown key
        {"since": "last tuesday"},
        {"memory_type": "Gossip"},
        {"page": -1},
        {"user_id": "nul\x00byte"},
    ],
)
def test_invalid_filters_raise_a_clear_error(filled: Store, bad: dict[str, object]) -> None:
    with pytest.raises(InvalidInputError):
        filled.count(bad)

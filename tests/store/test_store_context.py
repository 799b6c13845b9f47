"""Search results are passages: a hit with its context, overlaps merged, a budget kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.store import SearchFilters, Store

from .conftest import MakeItem

TRIP = [  # one sitting
    ("Ana", "Where should we eat in Lisbon tonight?"),
    ("Ben", "The grilled sardines place near the harbour."),
    ("Ana", "Perfect, and the tram museum tomorrow morning."),
    ("Ben", "I will buy the tram tickets online."),
    ("Ana", "Do not forget sunscreen for the beach."),
    ("Ben", "Packed it next to the towels."),
    ("Ana", "My sister Clara lands at noon on Sunday."),
    ("Ben", "I can pick Clara up from the airport."),
]


def read_chat(turns: list[tuple[str, str]], user: str = "u1", one_time: bool = False) -> list:
    messages = [
        {
            "role": "user",
            "name": who,
            "content": text,
            "message_id": f"{user}-m{n}",
            "chat_time": f"2025-06-01T10:{0 if one_time else n:02d}:00",
        }
        for n, (who, text) in enumerate(turns)
    ]
    return Reader().read(messages, info={"user_id": user})


@pytest.fixture
def trip(store: Store) -> Store:
    store.add(read_chat(TRIP))
    return store


def test_a_hit_comes_with_the_messages_around_it(trip: Store) -> None:
    (best,) = trip.search("grilled sardines harbour", k=1, view="fts")

    assert best.message_ids == ["u1-m0", "u1-m1", "u1-m2"]
    assert best.item.memory.endswith("The grilled sardines place near the harbour.")
    assert [i.id for i in best.items][1] == best.item.id
    assert best.text.split("\n")[:2] == [
        "[2025-06-01T10:00:00] Ana: Where should we eat in Lisbon tonight?",
        "[2025-06-01T10:01:00] Ben: The grilled sardines place near the harbour.",
    ]


def test_a_time_shared_by_consecutive_lines_is_shown_once(store: Store) -> None:
    store.add(read_chat(TRIP, one_time=True))

    (best,) = store.search("grilled sardines harbour", k=1, view="fts")

    assert best.text.split("\n") == [
        "[2025-06-01T10:00:00] Ana: Where should we eat in Lisbon tonight?",
        "Ben: The grilled sardines place near the harbour.",
        "Ana: Perfect, and the tram museum tomorrow morning.",
    ]


def test_hits_that_overlap_or_touch_merge_into_one_passage(trip: Store) -> None:
    # Messages 6 and 7 both say Clara; their contexts overlap.
    results = trip.search("Clara", k=5, view="fts")

    clara = [r for r in results if "u1-m6" in r.message_ids]
    assert len(clara) == 1 and {"u1-m5", "u1-m6", "u1-m7"} <= set(clara[0].message_ids)
    shown = [m for r in results for m in r.message_ids]
    assert len(shown) == len(set(shown))  # no message is returned twice


def test_a_budget_is_never_exceeded_and_keeps_the_best_first(trip: Store, item: MakeItem) -> None:
    trip.add(
        [
            item(
                f"doc{n}", f"Lisbon travel notes part {n}: trams, sardines and beaches. " * (n + 1)
            )
            for n in range(6)
        ]
    )
    full = trip.search("Lisbon tram sardines beach", k=20, view="hybrid")
    order = [r.item.id for r in full]

    for budget in (120, 300, 700, 1500, 5000):
        kept = trip.search("Lisbon tram sardines beach", k=20, view="hybrid", max_chars=budget)
        assert kept and sum(len(r.text) for r in kept) <= budget
        ranks = [order.index(r.item.id) for r in kept]
        assert ranks == sorted(ranks)  # best first, a subsequence of the full ranking
        assert kept[0].item.id == order[0] or len(full[0].text) > budget


def test_a_budget_smaller_than_the_best_passage_cuts_it(store: Store, item: MakeItem) -> None:
    store.add([item("long", "lighthouse " * 200)])

    (only,) = store.search("lighthouse", k=5, max_chars=50)

    assert len(only.text) == 50 and only.text.endswith("…")


def test_filters_are_applied_before_ranking(store: Store) -> None:
    # Bob's chat matches the query far better, and there is much more of it.
    store.add(
        read_chat([("Bob", "kayak kayak kayak rental by the kayak harbour")] * 30, user="bob")
    )
    store.add(read_chat([("Eve", "I might rent a kayak someday")], user="eve"))

    for view in ("fts", "vector", "hybrid"):
        for budget in (None, 2000):
            hits = store.search(
                "kayak rental harbour",
                k=1,
                view=view,
                filters=SearchFilters(user_id="eve"),
                max_chars=budget,
            )
            assert [h.message_ids for h in hits] == [["eve-m0"]], view


def test_context_obeys_the_filters_too(trip: Store) -> None:
    (hit,) = trip.search("grilled sardines harbour", k=1, view="fts", filters={"persons": ["Ben"]})

    assert hit.message_ids == ["u1-m1"]  # Ana's lines around it are filtered out


def test_items_without_neighbours_are_their_own_passage(store: Store, item: MakeItem) -> None:
    store.add([item("a", "otters hold hands while sleeping"), item("b", "sea otters use tools")])

    results = store.search("otters", k=5, view="fts")

    assert {r.item.id for r in results} == {"a", "b"}
    assert all(r.text == r.item.memory and r.items == [r.item] for r in results)


def test_common_words_that_other_languages_stop_are_searchable(
    store: Store, item: MakeItem
) -> None:
    # Lance's ICU tokenizer would drop these with its all-language stop word list.
    store.add(
        [
            item("dog", "we adopted a dog"),
            item("cat", "the cat sleeps"),
            item("seven", "gate 7 closes early"),
        ]
    )

    assert [r.item.id for r in store.search("dog", view="fts")] == ["dog"]
    assert [r.item.id for r in store.search("cat", view="fts")] == ["cat"]
    assert [r.item.id for r in store.search("7", view="fts")] == ["seven"]


def test_max_chars_must_be_positive(store: Store) -> None:
    from omnireader.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="max_chars"):
        store.search("x", max_chars=0)


def test_a_reopened_store_still_assembles_context(tmp_path: Path) -> None:
    Store.open(tmp_path / "s.lance").add(read_chat(TRIP))

    (hit,) = Store.open(tmp_path / "s.lance").search("tram tickets online", k=1)

    assert hit.message_ids == ["u1-m2", "u1-m3", "u1-m4"]

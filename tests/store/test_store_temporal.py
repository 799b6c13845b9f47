"""The time boost: dates a query names, and hybrid search lifting hits from that period."""

from __future__ import annotations

import pytest

from omnireader.store import Store
from omnireader.store.temporal import Period, boost, item_date, periods

from .conftest import MakeItem


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What did Maria donate in December 2023?", ["2023-12"]),
        ("What did Gina find on 1 February, 2023?", ["2023-02-01"]),
        ("the 7th of May 2023", ["2023-05-07"]),
        ("What painting did she show on October 13, 2023?", ["2023-10-13"]),
        ("Jan. 5th, 2021 and Sept 3", ["2021-01-05", "*-09-03"]),
        ("notes from 2023-05-07 and 2022-11", ["2023-05-07", "2022-11"]),
        ("When did Melanie go camping in June?", ["*-06"]),
        ("How many times has she gone to the beach in 2023?", ["2023"]),
        ("May 2022, then May 2022 again", ["2022-05"]),  # one period, named twice
    ],
)
def test_absolute_dates_months_and_years_are_read(query: str, expected: list[str]) -> None:
    assert [str(p) for p in periods(query)] == expected


@pytest.mark.parametrize(
    "query",
    [
        "May I ask what you did last week?",  # a modal verb opening the question
        "you may march on",  # lower-case month names alone are words
        "Jan said yesterday was fun",  # an abbreviation alone is too often a name
        "a Junebug at 20230507",  # no word boundary: neither a month nor a year
        "what happened on 31 June 2023",  # no such day: read as the month
    ],
)
def test_words_that_only_look_like_dates_are_not_periods(query: str) -> None:
    found = [str(p) for p in periods(query)]
    assert found == (["2023-06"] if "31 June" in query else [])


def test_a_period_contains_the_dates_in_it() -> None:
    from datetime import date

    assert date(2023, 6, 4) in Period(month=6)
    assert date(2022, 6, 4) in Period(year=2022)
    assert date(2023, 6, 4) not in Period(year=2023, month=6, day=5)


def test_an_items_date_is_its_local_chat_time_and_never_a_files_mtime(item: MakeItem) -> None:
    from datetime import date

    chat = item("c", "hello", kind="chat", chat_time="2023-05-08T23:56:00-07:00")
    dated = item("d", "minutes", timestamp="2021-03-02T10:00:00Z")
    mtime = item("m", "readme", timestamp="2021-03-02T10:00:00Z", time_source="mtime")

    assert item_date(chat) == date(2023, 5, 8)  # not converted to UTC (which is the 9th)
    assert item_date(dated) == date(2021, 3, 2)
    assert item_date(mtime) is None


def test_a_documents_creation_date_is_not_the_time_of_what_it_says(item: MakeItem) -> None:
    from datetime import date

    report = item(
        "r", "fiscal 2021 results", timestamp="2022-02-09T10:00:00Z", extra={"format": "pdf"}
    )
    mail = item("e", "lunch on Friday", timestamp="2022-02-09T10:00:00Z", extra={"format": "eml"})
    assert item_date(report) is None
    assert item_date(mail) == date(2022, 2, 9)


def _trip(item: MakeItem, **extra: object) -> list:
    # Two equally good matches, a year apart, and an unrelated line.
    return [
        item(
            "june",
            "we went camping by the lake",
            kind="chat",
            chat_time="2023-06-17T10:00:00",
            **extra,
        ),
        item(
            "march",
            "we went camping by the lake",
            kind="chat",
            chat_time="2023-03-11T10:00:00",
            **extra,
        ),
        item(
            "other",
            "the tax office sent a letter",
            kind="chat",
            chat_time="2023-06-02T10:00:00",
            **extra,
        ),
    ]


@pytest.mark.parametrize("when", ["in June", "in March 2023", "on 11 March 2023"])
def test_a_query_naming_a_period_ranks_a_hit_from_it_above_an_equal_hit(
    store: Store, item: MakeItem, when: str
) -> None:
    store.add(_trip(item))
    expected = "march" if "March" in when else "june"

    query = f"when did we go camping by the lake {when}?"
    from omnireader.store.search import run_search

    unboosted = run_search(store.table, store.embedder, query, 2, "hybrid", None, time_weight=0.0)
    hits = store.search(query, k=2, view="hybrid")

    assert {h.item.id for h in unboosted} == {"june", "march"}
    assert unboosted[0].score == pytest.approx(unboosted[1].score)  # otherwise equal hits
    assert hits[0].item.id == expected
    assert hits[0].score > hits[1].score


def test_without_a_period_the_boost_changes_nothing(store: Store, item: MakeItem) -> None:
    store.add(_trip(item))
    query = "when did we go camping by the lake?"

    assert [(h.item.id, h.score) for h in store.search(query, k=3)] == [
        (h.item.id, h.score) for h in store.search(query, k=3, view="hybrid")
    ]
    from omnireader.store.search import run_search

    plain = run_search(
        store.table, store.embedder, query + " in June", 3, "hybrid", None, time_weight=0.0
    )
    boosted = run_search(store.table, store.embedder, query + " in June", 3, "hybrid", None)
    assert {h.item.id for h in plain} == {h.item.id for h in boosted}
    assert boosted[0].score > plain[0].score  # the June hit got the boost


def test_filters_apply_before_the_time_boost_ranks(store: Store, item: MakeItem) -> None:
    store.add(
        [
            *_trip(item, user_id="ann"),
            item(
                "bob-june",
                "we went camping by the lake",
                kind="chat",
                chat_time="2023-06-20T10:00:00",
                user_id="bob",
            ),
        ]
    )

    hits = store.search("camping by the lake in June", k=5, filters={"user_id": "bob"})

    assert [h.item.id for h in hits] == ["bob-june"]


def test_a_budget_holds_with_the_boost(store: Store, item: MakeItem) -> None:
    store.add(
        [
            item(
                f"m{n}",
                f"we went camping by the lake, day {n} of the trip " * 3,
                kind="chat",
                chat_time=f"2023-{6 if n % 2 else 3:02d}-{n + 1:02d}T10:00:00",
            )
            for n in range(12)
        ]
    )

    hits = store.search("camping by the lake in June", k=50, max_chars=400)

    assert hits and sum(len(h.text) for h in hits) + len(hits) - 1 <= 400
    assert item_date(hits[0].item).month == 6  # type: ignore[union-attr]


def test_a_negative_weight_is_refused() -> None:
    with pytest.raises(ValueError):
        boost([], "in June", -0.1)

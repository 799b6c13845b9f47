"""How a query is cut into the sentences the semantic view matches one by one."""

from __future__ import annotations

import pytest

from omnireader.store.query_sentences import MAX_SENTENCES, sentences

ONE = "Which dog breeds are gentle with small children?"


@pytest.mark.parametrize(
    "query,expected",
    [
        (f"{ONE} Base the answer on the guide.", [ONE, "Base the answer on the guide."]),
        (
            "What was 3M's capex? Answer in USD millions.",
            ["What was 3M's capex?", "Answer in USD millions."],
        ),
        # a period after an initial or a short title ends no sentence
        (
            "How did U.S. sales grow? Use the income statement.",
            ["How did U.S. sales grow?", "Use the income statement."],
        ),
        (
            "Would Tim enjoy books by C. S. Lewis or J.K. Rowling?",
            ["Would Tim enjoy books by C. S. Lewis or J.K. Rowling?"],
        ),
        (
            "Did Dr. Seuss write it? Answer yes or no.",
            ["Did Dr. Seuss write it?", "Answer yes or no."],
        ),
        # a sentence of fewer than three words joins its neighbour
        (f"Thanks. {ONE}", [f"Thanks. {ONE}"]),
        (f"{ONE} Be brief.", [f"{ONE} Be brief."]),
        # a sentence starts with a capital, a digit or an opening mark
        ("where did anna travel. she said norway", ["where did anna travel. she said norway"]),
        ("One sentence only", ["One sentence only"]),
    ],
)
def test_a_query_splits_at_sentence_ends(query: str, expected: list[str]) -> None:
    assert sentences(query) == expected


def test_a_pasted_text_of_many_sentences_stays_one_query() -> None:
    text = " ".join(f"Sentence number {i} says something." for i in range(MAX_SENTENCES + 1))
    assert sentences(text) == [text]

"""A query of several sentences is matched by its best sentence in the semantic view: a
passage that answers the question is not outranked by one that echoes the instruction."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from omnireader.store import Store

from .conftest import make_item

QUESTION = "Which dog breeds are gentle with small children?"
INSTRUCTION = "Base the answer on the veterinary association's guide."
QUERY = f"{QUESTION} {INSTRUCTION}"
# Answers the question, in other words than the instruction's.
ANSWER = (
    "Labradors and golden retrievers are patient, gentle dogs that do well with small children."
)
# Echoes the instruction's words (and a few of the question's): the whole query's mean
# vector is closer to it than to the answer.
ECHO = "Our association's guide answers questions about pets, children and safety at home."


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store.open(tmp_path / "s.lance")
    store.add([make_item("answer", ANSWER), make_item("echo", ECHO)])
    return store


def test_the_answer_to_one_sentence_ranks_over_an_echo_of_the_other(store: Store) -> None:
    emb = store.embedder
    rows = emb.embed([ANSWER, ECHO])
    whole = rows @ emb.embed_query(QUERY)
    assert whole[1] > whole[0]  # one vector for the whole query prefers the echo
    best = np.max(rows @ np.stack([emb.embed_query(QUESTION), emb.embed_query(INSTRUCTION)]).T, 1)
    assert best[0] > best[1]
    found = store.search(QUERY, k=2, view="vector")
    assert [r.item.id for r in found] == ["answer", "echo"]
    # Each score is the best sentence's similarity, the one the order was made by.
    assert [r.score for r in found] == pytest.approx(list(best), abs=1e-5)


def test_a_one_sentence_query_is_scored_by_its_own_vector(store: Store) -> None:
    emb = store.embedder
    found = store.search(QUESTION, k=2, view="vector")
    rows = emb.embed([r.item.memory for r in found])
    assert [r.score for r in found] == pytest.approx(
        list(rows @ emb.embed_query(QUESTION)), abs=1e-5
    )

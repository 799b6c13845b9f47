"""Reciprocal-rank fusion on plain id lists."""

from __future__ import annotations

import pytest

from omnireader.store import RRF_K, rrf


def test_an_item_in_both_lists_beats_items_in_one() -> None:
    fused = rrf({"vector": ["a", "shared"], "fts": ["b", "shared"]})

    assert fused[0].id == "shared"
    assert fused[0].ranks == {"vector": 2, "fts": 2}


def test_scores_are_the_sum_of_reciprocal_ranks() -> None:
    fused = {f.id: f for f in rrf({"vector": ["x", "y"], "fts": ["y"]})}

    assert fused["x"].score == pytest.approx(1 / (RRF_K + 1))
    assert fused["y"].score == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))


def test_ties_break_by_best_single_rank_then_id() -> None:
    # b and a each appear once at rank 1: same score, same best rank -> by id.
    assert [f.id for f in rrf({"vector": ["b"], "fts": ["a"]})] == ["a", "b"]


def test_a_repeated_id_in_one_list_counts_once() -> None:
    (only,) = rrf({"vector": ["a", "a"]})

    assert only.score == pytest.approx(1 / (RRF_K + 1))


def test_empty_lists_fuse_to_nothing() -> None:
    assert rrf({"vector": [], "fts": []}) == []

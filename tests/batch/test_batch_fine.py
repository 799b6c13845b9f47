"""Fine-mode ingest: the fast items are stored beside the fine ones, and an LLM that fails
leaves items fast, reported, with ``omnireader refine`` named as the next step."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from omnireader import Reader, Store, ingest
from omnireader.batch.refine_store import refine_store
from tests.refine.conftest import build_backend
from tests.support.llm_server import Fault, LLMServer


@pytest.fixture(scope="module")
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


def test_a_fine_ingest_keeps_the_fast_items_its_fine_items_came_from(
    server: LLMServer, sample_files: Path, tmp_path: Path
) -> None:
    server.reset()
    store = Store.open(tmp_path / "db.lance")
    report = ingest(
        sample_files / "quarterly_report.pdf",
        store,
        reader=Reader(llm=build_backend("openai", server)),
        mode="fine",
    )
    assert report.ok and report.next_step is None
    fine = list(store.iter_items({"mode": "fine"}))
    fast = {i.id: i for i in store.iter_items({"mode": "fast"})}
    assert fine and len(fast) == 3
    for item in fine:
        assert item.metadata.refined_from and set(item.metadata.refined_from) <= set(fast)
    assert all(i.metadata.refine_status == "refined" for i in fast.values())


def test_items_left_fast_by_a_failing_llm_are_reported_and_refine_finishes_them(
    server: LLMServer, tmp_path: Path
) -> None:
    server.reset()
    note = tmp_path / "note.md"
    note.write_text("# Offsite\n\nThe Porto offsite moved to 12 June 2025.")
    store = Store.open(tmp_path / "db.lance")
    server.inject("chat", [Fault.disconnect()] * 20)
    report = ingest(note, store, reader=Reader(llm=build_backend("openai", server)), mode="fine")
    assert report.refine_failed == 1 and report.refine_reasons == {"transport": 1}
    assert not report.ok and "omnireader refine --db" in (report.next_step or "")
    assert "left fast (LLM failed: transport: 1)" in report.summary()
    [left] = store.iter_items()
    assert left.metadata.mode == "fast" and left.metadata.refine_status == "failed"

    server.reset()  # the server is back: refine does what the ingest could not
    done = refine_store(store, build_backend("openai", server))
    assert (done.refined, done.failed) == (1, 0)
    assert store.count({"mode": "fine"}) >= 1

"""The Refiner's promises: when the LLM fails, the fast item stays, marked and counted, and
no error text becomes a memory; fast→fine transfer links both ways with stable ids."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from omnireader.llm import ExtractedMemory, Extraction
from omnireader.models import MemoryItem
from omnireader.reading.reader import Reader
from omnireader.refine import NO_MEMORIES, Refiner
from tests.support import Fault, LLMServer

from .conftest import build_backend, memories

FACT = "Alice moved to Berlin on 3 May 2024."
ERROR_WORDS = (
    "error",
    "http 5",
    "timed out",
    "traceback",
    "schema",
    "not valid json",
    "sure! here",
)


def _assert_no_error_text(items: list[MemoryItem]) -> None:
    for item in items:
        assert not any(w in item.memory.lower() for w in ERROR_WORDS), item.memory


FAULTS = {
    "server_error": [Fault.server_error(500), Fault.server_error(503)],
    "timeout": [Fault.timeout(3.0), Fault.timeout(3.0)],
    "bad_json": [Fault.non_json(), Fault.non_json("Sure! Here are the memories: none")],
    "wrong_schema": [Fault.wrong_schema(), Fault.wrong_schema('{"memories": "not a list"}')],
}


@pytest.mark.parametrize("reason", list(FAULTS))
def test_llm_failure_keeps_the_fast_item_marked_with_the_reason(
    server: LLMServer, kind: str, reason: str
) -> None:
    server.inject("chat", FAULTS[reason])
    backend = build_backend(kind, server, timeout=0.5)
    reader = Reader(llm=backend)
    [item] = reader.read(FACT, info={"user_id": "u1"}, mode="fine")
    assert item.memory == FACT  # the fast item, untouched
    assert item.metadata.mode == "fast"
    assert item.metadata.refine_status == "failed" and item.metadata.refine_reason == reason
    assert reader.refiner.totals.failed == 1 and reader.refiner.totals.reasons == {reason: 1}
    assert len(server.requests_to("chat")) == 2  # bounded: one retry or one re-ask, then stop
    _assert_no_error_text([item])


def test_a_rate_limit_that_clears_is_retried_and_the_item_refined(
    server: LLMServer, kind: str
) -> None:
    server.inject("chat", Fault.rate_limited(retry_after=0.05))
    [item] = Reader(llm=build_backend(kind, server)).read(FACT, mode="fine")
    assert item.metadata.mode == "fine" and item.metadata.refined_from
    assert len(server.requests_to("chat")) == 2


def test_a_reply_made_of_error_messages_is_a_failure_not_a_memory(
    server: LLMServer, kind: str
) -> None:
    server.responder = lambda req: memories(
        "Error: the upstream model failed (HTTP 502)", "I'm sorry, I cannot help with that."
    )
    refiner = Refiner(build_backend(kind, server))
    fast = Reader().read(FACT)
    result = refiner.refine(fast)
    assert result.fine == [] and result.failed == 1 and result.reasons == {"error_text": 1}
    assert result.fast[0].metadata.refine_reason == "error_text"
    _assert_no_error_text(result.fast)


def test_error_lines_among_good_facts_are_dropped(server: LLMServer) -> None:
    server.responder = lambda req: memories(FACT, "Error: could not extract more")
    items = Reader(llm=build_backend("openai", server)).read(FACT, mode="fine")
    assert [i.memory for i in items] == [FACT]


def test_nothing_worth_remembering_keeps_the_input_marked_no_memories(server: LLMServer) -> None:
    server.responder = lambda req: Extraction(memories=[])
    [item] = Reader(llm=build_backend("openai", server)).read("hi!", mode="fine")
    assert item.memory == "hi!" and item.metadata.mode == "fast"
    assert item.metadata.refine_status == "refined" and item.metadata.refine_reason == NO_MEMORIES


def test_failures_in_a_batch_are_counted_per_reason(server: LLMServer) -> None:
    fast = Reader().read(
        ["Fact one about Alice.", "Fact two about Bob.", "Fact three about Carol."]
    )
    server.inject("chat", [Fault.status(400, message="bad request: context too long")])
    result = Refiner(build_backend("openai", server, concurrency=1)).refine(fast)
    assert result.failed == 1 and result.reasons == {"bad_request": 1} and result.refined == 2
    assert len(result.fine) == 2
    assert sorted(i.metadata.refine_status for i in result.fast) == ["failed", "refined", "refined"]


def test_unreadable_source_is_a_marked_failure(
    server: LLMServer, tmp_path: Path, sample_files: Path
) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes((sample_files / "eiffel_photo.jpg").read_bytes())
    fast = Reader().read(photo)
    photo.unlink()  # refined later, after the file is gone
    [item] = Reader(llm=build_backend("openai", server)).refine(fast)
    assert item.metadata.refine_status == "failed"
    assert item.metadata.refine_reason.startswith("source_unavailable")
    assert not server.requests_to("chat")


# -- fast→fine transfer -------------------------------------------------------------------------

CHAT = [
    {
        "role": "user",
        "content": "I'm flying to Tokyo on 3 March 2025.",
        "chat_time": "2025-01-10T09:15:00",
        "message_id": "m1",
    },
    {
        "role": "assistant",
        "content": "Shall I look for hotels in Shinjuku?",
        "chat_time": "2025-01-10T09:15:05",
        "message_id": "m2",
    },
]


def _transfer(server: LLMServer, sample_files: Path) -> tuple[list[MemoryItem], list[MemoryItem]]:
    fast = Reader().read([CHAT, sample_files / "quarterly_report.pdf", "Bob adopted a cat."])
    out = Reader(llm=build_backend("openai", server)).refine(fast)
    return fast, out


def test_transfer_marks_fast_items_refined_and_links_both_ways(
    server: LLMServer, sample_files: Path
) -> None:
    fast, out = _transfer(server, sample_files)
    fine = [i for i in out if i.metadata.mode == "fine"]
    marked = [i for i in out if i.metadata.mode == "fast"]
    assert [i.id for i in marked] == [i.id for i in fast]  # every fast item back, same ids
    fine_ids = {i.id for i in fine}
    for item in marked:
        assert item.metadata.refine_status == "refined"
        assert item.metadata.refined_into and set(item.metadata.refined_into) <= fine_ids
    fast_ids = {i.id for i in fast}
    for item in fine:
        assert item.metadata.refined_from and set(item.metadata.refined_from) <= fast_ids
        for origin in item.metadata.refined_from:
            assert item.id in next(m for m in marked if m.id == origin).metadata.refined_into


def test_transfer_ids_are_the_same_on_every_run(server: LLMServer, sample_files: Path) -> None:
    _, first = _transfer(server, sample_files)
    _, second = _transfer(server, sample_files)
    assert [i.id for i in first] == [i.id for i in second]
    assert [i.metadata.refined_into for i in first] == [i.metadata.refined_into for i in second]


def test_already_fine_and_reference_items_pass_through_untouched(server: LLMServer) -> None:
    reader = Reader(llm=build_backend("openai", server))
    fine = reader.read(FACT, mode="fine")
    reference = Reader().read(
        [{"type": "file", "file": {"file_id": "file-123", "filename": "notes.pdf"}}]
    )
    server.reset()
    out = reader.refine([*fine, *reference])
    assert out == [*fine, *reference]
    assert not server.requests_to("chat")


def test_arefine_refines_concurrently_within_the_limit(server: LLMServer) -> None:
    server.latency = 0.05
    fast = Reader().read([f"Fact {n}: item {n} costs {n * 10} euros." for n in range(12)])
    reader = Reader(llm=build_backend("ollama", server, concurrency=4))
    out = asyncio.run(reader.arefine(fast))
    assert sum(i.metadata.mode == "fine" for i in out) == 12
    assert 2 <= server.max_in_flight <= 4


def test_duplicate_fact_from_two_inputs_is_kept_once_and_cites_both(server: LLMServer) -> None:
    server.responder = lambda req: Extraction(
        memories=[ExtractedMemory(memory="Alice lives in Lyon.")]
    )
    fast = Reader().read(["Alice lives in Lyon.", "As said: Alice lives in Lyon!"])
    out = Reader(llm=build_backend("openai", server)).refine(fast)
    [fine] = [i for i in out if i.metadata.mode == "fine"]
    assert fine.metadata.refined_from == [f.id for f in fast]
    assert {s.content for s in fine.metadata.sources} == {f.memory for f in fast}
    assert all(m.metadata.refined_into == [fine.id] for m in out if m.metadata.mode == "fast")

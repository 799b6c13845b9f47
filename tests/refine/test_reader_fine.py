"""The Reader's fine-mode surface: async reads of uploads under the concurrency limit,
async transfer, and a clear error when no LLM is configured."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from omnireader.errors import FineModeUnavailableError, OmniReaderWarning
from omnireader.payloads import Blob
from omnireader.reading.reader import Reader
from tests.support import LLMServer, default_responder

from .conftest import build_backend

CHAT = [
    {
        "role": "user",
        "content": f"Note {n}: the meeting room {n} seats {n + 4} people.",
        "chat_time": f"2025-01-10T09:{n:02d}:00",
        "message_id": f"m{n}",
    }
    for n in range(30)
]


def test_aread_reads_documents_and_a_chat_concurrently_within_the_limit(
    server: LLMServer, sample_files: Path, kind: str
) -> None:
    server.latency = 0.05
    reader = Reader(llm=build_backend(kind, server, concurrency=3), chat_window_tokens_fine=64)
    uploads = [
        sample_files / "quarterly_report.pdf",
        sample_files / "project_plan.docx",
        Blob(data=(sample_files / "team_notes.md").read_bytes(), filename="team_notes.md"),
        CHAT,
    ]
    items = asyncio.run(reader.aread(uploads, info={"user_id": "u1"}, mode="fine"))

    assert items and all(i.metadata.mode == "fine" for i in items)
    assert all(i.metadata.user_id == "u1" for i in items)
    kinds = {(i.source.filename or i.source.kind) for i in items}
    assert {"quarterly_report.pdf", "project_plan.docx", "team_notes.md", "chat"} <= kinds
    calls = len(server.requests_to("chat"))
    assert calls >= 8
    assert 2 <= server.max_in_flight <= 3  # overlapping, never above the limit


def test_one_chats_windows_are_all_in_flight_at_once(server: LLMServer) -> None:
    """A chat's windows do not wait on each other: with room under the limit, the server
    has every window's call open at the same moment, and the run takes about one round trip."""
    server.latency = 0.3
    reader = Reader(
        llm=build_backend("openai", server, concurrency=16), chat_window_tokens_fine=200
    )
    items = reader.read([CHAT], mode="fine")

    calls = server.requests_to("chat")
    assert 3 <= len(calls) <= 16 and server.max_in_flight == len(calls)
    received = [r.received_at for r in calls]
    assert max(received) - min(received) < server.latency  # all sent before the first answer
    assert {i.metadata.mode for i in items} == {"fine"}


def test_aread_and_read_give_the_same_fine_items(server: LLMServer, sample_files: Path) -> None:
    reader = Reader(llm=build_backend("openai", server), chat_window_tokens_fine=64)
    inputs = [sample_files / "quarterly_report.pdf", CHAT]
    blocking = reader.read(inputs, mode="fine")
    concurrent = asyncio.run(reader.aread(inputs, mode="fine"))
    assert [(i.id, i.memory) for i in concurrent] == [(i.id, i.memory) for i in blocking]


def test_aread_report_keeps_failures_per_input(server: LLMServer, tmp_path: Path) -> None:
    reader = Reader(llm=build_backend("openai", server))
    missing = tmp_path / "gone.pdf"
    result = asyncio.run(reader.aread_report(["A fact about Alice.", missing], mode="fine"))
    assert result.inputs == 2
    assert [i.metadata.mode for i in result.items] == ["fine"]
    assert [f.input for f in result.failures] == [str(missing)]


def test_arefine_upgrades_fast_items_from_async_code(server: LLMServer, sample_files: Path) -> None:
    reader = Reader(llm=build_backend("ollama", server))

    async def upload_then_refine() -> tuple[list, list]:
        fast = await reader.aread(sample_files / "quarterly_report.pdf")
        return fast, await reader.arefine(fast)

    fast, out = asyncio.run(upload_then_refine())
    assert {i.metadata.mode for i in fast} == {"fast"}
    fine = [i for i in out if i.metadata.mode == "fine"]
    marked = [i for i in out if i.metadata.mode == "fast"]
    assert len(fine) == 3 and [i.id for i in marked] == [i.id for i in fast]
    assert all(i.metadata.refine_status == "refined" for i in marked)


def test_fine_mode_without_an_llm_says_how_to_configure_one(sample_files: Path) -> None:
    reader = Reader()
    with pytest.raises(FineModeUnavailableError, match="--llm"):
        reader.read("Alice lives in Lyon.", mode="fine")
    with pytest.raises(FineModeUnavailableError, match="--llm"):
        asyncio.run(reader.aread(sample_files / "quarterly_report.pdf", mode="fine"))
    fast = reader.read("Alice lives in Lyon.")
    with pytest.raises(FineModeUnavailableError, match="llm"):
        reader.refine(fast)


def test_read_report_counts_items_left_fast_and_read_warns_about_them(
    server: LLMServer,
) -> None:
    server.responder = lambda req: (
        "Sure! Bob keeps bees." if "Bob" in req.data_text else default_responder(req)
    )
    reader = Reader(llm=build_backend("openai", server))
    texts = ["Alice moved to Berlin in May 2024.", "Bob keeps bees on the roof."]
    report = reader.read_report(texts, mode="fine")
    assert report.fine_items == 1
    assert report.refine_failed == 1 and report.refine_reasons == {"bad_json": 1}
    with pytest.warns(OmniReaderWarning, match="1 item fine, 1 left fast: bad_json"):
        items = reader.read(texts, mode="fine")
    assert len(items) == 2  # the fast item is kept, marked

"""Consolidation in fine mode: the LLM (the scripted test server, over real HTTP) decides how a
new memory relates to the most similar current ones, and the store follows its decision.

The scenario set (tests/fixtures/consolidation_scenarios.jsonl, 44 conversations) must end,
with correct decisions, with the current memory as the top hit for its question and every
replaced memory out of default results and in the current memory's history.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from omnireader import IngestOptions, Store, ingest
from omnireader.batch.consolidate import RECORD_KEY, consolidate
from omnireader.errors import ConfigError
from omnireader.llm import ChatBackend, LLMConfig, RetryPolicy, make_chat_backend
from omnireader.models import MemoryItem, MemoryMetadata, Source
from omnireader.reading.reader import Reader
from tests.support import Fault, LLMServer
from tests.support.scenarios import (
    Scenario,
    check_scenario,
    ingest_scenario,
    load_scenarios,
    scripted_model,
)

SCENARIOS = load_scenarios()


@pytest.fixture(scope="module")
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        srv.latency = 0.0
        srv.responder = scripted_model(SCENARIOS)
        yield srv


@pytest.fixture
def llm(server: LLMServer) -> ChatBackend:
    config = LLMConfig(openai_base_url=server.openai_base_url, openai_api_key="k", timeout=2.0)
    backend = make_chat_backend("openai:test-model", config=config)
    assert backend is not None
    backend.retry = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02)
    return backend


def fine(item_id: str, text: str, when: str, user: str = "u1", session: str = "chat") -> MemoryItem:
    """A fine memory as fine mode stores it: from one chat message of ``user``."""
    source = Source(kind="chat", role="user", chat_time=when, message_id=f"m-{item_id}")
    meta = MemoryMetadata(user_id=user, session_id=session, mode="fine", sources=[source])
    return MemoryItem(id=item_id, memory=text, metadata=meta)


def said(store: Store, llm: ChatBackend, item: MemoryItem) -> object:
    store.add([item])
    return consolidate(store, llm, [item.id])


def test_the_scenario_set_is_large_and_varied() -> None:
    assert len(SCENARIOS) >= 40
    kinds = {s.kind for s in SCENARIOS}
    assert {"move", "job", "preference", "plan", "relative-date"} <= kinds
    relations = {t.relation for s in SCENARIOS for t in s.turns}
    assert {"update", "conflict", "duplicate", "unrelated"} <= relations


def test_with_correct_decisions_every_scenario_ends_current(
    tmp_path: Path, llm: ChatBackend
) -> None:
    store = Store.open(tmp_path / "db.lance")
    failed = []
    for s in SCENARIOS:
        for n, turn in enumerate(s.turns):
            said(store, llm, fine(f"{s.id}-{n}", turn.text, turn.time, user=s.id))
        got = check_scenario(store, s)
        if not all(got.values()):
            failed.append((s.id, got))
    assert failed == []


def _scenario(name: str) -> Scenario:
    return next(s for s in SCENARIOS if s.id == name)


def test_ingest_with_consolidate_end_to_end(tmp_path: Path, llm: ChatBackend) -> None:
    store = Store.open(tmp_path / "db.lance")
    reader = Reader(llm=llm)
    for name in ("move-chain", "pref-language"):
        ingest_scenario(store, reader, _scenario(name))
        assert check_scenario(store, _scenario(name)) == {
            "top_hit": True,
            "replaced_hidden": True,
            "replaced_in_history": True,
        }
    # Porto replaced Lisbon, which had replaced Madrid: each step is in a history
    porto = next(i for i in store.iter_items({"user_id": "move-chain", "mode": "fine"}))
    assert porto.metadata.extra[RECORD_KEY]["decision"] == "update"
    lisbon = store.history(porto.id)[0]
    assert (lisbon.metadata.update_type, lisbon.metadata.superseded_by) == ("update", porto.id)
    assert [v.memory for v in store.history(lisbon.id)][0] == "Tom lives in Madrid."


def test_a_duplicate_merges_its_sources_into_the_stored_memory(
    tmp_path: Path, llm: ChatBackend
) -> None:
    store = Store.open(tmp_path / "db.lance")
    s = _scenario("move-repeat")
    said(store, llm, fine("first", s.turns[0].text, s.turns[0].time))
    result = said(store, llm, fine("again", s.turns[1].text, s.turns[1].time))
    assert result.decisions == {"duplicate": 1}  # type: ignore[attr-defined]
    merged = store.get("first")
    assert merged is not None and merged.metadata.version == 2
    assert merged.metadata.update_type == "duplicate"
    assert [x.message_id for x in merged.metadata.sources] == ["m-first", "m-again"]
    assert store.get("again") is None
    # the history holds the version before the merge and the duplicate itself
    assert [(v.id, v.metadata.status, v.metadata.update_type) for v in store.history("first")] == [
        ("first", "archived", "duplicate"),
        ("again", "archived", "duplicate"),
        ("first", "activated", "duplicate"),
    ]


def test_when_the_llm_fails_the_new_memory_is_added_and_nothing_archived(
    tmp_path: Path, llm: ChatBackend, server: LLMServer
) -> None:
    store = Store.open(tmp_path / "db.lance")
    s = _scenario("job-acme-globex")
    said(store, llm, fine("old", s.turns[0].text, s.turns[0].time))
    server.inject("chat", [Fault.status(500), Fault.status(500)])
    result = said(store, llm, fine("new", s.turns[1].text, s.turns[1].time))
    assert (result.failed, result.decisions) == (1, {})  # type: ignore[attr-defined]
    assert store.get("old") is not None and store.get("new") is not None
    assert store.history("old") == [store.get("old")]
    record = store.get("new").metadata.extra[RECORD_KEY]  # type: ignore[union-attr]
    assert record["decision"] == "failed"


def test_a_reply_of_the_wrong_shape_or_naming_an_unseen_memory_archives_nothing(
    tmp_path: Path, llm: ChatBackend, server: LLMServer
) -> None:
    store = Store.open(tmp_path / "db.lance")
    s = _scenario("job-manager")
    said(store, llm, fine("old", s.turns[0].text, s.turns[0].time))
    server.inject("chat", [Fault.wrong_schema(), Fault.wrong_schema()])
    result = said(store, llm, fine("new", s.turns[1].text, s.turns[1].time))
    assert result.failures == {"wrong_schema": 1}  # type: ignore[attr-defined]
    server.inject("chat", [Fault.reply('{"decision": "update", "memory": 7, "reason": "x"}')])
    result = said(store, llm, fine("newer", "The user's manager is Daniel.", "2024-08-01T09:00:00"))
    assert result.failures == {"wrong_target": 1}  # type: ignore[attr-defined]
    assert store.count() == 3


def test_only_memories_of_the_same_user_and_session_are_compared(
    tmp_path: Path, llm: ChatBackend, server: LLMServer
) -> None:
    store = Store.open(tmp_path / "db.lance")
    s = _scenario("move-paris-berlin")
    store.add([fine("bob", s.turns[0].text, s.turns[0].time, user="bob")])
    store.add([fine("other-session", s.turns[0].text, s.turns[0].time, session="work")])
    before = len(server.requests_to("chat"))
    result = said(store, llm, fine("new", s.turns[2].text, s.turns[2].time))
    assert result.decisions == {"unrelated": 1}  # type: ignore[attr-defined]
    assert len(server.requests_to("chat")) == before  # nothing in scope: no LLM call
    assert store.count() == 3


def test_consolidate_needs_fine_mode(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "db.lance")
    with pytest.raises(ConfigError, match="fine mode"):
        ingest(["a note"], store, options=IngestOptions(consolidate=True))

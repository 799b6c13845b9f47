"""Chat conversations read as token-counted windows with overlap, one item per window.

Fast mode's default is one item per message (tests/parsers/test_chat_units.py); windows are
what fine mode reads, and fast mode with ``chat_units="window"``.
"""

from __future__ import annotations

from typing import Any

import pytest

from omnireader.errors import EmptyInputError, FineModeUnavailableError
from omnireader.ids import content_hash
from omnireader.models import Message, Source
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.chat import (
    ChatParser,
    conversation_from_sources,
    render_line,
    window_tokens,
    windows,
)
from omnireader.payloads import Conversation
from omnireader.text.tokens import count_tokens

PARSER = ChatParser()

TOPICS = ["hiking", "a new bike", "the flight to Oslo", "dinner with Sam", "the tax form"]


def msg(role: str, text: Any, **kw: Any) -> Message:
    return Message(role=role, content=text, **kw)  # type: ignore[arg-type]


def long_chat(n: int = 24) -> list[Message]:
    """Alternating user / assistant turns of varying length, each with an id and a time."""
    out = []
    for i in range(n):
        words = " ".join(["really"] * (i % 5 * 3))
        role = "user" if i % 2 == 0 else "assistant"
        text = f"Turn {i}: I am {words} thinking about {TOPICS[i % len(TOPICS)]} today."
        out.append(msg(role, text, message_id=f"m{i}", chat_time=f"2025-01-15 10:{i:02d}"))
    return out


def fast(messages: list[Message], window: int = 256, overlap: int = 1, **ctx: Any) -> list:
    opts = ReadOptions(
        chat_window_tokens_fast=window, chat_overlap_messages=overlap, chat_units="window"
    )
    return PARSER.parse_fast(Conversation(messages=messages), ParseContext(options=opts, **ctx))


# ------------------------------------------------------------------------ windows


@pytest.mark.parametrize("budget", [24, 40, 64, 200])
def test_every_window_fits_its_token_budget(budget: int) -> None:
    groups = windows(long_chat(), budget, overlap_messages=1)
    assert len(groups) >= (2 if budget < 200 else 1)
    for turns in groups:
        assert sum(t.tokens for t in turns) <= budget or len(turns) == 1


def test_item_text_fits_the_budget_it_was_cut_for() -> None:
    items = fast(long_chat(), window=40)
    assert len(items) > 3
    assert all(count_tokens(i.memory) <= 40 for i in items)


@pytest.mark.parametrize(("overlap", "budget"), [(1, 60), (1, 120), (2, 120)])
def test_windows_open_with_the_last_messages_of_the_window_before(
    overlap: int, budget: int
) -> None:
    groups = windows(long_chat(), budget, overlap_messages=overlap)
    carried_total = 0
    for prev, nxt in zip(groups, groups[1:]):
        tail = [t.position for t in prev[-overlap:]]
        carried = [t.position for t in nxt if t.position <= prev[-1].position]
        assert carried == tail[len(tail) - len(carried) :]  # a suffix of the tail, in order
        first_new = nxt[len(carried)]
        if sum(t.tokens for t in prev[-overlap:]) + first_new.tokens <= budget:
            assert carried == tail  # the whole overlap whenever it fits the budget
        carried_total += len(carried)
    assert carried_total >= len(groups) // 2  # overlap really happened


def test_overlap_is_dropped_rather_than_break_the_budget() -> None:
    groups = windows(long_chat(), 60, overlap_messages=1)
    assert [t.position for t in groups[2]] == [3]  # message 2 + message 3 would be 66 tokens
    assert sum(t.tokens for t in groups[1][-1:] + groups[2]) > 60


def test_without_overlap_every_message_is_in_exactly_one_window() -> None:
    groups = windows(long_chat(), 40, overlap_messages=0)
    assert [t.position for g in groups for t in g] == list(range(24))


def test_with_overlap_every_message_is_covered_in_order() -> None:
    groups = windows(long_chat(), 40, overlap_messages=1)
    seen = [t.position for g in groups for t in g]
    assert sorted(set(seen)) == list(range(24))
    assert seen == sorted(seen)


def test_a_message_longer_than_a_window_gets_a_window_of_its_own() -> None:
    big = "We compared " + ", ".join(f"option {n}" for n in range(20)) + "."
    convo = [msg("user", "Which one?"), msg("assistant", big), msg("user", "Thanks!")]
    groups = windows(convo, 30, overlap_messages=1)
    assert [[t.position for t in g] for g in groups] == [[0], [1], [2]]


def test_an_enormous_message_is_split_into_window_sized_pieces() -> None:
    essay = "\n\n".join(
        f"Section {n}. The committee reviewed budget line {n} and approved it after a long "
        f"discussion about the costs of item {n}, its timeline and the people involved."
        for n in range(30)
    )
    convo = [msg("user", "Summarise please."), msg("assistant", essay, message_id="essay")]
    items = fast(convo, window=64)
    pieces = [s for i in items for s in i.metadata.sources if s.message_id == "essay"]
    assert len(pieces) > 4
    assert [p.chunk_index for p in pieces] == list(range(len(pieces)))
    for p in pieces:
        assert essay[p.char_start : p.char_end] == p.content
        assert p.content_hash == content_hash(essay)
    assert all(count_tokens(i.memory) <= 64 for i in items)


def test_window_size_follows_the_mode() -> None:
    opts = ReadOptions(chat_window_tokens_fast=100, chat_window_tokens_fine=900)
    assert window_tokens(ParseContext(options=opts)) == 100
    assert window_tokens(ParseContext(mode="fine", options=opts)) == 900


# -------------------------------------------------------------------------- items


def test_window_text_is_time_speaker_and_text_per_line() -> None:
    convo = [
        msg("user", "I booked the train.", name="Maya", chat_time="2025-01-15T10:00:00Z"),
        msg("assistant", "Great, which one?"),
    ]
    [item] = fast(convo)
    assert item.memory.split("\n") == [
        "[2025-01-15T10:00:00+00:00] Maya: I booked the train.",
        "assistant: Great, which one?",
    ]


def test_user_only_windows_are_user_memory_and_mixed_ones_long_term() -> None:
    convo = [msg("user", f"Note {n}: I water the plants on day {n}.") for n in range(6)]
    convo += [msg("assistant", "Noted all of that."), msg("user", "Thanks.")]
    items = fast(convo, window=30, overlap=0)
    kinds = set()
    for item in items:
        only_user = all(s.role == "user" for s in item.metadata.sources)
        assert item.metadata.memory_type == ("UserMemory" if only_user else "LongTermMemory")
        kinds.add(item.metadata.memory_type)
    assert kinds == {"UserMemory", "LongTermMemory"}


def test_every_message_in_a_window_is_listed_in_its_sources() -> None:
    chat = long_chat()
    items = fast(chat, window=50)
    by_id = {m.message_id: m for m in chat}
    listed = set()
    for item in items:
        ids = [s.message_id for s in item.metadata.sources]
        assert ids == sorted(ids, key=lambda i: int(i[1:]))
        for s in item.metadata.sources:
            m = by_id[s.message_id]
            assert (s.kind, s.role, s.content) == ("chat", m.role, m.text())
            assert s.content_hash == content_hash(m.text())
            assert s.content in item.memory
        listed.update(ids)
    assert listed == set(by_id)


def test_window_sources_are_the_validated_sources_of_their_messages() -> None:
    """Sources are built without validation (a window holds every message's): each must be
    the model validation would give, pieces of an enormous message included."""
    essay = " ".join(f"Point {n} about the budget and its review." for n in range(200))
    chat = [*long_chat(6), msg("assistant", essay, message_id="essay", name="Bot")]
    for item in fast(chat, window=64):
        for s in item.metadata.sources:
            again = Source.model_validate(s.model_dump())
            assert s == again and repr(s) == repr(again)


def test_ids_are_stable_across_reads_and_change_with_the_content() -> None:
    first = [i.id for i in fast(long_chat(), window=50)]
    assert first == [i.id for i in fast(long_chat(), window=50)]
    assert len(set(first)) == len(first)
    edited = long_chat()
    edited[0] = edited[0].model_copy(update={"content": edited[0].text().replace("hiking", "ski")})
    assert count_tokens(edited[0].text()) == count_tokens(long_chat()[0].text())
    changed = [i.id for i in fast(edited, window=50)]
    assert changed[0] != first[0]
    assert changed[1:] == first[1:]  # windows the edit did not touch keep their ids
    assert first != [i.id for i in fast(long_chat(), window=50, user_id="someone-else")]


def test_chinese_windows_count_one_token_per_character() -> None:
    lines = ["我明天要去北京出差三天。", "好的，需要我帮你订酒店吗？", "请订离公司近的酒店。"]
    convo = [msg("user" if n % 2 == 0 else "assistant", lines[n % 3]) for n in range(9)]
    assert count_tokens(lines[0]) == len(lines[0])  # 11 characters + 1 punctuation mark
    items = fast(convo, window=40)
    assert len(items) > 2
    for item in items:
        assert count_tokens(item.memory) <= 40
        assert {s.lang for s in item.metadata.sources} == {"zh"}


def test_timestamp_is_the_last_message_time_and_persons_the_user_names() -> None:
    convo = [
        msg("user", "Lunch at noon?", name="Ivo", chat_time="1736935200"),
        msg("assistant", "Sure.", name="Helper", chat_time="2025-01-15T11:05:00+01:00"),
    ]
    [item] = fast(convo)
    assert item.metadata.timestamp == "2025-01-15T11:05:00+01:00"
    assert item.metadata.persons == ["Ivo"]


def test_a_system_prompt_is_context_not_a_memory() -> None:
    prompt = "You are a travel assistant. " * 20
    convo = [msg("system", prompt), msg("user", "I fly to Rome on Friday.")]
    [item] = fast(convo)
    assert [s.role for s in item.metadata.sources] == ["user"]
    assert "travel assistant" not in item.memory
    assert item.metadata.extra["system_prompt"] == prompt.strip()[:200]


def test_a_conversation_of_only_a_system_prompt_is_kept_as_working_memory() -> None:
    [item] = fast([msg("system", "Always answer in French.", message_id="sys")])
    assert item.metadata.memory_type == "WorkingMemory"
    assert item.metadata.tags == ["system_prompt"]
    assert "Always answer in French." in item.memory
    assert item.source.message_id == "sys"


def test_messages_with_no_text_are_skipped_but_attachments_are_mentioned() -> None:
    invoice = {"type": "file", "file": {"filename": "invoice.pdf", "file_data": "x"}}
    photo = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO"}}
    convo = [
        msg("user", "", message_id="blank"),
        msg("user", [{"type": "text", "text": "Here is the invoice."}, invoice]),
        msg("user", [photo]),
        msg("assistant", "Got both."),
    ]
    [item] = fast(convo)
    assert "blank" not in [s.message_id for s in item.metadata.sources]
    assert item.memory.split("\n") == [
        "user: Here is the invoice. [attached file: invoice.pdf]",
        "user: [image]",
        "assistant: Got both.",
    ]


def test_a_conversation_with_nothing_said_is_an_empty_error() -> None:
    with pytest.raises(EmptyInputError) as err:
        fast([msg("user", ""), msg("assistant", "   ")])
    assert err.value.code == "empty"


def test_fine_mode_without_an_llm_names_the_flag_to_pass() -> None:
    with pytest.raises(FineModeUnavailableError, match="--llm"):
        PARSER.parse(Conversation(messages=[msg("user", "hi")]), ParseContext(mode="fine"))


# ------------------------------------------------------------------ provenance


def test_each_source_rebuilds_its_message() -> None:
    chat = long_chat(6)
    for item in fast(chat, window=40):
        for source in item.metadata.sources:
            [m] = PARSER.rebuild_from_source(source).messages
            original = next(o for o in chat if o.message_id == source.message_id)
            assert (m.role, m.text()) == (original.role, original.text())
            assert m.chat_time == original.chat_time
            [again] = fast([m])
            assert again.source.content_hash == source.content_hash


def test_a_window_rebuilds_into_the_conversation_it_came_from() -> None:
    chat = long_chat(8)
    for item in fast(chat, window=40):
        rebuilt = conversation_from_sources(item.metadata.sources)
        assert [render_line(m, m.text()) for m in rebuilt.messages] == item.memory.split("\n")


def test_create_source_of_a_whole_conversation_round_trips() -> None:
    convo = Conversation(messages=long_chat(5))
    assert PARSER.rebuild_from_source(PARSER.create_source(convo)) == convo


# ---------------------------------------------------------------------- routing


def test_a_conversation_with_tool_calls_routes_to_one_chat_and_one_tool_task() -> None:
    import omnireader.intake.router as router
    from omnireader.parsers.base import get_parser

    get_weather = {"name": "get_weather", "arguments": '{"city": "Bergen"}'}
    raw = [
        {"role": "system", "content": "You can check the weather."},
        {"role": "user", "content": "Is it raining in Bergen?", "message_id": "u1"},
        {"role": "assistant", "tool_calls": [{"id": "c1", "function": get_weather}]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"rain_mm": 4}'},
        {"role": "assistant", "content": "Yes, 4 mm of rain.", "message_id": "a2"},
    ]
    tasks = router.route(raw)
    assert [t.parser for t in tasks] == ["chat", "tool"]
    ctx = ParseContext()
    chat = get_parser("chat").parse_fast(tasks[0].payload, ctx)  # one item per message
    [tool] = get_parser("tool").parse_fast(tasks[1].payload, ctx)
    assert [s.message_id for i in chat for s in i.metadata.sources] == ["u1", "a2"]
    assert {i.metadata.extra["system_prompt"] for i in chat} == {"You can check the weather."}
    assert tool.metadata.memory_type == "ToolTrajectoryMemory"
    assert [u.name for u in tool.metadata.tools] == ["get_weather"]

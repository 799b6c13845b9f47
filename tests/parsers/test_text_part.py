"""Text content parts: read like strings, traced back to the message they came in."""

from __future__ import annotations

import pytest

from omnireader.errors import EmptyInputError
from omnireader.ids import content_hash
from omnireader.parsers.base import ParseContext
from omnireader.parsers.text import TextPartParser
from omnireader.payloads import TextInput

PARSER = TextPartParser()
CTX = ParseContext(user_id="u1", session_id="s1")


def test_a_part_from_a_user_message_is_a_chat_sourced_user_memory() -> None:
    part = TextInput(
        text="My daughter starts school in September.",
        role="user",
        name="Ana",
        chat_time="2025-03-02 09:30",
        message_id="msg-7",
    )
    [item] = PARSER.parse_fast(part, CTX)
    src = item.source
    assert item.memory == part.text
    assert (src.kind, src.role, src.name, src.message_id) == ("chat", "user", "Ana", "msg-7")
    assert src.chat_time == "2025-03-02 09:30"  # kept as given; the metadata is normalised
    assert item.metadata.timestamp == "2025-03-02T09:30:00"
    assert item.metadata.memory_type == "UserMemory"
    assert item.metadata.persons == ["Ana"]
    assert src.content_hash == content_hash(part.text)


def test_a_part_from_an_assistant_message_is_long_term_memory() -> None:
    [item] = PARSER.parse_fast(TextInput(text="Lisbon is sunny in June.", role="assistant"), CTX)
    assert (item.source.kind, item.metadata.memory_type) == ("chat", "LongTermMemory")
    assert item.metadata.persons == []


def test_a_part_outside_any_message_is_a_string_source() -> None:
    [item] = PARSER.parse_fast(TextInput(text="Lisbon is sunny in June."), CTX)
    assert (item.source.kind, item.source.role) == ("string", None)
    assert item.metadata.memory_type == "LongTermMemory"
    assert item.metadata.timestamp is None


def test_ids_are_stable_and_follow_the_text() -> None:
    one = PARSER.parse_fast(TextInput(text="Call the plumber.", role="user"), CTX)
    two = PARSER.parse_fast(TextInput(text="Call the plumber.", role="user"), CTX)
    other = PARSER.parse_fast(TextInput(text="Call the dentist.", role="user"), CTX)
    assert one[0].id == two[0].id != other[0].id


def test_an_empty_part_is_an_empty_error_naming_the_part() -> None:
    with pytest.raises(EmptyInputError) as err:
        PARSER.parse_fast(TextInput(text="  ", role="user"), CTX)
    assert err.value.input_name == "<text part>"


def test_rebuild_keeps_the_message_it_came_from() -> None:
    part = TextInput(text="Buy milk.", role="user", chat_time="2025-01-01T08:00", message_id="m1")
    [item] = PARSER.parse_fast(part, CTX)
    assert PARSER.rebuild_from_source(item.source) == part


def test_a_lone_text_part_routes_to_the_text_parser() -> None:
    import omnireader.intake.router as router

    [task] = router.route({"type": "text", "text": "The spare key is under the mat."})
    assert task.parser == "text"
    [item] = PARSER.parse_fast(task.payload, CTX)
    assert item.memory == "The spare key is under the mat."

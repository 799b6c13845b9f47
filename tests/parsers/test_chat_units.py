"""Fast chat items are messages: small match units linked to their neighbours in a sitting."""

from __future__ import annotations

from typing import Any

from omnireader.models import Message
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.chat import ChatParser
from omnireader.payloads import Conversation
from omnireader.units import INDEX, NEIGHBOUR_TEXT, NEXT, PREV, THREAD, match_text, unit_links

PARSER = ChatParser()


def chat(*turns: tuple[str, str, str], **ctx: Any) -> list:
    """(speaker, time, text) turns as user messages, read in fast mode."""
    messages = [
        Message(role="user", name=who, chat_time=when, content=text, message_id=f"m{n}")
        for n, (who, when, text) in enumerate(turns)
    ]
    return PARSER.parse_fast(Conversation(messages=messages), ParseContext(**ctx))


DAY = [
    ("Ana", "2025-03-01T09:00:00", "Did you book the ferry to Hydra?"),
    ("Ben", "2025-03-01T09:02:00", "Yes, the 8 o'clock one on Friday."),
    ("Ana", "2025-03-01T09:03:00", "Great, I will pack the snorkels."),
]


def test_each_message_is_one_item_with_its_own_source() -> None:
    items = chat(*DAY)

    assert [i.memory for i in items] == [
        "[2025-03-01T09:00:00] Ana: Did you book the ferry to Hydra?",
        "[2025-03-01T09:02:00] Ben: Yes, the 8 o'clock one on Friday.",
        "[2025-03-01T09:03:00] Ana: Great, I will pack the snorkels.",
    ]
    assert [[s.message_id for s in i.metadata.sources] for i in items] == [["m0"], ["m1"], ["m2"]]
    assert [i.metadata.persons for i in items] == [["Ana"], ["Ben"], ["Ana"]]
    assert items[1].metadata.timestamp == "2025-03-01T09:02:00"


def test_messages_link_to_their_neighbours_and_carry_their_text() -> None:
    first, middle, last = chat(*DAY)

    assert (
        first.metadata.extra[THREAD] == middle.metadata.extra[THREAD] == last.metadata.extra[THREAD]
    )
    assert [i.metadata.extra[INDEX] for i in (first, middle, last)] == [0, 1, 2]
    assert PREV not in first.metadata.extra and first.metadata.extra[NEXT] == middle.id
    assert (middle.metadata.extra[PREV], middle.metadata.extra[NEXT]) == (first.id, last.id)
    assert middle.metadata.extra[NEIGHBOUR_TEXT] == f"{first.memory}\n{last.memory}"
    assert match_text(middle) == f"{middle.memory}\n{first.memory}\n{last.memory}"
    assert unit_links(middle) == (middle.metadata.extra[THREAD], 1, [first.id, last.id])


def test_a_long_silence_starts_a_new_sitting_that_context_does_not_cross() -> None:
    items = chat(
        *DAY,
        ("Ben", "2025-03-04T18:00:00", "Back home, the ferry was late."),
        ("Ana", "2025-03-04T18:05:00", "Ours too!"),
    )

    threads = [i.metadata.extra[THREAD] for i in items]
    assert threads[:3] == [threads[0]] * 3 and threads[3:] == [threads[3]] * 2
    assert threads[0] != threads[3]
    assert NEXT not in items[2].metadata.extra and PREV not in items[3].metadata.extra
    assert [i.metadata.extra[INDEX] for i in items] == [0, 1, 2, 0, 1]


def test_ids_are_deterministic_and_scoped() -> None:
    assert [i.id for i in chat(*DAY)] == [i.id for i in chat(*DAY)]
    assert len({i.id for i in chat(*DAY)}) == 3
    assert [i.id for i in chat(*DAY)] != [i.id for i in chat(*DAY, user_id="someone-else")]
    # Adding a message later keeps the ids of the ones before it.
    longer = chat(*DAY, ("Ben", "2025-03-01T09:04:00", "Bring sunscreen."))
    assert [i.id for i in longer[:3]] == [i.id for i in chat(*DAY)]


def test_windows_are_still_read_for_an_llm_and_on_request() -> None:
    messages = [Message(role="user", name=w, chat_time=t, content=x) for w, t, x in DAY]
    convo = Conversation(messages=messages)

    [for_llm] = PARSER.parse_fast(convo, ParseContext(large_windows=True))
    [window] = PARSER.parse_fast(convo, ParseContext(options=ReadOptions(chat_units="window")))

    assert for_llm.memory.count("\n") == 2 and len(for_llm.metadata.sources) == 3
    assert window.memory == for_llm.memory
    assert THREAD not in window.metadata.extra

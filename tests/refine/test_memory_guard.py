"""The guard against weak models, over real HTTP: what a small model writes that is valid
JSON but junk (the prompt's placeholders, its rules, people and dates the source never
mentions) never becomes a fine item; relative days it left are resolved by the code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omnireader.reading.reader import Reader
from omnireader.refine.dates import dates_in, relative_days
from tests.support import LLMServer

from .conftest import build_backend, memories

CHAT = [
    {
        "role": "user",
        "name": "Ana",
        "content": "I fly to Oslo tomorrow for the Nordic design fair.",
        "chat_time": "2025-11-15T14:30:00",
        "message_id": "m0",
    }
]


def reply(*mems: dict) -> str:
    return json.dumps({"memories": list(mems), "summary": None})


def read_chat(server: LLMServer, answer: str) -> tuple[list, Reader]:
    server.responder = lambda req: answer
    reader = Reader(llm=build_backend("openai", server))
    return reader.read_report(CHAT, mode="fine").items, reader


def test_a_reply_copying_the_prompts_placeholders_leaves_the_fast_item_with_the_reason(
    server: LLMServer,
) -> None:
    items, reader = read_chat(
        server,
        reply(
            {"memory": "<one self-contained fact>", "key": "..."},
            {"memory": "...", "persons": ["..."]},
        ),
    )
    [item] = items
    assert item.metadata.mode == "fast" and item.metadata.refine_status == "failed"
    assert item.metadata.refine_reason == "placeholder"
    assert item.metadata.extra["guard_rejected"] == {"placeholder": 2}
    assert reader.refiner.totals.rejected == {"placeholder": 2}


def test_only_the_bad_memories_are_kept_out_and_the_fast_item_says_which(
    server: LLMServer,
) -> None:
    items, reader = read_chat(
        server,
        reply(
            {"memory": "Ana visits the Nordic design fair in Oslo.", "persons": ["Ana"]},
            {"memory": "John flies to Oslo.", "persons": ["John"]},  # no John in the chat
            {"memory": "No memories."},
            {"memory": "One fact per memory. Split compound statements into separate memories."},
        ),
    )
    [fine] = [i for i in items if i.metadata.mode == "fine"]
    assert fine.memory == "Ana visits the Nordic design fair in Oslo."
    assert reader.refiner.totals.rejected == {
        "unknown_person": 1,
        "boilerplate": 1,
        "instruction_echo": 1,
    }
    assert reader.refiner.totals.refined == 1 and reader.refiner.totals.failed == 0


def test_a_memory_that_stops_short_of_a_statement_is_a_fragment(server: LLMServer) -> None:
    # A weak model's leftovers: a number, a bare noun, labels ending on a comma.
    items, reader = read_chat(
        server,
        reply(
            {"memory": "1.2"},
            {"memory": "The fair"},
            {"memory": "Oslo, design fair, page 3, section 'Travel',"},
            {"memory": "Ana flies to Oslo for the Nordic design fair.", "persons": ["Ana"]},
        ),
    )
    [fine] = [i for i in items if i.metadata.mode == "fine"]
    assert fine.memory.startswith("Ana flies to Oslo")
    assert reader.refiner.totals.rejected == {"fragment": 3}


def test_a_short_statement_in_a_script_without_spaces_is_not_a_fragment(
    server: LLMServer,
) -> None:
    # Seven characters, no space: a sentence ("Ana flies to Oslo"), counted two to a word.
    [item], reader = read_chat(server, reply({"memory": "安娜飞往奥斯陆。"}))
    assert item.metadata.mode == "fine" and not reader.refiner.totals.rejected


def test_tomorrow_is_resolved_against_the_message_time_when_the_model_leaves_it(
    server: LLMServer,
) -> None:
    # The model kept "tomorrow" and dated the fact with the prompt's example date.
    items, _ = read_chat(
        server,
        reply(
            {
                "memory": "Ana flies to Oslo tomorrow.",
                "persons": ["Ana"],
                "timestamp": "2024-05-03",
                "source_indexes": [0],
            }
        ),
    )
    [fine] = items
    assert fine.memory == "Ana flies to Oslo on 2025-11-16."
    assert fine.metadata.timestamp.startswith("2025-11-16")


def test_the_models_date_is_kept_when_it_agrees(server: LLMServer) -> None:
    items, _ = read_chat(
        server,
        reply(
            {
                "memory": "Ana flies to Oslo on 2025-11-16.",
                "persons": ["Ana"],
                "timestamp": "2025-11-16T08:00:00",
            }
        ),
    )
    [fine] = items
    assert fine.metadata.timestamp == "2025-11-16T08:00:00"


def test_a_date_neither_in_the_source_nor_resolvable_is_rejected(server: LLMServer) -> None:
    items, _ = read_chat(
        server, reply({"memory": "Ana flies to Oslo on 2024-05-03.", "persons": ["Ana"]})
    )
    [item] = items
    assert item.metadata.mode == "fast" and item.metadata.refine_reason == "unsupported_date"


def test_dates_written_another_way_in_a_document_are_accepted(
    server: LLMServer, tmp_path: Path
) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("Delivery of 40 pallets is due on 12 March 2025.\n", encoding="utf-8")
    server.responder = lambda req: memories(
        "Delivery of 40 pallets is due on 2025-03-12.", timestamp="2025-03-12"
    )
    [item] = Reader(llm=build_backend("openai", server)).read(memo, mode="fine")
    assert item.metadata.mode == "fine" and item.metadata.timestamp.startswith("2025-03-12")


def test_the_guards_words_are_data_a_user_can_replace(
    server: LLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = tmp_path / "words.json"
    words.write_text(json.dumps({"placeholders": ["ana visits oslo"]}), encoding="utf-8")
    monkeypatch.setenv("OMNIREADER_GUARD_WORDS", str(words))
    [item], _ = read_chat(server, reply({"memory": "Ana visits Oslo.", "persons": ["Ana"]}))
    assert item.metadata.refine_reason == "placeholder"


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("see you tomorrow", "2025-11-16"),  # said on Saturday 2025-11-15
        ("the day after tomorrow", "2025-11-17"),
        ("next Friday", "2025-11-21"),
        ("last Monday", "2025-11-10"),
        ("in 3 days", "2025-11-18"),
        ("two weeks ago", "2025-11-01"),
        ("明天见", "2025-11-16"),
    ],
)
def test_relative_days_resolve_against_the_time_they_were_said(said: str, day: str) -> None:
    [(_, got)] = relative_days(said, "2025-11-15T14:30:00")
    assert got.isoformat() == day


def test_a_relative_day_in_a_window_is_a_date_of_it_said_at_any_of_its_message_times(
    server: LLMServer,
) -> None:
    # "tomorrow" is in the first message; the window's messages were sent on two days, so
    # the day after either is a date of the source. Pins what the guard allows now that the
    # window is scanned once for relative days instead of once per message time.
    chat = [
        {**CHAT[0], "content": "I fly to Oslo tomorrow for the fair."},
        {
            "role": "user",
            "name": "Ana",
            "content": "The fair moved, the flight too.",
            "chat_time": "2025-11-20T09:00:00",
            "message_id": "m1",
        },
    ]
    answer = reply(
        {"memory": "Ana flies to Oslo on 2025-11-16.", "persons": ["Ana"]},
        {"memory": "Ana flies to Oslo on 2025-11-21.", "persons": ["Ana"]},
        {"memory": "Ana flies to Oslo on 2025-11-22.", "persons": ["Ana"]},
    )
    server.responder = lambda req: answer
    reader = Reader(llm=build_backend("openai", server))
    items = reader.read_report(chat, mode="fine").items
    fine = sorted(i.memory for i in items if i.metadata.mode == "fine")
    assert fine == ["Ana flies to Oslo on 2025-11-16.", "Ana flies to Oslo on 2025-11-21."]
    assert reader.refiner.totals.rejected == {"unsupported_date": 1}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Due 12 March 2025; paid on 2025-03-20.", {"2025", "2025-03", "2025-03-12", "2025-03-20"}),
        (
            "SEPT. 3rd, 2021 and 1st of Jan 2020",
            {"2021", "2021-09-03", "2020", "2020-01", "2020-01-01"},
        ),
        ("since MAY 2023, market report 2024", {"2023", "2023-05", "2024"}),
        ("the decision of octopus 2020", {"2020"}),  # "oct" inside a word is no month
        (
            "03/04/2025 年 2025年3月12日",
            {"2025", "2025-03-04", "2025-04-03", "2025-03-12"},
        ),
    ],
)
def test_dates_in_finds_every_way_of_writing_a_date(text: str, found: set[str]) -> None:
    assert dates_in(text) == found


@pytest.mark.parametrize(
    "text",
    [
        "The DAY AFTER TOMORROW",
        "on Monday",
        "ON MONDAY we ship",
        "In 3 days",
        "2 weeks ago",
        "今天",
    ],
)
def test_relative_days_are_found_whatever_their_case(text: str) -> None:
    assert len(relative_days(text, "2025-11-15T14:30:00")) == 1

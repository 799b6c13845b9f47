"""Fine mode for text inputs, end to end over real HTTP: chat windows, document chunks,
strings and text parts, tool trajectories (through both the openai and ollama clients)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from omnireader.llm import ExtractedMemory, Extraction, ToolVerdict, TrajectoryReview
from omnireader.normalize import normalize_time
from omnireader.refine.text_kinds import ALREADY_PROCESSED
from samples.make_samples import REPORT_PAGES
from tests.support import ChatRequest, LLMServer

from .conftest import by_task, data_block, numbered_lines, system_text, user_text

# Twelve messages over two days; small fine windows make several windows with overlap.
CONVERSATION = [
    {"role": "system", "content": "You are a helpful assistant.", "message_id": "s0"},
    *[
        {
            "role": "user" if n % 2 == 0 else "assistant",
            "name": "Alice" if n % 2 == 0 else None,
            "content": text,
            "chat_time": f"2025-03-{10 + n // 6:02d}T09:{n:02d}:00",
            "message_id": f"m{n}",
        }
        for n, text in enumerate(
            [
                "I am moving to Lisbon in June with my partner Ben.",
                "Congratulations! Do you already have a flat there?",
                "Not yet, we want two bedrooms near Alfama under 1500 euros a month.",
                "I can list agencies that rent in Alfama.",
                "Please do. Also, Ben is allergic to cats, so no flats with cats.",
                "Noted: two-bedroom flats near Alfama, under 1500 EUR, no cats.",
                "Tomorrow I sign the contract with my new employer, Tejo Labs.",
                "Good luck with the signing at Tejo Labs!",
                "My start date at Tejo Labs is 1 July 2025.",
                "I will remember that your first day is 1 July 2025.",
                "I prefer a tram commute over the metro.",
                "Understood: you prefer trams.",
            ]
        )
    ],
]
_LINE = re.compile(r"^(?:\(already processed; context only\) )?(\S+), (\w+)(?: \((\w+)\))?: (.*)$")


def restate_each_message(req: ChatRequest) -> Extraction:
    """What a good model does with a window: one self-contained fact per message."""
    out = []
    for n, line in numbered_lines(data_block(req.last_user_text, "messages")):
        when, role, name, text = _LINE.match(line).groups()  # type: ignore[union-attr]
        who = name or role
        out.append(
            ExtractedMemory(
                memory=f"{who} said on {when[:10]}: {text}",
                key=f"{who} {n}",
                persons=[who],
                timestamp=when,
                source_indexes=[n],
            )
        )
    return Extraction(memories=out, summary="a window")


def _parse_dt(value: str) -> datetime:
    return datetime.fromisoformat(value)


def test_chat_fine_items_cite_their_message_ids_with_absolute_times(
    server: LLMServer, make_reader, kind
) -> None:
    server.responder = by_task({"messages": restate_each_message})
    reader = make_reader(kind, chat_window_tokens_fine=64)
    items = reader.read(CONVERSATION, info={"user_id": "alice"}, mode="fine")

    ids_by_text = {m["content"]: m["message_id"] for m in CONVERSATION if m["role"] != "system"}
    times = {m["message_id"]: normalize_time(m.get("chat_time")) for m in CONVERSATION}
    assert items and all(i.metadata.mode == "fine" for i in items)
    # Every message became a fact, once, citing that very message. The relative day the
    # model left ("Tomorrow", said on 2025-03-11) is resolved by the code, and dates the fact.
    said = {i.memory.split(": ", 1)[1]: i for i in items}
    resolved = {t.replace("Tomorrow", "on 2025-03-12"): t for t in ids_by_text}
    assert set(said) == set(resolved)
    for text, item in said.items():
        original = resolved[text]
        assert [s.message_id for s in item.metadata.sources] == [ids_by_text[original]]
        if text == original:
            assert item.metadata.timestamp == times[ids_by_text[original]]
        else:
            assert item.metadata.timestamp.startswith("2025-03-12")
        _parse_dt(item.metadata.timestamp)  # absolute ISO 8601
        assert item.metadata.user_id == "alice"
    # Several windows were sent, each its own request.
    assert len(server.requests_to("chat")) >= 3


def test_chat_windows_are_not_returned_when_refined(server: LLMServer, make_reader) -> None:
    server.responder = by_task({"messages": restate_each_message})
    items = make_reader(chat_window_tokens_fine=64).read(CONVERSATION, mode="fine")
    assert all(i.metadata.mode == "fine" for i in items)
    assert not any(i.metadata.refine_status for i in items)


def test_overlapping_window_message_is_labelled_already_processed_and_its_fact_kept_once(
    server: LLMServer, make_reader
) -> None:
    server.responder = by_task({"messages": restate_each_message})
    items = make_reader(chat_window_tokens_fine=64, chat_overlap_messages=1).read(
        CONVERSATION, mode="fine"
    )

    prompts = [data_block(user_text(r.json), "messages") for r in server.requests_to("chat")]
    assert len(prompts) >= 3
    first_lines = [numbered_lines(p) for p in prompts]
    # Each window after the first opens with the last message of the one before, labelled.
    labelled = [lines[0][1] for lines in first_lines if lines[0][1].startswith(ALREADY_PROCESSED)]
    assert len(labelled) == len(prompts) - 1
    assert not any(ALREADY_PROCESSED in line for lines in first_lines for _, line in lines[1:])
    # The overlap message was restated in two windows; the duplicate was dropped and the kept
    # fact links back to both windows.
    # The windows are sent 8 at a time and reach the server in any order: take the earliest
    # overlap (a message with no relative time, which the fact would restate as a date).
    overlap_text = min(labelled).split(": ", 1)[1]
    copies = [i for i in items if i.memory.endswith(overlap_text)]
    assert len(copies) == 1
    assert len(copies[0].metadata.refined_from) == 2


def test_relative_or_missing_model_times_fall_back_to_the_windows_absolute_time(
    server: LLMServer, make_reader
) -> None:
    server.responder = by_task(
        {
            "messages": lambda req: Extraction(
                memories=[
                    ExtractedMemory(
                        memory="Alice signs the contract with Tejo Labs.", timestamp="tomorrow"
                    ),
                    ExtractedMemory(memory="Alice prefers trams.", timestamp=None),
                ]
            )
        }
    )
    msgs = [m for m in CONVERSATION if m["message_id"] in ("m6", "m7")]
    items = make_reader().read(msgs, mode="fine")
    assert {i.metadata.timestamp for i in items} == {"2025-03-11T09:07:00"}


def test_document_chunks_keep_their_page(
    server: LLMServer, make_reader, sample_files: Path, kind
) -> None:
    items = make_reader(kind).read(sample_files / "quarterly_report.pdf", mode="fine")
    assert items and all(i.metadata.mode == "fine" for i in items)
    # The default test model restates the chunk it was sent: each fact sits on its page.
    for item in items:
        page = item.source.page
        assert page in (1, 2, 3)
        assert REPORT_PAGES[page - 1][2] in item.memory
        assert item.source.path and item.source.path.endswith("quarterly_report.pdf")
        assert item.metadata.extra["title"] == "Quarterly Report Q3 2024"
    assert {i.source.page for i in items} == {1, 2, 3}
    prompts = [user_text(r.json) for r in server.requests_to("chat")]
    assert all("<document>" in p for p in prompts)
    assert any("page 2" in p for p in prompts)  # the prompt says where the chunk is


def test_document_table_rows_reach_the_prompt_exactly(
    server: LLMServer, make_reader, sample_files: Path
) -> None:
    make_reader().read(sample_files / "project_plan.docx", mode="fine")
    [req] = server.requests_to("chat")
    document = data_block(user_text(req.json), "document")
    assert "| Item | Owner | Cost (EUR) |" in document
    assert "| Servers | Ines Moreau | 120,000 |" in document
    assert "| Licences | Tom Becker | 45,500 |" in document
    assert "table" in system_text(req.json).lower()  # the rules ask for rows kept exact


def test_strings_and_text_parts_use_the_general_text_prompt(
    server: LLMServer, make_reader, kind
) -> None:
    reader = make_reader(kind)
    a = reader.read("Alice moved to Berlin on 3 May 2024.", mode="fine")
    b = reader.read([{"type": "text", "text": "Bob adopted a cat named Miso."}], mode="fine")
    reqs = server.requests_to("chat")
    assert len(reqs) == 2
    assert data_block(user_text(reqs[0].json), "text") == "Alice moved to Berlin on 3 May 2024."
    assert data_block(user_text(reqs[1].json), "text") == "Bob adopted a cat named Miso."
    assert all("piece of text" in system_text(r.json) for r in reqs)
    assert [i.metadata.mode for i in a + b] == ["fine", "fine"]


TRAJECTORY = [
    {
        "role": "user",
        "content": "What is the weather in Paris, and any news about the Louvre?",
        "chat_time": "2025-02-01T10:00:00",
        "message_id": "u1",
    },
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            },
            {
                "id": "c2",
                "type": "function",
                "function": {"name": "search_news", "arguments": '{"q": "Louvre"}'},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": '{"temp_c": 9, "sky": "cloudy"}'},
    {"role": "tool", "tool_call_id": "c2", "content": "Error: upstream timed out after 30s"},
    {
        "role": "assistant",
        "content": "It is 9 °C and cloudy in Paris; I could not fetch Louvre news.",
    },
]


def review(req: ChatRequest) -> TrajectoryReview:
    steps = data_block(req.last_user_text, "trajectory")
    assert "get_weather" in steps and "search_news" in steps
    return TrajectoryReview(
        correctness="partial",
        experience="When search_news times out, then retry once with a narrower query.",
        tools=[
            ToolVerdict(name="get_weather", success=True),
            ToolVerdict(name="search_news", success=False, error_type="timeout"),
            ToolVerdict(name="invented_tool", success=True),
        ],
        memories=[
            ExtractedMemory(memory="On 2025-02-01 Paris was 9 °C and cloudy.", source_indexes=[2])
        ],
    )


def test_tool_trajectory_gets_correctness_experience_and_per_tool_verdicts(
    server: LLMServer, make_reader, kind
) -> None:
    server.responder = by_task({"trajectory": review})
    items = make_reader(kind).read(TRAJECTORY, mode="fine")
    [traj] = [i for i in items if i.metadata.memory_type == "ToolTrajectoryMemory"]
    m = traj.metadata
    assert m.mode == "fine"
    assert m.correctness == "partial"
    assert m.experience and m.experience.startswith("When ") and ", then " in m.experience
    assert "Experience: When search_news times out" in traj.memory
    tools = {t.name: t for t in m.tools}
    assert set(tools) == {"get_weather", "search_news"}  # the invented tool is not added
    assert tools["get_weather"].success is True and tools["get_weather"].error_type is None
    assert tools["search_news"].success is False and tools["search_news"].error_type == "timeout"
    assert tools["get_weather"].arguments == {"city": "Paris"}  # fast facts kept
    fact = next(i for i in items if i.memory.startswith("On 2025-02-01 Paris"))
    assert fact.metadata.sources[0].tool_call_id == "c1"


def test_windows_refined_later_in_any_order_still_mark_their_overlap(
    server: LLMServer, make_reader
) -> None:
    # Fast windows, as a store read with chat_units="window" holds them.
    fast = make_reader(chat_window_tokens_fast=64, chat_units="window").read(CONVERSATION)
    assert len(fast) >= 3
    reader = make_reader()
    reader.refine(list(reversed(fast)))
    prompts = [data_block(user_text(r.json), "messages") for r in server.requests_to("chat")]
    opening = sorted(numbered_lines(p)[0][1] for p in prompts)
    assert sum(line.startswith(ALREADY_PROCESSED) for line in opening) == len(fast) - 1

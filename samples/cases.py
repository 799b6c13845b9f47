"""The sample case sets: every input shape omnireader reads, as an agent would pass it.

Each case is ``Case(name, description, input, info)``. File-backed cases use the small real
files that ``make_samples.py`` writes into ``samples/files/`` (run it first).
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from pydantic import BaseModel

HERE = Path(__file__).resolve().parent
FILES = HERE / "files"

__all__ = ["Case", "CASE_SETS", "load_cases"]


class Case(BaseModel):
    name: str
    description: str
    input: Any
    info: dict[str, Any] = {"user_id": "demo_user", "session_id": "demo_session"}


def _b64(name: str) -> str:
    return base64.b64encode((FILES / name).read_bytes()).decode("ascii")


def _data_url(name: str, mime: str) -> str:
    return f"data:{mime};base64,{_b64(name)}"


def string_cases() -> list[Case]:
    return [
        Case(
            name="string_english",
            description="a plain English string",
            input="Maria Santos opened the Lisbon office on 2 September 2024; it has 14 staff.",
        ),
        Case(
            name="string_chinese",
            description="a plain Chinese string",
            input="张伟于2024年11月5日负责上海仓库的搬迁工作，预计在12月完成，预算为80万元。",
        ),
        Case(
            name="string_long",
            description="a long string, chunked",
            input=" ".join(
                f"Paragraph {i}: the migration of service {i} finished on day {i} of the plan."
                for i in range(1, 120)
            ),
        ),
    ]


def chat_cases() -> list[Case]:
    t = "2025-01-10T09:15:00"
    return [
        Case(
            name="chat_simple",
            description="a user / assistant exchange with times and message ids",
            input=[
                {
                    "role": "user",
                    "content": "My sister Ana lives in Porto.",
                    "chat_time": t,
                    "message_id": "c1",
                },
                {
                    "role": "assistant",
                    "content": "Porto is lovely! Do you visit her often?",
                    "chat_time": t,
                    "message_id": "c2",
                },
                {
                    "role": "user",
                    "content": "Every Christmas, and I'll fly there on 20 Dec.",
                    "chat_time": "2025-01-10T09:16:00",
                    "message_id": "c3",
                },
            ],
        ),
        Case(
            name="chat_with_system",
            description="a system prompt (kept as context, not stored) then a chat",
            input=[
                {"role": "system", "content": "You are a concise assistant."},
                {"role": "user", "content": "I prefer meetings after 10am.", "message_id": "s1"},
                {"role": "assistant", "content": "Understood, after 10am.", "message_id": "s2"},
            ],
        ),
        Case(
            name="system_only",
            description="only a system message: one WorkingMemory item, never dropped",
            input={"role": "system", "content": "Always answer in French."},
        ),
        Case(
            name="user_only",
            description="a single user message",
            input={
                "role": "user",
                "name": "Bob",
                "content": "I'm allergic to peanuts.",
                "chat_time": "2025-02-01T12:00:00",
                "message_id": "u1",
            },
        ),
        Case(
            name="assistant_only",
            description="a single assistant message",
            input={
                "role": "assistant",
                "content": "Your order #4417 ships on Monday.",
                "message_id": "a1",
            },
        ),
        Case(
            name="chat_file",
            description="a chat log saved as JSON: read as a conversation",
            input=Path(FILES / "chat_tokyo_trip.json"),
        ),
    ]


def multimodal_cases() -> list[Case]:
    return [
        Case(
            name="multimodal_text_file_image",
            description="one user message with text, a PDF and an image",
            input=[
                {
                    "role": "user",
                    "chat_time": "2025-01-12T10:00:00",
                    "message_id": "mm1",
                    "content": [
                        {"type": "text", "text": "Here is the Q3 report and a photo from Paris."},
                        {"type": "file", "file": {"path": str(FILES / "quarterly_report.pdf")}},
                        {
                            "type": "image_url",
                            "image_url": {"url": _data_url("eiffel_photo.jpg", "image/jpeg")},
                        },
                    ],
                }
            ],
        ),
        Case(
            name="image_part",
            description="a bare image part (PNG data URL)",
            input={
                "type": "image_url",
                "image_url": {"url": _data_url("whiteboard.png", "image/png"), "detail": "low"},
            },
        ),
        Case(
            name="audio_part",
            description="a bare input_audio part (base64 WAV)",
            input={
                "type": "input_audio",
                "input_audio": {"data": _b64("voice_note.wav"), "format": "wav"},
            },
        ),
        Case(
            name="docx_path",
            description="a DOCX read from its path",
            input=Path(FILES / "project_plan.docx"),
        ),
        Case(
            name="zip_path",
            description="a ZIP archive: every member read",
            input=Path(FILES / "archive.zip"),
        ),
    ]


def raw_input_cases() -> list[Case]:
    return [
        Case(
            name="file_id_only",
            description="a file part with only a file_id",
            input={"type": "file", "file": {"file_id": "file-abc123"}},
        ),
        Case(
            name="filename_only",
            description="a file part with only a filename",
            input={"type": "file", "file": {"filename": "minutes.docx"}},
        ),
        Case(
            name="base64_data_url",
            description="a file part with a base64 PDF data URL",
            input={
                "type": "file",
                "file": {
                    "file_data": _data_url("quarterly_report.pdf", "application/pdf"),
                    "filename": "quarterly_report.pdf",
                },
            },
        ),
        Case(
            name="plain_text_file_data",
            description="file_data holding plain text",
            input={"type": "file", "file": {"file_data": "Meeting moved to room 4B on Tuesday."}},
        ),
        Case(
            name="file_data_with_filename",
            description="file_data plus a filename",
            input={
                "type": "file",
                "file": {
                    "file_data": "name,team\nIris,Search\nOmar,Infra\n",
                    "filename": "teams.csv",
                },
            },
        ),
        Case(
            name="text_part",
            description="a bare text part",
            input={"type": "text", "text": "Remember: the VPN password rotates monthly."},
        ),
    ]


def _call(cid: str, name: str, args: str) -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}


def tool_cases() -> list[Case]:
    return [
        Case(
            name="tool_weather",
            description="a weather lookup that succeeds",
            input=[
                {"role": "user", "content": "What's the weather in Paris tomorrow?"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        _call("w1", "get_weather", '{"city": "Paris", "day": "tomorrow"}')
                    ],
                },
                {
                    "role": "tool",
                    "tool_call_id": "w1",
                    "content": '{"city": "Paris", "forecast": "light rain", "high_c": 14}',
                },
                {"role": "assistant", "content": "Tomorrow Paris has light rain, high 14°C."},
            ],
        ),
        Case(
            name="tool_data_api",
            description="two calls to a data API",
            input=[
                {"role": "user", "content": "How many orders did ACME place in 2024?"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        _call("d1", "find_customer", '{"name": "ACME"}'),
                        _call("d2", "count_orders", '{"customer_id": 88, "year": 2024}'),
                    ],
                },
                {"role": "tool", "tool_call_id": "d1", "content": '{"customer_id": 88}'},
                {"role": "tool", "tool_call_id": "d2", "content": '{"count": 312}'},
                {"role": "assistant", "content": "ACME placed 312 orders in 2024."},
            ],
        ),
        Case(
            name="tool_database",
            description="a SQL query tool",
            input=[
                {"role": "user", "content": "List the newest three signups."},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        _call(
                            "q1",
                            "run_sql",
                            '{"sql": "SELECT email FROM users ORDER BY created DESC LIMIT 3"}',
                        )
                    ],
                },
                {
                    "role": "tool",
                    "tool_call_id": "q1",
                    "content": '[["ana@example.com"], ["li@example.com"], ["sam@example.com"]]',
                },
                {"role": "assistant", "content": "ana@, li@ and sam@example.com signed up last."},
            ],
        ),
        Case(
            name="tool_failing",
            description="a tool that fails with an HTTP error",
            input=[
                {"role": "user", "content": "Book a table for two at Lumen tonight."},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        _call("b1", "book_table", '{"restaurant": "Lumen", "people": 2}')
                    ],
                },
                {
                    "role": "tool",
                    "tool_call_id": "b1",
                    "content": '{"error": "Service Unavailable", "status": 503}',
                },
                {"role": "assistant", "content": "Sorry, the booking service is down right now."},
            ],
        ),
    ]


CASE_SETS = {
    "string_message": string_cases,
    "chat": chat_cases,
    "multimodal": multimodal_cases,
    "raw_input": raw_input_cases,
    "tool": tool_cases,
}


def load_cases(example: str = "all") -> list[Case]:
    """The cases of one set (``string_message``, ``chat``, ``multimodal``, ``raw_input``,
    ``tool``) or of all of them."""
    if example == "all":
        return [c for make in CASE_SETS.values() for c in make()]
    if example not in CASE_SETS:
        raise SystemExit(
            f"unknown example {example!r}; choose all or one of {', '.join(CASE_SETS)}"
        )
    return CASE_SETS[example]()

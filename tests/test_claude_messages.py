"""Claude (Anthropic Messages API) conversations are read like OpenAI ones: tool_use blocks
are tool calls, tool_result blocks their results, image and document blocks attachments."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.errors import InvalidInputError

QUESTION = {"role": "user", "content": [{"type": "text", "text": "How long do we keep logs?"}]}
CALL = {
    "role": "assistant",
    "content": [
        {"type": "text", "text": "Let me check the policy."},
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "search_docs",
            "input": {"query": "log retention"},
        },
    ],
}
ANSWER = {"role": "assistant", "content": [{"type": "text", "text": "Logs are kept 90 days."}]}


def result(content: object, **extra: object) -> dict[str, object]:
    return {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": content, **extra}],
    }


def b64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


def test_a_claude_request_file_is_a_conversation_with_a_tool_trajectory(tmp_path: Path) -> None:
    request = tmp_path / "claude.json"
    request.write_text(
        json.dumps(
            {
                "model": "claude-sonnet",
                "system": "You are a records assistant.",
                "messages": [
                    QUESTION,
                    CALL,
                    result([{"type": "text", "text": "Policy 7.2: 90 days."}]),
                    ANSWER,
                ],
            }
        )
    )
    items = Reader().read(request)
    chat = [i.memory for i in items if i.source.kind == "chat"]
    assert chat == ["user: How long do we keep logs?", "assistant: Logs are kept 90 days."]
    assert items[0].metadata.extra["system_prompt"] == "You are a records assistant."
    [trajectory] = [i for i in items if i.metadata.memory_type == "ToolTrajectoryMemory"]
    [use] = trajectory.metadata.tools
    assert (use.name, use.success) == ("search_docs", True)
    assert use.arguments == {"query": "log retention"}
    assert "Policy 7.2: 90 days." in trajectory.memory
    assert "tool_use_id" not in " ".join(i.memory for i in items)


def test_the_python_api_takes_claude_messages_as_they_are() -> None:
    items = Reader().read([QUESTION, CALL, result("Policy 7.2: 90 days."), ANSWER])
    assert [i.metadata.memory_type for i in items] == [
        "UserMemory",
        "LongTermMemory",
        "ToolTrajectoryMemory",
    ]


def test_a_tool_result_marked_is_error_is_a_failed_call() -> None:
    items = Reader().read([QUESTION, CALL, result("index unavailable", is_error=True), ANSWER])
    [trajectory] = [i for i in items if i.metadata.memory_type == "ToolTrajectoryMemory"]
    assert trajectory.metadata.tools[0].success is False
    assert trajectory.metadata.correctness == "failed"


def test_image_and_document_blocks_are_read_as_attachments(sample_files: Path) -> None:
    items = Reader().read(
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Here is the board and the report."},
                    {
                        "type": "image",
                        "source": {
                            "type": "base64",
                            "media_type": "image/png",
                            "data": b64(sample_files / "whiteboard.png"),
                        },
                    },
                    {
                        "type": "document",
                        "title": "q3.pdf",
                        "source": {
                            "type": "base64",
                            "media_type": "application/pdf",
                            "data": b64(sample_files / "quarterly_report.pdf"),
                        },
                    },
                ],
            }
        ]
    )
    kinds = {i.source.kind for i in items}
    assert kinds == {"chat", "image", "file"}
    text = " ".join(i.memory for i in items)
    assert "ship v2 on Friday" in text  # the whiteboard's words
    assert "Quarterly revenue reached 4.2 million euros" in text
    assert "[attached file: q3.pdf]" in items[0].memory
    assert "base64" not in text


def test_thinking_blocks_are_the_models_scratch_work_and_are_left_out() -> None:
    items = Reader().read(
        [
            QUESTION,
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "thinking",
                        "thinking": "The user wants the policy.",
                        "signature": "x",
                    },
                    {"type": "text", "text": "90 days."},
                ],
            },
        ]
    )
    assert [i.memory for i in items] == ["user: How long do we keep logs?", "assistant: 90 days."]


@pytest.mark.parametrize(
    ("block", "says"),
    [
        (
            {"type": "tool_use", "id": "t1", "input": {}},
            "message 0 block 0 (tool_use): a tool_use block needs the tool's name",
        ),
        ({"type": "tool_result", "content": "x"}, "needs the tool_use_id it answers"),
        (
            {"type": "image", "source": {"type": "base64", "data": "iVBO"}},
            "a base64 image source needs media_type",
        ),
        ({"type": "document"}, "needs a source object"),
    ],
)
def test_a_malformed_block_is_a_one_line_error_naming_it(block: dict, says: str) -> None:
    with pytest.raises(InvalidInputError) as e:
        Reader().read([{"role": "assistant", "content": [block]}])
    assert says in str(e.value)
    assert "\n" not in str(e.value)


def test_a_malformed_claude_file_names_the_file_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "claude.json"
    bad.write_text(
        json.dumps(
            {
                "messages": [
                    {"role": "user", "content": [{"type": "image", "source": {"type": "url"}}]}
                ]
            }
        )
    )
    with pytest.raises(InvalidInputError, match=r"claude\.json: .*url image source needs url"):
        Reader().read(bad)

"""Chat exports people download from their apps (ChatGPT, Slack, WhatsApp) are read as
conversations: one item per message, ``[time] speaker: text``, never as raw JSON."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from omnireader import Blob, Reader
from omnireader.intake.router import route


def lines(items) -> list[str]:
    return [i.memory for i in items if i.source.kind == "chat"]


# ------------------------------------------------------------------------ ChatGPT


def node(
    nid: str,
    parent: str | None,
    children: list[str],
    role: str | None = None,
    parts: list[object] | None = None,
    t: float | None = None,
    **message: object,
) -> dict:
    msg = (
        None
        if role is None
        else {
            "id": nid,
            "author": {"role": role},
            "create_time": t,
            "content": {"content_type": "text", "parts": parts or []},
            "recipient": "all",
            "status": "finished_successfully",
            **message,
        }
    )
    return {"id": nid, "message": msg, "parent": parent, "children": children}


def chatgpt_export() -> list[dict]:
    """Two conversations; the first has a hidden system node and an edited question."""
    mapping = {
        n["id"]: n
        for n in [
            node("root", None, ["sys"]),
            node(
                "sys",
                "root",
                ["u1"],
                "system",
                [""],
                metadata={"is_visually_hidden_from_conversation": True},
            ),
            node("u1", "sys", ["a1"], "user", ["How long should dough proof?"], 1700000000.5),
            node(
                "a1",
                "u1",
                ["old", "u2"],
                "assistant",
                ["12 to 16 hours in the fridge."],
                1700000020,
            ),
            node("old", "a1", [], "user", ["An abandoned question about rye."], 1700000060),
            node(
                "u2",
                "a1",
                [],
                "user",
                [
                    {"content_type": "image_asset_pointer", "asset_pointer": "file-service://f1"},
                    "Is this crumb underproofed?",
                ],
                1700000090,
            ),
        ]
    }
    return [
        {"title": "Sourdough", "create_time": 1700000000, "mapping": mapping, "current_node": "u2"},
        {
            "title": "Ferry",
            "mapping": {
                n["id"]: n
                for n in [
                    node("r", None, ["q"]),
                    node("q", "r", [], "user", ["Which company runs the Porto ferry?"], 1710000000),
                ]
            },
            "current_node": "q",
        },
    ]


def test_a_chatgpt_export_is_each_conversation_on_the_branch_last_seen(tmp_path: Path) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(chatgpt_export()))
    items = Reader().read(export)
    assert lines(items) == [
        "[2023-11-14T22:13:20+00:00] user: How long should dough proof?",
        "[2023-11-14T22:13:40+00:00] assistant: 12 to 16 hours in the fridge.",
        "[2023-11-14T22:14:50+00:00] user: [image]\nIs this crumb underproofed?",
        "[2024-03-09T16:00:00+00:00] user: Which company runs the Porto ferry?",
    ]
    # The conversation's title stays with its messages.
    assert [i.metadata.key for i in items] == ["Sourdough"] * 3 + ["Ferry"]
    assert items[0].metadata.extra["chat_title"] == "Sourdough"


def test_chatgpt_tool_use_becomes_a_trajectory(tmp_path: Path) -> None:
    mapping = {
        n["id"]: n
        for n in [
            node("u", None, ["c"], "user", ["Add 2 and 2 in Python."], 1700000000),
            node(
                "c",
                "u",
                ["o"],
                "assistant",
                recipient="python",
                content={"content_type": "code", "language": "python", "text": "print(2 + 2)"},
            ),
            node(
                "o", "c", ["a"], "tool", content={"content_type": "execution_output", "text": "4"}
            ),
            node("a", "o", [], "assistant", ["It is 4."], 1700000010),
        ]
    }
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps([{"title": "Sums", "mapping": mapping, "current_node": "a"}]))
    items = Reader().read(export)
    [trajectory] = [i for i in items if i.metadata.memory_type == "ToolTrajectoryMemory"]
    [use] = trajectory.metadata.tools
    assert (use.name, use.arguments, use.success) == ("python", {"code": "print(2 + 2)"}, True)
    assert lines(items)[-1].endswith("assistant: It is 4.")


# -------------------------------------------------------------------------- Slack


SLACK_DAY = [
    {
        "type": "message",
        "subtype": "channel_join",
        "ts": "1709990000.000100",
        "user": "U1",
        "text": "<@U1> has joined the channel",
    },
    {
        "type": "message",
        "ts": "1710000100.000200",
        "user": "U1",
        "user_profile": {"real_name": "Dana Whitfield", "display_name": "dana"},
        "text": "Deploy on <!date^1710100000^{date_short}|Mar 10>, see "
        "<https://example.com/runbook|the runbook> cc <@U2> <@U9> in <#C1|ops> <!here>",
    },
    {
        "type": "message",
        "ts": "1710000200.000300",
        "user": "U2",
        "user_profile": {"real_name": "Omar Reyes"},
        "thread_ts": "1710000100.000200",
        "text": "Rollback &amp; retry if p95 &gt; 300ms, docs at <https://example.com/p95>",
    },
    {
        "type": "message",
        "subtype": "bot_message",
        "ts": "1710000300.000400",
        "bot_id": "B1",
        "username": "deploybot",
        "text": "Deployment finished",
        "attachments": [{"fallback": "build 1234 ok"}],
    },
]


def test_a_slack_channel_file_is_read_as_the_channel_showed_it(tmp_path: Path) -> None:
    day = tmp_path / "2024-03-09.json"
    day.write_text(json.dumps(SLACK_DAY))
    assert lines(Reader().read(day)) == [
        "[2024-03-09T16:01:40+00:00] Dana Whitfield: Deploy on Mar 10, see the runbook cc "
        "@Omar Reyes @U9 in #ops @here",
        "[2024-03-09T16:03:20+00:00] Omar Reyes: Rollback & retry if p95 > 300ms, docs at "
        "https://example.com/p95",
        "[2024-03-09T16:05:00+00:00] deploybot: Deployment finished\nbuild 1234 ok",
    ]


# ----------------------------------------------------------------------- WhatsApp


ANDROID = """\
12/03/2024, 10:14 - Messages and calls are end-to-end encrypted. No one outside of this chat, \
not even WhatsApp, can read or listen to them. Tap to learn more.
12/03/2024, 10:15 - Alice Moreau: Are we meeting at the boathouse on Friday?
12/03/2024, 10:17 - Bob Tanaka: Yes! I'll bring the tide maps.
And the second line of Bob's message.
25/03/2024, 21:03 - Alice Moreau: <Media omitted>
25/03/2024, 21:05 - Alice Moreau: This message was deleted
26/03/2024, 08:00 - Bob Tanaka added Carol
"""


def test_a_whatsapp_android_export_is_a_conversation_of_its_senders(tmp_path: Path) -> None:
    chat = tmp_path / "WhatsApp Chat with Alice Moreau.txt"
    chat.write_text(ANDROID)
    items = Reader().read(chat)
    assert lines(items) == [
        "[2024-03-12T10:15:00] Alice Moreau: Are we meeting at the boathouse on Friday?",
        "[2024-03-12T10:17:00] Bob Tanaka: Yes! I'll bring the tide maps.\n"
        "And the second line of Bob's message.",
        "[2024-03-25T21:03:00] Alice Moreau: [media]",
    ]
    assert items[0].metadata.key == "WhatsApp Chat with Alice Moreau"
    assert items[0].metadata.persons == ["Alice Moreau"]


def test_an_ios_export_with_a_12_hour_clock_and_month_first_dates(tmp_path: Path) -> None:
    chat = tmp_path / "_chat.txt"
    chat.write_text(
        "[03/12/24, 9:05:07 PM] Alice: Dinner at eight?\n"
        "[03/13/24, 12:01:00 AM] Bob: \u200eimage omitted\n"
        "[03/13/24, 12:02:30 PM] Bob: Sure, see you there.\n"
    )
    # 13 in the second field: the month comes first on this phone.
    assert lines(Reader().read(chat)) == [
        "[2024-03-12T21:05:07] Alice: Dinner at eight?",
        "[2024-03-13T00:01:00] Bob: [media]",
        "[2024-03-13T12:02:30] Bob: Sure, see you there.",
    ]


def test_a_text_file_with_a_few_dated_lines_stays_text(tmp_path: Path) -> None:
    diary = tmp_path / "diary.txt"
    diary.write_text(
        "Notes from the trip.\n12/03/2024, 10:15 - Bob: left Lisbon\n"
        "Long drive, many stops.\nThe coast was beautiful.\n"
    )
    assert [t.parser for t in route(diary)] == ["file"]


# ------------------------------------------------------------- times, other JSON


def test_messages_may_name_their_time_as_other_tools_do(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(
        "\n".join(
            json.dumps(m)
            for m in [
                {"role": "user", "content": "iso", "timestamp": "2024-02-01T09:00:00Z"},
                {"role": "user", "content": "epoch ms", "created_at": 1706778000000},
                {"role": "user", "content": "epoch text", "ts": "1706778060.5"},
                {"role": "user", "content": "not a time", "time": "morning"},
            ]
        )
    )
    assert lines(Reader().read(log)) == [
        "[2024-02-01T09:00:00+00:00] user: iso",
        "[2024-02-01T09:00:00+00:00] user: epoch ms",
        "[2024-02-01T09:01:00+00:00] user: epoch text",
        "user: not a time",
    ]


def test_other_json_stays_a_json_document(tmp_path: Path) -> None:
    events = tmp_path / "events.json"
    events.write_text(json.dumps([{"type": "click", "ts": 1}, {"type": "scroll", "ts": 2}]))
    assert [t.parser for t in route(events)] == ["file"]


def test_a_chatgpt_export_inside_a_zip_is_read_as_chat() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("conversations.json", json.dumps(chatgpt_export()))
        zf.writestr("notes.txt", "just notes")
    tasks = route(Blob(data=buf.getvalue(), filename="chatgpt-export.zip"))
    assert sorted(t.parser for t in tasks) == ["chat", "chat", "file"]


def test_a_broken_chat_log_in_a_zip_is_reported_and_the_rest_still_read() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("messages.json", json.dumps([{"role": "robot", "content": "beep"}]))
        zf.writestr("notes.txt", "just notes")
    tasks = route(Blob(data=buf.getvalue(), filename="bundle.zip"))
    [failed] = [t.failure for t in tasks if t.failure]
    assert failed.error == "corrupt" and "0.role" in failed.message
    assert [t.parser for t in tasks if not t.failure] == ["file"]

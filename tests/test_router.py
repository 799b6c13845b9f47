"""The router: which parser each kind of input goes to, decided by content."""

from __future__ import annotations

import base64
import io
import os
import warnings
import zipfile
from pathlib import Path

import pytest

from omnireader.errors import EmptyInputError, InvalidInputError, OmniReaderWarning
from omnireader.intake.router import route
from omnireader.intake.walk import expand
from omnireader.options import ReadOptions
from omnireader.payloads import Blob, Conversation, TextInput, Trajectory


def parsers(tasks) -> list[str]:
    return [t.parser for t in tasks]


def test_a_string_naming_an_existing_file_is_read_as_that_file(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("read me")
    for given in (str(note), note.as_uri()):
        [task] = route(given)
        assert task.parser == "file" and task.payload.path == str(note)


def test_strings_as_text_or_untrusted_paths_keep_a_path_string_as_text(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read me")
    for options in (ReadOptions(strings_as_text=True), ReadOptions(allow_path_parts=False)):
        [task] = route(str(secret), options)
        assert task.parser == "string"
        assert isinstance(task.payload, TextInput) and task.payload.text == str(secret)


def test_a_string_that_looks_like_a_missing_path_is_text_with_a_warning() -> None:
    with pytest.warns(OmniReaderWarning, match="looks like a file path"):
        [task] = route("/nonexistent/file.pdf")
    assert task.parser == "string"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # prose never warns
        assert parsers(route("Alice moved to Berlin in 2021.")) == ["string"]


def test_a_single_message_and_a_conversation_go_to_the_chat_parser() -> None:
    assert parsers(route({"role": "user", "content": "hi"})) == ["chat"]
    convo = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]
    [task] = route(convo)
    assert isinstance(task.payload, Conversation) and len(task.payload.messages) == 2


def test_tool_calls_become_a_trajectory_and_the_request_and_answer_stay_in_the_chat() -> None:
    convo = [
        {"role": "user", "content": "weather in Oslo?"},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "wx", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '{"temp": 3}'},
        {"role": "assistant", "content": "3 degrees."},
    ]
    chat, tool = route(convo)
    assert (chat.parser, tool.parser) == ("chat", "tool")
    assert [m.role for m in chat.payload.messages] == ["user", "assistant"]
    assert isinstance(tool.payload, Trajectory)
    assert [m.role for m in tool.payload.messages] == ["user", "assistant", "tool", "assistant"]


def test_a_tool_result_for_a_call_never_made_is_a_clear_error() -> None:
    convo = [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "wx", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "zz", "content": "{}"},
    ]
    with pytest.raises(InvalidInputError, match="'zz'.*no assistant message"):
        route(convo)


def test_an_unknown_part_type_names_the_valid_ones() -> None:
    with pytest.raises(InvalidInputError, match="text, file, image_url, input_audio"):
        route({"type": "video", "video": {}})


def test_a_list_of_unrelated_inputs_is_expanded_one_by_one(tmp_path: Path) -> None:
    assert list(expand(["a", "b", Path(tmp_path)])) == ["a", "b"]
    (tmp_path / "x.txt").write_text("x")
    assert list(expand([Path(tmp_path)])) == [tmp_path / "x.txt"]


def test_files_are_recognised_by_content_not_extension(sample_files: Path, tmp_path: Path) -> None:
    disguised = tmp_path / "plan.pdf"
    disguised.write_bytes((sample_files / "project_plan.docx").read_bytes())
    [task] = route(disguised)
    assert task.parser == "file" and "wordprocessingml" in task.payload.mime
    pdf_as_txt = tmp_path / "report.txt"
    pdf_as_txt.write_bytes((sample_files / "quarterly_report.pdf").read_bytes())
    assert route(pdf_as_txt)[0].payload.mime == "application/pdf"
    assert parsers(route((sample_files / "whiteboard.png").read_bytes())) == ["image"]
    assert parsers(route(Blob(data=(sample_files / "voice_note.wav").read_bytes()))) == ["audio"]


def test_a_json_chat_log_is_a_conversation_and_other_json_is_a_document(
    sample_files: Path, tmp_path: Path
) -> None:
    [task] = route(sample_files / "chat_tokyo_trip.json")
    assert task.parser == "chat"
    assert [m.message_id for m in task.payload.messages][:2] == ["m0", "m1"]
    other = tmp_path / "config.json"
    other.write_text('{"name": "x", "items": [1, 2]}')
    assert parsers(route(other)) == ["file"]
    jsonl = tmp_path / "chat.jsonl"
    jsonl.write_text(
        '{"role": "user", "content": "a", "message_id": "j1"}\n'
        '{"role": "assistant", "content": "b", "message_id": "j2"}\n'
    )
    assert parsers(route(jsonl)) == ["chat"]


def test_zip_members_are_routed_by_their_own_content(sample_files: Path, tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.write(sample_files / "whiteboard.png", "pics/board.png")
        zf.writestr("notes.txt", "hello")
    tasks = route(Blob(data=buf.getvalue(), filename="bundle.zip"))
    assert sorted(parsers(tasks)) == ["file", "image"]
    assert {t.payload.member for t in tasks} == {"pics/board.png", "notes.txt"}


def test_parts_of_a_message_go_to_their_parsers_with_the_message_text(sample_files: Path) -> None:
    png = base64.b64encode((sample_files / "whiteboard.png").read_bytes()).decode()
    msg = {
        "role": "user",
        "message_id": "u9",
        "content": [
            {"type": "text", "text": "see the board"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png}"}},
            {"type": "file", "file": {"file_data": "plain notes", "filename": "n.txt"}},
        ],
    }
    tasks = route(msg)
    assert parsers(tasks) == ["chat", "image", "file"]
    assert tasks[1].payload.context == "see the board"
    assert tasks[1].payload.message_id == "u9"


def test_a_bad_attachment_is_reported_without_losing_the_rest_of_the_message() -> None:
    msg = {
        "role": "user",
        "content": [
            {"type": "text", "text": "two pictures"},
            {"type": "image_url", "image_url": {"url": "http://127.0.0.1:9/x.png"}},
        ],
    }
    chat, bad = route(msg)
    assert chat.parser == "chat"
    assert bad.failure is not None and bad.failure.error == "blocked_url"


def test_a_reference_without_content_still_routes_to_the_file_parser() -> None:
    [task] = route({"type": "file", "file": {"file_id": "file-1"}})
    assert task.parser == "file" and task.payload.file_id == "file-1"


def test_empty_files_and_missing_paths_are_typed_errors(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(EmptyInputError):
        route(empty)
    with pytest.raises(Exception, match="no such file"):
        route(tmp_path / "missing.pdf")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_folder_walk_does_not_follow_a_symlink_loop(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f.txt").write_text("x")
    (tmp_path / "a" / "loop").symlink_to(tmp_path, target_is_directory=True)
    assert list(expand(Path(tmp_path))) == [tmp_path / "a" / "f.txt"]


def test_path_parts_can_be_turned_off_for_untrusted_messages(sample_files: Path) -> None:
    from omnireader.options import ReadOptions

    part = {"type": "file", "file": {"path": str(sample_files / "team_notes.md")}}
    assert parsers(route(part)) == ["file"]
    with pytest.raises(InvalidInputError, match="allow_path_parts=False"):
        route(part, ReadOptions(allow_path_parts=False))

"""The Reader: inputs in, items out, bad inputs reported without stopping the rest."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from omnireader import (
    EncryptedError,
    FineModeUnavailableError,
    InvalidInputError,
    Reader,
    UnsupportedFormatError,
)


def test_reading_a_string_gives_a_fast_item_with_the_callers_user_and_session() -> None:
    [item] = Reader().read("Alice moved to Berlin.", info={"user_id": "u1", "session_id": "s1"})
    assert item.memory == "Alice moved to Berlin."
    assert (item.metadata.user_id, item.metadata.session_id, item.metadata.mode) == (
        "u1",
        "s1",
        "fast",
    )


def test_a_typo_in_info_fails_loudly_listing_the_valid_keys() -> None:
    with pytest.raises(InvalidInputError, match="valid keys are user_id, session_id"):
        Reader().read("x", info={"user": "u1"})
    with pytest.raises(InvalidInputError, match="info must be a dict"):
        Reader().read("x", info="u1")  # type: ignore[arg-type]


def test_unknown_reader_options_and_modes_are_rejected() -> None:
    with pytest.raises(InvalidInputError, match="unknown reader option"):
        Reader(chunk_size=10)
    with pytest.raises(InvalidInputError, match="mode must be"):
        Reader().read("x", mode="quick")  # type: ignore[arg-type]


def test_fine_mode_without_an_llm_says_which_flag_to_pass() -> None:
    with pytest.raises(FineModeUnavailableError, match="--llm"):
        Reader().read("x", mode="fine")


def test_ids_are_the_same_on_a_second_read_and_differ_between_users(sample_files: Path) -> None:
    pdf = sample_files / "quarterly_report.pdf"
    first = [i.id for i in Reader().read(pdf, info={"user_id": "a"})]
    again = [i.id for i in Reader().read(pdf, info={"user_id": "a"})]
    other = [i.id for i in Reader().read(pdf, info={"user_id": "b"})]
    assert first == again and len(set(first)) == len(first) == 3
    assert not set(first) & set(other)


def test_a_folder_is_read_past_the_files_that_fail(sample_files: Path, tmp_path: Path) -> None:
    (tmp_path / "good.md").write_text("# Notes\n\nShip on Friday.")
    (tmp_path / "noise.bin").write_bytes(bytes(range(256)) * 8)
    result = Reader().read_report(Path(tmp_path))
    assert [i.memory for i in result.items] == ["# Notes\n\nShip on Friday."]
    [failure] = result.failures
    assert failure.error == "unsupported" and failure.input.endswith("noise.bin")
    assert not any("not a supported format" in i.memory for i in result.items)


def test_read_raises_the_typed_error_of_the_first_failure_unless_told_to_skip(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "x.bin"
    bad.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(UnsupportedFormatError, match="x.bin"):
        Reader().read([Path(bad), "fine text"])
    assert [i.memory for i in Reader().read([Path(bad), "fine text"], on_error="skip")] == [
        "fine text"
    ]


def test_an_encrypted_pdf_needs_its_password(corpus: Path) -> None:
    pdf = corpus / "pypdf" / "encryption" / "r4-user-password.pdf"
    with pytest.raises(EncryptedError, match="password"):
        Reader().read(pdf)
    assert Reader(password="asdfzxcv").read(pdf)


def test_every_file_item_names_its_file_even_for_chat_logs(sample_files: Path) -> None:
    items = Reader().read(sample_files / "chat_tokyo_trip.json")
    sources = [s for i in items for s in i.metadata.sources]
    assert {s.path for s in sources} == {str(sample_files / "chat_tokyo_trip.json")}
    assert [s.message_id for s in sources] == ["m1", "m2", "m3", "m4"]


def test_the_async_api_reads_what_an_upload_handler_has(sample_files: Path) -> None:
    from omnireader import Blob

    upload = Blob(data=(sample_files / "project_plan.docx").read_bytes(), filename="plan.docx")
    items = asyncio.run(Reader().aread([upload, {"role": "user", "content": "hi, I'm Bo"}]))
    assert any("Project Falcon" in i.memory for i in items)
    assert any("I'm Bo" in i.memory for i in items)


def test_the_async_api_names_the_file_of_a_chat_log_too(sample_files: Path) -> None:
    chat = sample_files / "chat_tokyo_trip.json"
    items = asyncio.run(Reader().aread(chat))
    assert {s.path for i in items for s in i.metadata.sources} == {str(chat)}

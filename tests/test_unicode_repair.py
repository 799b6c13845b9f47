"""Surrogate code points (half an emoji in a JSON escape, RTF's signed \\uN halves, a file
name decoded with surrogateescape) never reach the output or the store: a pair becomes its
character, an undecodable byte of a name ``\\xNN`` (the name's shown form), any other lone
half U+FFFD, and reading, printing and storing go on."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from omnireader import Reader, Store, ingest
from omnireader.models import MemoryItem, MemoryMetadata, Source
from omnireader.text.unicode_repair import repair_model, repair_surrogates

# What Word writes for "smile 😀": the emoji as two signed 16-bit halves.
RTF_EMOJI = (
    r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Calibri;}}\uc1\pard\f0 "
    r"Kite festival \u1055?\u1088?\u1080? smile \u-10179?\u-8704? done.\par}"
)


def test_a_pair_is_joined_and_a_lone_half_replaced() -> None:
    assert repair_surrogates("a \ud83d\ude00 b") == "a 😀 b"
    assert repair_surrogates("cut \ud83d") == "cut \ufffd"
    assert repair_surrogates("name\udcff.txt") == "name\\xff.txt"  # a byte: its shown form
    assert repair_surrogates("\ud83d\udcff") == "\U0001f4ff"  # a pair, not a byte
    assert repair_surrogates("half \udc00 \ude00") == "half \ufffd \ufffd"  # not a byte
    plain = "naïve €5 😀"
    assert repair_surrogates(plain) is plain  # nothing to repair: no copy


def test_every_string_in_a_model_is_repaired_in_place() -> None:
    item = MemoryItem(
        id="x",
        memory="half \ud83d",
        metadata=MemoryMetadata(
            keywords=["ok", "bad\udc80"],
            sources=[Source(kind="file", content="\ud83d\ude00", filename="f\udcff.txt")],
        ),
    )
    repair_model(item)
    json.dumps(item.model_dump(mode="json"), ensure_ascii=False).encode("utf-8")  # no error
    assert item.memory == "half \ufffd"
    assert item.metadata.keywords == ["ok", "bad\\x80"]
    assert item.metadata.sources[0].content == "😀"
    assert item.metadata.sources[0].filename == "f\\xff.txt"


def test_an_rtf_emoji_and_a_json_half_emoji_are_read_and_stored(tmp_path: Path) -> None:
    (tmp_path / "note.rtf").write_text(RTF_EMOJI, encoding="ascii")
    (tmp_path / "cut.json").write_text('{"note": "kite string \\ud83d cut"}', encoding="ascii")
    reader = Reader()
    [rtf_item] = reader.read(tmp_path / "note.rtf")
    assert "smile 😀 done" in rtf_item.memory
    json_items = reader.read(tmp_path / "cut.json")
    assert any("kite string \ufffd cut" in i.memory for i in json_items)

    store = Store.open(tmp_path / "db.lance")
    report = ingest(tmp_path, store, reader=reader)
    assert report.failures == [] and report.items_inserted == 1 + len(json_items)
    assert "😀" in store.search("smile", view="fts")[0].text


def test_the_cli_prints_them_as_utf8(tmp_path: Path) -> None:
    (tmp_path / "note.rtf").write_text(RTF_EMOJI, encoding="ascii")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "omnireader",
            "read",
            str(tmp_path / "note.rtf"),
            "--format",
            "json",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "smile 😀 done" in proc.stdout

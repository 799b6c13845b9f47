"""Batch ingest: parallel, skips unchanged files, replaces changed ones, resumes after a kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from omnireader import IngestOptions, Reader, Store, ingest

ROOT = Path(__file__).resolve().parents[2]


def _folder(tmp_path: Path, n: int = 6) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(n):
        (docs / f"note_{i}.md").write_text(
            f"# Note {i}\n\nProject code P-{i:03d} ships in week {i}."
        )
    return docs


def test_ingest_writes_every_file_once_and_a_second_run_skips_them(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    store = Store.open(tmp_path / "db.lance")
    first = ingest(docs, store, options=IngestOptions(workers=2))
    assert (first.files_read, first.items_inserted, first.files_failed) == (6, 6, 0)
    second = ingest(docs, store, options=IngestOptions(workers=2))
    assert (second.files_skipped, second.items_inserted, second.items_updated) == (6, 0, 0)
    assert store.count() == 6


def test_a_changed_file_replaces_its_old_items_and_leaves_none_behind(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    long = docs / "long.md"
    long.write_text("\n\n".join(f"Paragraph {i} about topic {i}. " * 30 for i in range(12)))
    store = Store.open(tmp_path / "db.lance")
    before = ingest(docs, store, reader=Reader(chunk_tokens=64), options=IngestOptions(workers=1))
    assert before.items_inserted > 3
    long.write_text("Now a single short paragraph.")
    after = ingest(docs, store, reader=Reader(chunk_tokens=64), options=IngestOptions(workers=1))
    # ids derive from the content, so every old chunk is stale and the new one is new
    assert (after.files_read, after.items_inserted) == (1, 1)
    assert after.items_deleted == before.items_inserted
    assert [i.memory for i in store.iter_items()] == ["Now a single short paragraph."]


def test_one_bad_file_is_reported_by_type_and_the_rest_lands(tmp_path: Path) -> None:
    docs = _folder(tmp_path, 3)
    (docs / "blob.bin").write_bytes(os.urandom(2048))
    (docs / "empty.txt").write_bytes(b"")
    store = Store.open(tmp_path / "db.lance")
    report = ingest(docs, store, options=IngestOptions(workers=2))
    assert report.failed_by_error == {"unsupported": 1, "empty": 1}
    assert report.files_failed == 2 and store.count() == 3


def test_messages_and_files_ingest_together_and_search_finds_message_ids(
    sample_files: Path, tmp_path: Path
) -> None:
    store = Store.open(tmp_path / "db.lance")
    ingest([sample_files / "chat_tokyo_trip.json"], store, info={"user_id": "alice"})
    hits = store.search("Tokyo conference hotel Shinjuku", k=3, view="fts")
    # Each passage is a message with the ones around it; together they hold the answer.
    assert {"m1", "m2", "m3", "m4"} <= {m for h in hits for m in h.message_ids}


def _count(db: Path) -> int:
    try:
        return Store.open(db, create=False).count()
    except Exception:
        return 0


def test_an_ingest_killed_half_way_finishes_on_the_next_run_with_every_file_once(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(240):
        (docs / f"f{i:03d}.md").write_text(f"File {i}: the answer for case {i} is {i * 7}.")
    db = tmp_path / "db.lance"
    cmd = [
        sys.executable,
        "-m",
        "omnireader",
        "ingest",
        str(docs),
        "--db",
        str(db),
        "--workers",
        "1",
        "--batch-size",
        "4",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and _count(db) < 8:
        time.sleep(0.05)
    assert proc.poll() is None, "the ingest finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = _count(db)
    assert 0 < partial < 240

    out = subprocess.run(
        [*cmd, "--report", str(tmp_path / "r.json")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads((tmp_path / "r.json").read_text())
    store = Store.open(db)
    paths = [i.source.path for i in store.iter_items()]
    assert len(paths) == 240 == len(set(paths)), out.stderr
    assert report["files_skipped"] >= partial - 4  # what was recorded is not read again
    assert report["files_read"] + report["files_skipped"] == 240


def test_on_file_tells_each_file_read_and_its_item_count(tmp_path: Path) -> None:
    docs = _folder(tmp_path, 3)
    long = docs / "long.md"
    long.write_text("\n\n".join(f"Paragraph {i} about topic {i}. " * 30 for i in range(12)))
    (docs / "empty.txt").write_text("")
    store = Store.open(tmp_path / "db.lance")
    told: dict[str, int] = {}
    report = ingest(
        docs,
        store,
        reader=Reader(chunk_tokens=64),
        on_file=lambda p, n: told.__setitem__(Path(p).name, n),
        options=IngestOptions(workers=1),
    )
    assert set(told) == {"note_0.md", "note_1.md", "note_2.md", "long.md", "empty.txt"}
    assert told["note_1.md"] == 1 and told["empty.txt"] == 0 and told["long.md"] > 3
    assert sum(told.values()) == report.items_inserted == store.count()
    again: dict[str, int] = {}
    ingest(
        docs,
        store,
        reader=Reader(chunk_tokens=64),
        on_file=lambda p, n: again.__setitem__(p, n),
        options=IngestOptions(workers=1),
    )
    assert again == {}  # unchanged files are not read, so not told

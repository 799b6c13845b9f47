"""A re-run is a no-op; the report adds up; --sync follows the folder; items get a time."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

from omnireader import IngestOptions, Reader, Store, ingest


def _mixed_folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.md").write_text("# Plan\n\nShip the Lisbon release in May.")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4\n" + os.urandom(600))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("inside.txt", "The archive holds the Oslo budget.")
        zf.writestr("hollow.txt", "")
    (docs / "bundle.zip").write_bytes(buf.getvalue())
    # A chat log whose picture cannot be fetched (nothing listens on port 9): transient.
    (docs / "chat.json").write_text(
        json.dumps(
            [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "The photo from the Porto offsite."},
                        {"type": "image_url", "image_url": {"url": "http://127.0.0.1:9/photo.png"}},
                    ],
                }
            ]
        )
    )
    return docs


def test_the_summary_counts_inputs_and_parts_apart_and_adds_up(tmp_path: Path) -> None:
    docs = _mixed_folder(tmp_path)
    store = Store.open(tmp_path / "db.lance")
    report = ingest(
        docs, store, reader=Reader(allow_private_urls=True), options=IngestOptions(workers=1)
    )
    assert report.inputs == 4
    assert report.files_read + report.files_skipped + report.files_failed == report.inputs
    assert (report.files_read, report.files_failed) == (3, 1)
    assert report.failed_by_error == {"corrupt": 1}
    assert report.parts_failed_by_error == {"empty": 1, "fetch_failed": 1}
    assert (report.files_partial, report.parts_failed, report.files_to_retry) == (2, 2, 1)
    text = report.summary()
    assert "4 inputs: 3 read (2 with 2 parts not read: empty: 1, fetch_failed: 1)" in text
    assert "1 failed (corrupt: 1)" in text and "run the same command again" in text


def test_a_rerun_reads_only_what_failed_transiently(tmp_path: Path) -> None:
    docs = _mixed_folder(tmp_path)
    store = Store.open(tmp_path / "db.lance")
    reader = Reader(allow_private_urls=True)
    ingest(docs, store, reader=reader, options=IngestOptions(workers=1))
    again = ingest(docs, store, reader=reader, options=IngestOptions(workers=1))
    # good.md, broken.pdf (corrupt for good) and bundle.zip (one empty member) are done;
    # only the chat whose picture could not be fetched is read again.
    assert (again.files_skipped, again.files_read, again.files_failed) == (3, 1, 0)
    assert again.items_inserted == 0 and again.items_deleted == 0
    recorded = store.ledger(scope="//fast", settings=_settings(store, reader)).failures()
    assert {Path(p).name: [f.error for f in fs] for p, fs in recorded.items()} == {
        "broken.pdf": ["corrupt"],
        "bundle.zip": ["empty"],
    }


def _settings(store: Store, reader: Reader) -> str:
    from omnireader.batch.ingest import settings_key

    return settings_key(reader.context(None, "fast"), store.embedder.name)


def test_sync_removes_the_items_of_deleted_files_but_not_bytes_another_path_holds(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "x.md").write_text("The Bergen warehouse opens in June.")
    (docs / "sub" / "x.txt").write_text("The Bergen warehouse opens in June.")  # same bytes
    (docs / "other.md").write_text("Tromsø stays closed.")
    store = Store.open(tmp_path / "db.lance")
    ingest(docs, store, options=IngestOptions(workers=1))
    assert store.count() == 2

    (docs / "x.md").unlink()
    report = ingest(docs, store, options=IngestOptions(workers=1, sync=True))
    assert report.files_removed == 1 and report.items_deleted == 0
    [shared] = store.iter_items({"path": str(docs / "sub" / "x.txt")})
    assert shared.source.path == str(docs / "sub" / "x.txt")
    assert store.count({"path": str(docs / "x.md")}) == 0

    (docs / "sub" / "x.txt").unlink()
    report = ingest(docs, store, options=IngestOptions(workers=1, sync=True))
    assert (report.files_removed, report.items_deleted) == (1, 1)
    assert [i.memory for i in store.iter_items()] == ["Tromsø stays closed."]

    # A file that comes back is read again: sync forgot it in the ledger.
    (docs / "x.md").write_text("The Bergen warehouse opens in June.")
    assert ingest(docs, store, options=IngestOptions(workers=1)).items_inserted == 1


def test_without_sync_deleted_files_keep_their_items(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("Kept until asked.")
    store = Store.open(tmp_path / "db.lance")
    ingest(docs, store, options=IngestOptions(workers=1))
    (docs / "a.md").unlink()
    ingest(docs, store, options=IngestOptions(workers=1))
    assert store.count() == 1


def test_items_without_a_time_of_their_own_get_the_file_mtime(tmp_path: Path) -> None:
    note = tmp_path / "note.md"
    note.write_text("# Standup\n\nNothing dated here.")
    os.utime(note, (1_700_000_000, 1_700_000_000))  # 2023-11-14T22:13:20Z
    [item] = Reader().read(note)
    assert item.metadata.timestamp == "2023-11-14T22:13:20+00:00"
    assert item.metadata.time_source == "mtime"
    store = Store.open(tmp_path / "db.lance")
    store.add([item])
    assert store.count({"since": "2023-11-14", "until": "2023-11-14"}) == 1
    # An item with its own time keeps it, unmarked.
    [said] = Reader().read([{"role": "user", "content": "hi", "chat_time": "2024-01-02T03:04:05"}])
    assert said.metadata.time_source is None

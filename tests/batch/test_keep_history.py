"""--keep-history: a changed file's old items are archived (update_type source_changed), so
"what did the contract say before?" has an answer; --sync still deletes a removed file, past
versions included; without the option the old items are deleted as before."""

from __future__ import annotations

import os
from pathlib import Path

from omnireader import IngestOptions, Store, ingest


def _contract(folder: Path, days: int, mtime: int) -> Path:
    path = folder / "contract.md"
    path.write_text(
        "# Lease\n\nThe tenant may cancel with "
        f"{days} days notice.\n\nRent is due on the first day of each month."
    )
    os.utime(path, (mtime, mtime))
    return path


def _texts(results: list) -> str:
    return " ".join(r.item.memory for r in results)


def test_a_changed_file_keeps_its_old_items_in_history(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    store = Store.open(tmp_path / "db.lance")
    keep = IngestOptions(workers=1, keep_history=True)
    _contract(docs, 30, 1_700_000_000)
    assert ingest(docs, store, options=keep).items_inserted >= 1
    first = {i.id: i for i in store.iter_items()}

    _contract(docs, 90, 1_700_100_000)
    report = ingest(docs, store, options=keep)
    assert report.items_archived == len(first) and report.items_deleted == 0
    assert "archived (kept in history)" in report.summary()
    assert "30 days" not in _texts(store.search("cancel notice days", k=5))
    assert "90 days" in _texts(store.search("cancel notice days", k=5))

    before = [
        r.item
        for r in store.search("cancel notice days", k=5, include_archived=True)
        if r.item.metadata.status == "archived"
    ]
    assert before and "30 days" in before[0].memory
    assert before[0].metadata.update_type == "source_changed"
    assert before[0].metadata.superseded_at is not None
    old_id = next(iter(first))
    assert [h.metadata.update_type for h in store.history(old_id)] == ["source_changed"]

    # --sync: the user deleted the file, so its past goes too
    (docs / "contract.md").unlink()
    report = ingest(docs, store, options=IngestOptions(workers=1, sync=True, keep_history=True))
    assert report.files_removed == 1 and store.count() == 0
    assert store.history(old_id) == []
    assert store.search("cancel notice", k=5, include_archived=True) == []


def test_without_the_option_old_items_are_deleted(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    store = Store.open(tmp_path / "db.lance")
    _contract(docs, 30, 1_700_000_000)
    ingest(docs, store, options=IngestOptions(workers=1))
    old_id = next(iter(store.iter_items())).id
    _contract(docs, 90, 1_700_100_000)
    report = ingest(docs, store, options=IngestOptions(workers=1))
    assert report.items_deleted >= 1 and report.items_archived == 0
    assert store.history(old_id) == []
    assert "30 days" not in _texts(store.search("cancel notice", k=5, include_archived=True))

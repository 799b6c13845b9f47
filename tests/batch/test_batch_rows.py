"""Workers that hand the writer Arrow rows (several workers) store the same items as the
writer building rows from items (one worker), locations merged the same way."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from omnireader import IngestOptions, Reader, Store, ingest
from omnireader.batch import local_engine as batch
from omnireader.models import MemoryItem
from omnireader.store.embed_text import row_texts

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "files"


def _folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in (
        "quarterly_report.pdf",
        "project_plan.docx",
        "team_notes.md",
        "chat_tokyo_trip.json",
        "sales.csv",
        "archive.zip",
        "会议纪要.txt",
    ):
        shutil.copy(SAMPLES / name, docs / name)
    # The same bytes at two more paths (one inside a folder): one item per content.
    (docs / "sub").mkdir()
    shutil.copy(SAMPLES / "team_notes.md", docs / "sub" / "copy.md")
    shutil.copy(SAMPLES / "quarterly_report.pdf", docs / "again.pdf")
    return docs


def _vectors(store: Store) -> dict[str, list[float]]:
    rows = store.table.search().select(["id", "vector"]).limit(None).to_list()
    return {r["id"]: r["vector"] for r in rows}


def _stored(store: Store) -> dict[str, MemoryItem]:
    """Items by id, without the times they were made at (two ingests, two clocks).

    An item seen at several paths keeps the source, key and file time of the copy that
    finished first, which with two workers is a matter of timing: for those, the set of
    paths is compared instead."""
    out = {}
    for item in store.iter_items():
        update: dict[str, object] = {"created_at": "", "updated_at": ""}
        if item.metadata.seen_at:
            update.update(
                seen_at=sorted(item.metadata.seen_at),
                sources=[],
                key=None,
                timestamp=None,
                time_source=None,
            )
        meta = item.metadata.model_copy(update=update)
        out[item.id] = item.model_copy(update={"metadata": meta})
    return out


@pytest.fixture(autouse=True)
def rows_in_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "ROWS_IN_WORKERS", True)


def test_rows_from_the_workers_store_what_items_did(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    one, two = Store.open(tmp_path / "one.lance"), Store.open(tmp_path / "two.lance")
    r1 = ingest(
        docs, one, reader=Reader(ocr="off"), options=IngestOptions(workers=1)
    )  # items to the writer
    r2 = ingest(
        docs, two, reader=Reader(ocr="off"), options=IngestOptions(workers=2, batch_size=8)
    )  # rows
    assert r1.files_read == r2.files_read == 9 and r1.files_failed == r2.files_failed == 0
    # (Updates depend on where the flushes fall: a copy in a later flush updates its item.)
    assert r2.items_inserted == r1.items_inserted == one.count() == two.count()
    assert (r2.pages_ocr, r2.pages_unreadable) == (r1.pages_ocr, r1.pages_unreadable)
    a, b = _stored(one), _stored(two)
    assert a == b
    # Identical content at two paths is one item that records both.
    copies = [i for i in b.values() if i.metadata.seen_at]
    assert copies and all(len(i.metadata.seen_at) == 2 for i in copies)
    assert {Path(p).name for i in copies for p in i.metadata.seen_at} >= {
        "team_notes.md",
        "copy.md",
        "quarterly_report.pdf",
        "again.pdf",
    }
    # The vectors agree too (the writer embeds for one worker, the workers for two). An item
    # at two paths is embedded under the file name of the copy it kept (its heading), which
    # with two workers is a matter of timing: its vector is the one its stored row gives.
    va, vb = _vectors(one), _vectors(two)
    assert va.keys() == vb.keys() == a.keys()
    assert all(va[k] == vb[k] for k in va if not a[k].metadata.seen_at)
    for store, vectors in ((one, va), (two, vb)):
        rows = store.table.to_arrow()
        again = store.embedder.embed(row_texts(rows, store.embedder))
        by_id = dict(zip(rows.column("id").to_pylist(), again.tolist(), strict=True))
        assert all(np.allclose(vectors[i.id], by_id[i.id], atol=1e-6) for i in copies)


def test_a_rerun_with_rows_adds_a_new_location_to_stored_items(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    store = Store.open(tmp_path / "s.lance")
    ingest(docs, store, reader=Reader(ocr="off"), options=IngestOptions(workers=2))
    before = store.count()
    shutil.copy(SAMPLES / "team_notes.md", docs / "third.md")
    report = ingest(docs, store, reader=Reader(ocr="off"), options=IngestOptions(workers=2))
    assert (report.files_read, report.files_skipped) == (1, 9)
    assert store.count() == before and report.items_inserted == 0
    notes = [i for i in store.iter_items(filters={"path": str(docs / "third.md")})]
    assert notes and all(len(i.metadata.seen_at) == 3 for i in notes)

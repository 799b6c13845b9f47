"""Items deleted, the folder ingested again: the files they came from are read again.

The ledger says which files were fully written; it is trusted for a file that gave items
only while the store still holds one at that path in that scope (user, session, mode), so
a ``delete`` by any filter, by id, or over HTTP never leaves a file skipped for good.
Files that gave nothing (empty, failed for good) stay skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from omnireader import IngestOptions, Reader, Store, ingest
from omnireader.batch.ingest import settings_key

ROOT = Path(__file__).resolve().parents[2]
OPTS = IngestOptions(workers=1, progress=False)
ACME = "The quarterly revenue of Acme rose by ten percent in March.\n"
BOB = "Bob went to Paris in April.\n"


def _folder(tmp_path: Path) -> Path:
    docs = tmp_path / "in"
    docs.mkdir()
    (docs / "a.txt").write_text(ACME)
    (docs / "b.txt").write_text(BOB)
    (docs / "empty.txt").write_bytes(b"")  # gives nothing, says why: stays skipped
    return docs


def _paths(store: Store, **filters: str) -> list[str]:
    """Every path the items (matching ``filters``) were seen at."""
    items = list(store.iter_items(filters or None))
    return sorted({i.source.path for i in items} | {p for i in items for p in i.metadata.seen_at})


def test_the_cli_reads_a_deleted_file_again(tmp_path: Path) -> None:
    _folder(tmp_path)  # in/ beside the store, named relatively as a user would
    db = tmp_path / "db"
    env = {**os.environ, "OMNIREADER_WARM": "0", "PYTHONPATH": str(ROOT)}

    def omni(*args: str) -> str:
        run = subprocess.run(
            [sys.executable, "-m", "omnireader", *args, "--db", str(db)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            encoding="utf-8",
        )
        assert "Traceback" not in run.stderr, run.stderr
        return run.stdout + run.stderr

    assert "2 read" in omni("ingest", "in", "--no-progress")  # and empty.txt failed
    assert "deleted 1 item" in omni("delete", "--path", "in/a.txt")
    # Before: "0 read, 3 skipped (unchanged)" - a.txt was never stored again.
    assert "1 read, 2 skipped" in omni("ingest", "in", "--no-progress")
    assert "quarterly revenue" in omni("search", "Acme revenue", "--path", "in/a.txt")
    assert "0 read, 3 skipped" in omni("ingest", "in", "--no-progress")


def test_a_delete_by_user_rereads_that_users_files_only(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    store = Store.open(tmp_path / "db")
    for user in ("u1", "u2"):
        assert ingest([docs], store, info={"user_id": user}, options=OPTS).files_read == 2
    assert store.delete(filters={"user_id": "u1"}) == 2
    again = ingest([docs], store, info={"user_id": "u1"}, options=OPTS)
    assert (again.files_read, again.files_skipped) == (2, 1)  # empty.txt stays skipped
    other = ingest([docs], store, info={"user_id": "u2"}, options=OPTS)
    assert (other.files_read, other.files_skipped) == (0, 3)  # u2 lost nothing
    assert len(_paths(store, user_id="u1")) == len(_paths(store, user_id="u2")) == 2


def test_a_delete_by_id_or_type_rereads_the_emptied_file(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    store = Store.open(tmp_path / "db")
    ingest([docs], store, options=OPTS)
    [acme] = [i.id for i in store.iter_items() if "Acme" in i.memory]
    assert store.delete(ids=[acme]) == 1
    again = ingest([docs], store, options=OPTS)
    assert (again.files_read, again.files_skipped) == (1, 2)
    assert store.delete(filters={"memory_type": "LongTermMemory"}) == 2
    assert ingest([docs], store, options=OPTS).files_read == 2


def test_a_path_taken_from_an_item_another_file_holds_is_read_again(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    (docs / "copy.txt").write_text(ACME)  # the same bytes: one item seen at two paths
    store = Store.open(tmp_path / "db")
    ingest([docs], store, options=OPTS)
    a, copy = str((docs / "a.txt").resolve()), str((docs / "copy.txt").resolve())
    report = store.delete_report(filters={"path": a})
    assert (report.deleted, report.updated) == (0, 1)  # the item stays, seen at copy.txt
    again = ingest([docs], store, options=OPTS)
    assert (again.files_read, again.files_skipped) == (1, 3)
    assert a in _paths(store) and copy in _paths(store)


def test_a_ledger_written_before_item_counts_is_kept_and_extended(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    store = Store.open(tmp_path / "db")
    ingest([docs], store, options=OPTS)
    store.db.open_table("files").drop_columns(["items"])  # as an older omnireader wrote it
    store = Store.open(tmp_path / "db")
    again = ingest([docs], store, options=OPTS)
    assert (again.files_read, again.files_skipped) == (0, 3)  # failed-for-good stays too
    store.delete(filters={"path": str((docs / "b.txt").resolve())})
    assert ingest([docs], store, options=OPTS).files_read == 1
    reader = Reader()
    ledger = store.ledger("//fast", settings_key(reader.context(None, "fast"), store.embedder.name))
    got = {Path(p).name: r.items for p, r in ledger.records().items()}
    assert got == {"a.txt": None, "b.txt": 1, "empty.txt": None}  # b.txt recorded anew


def test_force_and_an_unchanged_store_behave_as_before(tmp_path: Path) -> None:
    docs = _folder(tmp_path)
    store = Store.open(tmp_path / "db")
    ingest([docs], store, options=OPTS)
    assert ingest([docs], store, options=OPTS).files_skipped == 3
    forced = ingest([docs], store, options=IngestOptions(workers=1, progress=False, force=True))
    assert (forced.files_read, forced.files_failed) == (2, 1) and len(_paths(store)) == 2

"""A big file new to the store is handed to the writer in pieces of ``batch_size`` rows while
its worker builds the rest (``batch/job_parts.py``). The store ends up with the same rows as
when the file comes whole, and a worker that dies half way leaves none of the file's rows."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from omnireader import IngestOptions, Store, ingest
from omnireader.batch.file_task import parse_file
from omnireader.batch.job_parts import can_send_parts, send_part
from omnireader.parsers.base import ParseContext
from omnireader.store.locations import locations_of
from tests.plants import ROOT, plant_env

WORDS = (
    "river stone light harbour winter garden letter market bridge morning signal "
    "orchard lantern meadow copper valley thunder candle island whisper"
).split()


def _prose(path: Path, sentences: int, seed: int) -> Path:
    rng = random.Random(seed)
    lines = []
    for n in range(sentences):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18)))
        lines.append(words.capitalize() + "." + ("\n\n" if n % 7 == 6 else " "))
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    _prose(docs / "long.txt", 3000, seed=1)  # ~80 items: pieces at batch_size 16
    _prose(docs / "other.txt", 1500, seed=2)
    (docs / "copy.txt").write_bytes((docs / "long.txt").read_bytes())  # same items, 2 paths
    (docs / "note.md").write_text("# Note\n\nA short note beside the long texts.\n")
    return docs


def _rows(store: Store) -> dict[str, dict]:
    """Each stored row by id, without the times it was written at."""
    table = store.table.to_arrow().drop_columns(["created_at", "updated_at", "item_json"])
    return {r["id"]: r for r in table.to_pylist()}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_file_in_pieces_stores_the_rows_it_stores_whole(
    folder: Path, tmp_path: Path, workers: int
) -> None:
    whole, pieces = Store.open(tmp_path / "whole.lance"), Store.open(tmp_path / "pieces.lance")
    # batch_size above the files' item counts: each file comes whole, in one commit.
    r1 = ingest(folder, whole, options=IngestOptions(workers=workers, batch_size=100_000))
    v1 = pieces.table.version
    r2 = ingest(folder, pieces, options=IngestOptions(workers=workers, batch_size=16))
    long = [i for i in whole.iter_items() if str(folder / "long.txt") in locations_of(i)]
    assert len(long) > 4 * 16  # so the long texts did come in pieces...
    assert pieces.table.version - v1 > 3 * 4  # ...each piece its own commit
    assert (r2.files_read, r2.files_failed, r2.items_inserted) == (4, 0, pieces.count())
    assert (r1.files_read, r1.items_inserted) == (r2.files_read, r2.items_inserted)
    # Every column, vectors included (with one worker, it embeds every other piece).
    assert _rows(pieces) == _rows(whole)
    copies = [i for i in pieces.iter_items() if len(i.metadata.seen_at) == 2]
    assert len(copies) == len(long)  # long.txt and copy.txt: one item each, both paths


def test_a_file_the_store_holds_already_comes_whole(folder: Path, tmp_path: Path) -> None:
    # Its new rows replace the old version's in one commit, never half of them: the same
    # commits as when the batch holds more rows than the file has.
    commits = []
    for n, batch_size in enumerate((16, 100_000)):
        docs = tmp_path / f"copy{n}"
        docs.mkdir()
        for f in folder.iterdir():
            (docs / f.name).write_bytes(f.read_bytes())
        store = Store.open(tmp_path / f"s{n}.lance")
        ingest(docs, store, options=IngestOptions(workers=1, batch_size=100_000))
        long = docs / "long.txt"
        long.write_text(long.read_text() + " One more sentence at the end.")
        before = store.table.version
        report = ingest(docs, store, options=IngestOptions(workers=1, batch_size=batch_size))
        assert report.files_read == 1 and report.items_inserted > 4 * 16
        commits.append(store.table.version - before)
    assert commits[0] == commits[1]


def test_outside_a_pool_the_file_comes_whole(folder: Path, tmp_path: Path) -> None:
    # A Ray task (or any caller) runs parse_file in its own process: no pieces there.
    assert not can_send_parts()
    with pytest.raises(RuntimeError, match="WorkerPool"):
        send_part({"rows": b""})
    store = Store.open(tmp_path / "s.lance")
    from omnireader.batch.local_engine import pieces_of

    got = parse_file(
        path=str(folder / "long.txt"),
        ctx=ParseContext().model_dump(exclude={"refiner"}),
        embedder=None,
        pieces=pieces_of(store, 16, share=True),
    )
    assert "pieces" not in got and len(got["items"]) > 16


_INGEST = """
import json, sys
from omnireader import IngestOptions, Store, ingest
r = ingest([sys.argv[1]], Store.open(sys.argv[2]), options=IngestOptions(workers=1, batch_size=16))
print(json.dumps(r.model_dump(mode="json")))
"""


def _run(folder: Path, db: Path, env: dict[str, str] | None = None) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _INGEST, str(folder), str(db)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_a_worker_dying_half_way_through_a_file_leaves_none_of_its_rows(
    folder: Path, tmp_path: Path
) -> None:
    db = tmp_path / "s.lance"
    # The worker is killed right after the first piece of long.txt was sent (and written).
    report = _run(folder, db, plant_env("worker_dies_midfile", file="long"))
    assert report["files_failed"] == 1 and report["files_to_retry"] == 1
    assert report["failures"][0]["error"] == "crashed"
    assert Path(report["failures"][0]["input"]).name == "long.txt"
    store = Store.open(db)
    paths = {Path(p).name for i in store.iter_items() for p in locations_of(i)}
    assert paths == {"copy.txt", "other.txt", "note.md"}  # nothing of long.txt
    assert report["items_inserted"] == store.count()
    # Not recorded: the next run reads long.txt (only), and whole or in pieces the store
    # then holds what an ingest without the failure holds.
    again = _run(folder, db)
    assert (again["files_read"], again["files_skipped"], again["files_failed"]) == (1, 3, 0)
    clean = Store.open(tmp_path / "clean.lance")
    _run(folder, clean.path)
    assert _rows(store) == _rows(clean)


def test_a_file_failing_half_way_through_its_pieces_leaves_none_of_its_rows(
    folder: Path, tmp_path: Path
) -> None:
    # other.txt's chunk 35 fails to read, in its third piece of 16 items: the first two
    # were made, sent and written by then (parsers/doc_pieces.py). The read fails as a
    # whole read fails, and the ingest takes those pieces back. (Passes on the base too,
    # where nothing was sent yet.)
    db = tmp_path / "s.lance"
    report = _run(folder, db, plant_env("parse_fails_midfile", file="other", chunk=35))
    assert (report["files_read"], report["files_failed"]) == (3, 1)
    [failure] = report["failures"]
    assert failure["error"] == "corrupt" and "planted" in failure["message"]
    assert Path(failure["input"]).name == "other.txt"
    store = Store.open(db)
    assert report["items_inserted"] == store.count()
    # Exactly what a clean ingest of the other three files stores.
    (folder / "other.txt").rename(tmp_path / "other.txt")
    clean = Store.open(tmp_path / "clean.lance")
    _run(folder, clean.path)
    assert _rows(store) == _rows(clean)


def _all_columns(store: Store) -> dict[str, dict]:
    """:func:`_rows` with ``item_json`` too, read back without the times it was written at."""
    table = store.table.to_arrow().drop_columns(["created_at", "updated_at"])
    out = {}
    for row in table.to_pylist():
        whole = json.loads(row.pop("item_json"))
        whole["metadata"].pop("created_at", None)
        whole["metadata"].pop("updated_at", None)
        out[row["id"]] = {**row, "item_json": whole}
    return out


def test_a_file_failing_half_way_leaves_its_byte_copy_as_a_clean_ingest_stores_it(
    folder: Path, tmp_path: Path
) -> None:
    # also.txt (read first) holds other.txt's bytes: other.txt's first pieces rewrite the
    # items they share, with both paths. Taking other.txt back must leave them as also.txt
    # alone writes them, in every column: its name, not other.txt's, as key and search text.
    (folder / "also.txt").write_bytes((folder / "other.txt").read_bytes())
    db = tmp_path / "s.lance"
    report = _run(folder, db, plant_env("parse_fails_midfile", file="other", chunk=35))
    assert (report["files_read"], report["files_failed"]) == (4, 1)
    store = Store.open(db)
    shared = [i for i in store.iter_items() if Path(locations_of(i)[0]).name == "also.txt"]
    assert len(shared) > 2 * 16
    (folder / "other.txt").rename(tmp_path / "other.txt")
    clean = Store.open(tmp_path / "clean.lance")
    _run(folder, clean.path)
    assert _all_columns(store) == _all_columns(clean)

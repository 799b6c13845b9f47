"""A file whose name is not UTF-8 (Linux bytes like ``caf\\xe9.txt``) never stops a batch.

Python gives such a name with a lone surrogate (``caf\\udce9.txt``) that LanceDB, Arrow and
JSON refuse. The batch reports it under ``bad_file_name`` (named with ``\\xNN``, saying to
rename it), reads the rest, and every query naming it matches nothing instead of failing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from omnireader import IngestOptions, Reader, Store, ingest
from omnireader.file_names import is_utf8, shown_path

ROOT = Path(__file__).resolve().parents[2]
BAD = b"caf\xe9.txt"  # latin-1 bytes: not UTF-8


def _folder(tmp_path: Path) -> tuple[Path, str]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ok.txt").write_text("The Lisbon release ships in May.")
    try:
        with open(os.fsencode(docs) + b"/" + BAD, "wb") as f:
            f.write(b"The cafe budget is ten thousand euros.")
    except (OSError, UnicodeError):  # a file system that takes UTF-8 names only
        pytest.skip("this file system refuses names that are not UTF-8")
    bad = os.fsdecode(os.fsencode(docs.resolve()) + b"/" + BAD)
    return docs, bad


def test_shown_path_writes_the_bytes_that_are_not_utf8_as_escapes() -> None:
    assert shown_path(os.fsdecode(b"/d/" + BAD)) == "/d/caf\\xe9.txt"
    assert shown_path("/d/café.txt") == "/d/café.txt"
    assert shown_path("/d/x\ud800") == "/d/x\\ud800"  # a surrogate no file name gave
    assert not is_utf8(os.fsdecode(BAD)) and is_utf8("café")


def test_the_batch_reports_the_file_and_reads_the_rest_and_a_rerun_skips(tmp_path: Path) -> None:
    docs, bad = _folder(tmp_path)
    store = Store.open(tmp_path / "db.lance")
    report = ingest(docs, store, options=IngestOptions(workers=1, progress=False))
    assert (report.inputs, report.files_read, report.files_failed) == (2, 1, 1)
    assert report.failed_by_error == {"bad_file_name": 1}
    failure = report.failures[0]
    assert failure.input == shown_path(bad) and failure.input.endswith("caf\\xe9.txt")
    assert "rename it to UTF-8" in failure.message and "convmv" in failure.message
    assert "bad_file_name: 1" in report.summary()
    hits = store.search("Lisbon release", k=3)
    assert hits and hits[0].item.source.path == str((docs / "ok.txt").resolve())
    assert store.count() == 1  # nothing of the bad file was half-written

    again = ingest(docs, store, options=IngestOptions(workers=1, progress=False, sync=True))
    assert (again.files_skipped, again.files_failed, again.items_deleted) == (1, 1, 0)
    assert again.failed_by_error == {"bad_file_name": 1}
    assert store.count() == 1


def test_the_cli_ingest_sync_delete_and_search_name_the_file_without_a_traceback(
    tmp_path: Path,
) -> None:
    docs, bad = _folder(tmp_path)
    db = tmp_path / "db.lance"
    env = {**os.environ, "OMNIREADER_WARM": "0", "PYTHONPATH": str(ROOT)}

    def omni(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "omnireader", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
        )

    for _ in range(2):  # the second run skips ok.txt and reports the bad name again
        run = omni("ingest", str(docs), "--db", str(db), "--sync", "--no-progress")
        assert "Traceback" not in run.stderr, run.stderr
        assert run.returncode == 1 and "[bad_file_name]" in run.stderr
        assert "caf\\xe9.txt" in run.stderr and "rename it to UTF-8" in run.stderr
    assert "1 skipped" in run.stdout + run.stderr
    # The file given by its real path: reported, never a traceback.
    alone = omni("ingest", bad, "--db", str(db), "--no-progress")
    assert "Traceback" not in alone.stderr and "[bad_file_name]" in alone.stderr
    # A query naming it matches nothing (the store holds no such name) instead of failing.
    found = omni("search", "cafe budget", "--db", str(db), "--path", bad)
    assert found.returncode == 0 and "Traceback" not in found.stderr, found.stderr
    gone = omni("delete", "--db", str(db), "--path", bad)
    assert gone.returncode == 0 and "deleted 0 items" in gone.stdout + gone.stderr, gone.stderr
    assert Store.open(db).count() == 1  # ok.txt stays


def test_reader_reads_such_a_file_by_its_path(tmp_path: Path) -> None:
    _, bad = _folder(tmp_path)
    items = Reader().read(bad)
    assert [i.memory for i in items] == ["The cafe budget is ten thousand euros."]

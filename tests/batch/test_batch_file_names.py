"""A file whose name is not UTF-8 (Linux bytes like ``caf\\xe9.txt``) is read and stored
like any other, under its shown form: those bytes written ``\\xNN``.

Python gives such a name with a lone surrogate (``caf\\udce9.txt``) that LanceDB, Arrow and
JSON refuse. Its items, the ledger, reports and queries all use the shown form; ``--sync``
finds the file again by comparing its folder's names, shown, with the stored one. Only a
name whose shown form is another file's name too cannot be stored (``bad_file_name``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from omnireader import IngestOptions, Reader, Store, ingest
from omnireader.file_names import disk_path, is_utf8, shown_path

ROOT = Path(__file__).resolve().parents[2]
BAD = b"caf\xe9.txt"  # latin-1 bytes: not UTF-8
SHOWN = "caf\\xe9.txt"  # its shown form: a backslash, an x, two hex digits
OPTS = IngestOptions(workers=1, progress=False)
SYNC = IngestOptions(workers=1, progress=False, sync=True)


def _write(folder: Path, name: bytes, data: bytes) -> str:
    """Write ``folder/name`` by its bytes; its path as Python names it (surrogates)."""
    raw = os.fsencode(folder.resolve()) + b"/" + name
    try:
        with open(raw, "wb") as f:
            f.write(data)
    except (OSError, UnicodeError):  # a file system that takes UTF-8 names only
        pytest.skip("this file system refuses names that are not UTF-8")
    return os.fsdecode(raw)


def _folder(tmp_path: Path) -> tuple[Path, str]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ok.txt").write_text("The Lisbon release ships in May.")
    bad = _write(docs, BAD, b"The cafe budget is ten thousand euros.")
    return docs, bad


def _paths(store: Store) -> dict[str, str]:
    """stored path -> text of every item."""
    return {i.source.path or "": i.memory for i in store.iter_items()}


def test_shown_path_writes_the_bytes_that_are_not_utf8_as_escapes() -> None:
    assert shown_path(os.fsdecode(b"/d/" + BAD)) == "/d/" + SHOWN
    assert shown_path("/d/café.txt") == "/d/café.txt"
    assert shown_path("/d/x\ud800") == "/d/x\\ud800"  # a surrogate no file name gave
    assert not is_utf8(os.fsdecode(BAD)) and is_utf8("café")


def test_the_file_is_stored_under_its_shown_name_and_sync_follows_it(tmp_path: Path) -> None:
    docs, bad = _folder(tmp_path)
    shown = str(docs.resolve() / SHOWN)
    store = Store.open(tmp_path / "db.lance")
    report = ingest(docs, store, options=OPTS)
    assert (report.inputs, report.files_read, report.files_failed) == (2, 2, 0)
    assert report.failures == [] and report.items_inserted == 2
    [hit] = [h for h in store.search("cafe budget", k=2) if "cafe" in h.item.memory]
    item = hit.item
    assert (item.source.path, item.source.filename, item.metadata.key) == (shown, SHOWN, SHOWN)
    assert item.metadata.seen_at in ([], [shown])
    as_json = item.model_dump_json()
    assert "\ufffd" not in as_json and "caf\\\\xe9.txt" in as_json  # JSON escapes the \\
    assert store.count({"path": shown}) == store.count({"path": bad}) == 1

    again = ingest(docs, store, options=SYNC)  # unchanged (the ledger knows it): skipped
    assert (again.files_skipped, again.files_read, again.items_deleted) == (2, 0, 0)

    with open(os.fsencode(bad), "ab") as f:
        f.write(b" The bakery gets the rest.")
    changed = ingest(docs, store, options=SYNC)  # changed: read again, the old item goes
    assert (changed.files_read, changed.files_skipped) == (1, 1)
    assert _paths(store)[shown].endswith("The bakery gets the rest.")
    assert store.count() == 2

    os.unlink(os.fsencode(bad))
    gone = ingest(docs, store, options=SYNC)  # gone: its items go
    assert (gone.files_removed, gone.items_deleted) == (1, 1)
    assert list(_paths(store)) == [str((docs / "ok.txt").resolve())]


def test_a_folder_named_in_latin1_is_synced_by_its_own_path(tmp_path: Path) -> None:
    folder = os.fsdecode(os.fsencode(tmp_path.resolve()) + b"/dossi\xe9r")
    os.mkdir(folder)
    _write(Path(folder), b"notes.txt", b"Ruff and reeve in the marsh.")
    _write(Path(folder), b"r\xe9sum\xe9.txt", b"Dunlin winter counts.")
    store = Store.open(tmp_path / "db.lance")
    first = ingest(Path(folder), store, options=SYNC)
    assert (first.files_read, first.failures) == (2, [])
    base = str(tmp_path.resolve() / "dossi\\xe9r")
    assert sorted(_paths(store)) == [f"{base}/notes.txt", f"{base}/r\\xe9sum\\xe9.txt"]
    assert ingest(Path(folder), store, options=SYNC).files_skipped == 2
    os.unlink(os.fsencode(folder) + b"/r\xe9sum\xe9.txt")
    after = ingest(Path(folder), store, options=SYNC)
    assert (after.files_removed, sorted(_paths(store))) == (1, [f"{base}/notes.txt"])


def test_a_shown_name_that_is_another_file_s_name_too_is_reported(tmp_path: Path) -> None:
    """The clash: the shown name leads back to one file (a UTF-8 name that reads so
    literally, else the first in byte order); the other is reported, the batch goes on."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / SHOWN).write_text("The literal name holds the heron census.")  # UTF-8, a \\ in it
    latin = _write(docs, BAD, b"The latin name holds the egret census.")
    first = _write(docs, b"x\\xe9\xe9.txt", b"A backslash and a byte: the ibis census.")
    second = _write(docs, b"x\xe9\xe9.txt", b"Two bytes: the stork census.")
    assert shown_path(first) == shown_path(second) == str(docs.resolve() / "x\\xe9\\xe9.txt")
    store = Store.open(tmp_path / "db.lance")
    report = ingest(docs, store, options=OPTS)
    assert (report.files_read, report.files_failed) == (2, 2)
    assert report.failed_by_error == {"bad_file_name": 2}
    assert sorted(f.input for f in report.failures) == [shown_path(latin), shown_path(second)]
    assert "rename it to UTF-8" in report.failures[0].message
    assert sorted(_paths(store).values()) == [
        "A backslash and a byte: the ibis census.",
        "The literal name holds the heron census.",
    ]
    assert disk_path(shown_path(latin)) == str(docs.resolve() / SHOWN)
    assert disk_path(shown_path(second)) == first
    again = ingest(docs, store, options=SYNC)  # both stored files are there: nothing goes
    assert (again.files_skipped, again.items_deleted, store.count()) == (2, 0, 2)


def test_a_stored_item_leads_back_to_its_file(tmp_path: Path) -> None:
    """Fine mode and ``refine`` read a stored item's file again from its stored path."""
    from omnireader.options import ReadOptions
    from omnireader.parsers.base import ParseContext
    from omnireader.parsers.file import FileParser
    from omnireader.refine.media_kinds import source_bytes

    _, bad = _folder(tmp_path)
    [item] = Reader().read(bad)
    assert item.source.path == shown_path(bad) and item.memory.startswith("The cafe budget")
    assert source_bytes(item, None, ReadOptions()).startswith(b"The cafe budget")
    parser = FileParser()
    [again] = parser.parse_fast(parser.rebuild_from_source(item.source), ParseContext())
    assert (again.id, again.memory) == (item.id, item.memory)
    assert again.source.path == bad  # the file itself (a read's items show it as \xNN)


def test_fine_mode_sends_the_shown_name_to_the_llm_and_stores_its_memories(
    tmp_path: Path,
) -> None:
    """The LLM request is JSON: the fast items it is built from name the file with \\xNN
    (a surrogate made the client fail before sending: left fast, ``bad_response``)."""
    from tests.refine.conftest import build_backend
    from tests.support.llm_server import LLMServer

    docs, _ = _folder(tmp_path)
    store = Store.open(tmp_path / "db.lance")
    with LLMServer() as srv:
        reader = Reader(llm=build_backend("openai", srv))
        report = ingest(docs, store, reader=reader, mode="fine", options=OPTS)
        sent = [str(r.json) for r in srv.requests_to("chat")]
    assert report.ok and report.refine_failed == 0, report.refine_reasons
    assert len(sent) == 2 and any(SHOWN.replace("\\", "\\\\") in s for s in sent)
    shown = str(docs.resolve() / SHOWN)
    fine = [i for i in store.iter_items({"mode": "fine"}) if i.source.path == shown]
    assert fine and all(i.metadata.refined_from for i in fine)


def test_the_cli_reads_stores_searches_and_deletes_it_by_either_name(tmp_path: Path) -> None:
    docs, bad = _folder(tmp_path)
    shown = shown_path(bad)
    db = tmp_path / "db.lance"
    env = {**os.environ, "OMNIREADER_WARM": "0", "PYTHONPATH": str(ROOT)}

    def omni(*args: str) -> subprocess.CompletedProcess[str]:
        run = subprocess.run(
            [sys.executable, "-m", "omnireader", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            encoding="utf-8",
        )
        assert "Traceback" not in run.stderr and run.returncode == 0, run.stderr
        return run

    [read] = json.loads(omni("read", bad, "--format", "json", "--no-progress").stdout)["items"]
    assert read["metadata"]["sources"][0]["path"] == shown
    stored = omni("ingest", str(docs), "--db", str(db), "--sync", "--no-progress")
    assert "2 read" in stored.stdout + stored.stderr
    for name in (shown, bad):  # the shown form, or the real path as a shell gives it
        found = omni("search", "cafe budget", "--db", str(db), "--path", name)
        assert found.stdout.count("── ") == 1 and f"· {shown}" in found.stdout
    again = omni("ingest", str(docs), "--db", str(db), "--sync", "--no-progress")
    assert "2 skipped" in again.stdout + again.stderr
    gone = omni("delete", "--db", str(db), "--path", bad)
    assert "deleted 1 item" in gone.stdout + gone.stderr
    assert [i.source.path for i in Store.open(db).iter_items()] == [
        str((docs / "ok.txt").resolve())
    ]

"""A file's items deleted over HTTP (``DELETE /v1/items?path=``): the next ingest of its
folder reads it again (the ledger alone no longer keeps it skipped)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from omnireader import IngestOptions, Store, ingest

from .conftest import ALICE, KEYS, Running

OPTS = IngestOptions(workers=1, progress=False)


def test_a_file_deleted_over_http_is_read_again(
    tmp_path: Path, serve: Callable[..., Running]
) -> None:
    docs = tmp_path / "in"
    docs.mkdir()
    (docs / "a.txt").write_text("The quarterly revenue of Acme rose by ten percent in March.\n")
    (docs / "b.txt").write_text("Bob went to Paris in April.\n")
    db = tmp_path / "db.lance"
    alice = {"user_id": "alice"}  # the user the server's key alice-key-0001 stands for
    assert ingest([docs], Store.open(db), info=alice, options=OPTS).files_read == 2
    running = serve("db", keys=KEYS)
    with running.client(ALICE) as c:
        r = c.delete("/v1/items", params={"path": str((docs / "a.txt").resolve())})
        assert r.status_code == 200 and r.json()["deleted"] == 1, r.text
    store = Store.open(db)
    again = ingest([docs], store, info=alice, options=OPTS)
    assert (again.files_read, again.files_skipped) == (1, 1)  # before: (0, 2), a.txt lost
    assert any("Acme" in i.memory for i in store.iter_items({"user_id": "alice"}))

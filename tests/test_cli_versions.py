"""The version commands end to end: a note changes, `update` keeps the old text in `history`,
`search --include-archived` finds it, `rollback` brings it back, `archive` takes it away."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli_contract import one_error_line, run


def test_update_history_rollback_archive(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    note = tmp_path / "home.txt"
    note.write_text("Alice lives in Paris, rue Oberkampf.")
    db = tmp_path / "db.lance"
    assert run(capsys, "ingest", note, "--db", db, "--workers", "1", "-q")[0] == 0
    _, out, _ = run(capsys, "export", "--db", db)
    item_id = json.loads(out.splitlines()[0])["id"]

    code, out, _ = run(capsys, "update", item_id, "--db", db, "--memory", "Alice lives in Berlin.")
    assert code == 0 and "v2 (edit)" in out and "Berlin" in out
    code, out, _ = run(capsys, "history", item_id, "--db", db, "--format", "json")
    versions = json.loads(out)
    assert [(v["metadata"]["version"], v["metadata"]["status"]) for v in versions] == [
        (1, "archived"),
        (2, "activated"),
    ]
    _, out, _ = run(capsys, "search", "Oberkampf", "--db", db, "--format", "jsonl")
    assert "Oberkampf" not in out
    _, out, _ = run(capsys, "search", "Oberkampf", "--db", db, "--include-archived")
    assert "v1 archived" in out and "Oberkampf" in out

    code, out, _ = run(capsys, "rollback", item_id, "1", "--db", db)
    assert code == 0 and "v3 (rollback)" in out and "Oberkampf" in out
    code, out, _ = run(capsys, "archive", item_id, "--db", db, "--reason", "conflict")
    assert (code, out.strip()) == (0, "archived 1 item")
    _, out, _ = run(capsys, "export", "--db", db)
    assert out == ""

    code, _, err = run(capsys, "rollback", item_id, "9", "--db", db)
    assert code == 2 and "versions: 1, 2, 3" in one_error_line(err)
    code, _, err = run(capsys, "update", item_id, "--db", db)
    assert code == 2 and "--memory" in one_error_line(err)
    code, _, err = run(capsys, "update", item_id, "--db", db, "--metadata", "[1]")
    assert code == 2 and "JSON object" in one_error_line(err)

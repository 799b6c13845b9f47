"""The command line's contract: every bad value is one ``omnireader: error:`` line naming it,
never a traceback; exit 0 all good, 1 some inputs failed, 2 usage error; nothing is created
when nothing could be read."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from omnireader.cli.main import build_parser, main

ROOT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    """``omnireader ARGV`` in this process: (exit status, stdout, stderr). An exception that
    escapes main() (what a user would see as a traceback) fails the test here."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("omnireader: error:")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    (folder / "note.md").write_text("# Plan\n\nShip the Lisbon release in May.")
    path = folder / "db.lance"
    assert (
        main(
            [
                "ingest",
                str(folder / "note.md"),
                "--db",
                str(path),
                "--workers",
                "1",
                "--no-progress",
                "-q",
            ]
        )
        == 0
    )
    return path


# Values that are wrong for an option of each kind; every one must be a clean error.
BAD_BY_TYPE = {
    "whole number ≥ 0": ["-1", "abc", "1.5"],
    "whole number ≥ 1": ["0", "-3", "abc"],
    "whole number ≥ 16": ["5", "abc"],
    "whole number ≥ 64": ["1", "abc"],
    "positive_float": ["0", "-1", "soon"],
    "iso_time": ["yesterday", "2025-13-45", "2025-02-30T25:00"],
}
BAD_BY_OPTION = {
    "--db": ["README.md", "/proc/foo.lance"],
    "--llm": ["gpt-4o", "bogus:model", "ollama:"],
    "--vision-llm": ["llava"],
    "--speech-model": ["ollama:whisper"],
    "--embedder": ["bogus:model", "word2vec"],
    "--output": ["/proc/nope/out.txt"],
    "--report": ["/proc/nope/report.json"],
    "--mode": ["slow"],
}


def _cases() -> list[tuple[str, str, str]]:
    ap = build_parser()
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    cases = []
    for command, parser in sub.choices.items():
        for action in parser._actions:
            flag = next((o for o in action.option_strings if o.startswith("--")), None)
            if flag is None or action.nargs == 0:
                continue  # positionals and switches take no value to get wrong
            name = getattr(action.type, "__name__", None)
            values = BAD_BY_OPTION.get(flag) or BAD_BY_TYPE.get(name or "", [])
            if action.choices:
                values = [*values, "Bogus"]
            cases += [(command, flag, v) for v in values]
    return cases


def _base(command: str, db: Path, tmp: Path) -> list[Any]:
    note = db.parent / "note.md"
    return {
        "read": ["read", note],
        "ingest": ["ingest", note, "--db", tmp / "new.lance", "--workers", "1"],
        "search": ["search", "Lisbon", "--db", db],
        "stats": ["stats", "--db", db],
        "export": ["export", "--db", db],
        "delete": ["delete", "--db", db, "--user", "nobody", "--dry-run"],
        "update": ["update", "nope", "--db", db, "--memory", "x"],
        "history": ["history", "nope", "--db", db],
        "archive": ["archive", "nope", "--db", db],
        "rollback": ["rollback", "nope", "1", "--db", db],
        "refine": ["refine", "--db", db],
        "reembed": ["reembed", "--db", db],
        "schema": ["schema"],
        "warm": ["warm", "status"],
        # Every bad value stops these before anything listens or reads standard input.
        "serve": ["serve", "--db", db, "--port", "0"],
        "mcp": ["mcp", "--db", db],
    }[command]


@pytest.mark.parametrize(("command", "flag", "value"), _cases())
def test_every_bad_value_of_every_option_is_one_error_line(
    capsys: pytest.CaptureFixture[str],
    db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: str,
    flag: str,
    value: str,
) -> None:
    monkeypatch.chdir(ROOT)  # README.md is a file there: a --db that is not a directory
    monkeypatch.delenv("OMNIREADER_LLM", raising=False)
    code, _, err = run(capsys, *_base(command, db, tmp_path), flag, value)
    line = one_error_line(err)
    # A usage error; a store that is not there is a run that cannot do its work (1).
    assert code == 2 or (code == 1 and "no store at" in line), (code, err)
    # The error names the option (or the value) it is about.
    assert flag in line or value in line or flag.lstrip("-") in line, line


def test_the_issue_cases_are_one_line_errors_in_a_real_process(tmp_path: Path) -> None:
    (tmp_path / "report.pdf").write_bytes(b"%PDF-1.4\n")
    cases = [
        (["search", "x", "--since", "yesterday"], "argument --since: not an ISO 8601"),
        (["search", "x", "--since", "2025-13-45"], "argument --since"),
        (["search", "x", "--type", "Bogus"], "choose from 'UserMemory'"),
        (["search", "x", "--db", "report.pdf"], "--db 'report.pdf' is a file"),
        (["ingest", "report.pdf", "--db", "/proc/foo.lance"], "--db '/proc/foo.lance': cannot"),
        (["ingest", "report.pdf", "--workers", "0"], "argument --workers: 0 is too small"),
        (["read", "report.pdf", "--chunk-tokens", "5"], "argument --chunk-tokens: 5 is too small"),
        (["refine", "--mode", "fine"], "refine does not take --mode"),
        (["read", "report.pdf", "--mode", "fast", "--llm", "ollama:x"], "--llm is for fine mode"),
    ]
    for argv, expected in cases:
        proc = subprocess.run(
            [sys.executable, "-m", "omnireader", *argv],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 2, (argv, proc.stderr)
        assert proc.stderr.startswith("omnireader: error: "), proc.stderr
        assert expected in proc.stderr and "Traceback" not in proc.stderr, (argv, proc.stderr)


def test_settings_from_the_environment_and_config_file_name_their_origin(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    db: Path,
) -> None:
    monkeypatch.chdir(tmp_path)
    note = db.parent / "note.md"
    monkeypatch.setenv("OMNIREADER_CONCURRENCY", "abc")
    code, _, err = run(capsys, "read", note, "--llm", "ollama:x")
    assert code == 2 and one_error_line(err) == (
        "omnireader: error: environment variable OMNIREADER_CONCURRENCY: invalid value 'abc': "
        "expected a whole number"
    )
    monkeypatch.delenv("OMNIREADER_CONCURRENCY")

    (tmp_path / "omnireader.toml").write_text('lm = "ollama:x"\n')
    code, _, err = run(capsys, "read", note, "--mode", "fine")
    assert code == 2 and "unknown setting 'lm' (did you mean 'llm'?)" in one_error_line(err)
    (tmp_path / "omnireader.toml").unlink()

    monkeypatch.setenv("OMNIREADER_DB", str(note))
    code, _, err = run(capsys, "stats")
    assert code == 2 and "environment variable OMNIREADER_DB" in one_error_line(err)


def test_an_embedder_mismatch_says_what_to_type(
    capsys: pytest.CaptureFixture[str], db: Path
) -> None:
    code, _, err = run(
        capsys,
        "ingest",
        db.parent / "note.md",
        "--db",
        db,
        "--embedder",
        "hashing-v1:512",
        "--workers",
        "1",
    )
    line = one_error_line(err)
    assert code == 2 and "--embedder static:potion-base-8m-letters" in line
    assert "embedder=" not in line


def test_exit_codes_follow_one_rule(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path
) -> None:
    note = db.parent / "note.md"
    missing = tmp_path / "missing.pdf"
    assert run(capsys, "read", note)[0] == 0
    assert run(capsys, "read", missing)[0] == 1
    assert run(capsys, "read", missing, note)[0] == 1  # some failed: the rest is printed
    assert run(capsys, "search", "nothing like this", "--db", db)[0] == 0
    assert run(capsys, "search", "x", "--db", tmp_path / "none.lance")[0] == 1
    assert run(capsys, "frobnicate")[0] == 2


def test_an_ingest_that_reads_nothing_creates_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "new.lance"
    code, out, err = run(capsys, "ingest", tmp_path / "nothere", "--db", store, "--no-progress")
    assert code == 1 and not store.exists()
    assert "1 input: 0 read, 0 skipped (unchanged), 1 failed" in out
    assert "no store was created" in out


def test_an_ingest_where_a_file_failed_exits_1_and_the_rest_is_stored(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "good.md").write_text("Kept.")
    (docs / "bad.pdf").write_bytes(b"%PDF-1.4\nnot really")
    store = tmp_path / "db.lance"
    code, out, _ = run(capsys, "ingest", docs, "--db", store, "--workers", "1", "-q")
    assert code == 1 and out == ""
    assert run(capsys, "stats", "--db", store, "--format", "json")[1].count('"items": 1') == 1


def test_output_formats_and_files(
    capsys: pytest.CaptureFixture[str], db: Path, sample_files: Path, tmp_path: Path
) -> None:
    pdf = sample_files / "quarterly_report.pdf"
    code, out, _ = run(capsys, "read", pdf, "--format", "markdown")
    assert code == 0 and out.startswith("Northwind Traders") and "\n\nOperations" in out
    code, out, _ = run(capsys, "read", pdf, "--format", "jsonl")
    assert [json.loads(line)["metadata"]["sources"][0]["page"] for line in out.splitlines()] == [
        1,
        2,
        3,
    ]
    target = tmp_path / "hits.jsonl"
    code, out, err = run(capsys, "search", "Lisbon", "--db", db, "--format", "jsonl", "-o", target)
    assert code == 0 and out == ""
    [hit] = [json.loads(line) for line in target.read_text().splitlines()]
    assert set(hit) >= {"score", "item", "view", "ranks"}
    code, out, err = run(capsys, "export", "--db", db, "-o", tmp_path / "all.jsonl", "-q")
    assert code == 0 and err == "" and len((tmp_path / "all.jsonl").read_text().splitlines()) == 1
    code, out, _ = run(capsys, "stats", "--db", db)
    assert "items" in out and "{" not in out and "by mode" in out
    code, out, err = run(capsys, "read", pdf, "-q", "--format", "jsonl")
    assert err == ""


def test_schema_prints_the_output_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema")
    schemas = json.loads(out)
    assert code == 0 and set(schemas) == {
        "MemoryItem",
        "SearchResult",
        "ReadFailure",
        "IngestReport",
    }
    assert "memory" in schemas["MemoryItem"]["properties"]
    assert "score" in schemas["SearchResult"]["properties"]


def test_delete_needs_a_filter_and_a_dry_run_changes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("Same bytes.")
    (docs / "b.md").write_text("Same bytes.")
    (docs / "c.md").write_text("Other bytes.")
    store = tmp_path / "db.lance"
    run(capsys, "ingest", docs, "--db", store, "--workers", "1", "-q")
    code, _, err = run(capsys, "delete", "--db", store)
    assert code == 2 and "at least one filter" in one_error_line(err)
    code, out, _ = run(capsys, "delete", "--db", store, "--path", docs / "a.md", "--dry-run")
    assert code == 0 and out.startswith("would delete 0 items; would keep 1 item")
    code, out, _ = run(capsys, "delete", "--db", store, "--path", docs / "a.md")
    assert out.startswith("deleted 0 items; kept 1 item")
    code, out, _ = run(
        capsys, "search", "bytes", "--db", store, "--path", docs / "a.md", "--format", "json"
    )
    assert json.loads(out) == []
    code, out, _ = run(capsys, "delete", "--db", store, "--path", docs)
    assert out.startswith("deleted 2 items")


def test_read_takes_standard_input_and_urls(sample_files: Path, tmp_path: Path) -> None:
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    pdf = (sample_files / "quarterly_report.pdf").read_bytes()
    for name in ("-", "/dev/stdin"):
        proc = subprocess.run(
            [sys.executable, "-m", "omnireader", "read", name, "--format", "jsonl"],
            input=pdf,
            capture_output=True,
            cwd=ROOT,
        )
        assert proc.returncode == 0, proc.stderr
        pages = [
            json.loads(line)["metadata"]["sources"][0]["page"] for line in proc.stdout.splitlines()
        ]
        assert pages == [1, 2, 3]

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    srv = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(sample_files))
    )
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{srv.server_address[1]}/quarterly_report.pdf"
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "omnireader",
                "read",
                url,
                "--format",
                "json",
                "--allow-private-urls",
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert proc.returncode == 0, proc.stderr
        items = json.loads(proc.stdout)["items"]
        assert [i["metadata"]["sources"][0]["url"] for i in items] == [url] * 3
        blocked = subprocess.run(
            [sys.executable, "-m", "omnireader", "read", url],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert blocked.returncode == 1 and "[blocked_url]" in blocked.stderr
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize("command", ["read", "search", "stats", "export", "delete", "schema"])
def test_every_command_takes_quiet_verbose_and_no_progress(
    capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path, command: str
) -> None:
    base = _base(command, db, tmp_path)
    for extra in (["-q"], ["-v"], ["--no-progress"]):
        code, _, err = run(capsys, *base, *extra)
        assert code == 0, (extra, err)
        if extra == ["-q"]:
            assert err == ""


def test_markdown_output_writes_a_split_table_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A table longer than a chunk is stored in pieces, each repeating the caption and the
    # header row; the document's Markdown puts the pieces back as the one table it was.
    rows = [
        f"| item {n} | {n * 7} | warehouse {n % 5} in the northern region |" for n in range(400)
    ]
    source = "Stock by item\n\n| Item | Count | Where |\n| --- | --- | --- |\n" + "\n".join(rows)
    path = tmp_path / "stock.md"
    path.write_text(source + "\n")
    code, out, _ = run(capsys, "read", path, "--format", "markdown")
    assert code == 0
    assert out.count("| Item | Count | Where |") == 1 and out.count("Stock by item") == 1
    assert [line for line in out.splitlines() if line.startswith("| item")] == rows


def test_markdown_output_keeps_the_blank_line_between_chunks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A PDF page of two tables, each big enough to be a chunk of its own: the blank line
    # between them is in neither chunk's span, and without it the second table's header
    # would read as rows of the first.
    from tests.formats.test_layout_tables import grid_cells, pdf, text

    body = ""
    for top, name in ((60, "Alpha"), (420, "Beta")):
        ys = [top + 16 * k for k in range(21)]
        body += grid_cells([72, 250, 420], ys)
        body += text(76, ys[0] + 12, f"{name} item") + text(254, ys[0] + 12, "Notes on the item")
        for r in range(1, 20):
            body += text(76, ys[r] + 12, f"{name} {r} of the stock")
            body += text(254, ys[r] + 12, f"kept in hall {r} by the east door")
    path = tmp_path / "two.pdf"
    path.write_bytes(pdf(body))
    code, out, _ = run(capsys, "read", path, "--format", "markdown")
    assert code == 0
    assert "| Alpha 19 of the stock | kept in hall 19 by the east door |\n\n| Beta item |" in out

"""The command line, run as users run it: a real process, real files, a real store."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def omni(*args: object, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "omnireader", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.lower())


def test_help_lists_every_command_without_loading_the_heavy_libraries() -> None:
    out = omni("--help").stdout
    for command in ("read", "ingest", "search", "stats", "export", "refine"):
        assert command in out
    code = (
        "import sys, omnireader.cli.main as c; c.build_parser(); "
        "print(sorted(m for m in ('markitdown','lancedb','openai','chonkie','pypdfium2') "
        "if m in sys.modules))"
    )
    assert (
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip()
        == "[]"
    )


def test_read_prints_items_as_json_and_a_summary(sample_files: Path) -> None:
    proc = omni("read", sample_files / "quarterly_report.pdf", "--format", "json")
    out = json.loads(proc.stdout)
    assert [i["metadata"]["sources"][0]["page"] for i in out["items"]] == [1, 2, 3]
    assert out["failures"] == []
    assert "read 1 input: 3 items, 0 errors" in proc.stderr


def test_read_of_the_markitdown_corpus_finds_every_fragment(corpus: Path) -> None:
    folder = corpus / "markitdown"
    # OCR off: the scan and the paper screenshot would add most of a minute of OCR; OCR of
    # the corpus is tested in test_corpus_markitdown, and --ocr below.
    proc = omni("read", folder, "--format", "json", "--ocr", "off", check=False)
    out = json.loads(proc.stdout)
    items = out["items"]
    assert proc.returncode == 1  # random.bin is not a format: one input failed
    assert {"input": str(folder / "random.bin"), "error": "unsupported"}.items() <= {
        **next(f for f in out["failures"] if f["input"].endswith("random.bin"))
    }.items()
    expected = json.loads((folder / "expected.json").read_text())["files"]
    by_file: dict[str, str] = {}
    for item in items:
        src = item["metadata"]["sources"][0]
        name = Path(src.get("path") or "").name
        by_file[name] = by_file.get(name, "") + " " + norm(item["memory"])
    for name, spec in expected.items():
        text = by_file.get(name, "")
        for fragment in spec.get("must_find", []):
            assert norm(fragment) in text, (name, fragment)
        for fragment in spec.get("must_not_find", []):
            assert norm(fragment) not in text, (name, fragment)
    # The scan, OCR off: no item; a failure naming its pages and what to do.
    assert not [i for i in items if "MEDRPT" in (i["metadata"]["sources"][0].get("path") or "")]
    scan = next(f for f in out["failures"] if "MEDRPT" in f["input"])
    assert scan["error"] == "needs_ocr" and scan["pages"] == [1, 2, 3]
    assert "--ocr auto" in scan["message"] and re.search(r"\[needs_ocr\].*MEDRPT", proc.stderr)
    for media in ("test.jpg", "test_llm.jpg", "test.wav", "test.mp3", "test.m4a"):
        assert by_file.get(media), media
    assert re.search(r"\[unsupported\].*random\.bin", proc.stderr)


def test_ocr_reads_the_text_in_an_image_offline_and_off_turns_it_off(sample_files: Path) -> None:
    import os

    image = sample_files / "whiteboard.png"
    # Any download would go through these proxies, which refuse every connection.
    dead = {
        **os.environ,
        "HTTP_PROXY": "http://127.0.0.1:9",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "ALL_PROXY": "http://127.0.0.1:9",
    }
    proc = subprocess.run(
        [sys.executable, "-m", "omnireader", "read", str(image), "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dead,
    )
    assert proc.returncode == 0, proc.stderr
    # The text OCR read is the image's item: no "Image X (PNG, W×H)." placeholder beside it.
    [text] = json.loads(proc.stdout)["items"]
    assert "ocr" in text["metadata"]["flags"] and "ship v2 on friday" in norm(text["memory"])
    off = json.loads(omni("read", image, "--format", "json", "--ocr", "off").stdout)["items"]
    assert [(i["memory"].split(" (")[0], i["metadata"]["flags"]) for i in off] == [
        ("Image whiteboard.png", ["needs_vision"])
    ]
    assert off[0]["id"] != text["id"]


def test_ingest_search_stats_and_export_work_end_to_end(sample_files: Path, tmp_path: Path) -> None:
    db = tmp_path / "db.lance"
    report = tmp_path / "report.json"
    ingest = omni("ingest", sample_files, "--db", db, "--user", "alice", "--report", report)
    assert "0 failed" in ingest.stdout
    assert json.loads(report.read_text())["files_read"] == len(list(sample_files.iterdir()))

    hits = json.loads(
        omni(
            "search",
            "Shinjuku hotel vegetarian",
            "--db",
            db,
            "--format",
            "json",
            "--user",
            "alice",
            "--view",
            "fts",
        ).stdout
    )
    assert {"m3", "m4"} <= set(hits[0]["message_ids"]) and hits[0]["score"] > 0
    assert "Shinjuku" in hits[0]["text"]  # the passage: the hit and the messages around it
    budgeted = json.loads(
        omni("search", "hotel", "--db", db, "--format", "json", "--max-chars", 300).stdout
    )
    assert budgeted and sum(len(h["text"]) for h in budgeted) <= 300
    assert (
        json.loads(
            omni("search", "Shinjuku", "--db", db, "--format", "json", "--user", "bob").stdout
        )
        == []
    )

    stats = json.loads(omni("stats", "--db", db, "--format", "json").stdout)
    exported = omni("export", "--db", db).stdout.splitlines()
    assert len(exported) == stats["items"] > 0
    assert {json.loads(line)["metadata"]["user_id"] for line in exported} == {"alice"}


def test_a_missing_store_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    proc = omni("search", "x", "--db", tmp_path / "nope.lance", check=False)
    assert proc.returncode == 1
    assert "no store at" in proc.stderr and "Traceback" not in proc.stderr


def test_fine_mode_without_an_llm_is_a_clear_error(sample_files: Path) -> None:
    proc = omni("read", sample_files / "team_notes.md", "--mode", "fine", check=False)
    assert proc.returncode == 2 and "--llm" in proc.stderr and "Traceback" not in proc.stderr

"""The benchmarks page's measured tables come from the results by a script, misses marked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import render_docs
import run_all
from _util import row, spread

ROOT = Path(__file__).resolve().parents[2]


def _results() -> dict:
    entry = {
        "when": "2026-12-01 10:00",
        "quick": False,
        "commit": "abc",
        "dirty": False,
        "python": "3.11.7",
        "machine": "Linux x86_64",
        "cpus": 2,
        "load_before": 0.1,
        "error": None,
        "seconds": 1.0,
        "result": {},
    }
    return {
        "benchmarks": {
            "ingest": {
                **entry,
                "rows": [
                    row(
                        "Ingest",
                        "1 worker / raw",
                        spread([0.55, 0.57, 0.58]),
                        "≥ 0.6×",
                        False,
                        unit="×",
                    ),
                    row(
                        "Ingest",
                        "2 workers / 1 worker",
                        spread([1.8, 1.9]),
                        "≥ 1.7×",
                        True,
                        unit="×",
                    ),
                ],
            },
            "memory": {
                **entry,
                "rows": [row("Memory", "writer", 120.0, "≤ 300 MB", True, unit=" MB", digits=0)],
            },
            "ocr": {**entry, "rows": [], "error": "Traceback ...\nRuntimeError: no engine"},
        }
    }


def test_rows_are_grouped_by_table_and_a_missed_target_says_missed() -> None:
    text = render_docs.render(_results())

    assert text.index("### Ingest") < text.index("### Memory")
    assert "| 1 worker / raw | 0.57× (0.55–0.58) | ≥ 0.6× | **missed** |" in text
    assert "| 2 workers / 1 worker | 1.85× (1.80–1.90) | ≥ 1.7× | met |" in text
    assert "ocr (2026-12-01 10:00): `RuntimeError: no engine`" in text
    assert "commit `abc`" in text


def test_only_the_text_between_the_markers_is_replaced() -> None:
    readme = "# x\n\n<!-- bench:start -->\nold figures\n<!-- bench:end -->\n\nprose\n"
    new = render_docs.replace_block(readme, "NEW")
    assert new == "# x\n\n<!-- bench:start -->\nNEW\n<!-- bench:end -->\n\nprose\n"
    with pytest.raises(ValueError, match="once each"):
        render_docs.replace_block("no markers", "NEW")


def test_the_benchmarks_page_shows_what_the_kept_results_render_to() -> None:
    # Every figure on docs/benchmarks.md comes from docs/bench-results.json through the script.
    kept = json.loads((ROOT / "docs" / "bench-results.json").read_text())
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    assert render_docs.replace_block(page, render_docs.render(kept)) == page


def test_check_mode_fails_on_a_page_edited_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "benchmarks.md"
    kept = ROOT / "docs" / "bench-results.json"
    page.write_text((ROOT / "docs" / "benchmarks.md").read_text())
    monkeypatch.setattr(render_docs, "PAGE", page)
    monkeypatch.setattr(render_docs, "ROOT", tmp_path)
    monkeypatch.setattr(render_docs, "KEPT", tmp_path / "bench-results.json")
    (tmp_path / "bench-results.json").write_text(kept.read_text())
    assert render_docs.main(["--check"]) == 0
    # A figure typed over by hand is caught, and the page is left as it was.
    edited = page.read_text().replace("| met |", "| **missed** |", 1)
    page.write_text(edited)
    assert render_docs.main(["--check"]) == 1
    assert page.read_text() == edited


def test_the_readme_holds_no_measured_tables() -> None:
    # The README is the front page: the figures live on the benchmarks page only.
    readme = (ROOT / "README.md").read_text()
    assert render_docs.START not in readme and render_docs.END not in readme


def test_every_bench_module_is_found_and_rows_are_checked() -> None:
    names = run_all.discover()
    assert names[:5] == ["startup", "ingest", "memory", "search", "fine"]
    for name in names:
        module = run_all.load(name)
        assert callable(module.run) and callable(module.rows)
    with pytest.raises(TypeError, match="exactly the keys"):
        run_all.check_rows("x", [{"label": "no table"}])
    with pytest.raises(TypeError, match="'met'"):
        run_all.check_rows("x", [{**row("T", "l", 1.0), "met": "yes"}])


def test_rows_with_columns_make_a_table_of_engines_by_measure() -> None:
    entry = {**_results()["benchmarks"]["memory"], "rows": []}
    cols = {"overall": "0.902", "MHS": "0.820"}
    entry["rows"] = [
        row("Structure", "ours", "", "MHS ≥ 0.85", False, note="missed: MHS") | {"columns": cols},
        row("Structure", "docling", "", "", None)
        | {"columns": {"overall": "0.889", "MHS": "0.811"}},
    ]
    text = render_docs.render({"benchmarks": {"pdf_structure": entry}})

    assert "| benchmark | overall | MHS | target | result |" in text
    assert "| ours | 0.902 | 0.820 | MHS ≥ 0.85 | **missed**; missed: MHS |" in text
    assert "| docling | 0.889 | 0.811 |  |  |" in text
    assert run_all.check_rows("x", entry["rows"]) == entry["rows"]
    with pytest.raises(TypeError, match="'columns'"):
        run_all.check_rows("x", [{**entry["rows"][0], "columns": {"MHS": 0.82}}])


def _score_json(mhs: float) -> dict:
    """score.py's --out JSON, as much of it as the benchmark reads."""

    def agg(overall: float, nid: float, teds: float, mhs: float) -> dict:
        score = {"overall_mean": overall, "nid_mean": nid, "teds_mean": teds, "mhs_mean": mhs}
        return {"score": score, "n": 100}

    return {
        "engine_under_test": "omnireader",
        "pages": 100,
        "aggregates": {
            "docling": agg(0.889, 0.915, 0.925, 0.811),
            "omnireader": agg(0.902, 0.927, 0.962, mhs),
        },
        "worst": {},
        "runs": [{"id": "a", "status": "ok", "seconds": 2.0}],
    }


def test_pdf_structure_marks_each_target_of_the_engine_under_test() -> None:
    import bench_pdf_structure as b

    missed = b.rows(b.summarize(_score_json(0.820), {"docling": "2.65.0"}))
    met = b.rows(b.summarize(_score_json(0.851), {"docling": "2.65.0"}))

    # Ordered by overall; the peers carry no target, ours all four.
    assert [r["label"] for r in missed] == [
        "**omnireader** (this run)",
        "docling 2.65.0 (published output)",
    ]
    assert missed[0]["columns"] == {
        "overall": "0.902",
        "NID": "0.927",
        "TEDS": "0.962",
        "MHS": "0.820",
    }
    assert (missed[0]["met"], missed[0]["note"]) == (False, "missed: MHS")
    assert (met[0]["met"], met[0]["note"]) == (True, "")
    assert (missed[1]["met"], missed[1]["target"]) == (None, "")


def test_pdf_structure_is_skipped_without_the_dev_half(tmp_path: Path) -> None:
    import bench_pdf_structure as b

    assert b.run(bench=tmp_path) == {}
    assert b.rows({}) == []

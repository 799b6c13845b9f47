"""Self-test of the fault matrix: with PDF text cut short on purpose, its rows must fail.

    python -m tests.faultkit.selftest [--scale test|full] [--via ingest|reader] [case or group …]

Runs the matrix twice, in child processes: once as it is, once with the ``pdf_cut`` plant
(``tests/plants``: every PDF page's text cut to 10 characters, in the ingest process and
in every parser worker). A matrix that earns its greens then shows

- without the plant, every row passes (a row needing a missing ``../shared`` may skip);
- with it, every row whose control files include a PDF fails, and fails on the control
  PDF's text — including ``zero-byte``, ``truncated-pdf``, ``zip-bomb`` and ``deep-json``,
  whose own inputs have no text to lose.

Prints both runs side by side and exits 1 when the matrix does not behave so.
``tests/faults/test_planted_bug.py`` runs a small version in the test suite.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.plants import plant_env  # noqa: E402

PDF_CONTROL = "control_report.pdf"
# Rows the issue names: their bad inputs hold no text, so only their controls can notice.
MUST_FAIL = ("zero-byte", "truncated-pdf", "zip-bomb", "deep-json")

__all__ = ["run_matrix", "judge", "PDF_CONTROL", "MUST_FAIL"]


def run_matrix(
    select: list[str],
    *,
    scale: str = "test",
    via: str = "ingest",
    planted: bool = False,
    chars: int = 10,
) -> list[dict[str, Any]]:
    """Every selected row's outcome from ``tests/faultkit/matrix.py`` run in a child process."""
    env = plant_env("pdf_cut", chars=chars) if planted else None
    with tempfile.TemporaryDirectory(prefix="faults-selftest-") as tmp:
        out = Path(tmp) / "rows.json"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tests.faultkit.matrix",
                "--scale",
                scale,
                "--via",
                via,
                "--json",
                str(out),
                *select,
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if not out.is_file():  # the matrix itself did not run: that is no verdict at all
            raise RuntimeError(
                f"tests/faultkit/matrix.py failed ({done.returncode}): "
                f"{done.stderr[-3000:] or done.stdout[-3000:]}"
            )
        got = json.loads(out.read_text())
    if got.get("plant") != ("pdf_cut" if planted else None):
        raise RuntimeError(f"the run's plant is {got.get('plant')!r}: PYTHONPATH did not apply")
    return got["rows"]


def judge(clean: list[dict[str, Any]], planted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One verdict per row: what it did without and with the plant, and whether that is
    what a matrix that notices lost text does. ``ok`` False marks a broken instrument."""
    cut = {r["id"]: r for r in planted}
    verdicts = []
    for row in clean:
        other = cut.get(row["id"])
        has_pdf = PDF_CONTROL in row["controls"]
        v = {
            "id": row["id"],
            "pdf_control": has_pdf,
            "clean": row["status"],
            "planted": other["status"] if other else "not run",
            "ok": True,
            "why": "",
        }
        if row["status"] == "FAIL":
            v.update(
                ok=False,
                why="fails without the plant: "
                + "; ".join(p.splitlines()[0] for p in row["problems"])[:300],
            )
        elif row["status"] == "skipped":
            v["why"] = row["skipped"] or ""
        elif row["id"] in MUST_FAIL and not has_pdf:
            v.update(ok=False, why="its controls include no PDF: the plant cannot show here")
        elif has_pdf and other is None:
            v.update(ok=False, why="not run with the plant")
        elif has_pdf and other["status"] != "FAIL":
            v.update(
                ok=False,
                why="passes with PDF text cut short: it does not check the control PDF's text",
            )
        elif has_pdf and not any(PDF_CONTROL in p for p in other["problems"]):
            v.update(
                ok=False,
                why="fails with the plant, but not on the control PDF's text: "
                + "; ".join(p.splitlines()[0] for p in other["problems"])[:300],
            )
        elif has_pdf:
            v["why"] = next(p for p in other["problems"] if PDF_CONTROL in p).splitlines()[0]
        verdicts.append(v)
    return verdicts


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("select", nargs="*", help="case ids or groups (default: all)")
    ap.add_argument("--scale", choices=("test", "full"), default="test")
    ap.add_argument("--via", choices=("ingest", "reader"), default="ingest")
    args = ap.parse_args(argv)
    print("running the matrix as it is …", flush=True)
    clean = run_matrix(args.select, scale=args.scale, via=args.via)
    print("running it with every PDF page's text cut to 10 characters …", flush=True)
    planted = run_matrix(args.select, scale=args.scale, via=args.via, planted=True)
    verdicts = judge(clean, planted)
    width = max(len(v["id"]) for v in verdicts)
    print(f"\n{'case':{width}}  PDF control  clean    planted  verdict")
    for v in verdicts:
        mark = "ok" if v["ok"] else "BROKEN"
        print(
            f"{v['id']:{width}}  {'yes' if v['pdf_control'] else '-':11}  {v['clean']:7}  "
            f"{v['planted']:7}  {mark}  {v['why'][:110]}"
        )
    broken = [v["id"] for v in verdicts if not v["ok"]]
    pdf_rows = [v["id"] for v in verdicts if v["pdf_control"]]
    print(
        f"\n{len(pdf_rows)} rows have a PDF control; with the plant, "
        f"{sum(v['planted'] == 'FAIL' for v in verdicts if v['pdf_control'])} of them fail. "
        + (f"Broken: {', '.join(broken)}" if broken else "The matrix notices lost text.")
    )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

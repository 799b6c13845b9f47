"""Cold ``omnireader read`` of a 93-byte HTML page, against floors measured in the same run.

    python bench/bench_html_startup.py [--runs 7] [--quick]

HTML is read with BeautifulSoup and markdownify (``formats/web/html_markdown.py``); it used
to go through MarkItDown, whose import and set-up (magika, onnxruntime, every converter)
cost well over a second for any page. Measured in turns (interleaved, several rounds):

- ``read_csv``: ``omnireader read x.csv``, the floor of a read whose reader is light;
- ``read_html``: ``omnireader read tiny.html``;
- ``read_html_markitdown``: the same command with ``MarkItDown(enable_plugins=False)``
  built first, which is what every HTML read paid before (the baseline).

Reported: each median and range, ``read_html / read_csv`` (target ≤ 1.3×: a page costs
about what a CSV costs) and ``read_html / read_html_markitdown`` (the saving) round by
round.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _util import at_most, interleaved, ratios, row, seconds, spread, table

TINY_PAGE = "<html><body><p>Hello, a tiny page of ninety-three bytes.</p></body></html>\n"


def run(quick: bool = False, runs: int | None = None) -> dict[str, Any]:
    runs = runs or (3 if quick else 7)
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="omnireader-html-startup-") as tmp:
        page = Path(tmp) / "tiny.html"
        page.write_text(TINY_PAGE, encoding="utf-8")
        csv = Path(tmp) / "table.csv"
        csv.write_text("city,visits\nLisbon,12\nOslo,7\n", encoding="utf-8")
        cli = [sys.executable, "-m", "omnireader"]
        baseline = (
            "import os, runpy, sys; os.environ.setdefault('ORT_DISABLE_TELEMETRY', '1');"
            "from markitdown import MarkItDown; MarkItDown(enable_plugins=False);"
            f"sys.argv = ['omnireader', 'read', {str(page)!r}];"
            "runpy.run_module('omnireader', run_name='__main__')"
        )
        commands = {
            "read_csv": [*cli, "read", str(csv)],
            "read_html": [*cli, "read", str(page)],
            "read_html_markitdown": [sys.executable, "-c", baseline],
        }

        def measure(cmd: list[str]) -> Any:
            return lambda: subprocess.run(
                cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
            )

        got = interleaved(
            {k: seconds(measure(c)) for k, c in commands.items()}, repeat=runs, warmup=1
        )
    out: dict[str, Any] = {name: spread(t) for name, t in got.items()}
    out["html_over_csv"] = spread(ratios(got["read_html"], got["read_csv"]))
    out["html_over_markitdown"] = spread(ratios(got["read_html"], got["read_html_markitdown"]))
    print(
        table(
            ["measure", "median (range)"],
            [[k, out[k]] for k in (*commands, "html_over_csv", "html_over_markitdown")],
        )
    )
    return out


#: A small page costs about what a small CSV costs: only its own reader's imports.
HTML_OVER_CSV = 1.3


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        row(
            "Start-up",
            "`omnireader read tiny.html` cold (93 bytes)",
            result["read_html"],
            unit=" s",
        ),
        row(
            "Start-up",
            "`read tiny.html` / `read x.csv`",
            result["html_over_csv"],
            f"≤ {HTML_OVER_CSV}×",
            at_most(result["html_over_csv"], HTML_OVER_CSV),
            unit="×",
        ),
        row(
            "Start-up",
            "`read tiny.html` / the same with MarkItDown built (the old path)",
            result["html_over_markitdown"],
            unit="×",
            note="information: what HTML saves by not importing MarkItDown",
        ),
    ]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    run(a.quick, a.runs)

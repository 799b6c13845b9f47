"""The language identifier (``omnireader/text/language.py``): accuracy on short samples in
ten languages, and its cost per item against a baseline measured in the same run.

    python bench/bench_language.py [--runs 5]

Accuracy: the share of ``tests/support/language_samples.py`` identified right (60 short
sentences, 6 a language: en fr de es he ko ja zh ru ar), against the rule it replaced
("zh" when Han characters dominate, else "en"), which is right only for en and zh.
Cost per item, warm (the model loaded), interleaved rounds over the same samples:
``detect_language`` against the old rule (the baseline) and against building the item's
``Source`` copy it is stored on. The guess's cache is left out (``uncached``): every item of
a real ingest is a new text, and over these 60 samples every call after the first would hit it. The model's one-time load in a fresh process is measured
apart, against a bare interpreter that imports numpy (the floor it needs).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _util import at_least, interleaved, ratios, row, seconds, spread, table

from omnireader.models import Source
from omnireader.text import language
from omnireader.text.language import detect_language
from tests.support.language_samples import SAMPLES

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_OTHER_WORD = re.compile(r"[^\W\d_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")


def old_rule(text: str) -> str:
    """The rule the identifier replaced (omnireader.normalize.guess_lang before)."""
    han = len(_HAN.findall(text))
    return "zh" if han and han >= len(_OTHER_WORD.findall(text)) else "en"


def uncached(text: str) -> str:
    """``detect_language(text)`` without the guess's cache: each text as if new."""
    return str(language._guess.__wrapped__(text[: 4 * language.SAMPLE_CHARS]).lang)


def run(quick: bool = False, runs: int | None = None) -> dict[str, Any]:
    runs = runs or (3 if quick else 5)
    pairs = [(lang, s) for lang, samples in SAMPLES.items() for s in samples]
    out: dict[str, Any] = {
        "accuracy": sum(detect_language(s) == lang for lang, s in pairs) / len(pairs),
        "accuracy_old_rule": sum(old_rule(s) == lang for lang, s in pairs) / len(pairs),
        "misses": [
            (lang, s, detect_language(s)) for lang, s in pairs if detect_language(s) != lang
        ],
    }
    source = Source(kind="file", path="x.txt")
    reps = 50

    def each(fn: Any) -> Any:
        return seconds(lambda: [fn(s) for _ in range(reps) for _, s in pairs])

    got = interleaved(
        {
            "detect_language": each(uncached),
            "old_rule": each(old_rule),
            "source_copy": each(lambda s: source.model_copy(update={"lang": "en"})),
        },
        repeat=runs,
        warmup=1,
    )
    per = len(pairs) * reps
    for k, v in got.items():
        out[f"{k}_us_per_item"] = spread([t / per * 1e6 for t in v])
    out["detect_over_old_rule"] = spread(ratios(got["detect_language"], got["old_rule"]))
    out["detect_over_source_copy"] = spread(ratios(got["detect_language"], got["source_copy"]))
    load = (
        "from omnireader.text.language import detect_language; "
        "detect_language('La réunion est reportée à jeudi après-midi.')"
    )
    cold = interleaved(
        {
            "floor_numpy": seconds(
                lambda: subprocess.run([sys.executable, "-c", "import numpy"], check=True)
            ),
            "first_model_text": seconds(
                lambda: subprocess.run(
                    [sys.executable, "-c", load],
                    check=True,
                    cwd=Path(__file__).resolve().parents[1],
                )
            ),
        },
        repeat=max(3, runs // 2),
    )
    out["cold_first_model_text_s"] = spread(cold["first_model_text"])
    out["cold_floor_numpy_s"] = spread(cold["floor_numpy"])
    out["cold_model_load_over_floor"] = spread(
        ratios(cold["first_model_text"], cold["floor_numpy"])
    )
    print(table(["measure", "value"], [[k, v] for k, v in out.items() if k != "misses"]))
    for miss in out["misses"]:
        print("miss:", miss)
    return out


#: Share of the samples identified right (one miss in 60 allowed, and a little more).
ACCURACY = 0.95


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        row(
            "Language",
            "accuracy, 60 short samples in 10 languages",
            result["accuracy"],
            f"≥ {ACCURACY}",
            at_least(result["accuracy"], ACCURACY),
        ),
        row(
            "Language",
            "accuracy of the en/zh rule it replaced",
            result["accuracy_old_rule"],
            note="information",
        ),
        row(
            "Language",
            "µs per item, warm",
            result["detect_language_us_per_item"],
            unit=" µs",
            digits=0,
            note="information",
        ),
        row(
            "Language",
            "per item / the en/zh rule",
            result["detect_over_old_rule"],
            unit="×",
            digits=0,
            note="information",
        ),
        row(
            "Language",
            "first model-read text in a fresh process",
            result["cold_first_model_text_s"],
            unit=" s",
            note="information: model mapped from cache",
        ),
    ]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    run(a.quick, a.runs)

"""The shared measuring helpers: interleaved rounds, median and spread, benchmarks-page rows."""

from __future__ import annotations

import pytest
from _util import at_least, at_most, fmt, interleaved, ratios, row, spread


def test_measures_take_turns_round_by_round_after_the_warmup() -> None:
    calls: list[str] = []

    def measure(name: str, value: float):  # noqa: ANN202
        return lambda: calls.append(name) or value

    runs = interleaved({"a": measure("a", 1.0), "b": measure("b", 2.0)}, repeat=3, warmup=1)

    assert calls == ["a", "b"] * 4
    assert runs == {"a": [1.0] * 3, "b": [2.0] * 3}


def test_a_spread_is_the_median_with_the_range_and_every_run() -> None:
    assert spread([3.0, 1.0, 2.0, 10.0]) == {
        "median": 2.5,
        "min": 1.0,
        "max": 10.0,
        "runs": [3.0, 1.0, 2.0, 10.0],
    }
    with pytest.raises(ValueError):
        spread([])


def test_ratios_pair_the_runs_of_one_round() -> None:
    assert ratios([2.0, 4.0], [1.0, 8.0]) == [2.0, 0.5]
    with pytest.raises(ValueError, match="not paired"):
        ratios([1.0], [1.0, 2.0])


def test_a_figure_is_shown_as_its_median_and_range() -> None:
    s = spread([0.58, 0.61, 0.64])
    assert fmt(s, "×") == "0.61× (0.58–0.64)"
    assert fmt(spread([288.2, 288.4]), " MB", 0) == "288 MB"  # the range rounds away
    assert fmt(0.95, digits=2) == "0.95"


def test_targets_are_judged_on_the_median_not_the_best_run() -> None:
    s = spread([1.05, 1.20, 1.25])
    assert not at_most(s, 1.15)
    assert at_least(s, 1.2) and not at_least(s, 1.21)


def test_a_row_has_the_keys_the_readme_needs() -> None:
    r = row("Ingest", "2 workers / 1 worker", spread([1.4, 1.5]), "≥ 1.7×", False, unit="×")
    assert r == {
        "table": "Ingest",
        "label": "2 workers / 1 worker",
        "measured": "1.45× (1.40–1.50)",
        "target": "≥ 1.7×",
        "met": False,
        "note": "",
    }

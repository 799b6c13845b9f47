"""Memories that stay current: the consolidation scenarios, ingested turn by turn in fine mode.

    python bench/bench_memory_current.py [--quick]
    OMNIREADER_BENCH_LLM=ollama:qwen2.5:1.5b python bench/bench_memory_current.py

The 44 scenarios of ``tests/fixtures/consolidation_scenarios.jsonl`` (a fact stated, then
changed, repeated or contradicted: moves, jobs, preferences, plans, relative dates). Each turn
is one fine-mode ingest with ``consolidate=True``, as an agent stores a conversation as it
goes. With the scripted model (the test LLM server deciding every case as the data says), the
targets: the current memory is the top hit for its question in 100 % of the scenarios, and
every replaced memory is out of default results and in the current memory's history. With a
real model (``OMNIREADER_BENCH_LLM``, e.g. a small Ollama model), the same figures and the
share of decisions it got right are reported, not targeted.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _util import row

from omnireader import Store
from omnireader.llm import LLMConfig, make_chat_backend
from omnireader.reading.reader import Reader
from tests.support import LLMServer
from tests.support.scenarios import (
    check_scenario,
    ingest_scenario,
    load_scenarios,
    scripted_model,
)

TARGET = 1.0


def _score(store: Store, scenarios: list[Any]) -> dict[str, Any]:
    checks = [check_scenario(store, s) for s in scenarios]
    n = len(checks)
    return {
        "scenarios": n,
        "top_hit": sum(c["top_hit"] for c in checks) / n,
        "replaced_hidden": sum(c["replaced_hidden"] for c in checks) / n,
        "replaced_in_history": sum(c["replaced_in_history"] for c in checks) / n,
        "missed": [s.id for s, c in zip(scenarios, checks) if not all(c.values())],
    }


def _decisions_right(store: Store, scenarios: list[Any]) -> float:
    """Share of the turns with a relation whose recorded decision is that relation."""
    right = total = 0
    for s in scenarios:
        made: dict[str, Any] = {}
        todo = [i.id for i in store.iter_items({"user_id": s.id, "mode": "fine"})]
        seen: set[str] = set()
        while todo:  # every memory of the scenario: current, and archived through histories
            item_id = todo.pop()
            if item_id in seen:
                continue
            seen.add(item_id)
            for v in store.history(item_id):
                made.setdefault(v.memory, v.metadata.extra.get("consolidation", {}).get("decision"))
                todo.append(v.id)
        for t in s.turns[1:]:
            total += 1
            right += made.get(t.text) == (t.relation or "unrelated")
    return right / total if total else 0.0


def _run(llm: Any, scenarios: list[Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(Path(tmp) / "db.lance")
        reader = Reader(llm=llm)
        started = time.perf_counter()
        for s in scenarios:
            ingest_scenario(store, reader, s)
        seconds = time.perf_counter() - started
        out = _score(store, scenarios)
        out["seconds"] = seconds
        out["turns"] = sum(len(s.turns) for s in scenarios)
        out["decisions_right"] = _decisions_right(store, scenarios)
        return out


def run(quick: bool = False) -> dict[str, Any]:
    scenarios = load_scenarios()
    if quick:
        scenarios = scenarios[::4]
    result: dict[str, Any] = {}
    with LLMServer() as srv:
        srv.latency = 0.0
        srv.responder = scripted_model(scenarios)
        config = LLMConfig(openai_base_url=srv.openai_base_url, openai_api_key="k")
        result["scripted"] = _run(make_chat_backend("openai:test-model", config=config), scenarios)
    spec = os.environ.get("OMNIREADER_BENCH_LLM")
    if spec:  # a real model: reported, not targeted
        result["real"] = {"model": spec, **_run(make_chat_backend(spec), scenarios)}
    return result


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    s = result["scripted"]
    out = [
        row(
            "Memories that stay current",
            f"current memory is the top hit, {s['scenarios']} scenarios (scripted decisions)",
            s["top_hit"],
            "= 1.0",
            s["top_hit"] >= TARGET,
        ),
        row(
            "Memories that stay current",
            "replaced memories out of default results and in history (scripted)",
            min(s["replaced_hidden"], s["replaced_in_history"]),
            "= 1.0",
            min(s["replaced_hidden"], s["replaced_in_history"]) >= TARGET,
        ),
    ]
    real = result.get("real")
    if real:
        out += [
            row(
                "Memories that stay current",
                f"{real['model']}: decisions right / top hit",
                real["decisions_right"],
                note=f"information; top hit {real['top_hit']:.2f}",
            )
        ]
    return out


if __name__ == "__main__":
    import json

    got = run(quick="--quick" in sys.argv)
    print(json.dumps(got, indent=2))

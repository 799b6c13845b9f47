"""Fine mode with a real small model beside the test server: what comes back, and is kept.

    python bench/bench_fine_models.py [--quick] [--messages 40] [--chunks 4] [--max-tokens 320]

The same inputs go through fine mode twice: against a real llama.cpp server (llama-cpp-python
serving SmolLM2-135M-Instruct on 127.0.0.1, started here; see tests/support/llama_server.py)
and against the test server (schema-valid answers built from the prompt). Inputs: the
samples' chat and notes, the first ``messages`` messages of one LoCoMo dev conversation
(conv-26), and ``chunks`` chunks of one FinanceBench dev filing (3M's 2018 10-K, from page 2).

Reported per server: JSON valid at the first ask (replies that parse under the schema, of
first asks), replies cut at ``max_tokens`` and closed after their last complete part, replies
re-asked, and JSON parseable in the end (fast items whose refine did not fail for the reply's
shape); the JSON mode the server ended in; fine items kept; memories the guard kept out, by
reason; fast items left fast, by reason; seconds per fast item; prompt and completion tokens
per call. Targets from issue 40: every call answered with parseable JSON after the step-down,
and no stored item holding a prompt placeholder or a person absent from its source (checked
here independently of the guard: a ``<...>`` / ``${...}`` / ``...``-only memory, or a person
none of whose words is in the input).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path
from typing import Any

from _util import ROOT, row  # noqa: F401  (ROOT: sys.path)

LOCOMO = Path("/work/shared/bench/locomo-dev/messages/conv-26.json")
FILING = Path("/work/shared/bench/financebench-dev/pdfs/3M_2018_10K.pdf")
SHAPE_REASONS = {"bad_json", "wrong_schema"}
_PLACEHOLDER = re.compile(r"<[A-Za-z][^<>]*>|\$\{\w+\}|^\W*$")


def _inputs(messages: int, chunks: int) -> list[tuple[str, Any]]:
    """(name, fast items to refine) per input, read in fast mode once."""
    from omnireader.reading.reader import Reader

    samples = ROOT / "samples" / "files"
    # Chats in windows of fine mode's size (one call each), as a fine read sends them.
    reader = Reader(chat_units="window", chat_window_tokens_fast=1024)
    out: list[tuple[str, Any]] = []
    chat = json.loads((samples / "chat_tokyo_trip.json").read_text(encoding="utf-8"))
    out.append(("samples", reader.read(chat, mode="fast") + reader.read(samples / "team_notes.md")))
    if LOCOMO.is_file():
        conv = json.loads(LOCOMO.read_text(encoding="utf-8"))[:messages]
        out.append(("locomo conv-26", reader.read(conv, mode="fast")))
    if FILING.is_file():
        items = [i for i in reader.read(FILING) if (i.source and (i.source.page or 0) >= 2)]
        out.append(("3M 2018 10-K", items[:chunks]))
    return out


def _source_text(items: list[Any]) -> str:
    parts = []
    for i in items:
        parts.append(i.memory)
        parts += [f"{s.name or ''} {s.content or ''}" for s in i.metadata.sources]
    return " ".join(parts).lower()


def _bad_stored(fine: list[Any], source: str) -> int:
    """Stored items with a placeholder, or a person none of whose words is in the source."""
    bad = 0
    for item in fine:
        text = item.memory.strip()
        persons_ok = all(
            any(w in source for w in re.findall(r"\w+", p.lower()) if len(w) > 1)
            or p.lower() in ("user", "the user", "assistant")
            for p in item.metadata.persons
        )
        if _PLACEHOLDER.search(text) or text.strip(" .") in ("...", "…") or not persons_ok:
            bad += 1
    return bad


def _one_server(name: str, backend: Any, inputs: list[tuple[str, Any]]) -> dict[str, Any]:
    from omnireader.llm.json_reply import ReplyError, parse_reply
    from omnireader.refine import Refiner

    first = {"asks": 0, "valid": 0}
    chat = backend._chat

    async def recording(messages: list[dict[str, Any]], schema: Any) -> Any:
        reply = await chat(messages, schema)
        if not (len(messages) > 2 and messages[-2].get("role") == "assistant"):
            first["asks"] += 1  # not a re-ask (a re-ask ends with the reply and a user turn)
            try:
                parse_reply(reply.content, schema)
                first["valid"] += 1
            except ReplyError:
                pass
        return reply

    backend._chat = recording  # counts the first asks; the requests are the real ones
    from omnireader.normalize import guess_lang

    for _, items in inputs:  # the language models load once, before the clock starts
        for item in items:
            guess_lang(item.memory)
    refiner = Refiner(backend)
    fast_items = bad = fine = 0
    started = time.perf_counter()
    per_input = {}
    for label, items in inputs:
        t0 = time.perf_counter()
        result = refiner.refine(items)
        stored_bad = _bad_stored(result.fine, _source_text(items))
        per_input[label] = {
            "fast": len(items),
            "fine": len(result.fine),
            "failed": result.reasons,
            "rejected": result.rejected,
            "seconds": round(time.perf_counter() - t0, 1),
        }
        fast_items += len(items)
        fine += len(result.fine)
        bad += stored_bad
    wall = time.perf_counter() - started
    totals = refiner.totals
    attempted = totals.refined + totals.failed
    shape_failed = sum(n for r, n in totals.reasons.items() if r in SHAPE_REASONS)
    usage = backend.usage
    return {
        "server": name,
        "json_mode": getattr(backend, "json_mode", "?"),
        "first_asks": first["asks"],
        "first_valid": first["valid"],
        "refines": attempted,
        "shape_failed": shape_failed,
        "fine_items": fine,
        "fast_items": fast_items,
        "left_fast": totals.reasons,
        "rejected": totals.rejected,
        "bad_stored": bad,
        "seconds_per_item": wall / max(fast_items, 1),
        "calls": usage.calls,
        "repaired": usage.repaired,
        "reasked": usage.reasked,
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "inputs": per_input,
    }


def run(
    quick: bool = False,
    messages: int | None = None,
    chunks: int | None = None,
    max_tokens: int = 320,
) -> dict[str, Any]:
    from omnireader.llm import OpenAIChatBackend, RetryPolicy
    from tests.support import LLMServer
    from tests.support.llama_server import LlamaServer, missing

    inputs = _inputs(messages or (20 if quick else 40), chunks or (2 if quick else 4))

    def backend(url: str, model: str) -> OpenAIChatBackend:
        return OpenAIChatBackend(
            model,
            base_url=url,
            timeout=300.0,
            max_tokens=max_tokens,
            temperature=0.0,
            concurrency=1,  # one llama.cpp slot: calls queue there anyway
            retry=RetryPolicy(max_attempts=2, base_delay=0.2, max_delay=0.5),
        )

    out: dict[str, Any] = {"max_tokens": max_tokens, "servers": []}
    with LLMServer() as srv:
        out["servers"].append(_one_server("test server", backend(srv.openai_base_url, "m"), inputs))
    why = missing()
    if why:
        out["skipped"] = why
    else:
        with LlamaServer() as real:
            out["servers"].append(
                _one_server(
                    "SmolLM2-135M (llama.cpp)", backend(real.openai_base_url, "smollm2"), inputs
                )
            )
    print(json.dumps(out, indent=2))
    return out


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.0f}% ({n}/{d})" if d else "n/a"


def _counts(d: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items())) or "none"


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    t = "Fine mode with a real small model"
    out = []
    for s in result["servers"]:
        who = s["server"]
        after = s["refines"] - s["shape_failed"]
        calls = max(s["calls"], 1)
        out += [
            row(
                t,
                f"{who}: JSON valid at the first ask",
                _pct(s["first_valid"], s["first_asks"]),
                note=f"JSON mode in the end: {s['json_mode']}",
            ),
            row(
                t,
                f"{who}: replies cut at max_tokens and closed / re-asked",
                f"{s.get('repaired', 0)} / {s.get('reasked', 0)}",
                note=f"of {s['first_asks']} first asks",
            ),
            row(
                t,
                f"{who}: parseable JSON in the end (fast items)",
                _pct(after, s["refines"]),
                "100%",
                after == s["refines"],
            ),
            row(
                t,
                f"{who}: stored items with a placeholder or an absent person",
                str(s["bad_stored"]),
                "0",
                s["bad_stored"] == 0,
            ),
            row(
                t,
                f"{who}: fine items kept / fast items",
                f"{s['fine_items']} / {s['fast_items']}",
                note=f"left fast: {_counts(s['left_fast'])}; guard kept out: "
                f"{_counts(s['rejected'])}",
            ),
            row(
                t,
                f"{who}: seconds per fast item",
                f"{s['seconds_per_item']:.2f} s",
                note=f"max_tokens {result['max_tokens']}, one request at a time",
            ),
            row(
                t,
                f"{who}: tokens in / out per call",
                f"{s['prompt_tokens'] / calls:.0f} / {s['completion_tokens'] / calls:.0f}",
                note=f"{s['calls']} calls",
            ),
        ]
    if result.get("skipped"):
        out.append(row(t, "SmolLM2-135M (llama.cpp)", "skipped", note=result["skipped"]))
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--messages", type=int)
    ap.add_argument("--chunks", type=int)
    ap.add_argument("--max-tokens", type=int, default=320)
    a = ap.parse_args()
    run(a.quick, a.messages, a.chunks, a.max_tokens)

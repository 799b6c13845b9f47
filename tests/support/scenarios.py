"""The consolidation scenarios (``tests/fixtures/consolidation_scenarios.jsonl``) and a
scripted model that decides each of them correctly, for the tests and ``bench_memory_current``.

A scenario is a short conversation of one user: each turn states a fact (the turn's text is
the memory a model extracts from it) and may say how it relates to an earlier turn
(``update``, ``conflict``, ``duplicate`` of turn N, or ``unrelated``). ``current`` names the
turn whose memory must be current at the end, the answer to ``question``. The memories a
scenario replaces (the targets of updates and conflicts, and the duplicates themselves) must
be archived: out of default results, in the current memory's history.

The scripted model answers an extraction with the turn's text as the one memory, and a
consolidation request with the scenario's relation, naming the stored memory by the number
the prompt gave it (``unrelated`` when that memory was not shown: then the scenario fails, as
it would with a real model that did not see it).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .llm_replies import ChatRequest, default_responder

__all__ = ["Scenario", "load_scenarios", "scripted_model", "ingest_scenario", "check_scenario"]

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "consolidation_scenarios.jsonl"
_LINE = re.compile(r"^(\d+)\. (?:\[[^\]]*\] )?(.*)$")
_WHEN = re.compile(r"^\[[^\]]*\] ")


@dataclass
class Turn:
    time: str
    text: str
    relation: str | None = None
    target: int | None = None


@dataclass
class Scenario:
    id: str
    kind: str
    question: str
    turns: list[Turn]
    current: int
    replaced: list[int] = field(default_factory=list)

    @property
    def answer(self) -> str:
        return self.turns[self.current].text


def load_scenarios(path: Path = FILE) -> list[Scenario]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        turns = [Turn(*t) for t in raw["turns"]]
        replaced = sorted(
            {
                n if t.relation == "duplicate" else t.target  # type: ignore[misc]
                for n, t in enumerate(turns)
                if t.relation in ("update", "conflict", "duplicate")
            }
            - {raw["current"]}
        )
        out.append(
            Scenario(raw["id"], raw["kind"], raw["question"], turns, raw["current"], replaced)
        )
    return out


def scripted_model(scenarios: list[Scenario]) -> Any:
    """A responder for :class:`LLMServer` deciding every scenario as its data says."""
    by_text = {t.text: (s, t) for s in scenarios for t in s.turns}

    def respond(request: ChatRequest) -> str:
        props = (request.schema or {}).get("properties", {})
        text = request.last_user_text
        if "decision" in props:
            return json.dumps(_decide(text, by_text))
        reply = json.loads(default_responder(request))
        said = next((t for t in by_text if t in text), None)
        if said is not None and reply.get("memories"):
            reply["memories"] = [{**reply["memories"][0], "memory": said, "timestamp": None}]
        return json.dumps(reply)

    return respond


def _block(text: str, tag: str) -> str:
    found = re.search(rf"<{tag}>\n?(.*?)\n?</{tag}>", text, flags=re.S)
    return found.group(1).strip() if found else ""


def _decide(text: str, by_text: dict[str, tuple[Scenario, Turn]]) -> dict[str, Any]:
    new = _WHEN.sub("", _block(text, "text"))
    shown = {}
    for line in _block(text, "context").splitlines():
        m = _LINE.match(line.strip())
        if m:
            shown[m.group(2)] = int(m.group(1))
    unrelated = {"decision": "unrelated", "memory": None, "reason": "scripted"}
    if new not in by_text:
        return unrelated
    scenario, turn = by_text[new]
    if turn.relation in (None, "unrelated") or turn.target is None:
        return unrelated
    target = scenario.turns[turn.target].text
    if target not in shown:
        return unrelated
    return {"decision": turn.relation, "memory": shown[target], "reason": "scripted"}


def ingest_scenario(
    store: Any, reader: Any, scenario: Scenario, *, consolidate: bool = True
) -> None:
    """Each turn ingested on its own in fine mode, as an agent stores a conversation."""
    from omnireader import IngestOptions, ingest

    for n, turn in enumerate(scenario.turns):
        message = {
            "role": "user",
            "content": turn.text,
            "chat_time": turn.time,
            "message_id": f"{scenario.id}-{n}",
        }
        ingest(
            [[message]],
            store,
            reader=reader,
            info={"user_id": scenario.id, "session_id": "chat"},
            mode="fine",
            options=IngestOptions(workers=1, consolidate=consolidate),
        )


def check_scenario(store: Any, scenario: Scenario) -> dict[str, bool]:
    """Whether the current memory is the top hit for the question, and whether every
    replaced memory is out of default results and in the current memory's history."""
    scope = {"user_id": scenario.id, "mode": "fine"}
    hits = store.search(scenario.question, k=5, filters=scope)
    top = bool(hits) and hits[0].item.memory == scenario.answer
    current = [i for i in store.iter_items(scope) if i.memory == scenario.answer]
    replaced = {scenario.turns[n].text for n in scenario.replaced}
    shown = {r.item.memory for r in hits}
    past: set[str] = set()
    todo = [c.id for c in current]
    seen: set[str] = set()
    while todo:  # the history, and the histories of what it superseded
        item_id = todo.pop()
        if item_id in seen:
            continue
        seen.add(item_id)
        for v in store.history(item_id):
            if v.metadata.status == "archived":
                past.add(v.memory)
                todo.append(v.id)
    return {
        "top_hit": top,
        "replaced_hidden": not (replaced & shown),
        "replaced_in_history": replaced <= past,
    }

"""The guard against weak models: each memory a model wrote is checked against its source
and its prompt before it becomes a fine item.

A small local model writes valid JSON that is still junk: it copies the prompt's example
placeholders (``"..."``, ``"<one self-contained fact>"``, the example date), repeats the
prompt's rules as facts, names people the source never mentions, invents dates, or leaves
"tomorrow" unresolved, or stops short of a statement ("1.2", "The Company", a list of the
prompt's labels ending in a comma). :meth:`MemoryGuard.check` rejects such a memory with a
reason (``placeholder``, ``instruction_echo``, ``boilerplate``, ``fragment``,
``unknown_person``, ``unsupported_date``) and resolves a relative day the model left against the time its message
was sent, keeping the model's own date only when it agrees. The words it holds against a
memory are data (``guard_words.json``; ``OMNIREADER_GUARD_WORDS`` names a replacement).

    >>> guard = MemoryGuard("[0] 2025-11-15T14:30:00, user (Ana): I fly to Oslo tomorrow.",
    ...                     times=["2025-11-15T14:30:00"])
    >>> fixed, why = guard.check(ExtractedMemory(memory="Ana flies to Oslo tomorrow.",
    ...                                          persons=["Ana"]), "2025-11-15T14:30:00")
    >>> fixed.memory, fixed.timestamp, why
    ('Ana flies to Oslo on 2025-11-16.', '2025-11-16', None)
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from typing import Any

from omnireader.llm.schemas import ExtractedMemory, Extraction
from omnireader.normalize import normalize_time
from omnireader.refine.dates import (
    agrees,
    dates_in,
    day_of,
    relative_days,
    relative_phrases,
    resolve_relative,
)

__all__ = ["MemoryGuard", "GUARD_REASONS", "guard_words", "REJECTED", "schema_descriptions"]

#: Why the guard rejects a memory.
GUARD_REASONS = (
    "placeholder",
    "instruction_echo",
    "boilerplate",
    "fragment",
    "unknown_person",
    "unsupported_date",
)

#: Memories rejected while refining one fast item, by reason (set by the engine per item).
REJECTED: ContextVar[Counter[str] | None] = ContextVar("omnireader_guard_rejected", default=None)

_WORD = re.compile(r"\w+")
_ECHO_WORDS = 6  # this many words in a row from the prompt (and not the source) is an echo
_END = " \t\n.。!！?？:;,\"'`"
# A word holds a letter; in scripts written without spaces, two characters count as one word.
_LETTER_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\u0e00-\u0e7f]")
# A statement does not end on a comma, an opening bracket or a joining word's punctuation.
_CUT_OFF = (",", ";", "(", "[", "{", "-", "–", "—", "/", "&", "、", "，", "（")


@lru_cache(maxsize=4)
def _load_words(path: str | None) -> dict[str, Any]:
    if path:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    else:
        data = json.loads(
            resources.files("omnireader.refine").joinpath("guard_words.json").read_text("utf-8")
        )
    return {
        "placeholders": {w.lower() for w in data.get("placeholders", [])},
        "patterns": [re.compile(p, re.I) for p in data.get("placeholder_patterns", [])],
        "boilerplate": {w.lower() for w in data.get("boilerplate", [])},
        "self_names": {w.lower() for w in data.get("self_names", [])},
        "min_words": int(data.get("min_words", 3)),
    }


def guard_words() -> dict[str, Any]:
    """The guard's words: ``guard_words.json``, or the file ``OMNIREADER_GUARD_WORDS`` names."""
    return _load_words(os.environ.get("OMNIREADER_GUARD_WORDS") or None)


@lru_cache(maxsize=1)
def schema_descriptions() -> str:
    """The field descriptions the schema sends the model: a memory that repeats one is an
    echo of the prompt."""
    out = []
    for model in (ExtractedMemory, Extraction):
        out.extend(f.description or "" for f in model.model_fields.values())
    return "\n".join(out)


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _grams(words: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


@lru_cache(maxsize=32)
def _instructions(prompt: str) -> tuple[str, frozenset[tuple[str, ...]]]:
    """A prompt's instructions with the schema's descriptions, normalised, and their runs of
    words: the same for every call of a task, so built once per prompt."""
    instructions = _norm(f"{prompt}\n{schema_descriptions()}")
    return instructions, frozenset(_grams(_WORD.findall(instructions), _ECHO_WORDS))


class MemoryGuard:
    """Checks memories against ``source`` (the text the model read) and ``prompt`` (the
    instructions it was given); ``times`` are the message times (or the item's time) that
    relative days resolve against and that a memory may be dated by. ``source`` None (the
    model read an image): persons and dates cannot be checked, the rest is."""

    def __init__(
        self, source: str | None, *, times: Iterable[str | None] = (), prompt: str = ""
    ) -> None:
        self.words = guard_words()
        self.checks_source = source is not None
        source = source or ""
        self.source = source
        self.source_lower = source.lower()
        src_words = _WORD.findall(self.source_lower)
        self.source_words = set(src_words)
        self.instructions, prompt_grams = _instructions(prompt)
        self.echo_grams = prompt_grams - _grams(src_words, _ECHO_WORDS)
        days = [d for t in times if (d := day_of(normalize_time(t) if t else None))]
        self.allowed = dates_in(source) | {d.isoformat() for d in days}
        # "tomorrow" in a message: the day it means, said at any of the times, is a date of
        # the source. The source is scanned once, not once per time (a chat window has one
        # time per message).
        found = relative_phrases(source)
        for t in set(times) if found else ():
            said = day_of(normalize_time(t))
            if said is not None:
                self.allowed |= {d.isoformat() for _, d in resolve_relative(found, said)}

    # -- the checks ------------------------------------------------------------------------
    def check(
        self, memory: ExtractedMemory, when: str | None = None
    ) -> tuple[ExtractedMemory, str | None]:
        """The memory (relative days resolved against ``when``) and None, or the memory as
        it came and the reason it is rejected."""
        text = memory.memory.strip()
        bare = _norm(text).strip(_END)
        w = self.words
        if bare in w["placeholders"] or any(p.search(text) for p in w["patterns"]):
            return memory, "placeholder"
        if bare in w["boilerplate"] or not _WORD.search(bare):
            return memory, "boilerplate"
        if self._echoes(bare):
            return memory, "instruction_echo"
        if self._fragment(text):
            return memory, "fragment"
        memory = self._resolved(memory, when)
        if not self.checks_source:
            return memory, None
        if any(not self._named_in_source(p) for p in memory.persons):
            return memory, "unknown_person"
        stamp = normalize_time(memory.timestamp) if memory.timestamp else None
        mentioned = dates_in(memory.memory) | ({stamp[:10]} if stamp else set())
        if any(not agrees(d, self.allowed) for d in mentioned):
            return memory, "unsupported_date"
        return memory, None

    def _fragment(self, text: str) -> bool:
        """Too few words to state a fact, or it breaks off mid-clause."""
        unspaced = len(_UNSPACED.findall(text))
        words = len(_LETTER_WORD.findall(_UNSPACED.sub(" ", text))) + unspaced / 2
        return words < self.words["min_words"] or text.rstrip().endswith(_CUT_OFF)

    def _echoes(self, bare: str) -> bool:
        words = _WORD.findall(bare)
        if len(words) >= _ECHO_WORDS:
            return bool(_grams(words, _ECHO_WORDS) & self.echo_grams)
        # A short memory that is a phrase of the instructions and not of the source.
        return len(words) >= 3 and bare in self.instructions and bare not in self.source_lower

    def _named_in_source(self, person: str) -> bool:
        name = _norm(person).strip(_END)
        if not name or name in self.words["self_names"]:
            return True
        tokens = [t for t in _WORD.findall(name) if len(t) > 1 or not t.isascii()]
        if not tokens:
            return True
        # Any part of the name will do ("Dr. Ana Lima" for "Ana"); CJK names by substring.
        return any(t in self.source_words or t in self.source_lower for t in tokens)

    def _resolved(self, memory: ExtractedMemory, when: str | None) -> ExtractedMemory:
        """Relative days in the text replaced by the day they mean, said at ``when``; the
        timestamp set to that day unless the model's own agrees."""
        found = relative_days(memory.memory, normalize_time(when) if when else None)
        if not found:
            return memory
        text = memory.memory
        for phrase, day in found:
            week = phrase.lower().endswith("week")
            text = text.replace(phrase, f"the week of {day}" if week else f"on {day}", 1)
        text = re.sub(r"\bon on\b", "on", text)
        day = found[0][1].isoformat()
        stamp = normalize_time(memory.timestamp) if memory.timestamp else None
        keep = stamp is not None and stamp[:10] == day
        self.allowed = self.allowed | {d.isoformat() for _, d in found}
        return memory.model_copy(
            update={"memory": text, "timestamp": memory.timestamp if keep else day}
        )


def note_rejection(reason: str) -> None:
    """Count a rejected memory for the fast item being refined (see :data:`REJECTED`)."""
    counts = REJECTED.get()
    if counts is not None:
        counts[reason] += 1

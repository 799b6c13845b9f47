"""The checks every file case makes on a batch: codes as expected, nothing lost, no error text.

A case lists its bad inputs with the error code each must be reported under, and its
readable inputs with what their items must hold. A readable input's expected item count
comes from reading it (or its *twin*: the same content under a name that reads cleanly)
alone, in this process, before the batch: so a count is never typed in by hand, and an
input lost in the batch shows up as items lost.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from omnireader import MemoryItem, Reader
from tests.faultkit.fault_cases import CONTROL_TEXT

from .harness import Outcome
from .reading import Batch, failure_key, item_key

__all__ = ["Readable", "check_batch", "control_readables", "error_text_problems", "baseline_count"]

# What a leaked error looks like: a traceback, an exception repr, or an error line.
_ERROR_TEXT = re.compile(
    r"Traceback \(most recent call last\)|^\s*(error|exception)\s*:|"
    r"\b[A-Z][A-Za-z]*(Error|Exception)(: |\()|could not be parsed|cannot be read as",
    re.I | re.M,
)


@dataclass
class Readable:
    """An input that must be read, and what its items must show."""

    path: Path | str  # a file, or "file!member" for an archive member
    twin: Path | None = None  # same content, cleanly named: the texts must match it
    min_items: int = 1  # without a twin: at least this many items
    contains: tuple[str, ...] = ()  # words the input's items must hold between them
    absent: tuple[str, ...] = ()  # text that must not appear (an expanded entity, say)
    max_chars: int | None = None  # the items' text together stays under this
    exact_items: int | None = None  # exactly this many items (one per page, say)
    flags: tuple[str, ...] = ()  # every item of the input carries these flags
    covers: int | None = None  # the items' character spans cover (nearly) this many chars

    @property
    def key(self) -> str:
        base, sep, member = str(self.path).partition("!")
        if not os.path.isabs(base):  # a URL, or <chat> / <string>
            return str(self.path)
        return f"{os.path.realpath(base)}{sep}{member}"


def control_readables(controls: list[Path]) -> list[Readable]:
    """The control files (:func:`tests.faultkit.fault_cases.write_controls`) as inputs that must be
    read in full: every item, and the text each holds (:data:`CONTROL_TEXT`)."""
    return [Readable(c, contains=CONTROL_TEXT[c.name]) for c in controls]


def baseline_count(path: Path, options: dict | None = None) -> tuple[int, list[str]]:
    """Items (and their texts) ``path`` gives when read alone, in this process."""
    result = Reader(**(options or {})).read_report(path)
    if result.failures:
        raise AssertionError(f"baseline {path} did not read: {result.failures[0].message}")
    return len(result.items), sorted(i.memory for i in result.items)


def error_text_problems(batch: Batch) -> list[str]:
    """An item whose text is (or holds) an error message: never allowed."""
    problems = []
    messages = [f.message for f in batch.failures if f.message]
    for item in batch.items:
        text = item.memory
        leaked = next((m for m in messages if m and m in text), None)
        if leaked or _ERROR_TEXT.search(text):
            problems.append(
                f"item {item.id} from {item_key(item)} holds error text: {text[:160]!r}"
            )
    return problems


def _coverage(r: Readable, items: list[MemoryItem]) -> list[str]:
    """The chunks of one long text must cover it from its start to its end."""
    spans = sorted(
        (s.char_start, s.char_end)
        for i in items
        for s in i.metadata.sources[:1]
        if s.char_start is not None and s.char_end is not None
    )
    if not spans:
        return [f"{r.path}: no item records its character span"]
    covered = sum(end - start for start, end in spans)
    assert r.covers is not None
    problems = []
    if spans[0][0] > 0 or spans[-1][1] < r.covers - 64 or covered < 0.99 * r.covers:
        problems.append(
            f"{r.path}: chunks cover {covered} of {r.covers} characters "
            f"({spans[0][0]}..{spans[-1][1]})"
        )
    # Provenance: each chunk's span must point at exactly its text in the file.
    text = Path(str(r.path)).read_text(encoding="utf-8")
    off = [
        i
        for i in items
        for s in i.metadata.sources[:1]
        if text[s.char_start or 0 : s.char_end or 0] != i.memory
    ]
    if off:
        problems.append(
            f"{r.path}: {len(off)} of {len(items)} chunks are not the text at "
            f"their span, e.g. {off[0].memory[:60]!r}"
        )
    return problems


def check_batch(
    batch: Batch,
    *,
    bad: dict[Path | str, str],
    readable: list[Readable],
    options: dict | None = None,
) -> Outcome:
    """Compare ``batch`` with what its inputs should give; see the module docstring."""
    out = Outcome(via=batch.via)
    by_input: dict[str, list[MemoryItem]] = defaultdict(list)
    for item in batch.items:
        by_input[item_key(item)].append(item)
    seen = _check_bad(batch, bad, by_input, out)
    read = 0
    for r in readable:
        items = by_input.get(r.key, [])
        _check_readable(r, items, options, out)
        name = _name(r.path)
        if name in CONTROL_TEXT:
            if not r.contains:  # a control checked by count alone proves nothing lost
                out.problems.append(
                    f"{name}: a control checked without its text (use control_readables)"
                )
            out.controls.append(name)
        else:
            read += len(items)
    out.problems.extend(error_text_problems(batch))
    parts = [c + (f" ×{n}" if n > 1 else "") for c, n in sorted(Counter(seen).items())]
    if read:
        parts.append(f"read ({read} item{'s' * (read != 1)})")
    out.outcome = " + ".join(parts) or "nothing"
    return out


def _name(path: Path | str) -> str:
    """A short name for reports: the file name, with ``!member`` for archive members."""
    base, sep, member = str(path).partition("!")
    return f"{Path(base).name}{sep}{member}" if os.path.isabs(base) else str(path)


def _check_bad(
    batch: Batch,
    bad: dict[Path | str, str],
    by_input: dict[str, list[MemoryItem]],
    out: Outcome,
) -> list[str]:
    """Each bad input reported under its code, with no items; no failure unaccounted for.
    Returns the codes seen on the bad inputs."""
    codes: dict[str, list[str]] = defaultdict(list)
    for f in batch.failures:
        codes[failure_key(f)].append(f.error)
    seen: list[str] = []
    for path, code in bad.items():
        key, name = Readable(path).key, _name(path)
        got = codes.get(key, [])
        seen.extend(got)
        if not got:
            n = len(by_input.get(key, []))
            out.problems.append(f"{name}: expected {code}, but no failure was reported ({n} items)")
        elif set(got) != {code}:
            msg = next(f.message for f in batch.failures if failure_key(f) == key)
            out.problems.append(f"{name}: expected {code}, got {sorted(set(got))}: {msg}")
        if by_input.get(key):
            out.problems.append(f"{name}: reported as {code} yet gave {len(by_input[key])} items")
    expected = {Readable(p).key for p in bad}
    for f in batch.failures:
        if failure_key(f) not in expected:
            out.problems.append(f"unexpected failure {f.error}: {f.message}")
    return seen


def _check_readable(
    r: Readable, items: list[MemoryItem], options: dict | None, out: Outcome
) -> None:
    """One readable input: all its items (else items lost), none twice, the right text."""
    texts = sorted(i.memory for i in items)
    want = r.exact_items if r.exact_items is not None else r.min_items
    if r.twin is not None:
        want, twin_texts = baseline_count(r.twin, options)
        if len(items) == want and texts != twin_texts:
            out.problems.append(
                f"{_name(r.path)}: its text differs from the same content read alone"
            )
    elif isinstance(r.path, Path) and r.path.is_file() and r.exact_items is None:
        want = max(want, baseline_count(r.path, options)[0])
    if len(items) < want:
        out.items_lost += want - len(items)
    elif len(items) > want and (r.exact_items is not None or r.twin is not None):
        out.problems.append(f"{_name(r.path)}: {len(items)} items, expected {want} (duplicates?)")
    joined = "\n".join(texts)
    out.problems += [
        f"{_name(r.path)}: its items do not hold {w!r}" for w in r.contains if w not in joined
    ]
    out.problems += [
        f"{_name(r.path)}: its items hold {w!r}, which must not appear"
        for w in r.absent
        if w in joined
    ]
    if r.max_chars is not None and len(joined) > r.max_chars:
        out.problems.append(
            f"{_name(r.path)}: {len(joined)} characters of text, over {r.max_chars}"
        )
    for flag in r.flags:
        if not all(flag in i.metadata.flags for i in items):
            out.problems.append(f"{_name(r.path)}: not every item is flagged {flag}")
    if r.covers is not None:
        out.problems.extend(_coverage(r, items))
    twice = [i for i, n in Counter(i.id for i in items).items() if n > 1]
    if twice:
        out.problems.append(f"{_name(r.path)}: item ids appear twice: {twice[:3]}")

"""How the command line prints: items as text, JSON, JSON lines or Markdown; tables; where.

Results go to standard output (or ``-o FILE``); summaries, progress and failures go to
standard error, so ``omnireader read x.pdf --format jsonl > items.jsonl`` holds only items.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:  # only annotations here: `stats` never builds the item models
    from pydantic import BaseModel

    from omnireader.models import MemoryItem, ReadFailure

__all__ = [
    "output",
    "render_item",
    "document_markdown",
    "stats_table",
    "say",
    "print_failures",
    "plural",
    "json_line",
]


def plural(count: int, noun: str) -> str:
    """``1 input``, ``2 inputs``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


@contextmanager
def output(args: argparse.Namespace) -> Iterator[IO[str]]:
    """Where results go: ``-o FILE`` or standard output."""
    target = getattr(args, "output", None)
    if target is None:
        yield sys.stdout
        return
    try:
        fp = open(target, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as e:
        from omnireader.errors import ConfigError

        raise ConfigError(
            f"-o/--output {str(target)!r}: cannot write there: {e.strerror or e}"
        ) from None
    with fp:
        yield fp


def print_models(models: Sequence[BaseModel], fmt: str, out: IO[str]) -> bool:
    """``models`` as ``--format json`` (one array) or ``jsonl`` (one a line); False for
    another format, which the command renders itself."""
    if fmt == "json":
        dumped = [m.model_dump(mode="json") for m in models]
        print(json.dumps(dumped, ensure_ascii=False, indent=2), file=out)
    elif fmt == "jsonl":
        for m in models:
            print(m.model_dump_json(), file=out)
    else:
        return False
    return True


def say(args: argparse.Namespace, text: str) -> None:
    """A summary line on standard error, unless ``--quiet``."""
    if not getattr(args, "quiet", False):
        print(text, file=sys.stderr)


def print_failures(args: argparse.Namespace, failures: list[ReadFailure], limit: int = 20) -> None:
    """One line per failure on standard error (all of them with ``-v``)."""
    shown = failures if getattr(args, "verbose", False) else failures[:limit]
    for f in shown:
        print(f"  ✗ [{f.error}] {f.message}", file=sys.stderr)
    if len(shown) < len(failures):
        print(f"  … and {len(failures) - len(shown)} more (-v lists them all)", file=sys.stderr)


def _where(item: MemoryItem) -> str:
    s = item.source
    if s is None:
        return ""
    name = s.path or s.url or s.filename or s.file_id or ""
    if s.member:
        name += f"!{s.member}"
    if s.kind in ("chat", "tool", "string") and not name:
        ids = [x.message_id for x in item.metadata.sources if x.message_id]
        name = f"{s.kind}" + (f" [{', '.join(ids)}]" if ids else "")
    if s.page is not None:
        name += f" p.{s.page}" + (f"\u2013{s.page_end}" if s.page_end else "")
    if s.chunk_total and s.chunk_total > 1:
        name += f" chunk {(s.chunk_index or 0) + 1}/{s.chunk_total}"
    return name


def render_item(item: MemoryItem, width: int = 400, score: float | None = None) -> str:
    """One item as a header line and its (shortened) text, for ``--format text``."""
    m = item.metadata
    head = f"── {item.id[:8]} {m.memory_type} ({m.mode})"
    if score is not None:
        head += f" score={score:.4f}"
    where = _where(item)
    if where:
        head += f" · {where}"
    if m.flags:
        head += f" · flags: {', '.join(m.flags)}"
    head += _version(item)
    text = item.memory if len(item.memory) <= width else item.memory[: width - 1] + "…"
    return head + "\n   " + text.replace("\n", "\n   ")


def _version(item: MemoryItem) -> str:
    """Which version the item is and, for an archived one, when and by what it was replaced."""
    m = item.metadata
    if m.status == "archived":
        by = f" by {m.superseded_by[:8]}" if m.superseded_by else ""
        return f" · v{m.version} archived {m.superseded_at} ({m.update_type}){by}"
    return f" · v{m.version} ({m.update_type})" if m.version > 1 or m.update_type else ""


def document_markdown(items: list[MemoryItem]) -> str:
    """The items of one input put back together as one Markdown text.

    Chunks of one page or section are joined along their character spans (an overlap is
    written once); pages and sections are separated by a blank line. Items that are not
    document chunks (a chat window, an image) are written as they are.
    """
    out: list[str] = []
    last: tuple[Any, ...] | None = None
    end = 0
    for item in items:
        s = item.source
        section = (s.path, s.member, s.page, item.metadata.extra.get("heading")) if s else None
        chunked = s is not None and s.kind == "file" and s.char_start is not None
        if chunked and section == last and s is not None and s.char_start is not None:
            skip = max(0, end - s.char_start)
            if s.char_end is not None:
                # A later piece of a split table has its caption and header row in front
                # of the rows its span holds: written once, at the table's top.
                skip += max(0, len(item.memory) - (s.char_end - s.char_start))
            # The white space between two chunks' spans (a blank line between two blocks,
            # two tables) is in neither: put it back, or the blocks run together.
            gap = s.char_start - end
            out[-1] += ("\n" * min(2, gap) if gap > 0 else "") + item.memory[skip:]
            end = max(end, s.char_end or end)
            continue
        out.append(item.memory)
        last = section if chunked else None
        end = (s.char_end or 0) if chunked and s is not None else 0
    return "\n\n".join(part.strip("\n") for part in out) + "\n"


def stats_table(stats: Any) -> str:
    """A store's statistics as an aligned plain-text table."""
    rows: list[tuple[str, str]] = [
        ("store", stats.path),
        ("items", str(stats.items)),
        ("embedder", f"{stats.embedder} ({stats.dim} dimensions)"),
    ]
    for title, counts in (
        ("by type", stats.by_type),
        ("by mode", stats.by_mode),
        ("by source", stats.by_source_kind),
    ):
        for n, (name, count) in enumerate(counts.items()):
            rows.append((title if n == 0 else "", f"{count:>8}  {name}"))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def json_line(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)

"""Chat windows that overlap: how many of a window's first messages the window before it
held, so its prompt marks them as already processed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from omnireader.models import MemoryItem, Source
from omnireader.refine.item_kind import refine_kind

__all__ = ["chat_overlaps"]


def _message_key(s: Source) -> str:
    return s.message_id or f"{s.content_hash}|{s.chat_time}|{s.char_start}"


def chat_overlaps(items: Sequence[MemoryItem]) -> dict[str, int]:
    """For each chat window, how many of its first messages the window before it held.

    Windows are refined concurrently, so instead of waiting for the previous window's
    memories the prompt marks those messages as already processed. The window before is
    found by ``window_index`` (and the messages shared), so items may come in any order,
    as they do from a store.
    """
    windows = [i for i in items if refine_kind(i) == "chat"]
    keys = {
        w.id: [_message_key(s) for s in w.metadata.sources if s.kind == "chat"] for w in windows
    }
    by_place: dict[tuple[Any, ...], list[MemoryItem]] = defaultdict(list)
    for w in windows:
        m = w.metadata
        by_place[(m.user_id, m.session_id, m.extra.get("window_index"))].append(w)
    out: dict[str, int] = {}
    for w in windows:
        m = w.metadata
        index = m.extra.get("window_index")
        if not isinstance(index, int) or index < 1:
            continue
        mine = keys[w.id]
        best = 0
        for before in by_place.get((m.user_id, m.session_id, index - 1), []):
            held = set(keys[before.id])
            n = 0
            while n < len(mine) and mine[n] in held:
                n += 1
            best = max(best, n)
        if best:
            out[w.id] = best
    return out

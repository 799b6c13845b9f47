"""What the text path makes of a few inputs, as digests: chunk boundaries and token counts,
item ids, texts, sources (spans), and hashing-embedder vectors.

``tests/fixtures/text_path_pinned.json`` holds these digests as the text path computed them
before it was made faster (issue 12); ``test_text_path_pinned.py`` checks they still hold,
so stores written before keep their ids (a re-ingest writes nothing new).

Regenerate only on purpose (a deliberate change of the chunks, ids or vectors):

    .venv/bin/python -m tests.support.text_path_snapshot --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "text_path_pinned.json"

_WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
    "embedding embeddings Lyon moved 12.5% 2025-01-15 naïve Grüße"
).split()
_PUNCT = [", ", "; ", ". ", "! ", "? ", " (", ") ", ": ", " - ", "—", "...", '"', "'", " | "]
_CJK = list("我们明天去北京开会。今天天气很好，适合散步！こんにちは세계")
_ODD = ["\x1c", "\x1f", "\xa0", "\u3000", "😀", "\U00020000", "\u2028", "\t", "\r\n"]


def _prose(seed: int, words: int, *, cjk: float = 0.0, odd: float = 0.0, para: float = 0.02) -> str:
    """Deterministic text: words, punctuation, paragraphs; some CJK and odd characters."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(words):
        r = rng.random()
        if r < cjk:
            out.append("".join(rng.choice(_CJK) for _ in range(rng.randint(1, 12))))
        elif r < cjk + odd:
            out.append(rng.choice(_ODD))
        else:
            out.append(rng.choice(_WORDS))
        r = rng.random()
        out.append(
            "\n\n" if r < para else "\n" if r < 2 * para else rng.choice(_PUNCT) if r < 0.3 else " "
        )
    return "".join(out)


def _one_line(size: int) -> str:
    words = 'alpha, bravo; charlie (delta) echo-foxtrot 12.5% golf "hotel" india/juliet '
    return (words * (size // len(words) + 1))[:size]


def inputs() -> dict[str, str]:
    """Name -> text. Large enough to need several chunks and every recursion level."""
    return {
        "one_line": _one_line(300_000),
        "one_line_words": ("lorem " * 40_000).strip(),
        "no_spaces": "x" * 30_000 + "y" * 5,
        "prose": _prose(1, 40_000),
        "prose_long_paragraphs": _prose(2, 30_000, para=0.0005),
        "mixed": _prose(3, 30_000, cjk=0.2, odd=0.03),
        "cjk": "".join(random.Random(4).choice(_CJK) for _ in range(20_000)),
        "short": "I moved to Lyon in May.",
        "spaces_edges": "  \n\n  leading and trailing  \n" + _prose(5, 3_000) + "\n\n   ",
    }


def _digest(value: Any) -> str:
    raw = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def _vector_digest(m: Any) -> dict[str, str]:
    import numpy as np

    m = np.ascontiguousarray(m, dtype=np.float64)
    return {
        "exact": hashlib.sha256(m.tobytes()).hexdigest(),
        "rounded": hashlib.sha256(np.round(m, 9).tobytes()).hexdigest(),
    }


def _item_view(item: Any) -> dict[str, Any]:
    """An item as stored, less what depends on the clock or the file's place."""
    d = item.model_dump(mode="json")
    meta = d["metadata"]
    for k in ("created_at", "updated_at", "timestamp"):
        meta.pop(k, None)
    # A memory's version fields are the store's record of its changes, not what the text path
    # made (a freshly read item always has the defaults: version 1, nothing superseded).
    assert (meta.pop("version"), meta.pop("update_type")) == (1, None)
    assert (meta.pop("superseded_by"), meta.pop("superseded_at")) == (None, None)
    for s in meta["sources"]:
        s.pop("path", None)
    meta["seen_at"] = []
    return d


def snapshot(tmp: Path) -> dict[str, Any]:
    from omnireader import Reader
    from omnireader.llm.embed_hashing import HashingEmbedder
    from omnireader.reading.outcomes import read_fast
    from omnireader.text.chunking import chunk_text
    from omnireader.units import match_text

    reader = Reader()
    out: dict[str, Any] = {}
    for name, text in inputs().items():
        entry: dict[str, Any] = {}
        for size in (64, 512):
            chunks = chunk_text(text, size)
            entry[f"chunks_{size}"] = _digest(
                [[c.index, c.total, c.char_start, c.char_end, c.tokens, c.text] for c in chunks]
            )
            entry[f"n_chunks_{size}"] = len(chunks)
        path = tmp / f"{name}.txt"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        got = read_fast(path, reader.context({"user_id": "u1"}, "fast"))
        assert not got.failures, got.failures
        entry["ids"] = _digest([i.id for i in got.items])
        entry["items"] = _digest([_item_view(i) for i in got.items])
        entry["n_items"] = len(got.items)
        entry["vectors"] = _vector_digest(
            HashingEmbedder().embed([match_text(i) for i in got.items])
        )
        out[name] = entry
    # The embedder on its own, in batches that mix texts of every kind.
    texts = [t[i : i + 700] for t in inputs().values() for i in range(0, min(len(t), 20_000), 650)]
    out["embed_mixed"] = _vector_digest(HashingEmbedder().embed(texts))
    out["embed_mixed_dim64"] = _vector_digest(HashingEmbedder(dim=64).embed(texts[::3]))
    return out


if __name__ == "__main__":
    import tempfile

    if "--write" not in sys.argv:
        sys.exit(__doc__)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    with tempfile.TemporaryDirectory() as d:
        snap = snapshot(Path(d))
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(snap, indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURE}")

"""Large text inputs written in blocks, for the fault matrix and the text benchmark alike.

Here, in ``tests.support``, because ``bench/bench_text.py`` needs the same line the fault
matrix reads, and ``tests.support`` is the one part of ``tests`` that ``bench`` may import.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["write_one_line_text"]


def write_one_line_text(path: Path, size: int) -> Path:
    """``size`` bytes of words and punctuation on one line (no newline, no sentence end)."""
    words = b'alpha, bravo; charlie (delta) echo-foxtrot 12.5% golf "hotel" india/juliet '
    with path.open("wb") as f:
        whole, rest = divmod(size, len(words))
        block = words * 1024
        for _ in range(whole // 1024):
            f.write(block)
        f.write(words * (whole % 1024) + words[:rest])
    return path

"""A fast read that hands a long text's items on a piece at a time (``reading/pieces.py``):
each piece leaves finished (named after its file) before the read ends, and the pieces and
what is left in the outcome are the items ``read_fast`` gives. New API: fails on the base."""

from __future__ import annotations

import zipfile
from pathlib import Path

from omnireader.models import MemoryItem
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.reading.outcomes import read_fast
from omnireader.reading.pieces import PiecedRead

TEXT = (
    "The board meeting has been moved to Thursday afternoon, in the large room. "
    "Members will receive the agenda by post next week, with the minutes.\n\n"
) * 40


def _ctx() -> ParseContext:
    return ParseContext(options=ReadOptions(chunk_tokens=16))


def _dump(items: list[MemoryItem]) -> list[dict]:
    return [i.model_dump(exclude={"metadata": {"created_at", "updated_at"}}) for i in items]


def test_a_long_text_comes_in_finished_pieces_before_the_read_ends(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text(TEXT, encoding="utf-8")
    read = PiecedRead(path, _ctx(), 7)
    pieces = iter(read)
    first = next(pieces)
    assert len(first) == 7 and read.outcome is None  # given while the rest is unread
    assert all(i.metadata.sources[0].path == str(path) for i in first)
    assert all(i.metadata.timestamp is not None for i in first)  # the file's time, as finish
    rest = [i for piece in pieces for i in piece]
    assert read.outcome is not None and read.outcome.items == [] and not read.undo
    assert read.sent == -(-(7 + len(rest)) // 7)
    assert _dump([*first, *rest]) == _dump(read_fast(path, _ctx()).items)


def test_a_short_text_is_read_whole_into_the_outcome(tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_text(TEXT[:300], encoding="utf-8")
    read = PiecedRead(path, _ctx(), 7)
    assert list(read) == [] and read.sent == 0
    assert read.outcome is not None
    assert _dump(read.outcome.items) == _dump(read_fast(path, _ctx()).items)


def test_an_archives_long_member_comes_in_pieces_and_the_others_whole(tmp_path: Path) -> None:
    path = tmp_path / "texts.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("long.txt", TEXT)
        z.writestr("short.txt", TEXT[:300])
        z.writestr("also_long.txt", TEXT.replace("board", "council"))
    read = PiecedRead(path, _ctx(), 7)
    given = [i for piece in read for i in piece]
    assert read.sent > 1 and read.outcome is not None
    # Only the first part comes in pieces: the rest is in the outcome, in order.
    assert {i.metadata.sources[0].member for i in given} == {"long.txt"}
    assert {i.metadata.sources[0].member for i in read.outcome.items} == {
        "short.txt",
        "also_long.txt",
    }
    assert _dump([*given, *read.outcome.items]) == _dump(read_fast(path, _ctx()).items)

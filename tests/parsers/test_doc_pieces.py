"""A long plain text's items come a piece at a time (``parsers/doc_pieces.py``), each equal
field for field to the item the single pass makes: languages lent by neighbours and by the
document's majority, titles, ids, offsets. Written to pin behaviour the pieces must keep; the
comparisons with ``parse_fast`` pass on the base too, where there is only the single pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader.models import MemoryItem
from omnireader.options import ReadOptions
from omnireader.parsers.base import ParseContext
from omnireader.parsers.doc_languages import _lent, planned_languages
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob
from omnireader.text.language import guess_language

FRENCH = (
    "La réunion du conseil est reportée à jeudi après-midi, dans la grande salle. "
    "Les membres recevront l'ordre du jour par courrier la semaine prochaine. "
)
ENGLISH = (
    "The board meeting has been moved to Thursday afternoon, in the large room. "
    "Members will receive the agenda by post next week, with the minutes. "
)
GERMAN = (
    "Die Sitzung des Vorstands wurde auf Donnerstagnachmittag verschoben, im großen Saal. "
    "Die Mitglieder erhalten die Tagesordnung nächste Woche per Post. "
)
# Says too little for a sure guess: takes its neighbours' or the document's language.
UNSURE = "https://a.example/x 12 34 https://b.example/y 56 78 "


def _texts() -> dict[str, str]:
    return {
        # Unsure runs between sure neighbours that agree, that disagree, and at both ends
        # (no neighbour on one side: the document's majority, English here).
        "majority": UNSURE * 3
        + ENGLISH * 20
        + UNSURE * 2
        + ENGLISH * 6
        + UNSURE * 2
        + FRENCH * 5
        + UNSURE * 3
        + ENGLISH * 15
        + UNSURE * 4,
        # No language holds 60% of the sure text: unsure chunks lend by neighbours only.
        "bilingual": UNSURE * 2 + FRENCH * 12 + UNSURE * 2 + GERMAN * 12 + UNSURE * 2,
        "one_line": ("lorem ipsum dolor sit amet " * 400).strip(),
        "prose": "\n\n".join([ENGLISH * 3, FRENCH * 2, GERMAN * 2] * 6),
        "nothing_sure": UNSURE * 30,
    }


def _dump(item: MemoryItem) -> dict:
    """The item's fields but the times it was made at (a read may cross a second)."""
    return item.model_dump(exclude={"metadata": {"created_at", "updated_at"}})


def _parse(blob: Blob, size: int | None) -> list[list[dict]]:
    ctx = ParseContext(options=ReadOptions(chunk_tokens=16))
    pieces = FileParser().parse_pieces(blob, ctx, size)
    got = [(piece.last, [_dump(item) for item in piece.items]) for piece in pieces]
    assert [last for last, _ in got] == [False] * (len(got) - 1) + [True]
    return [items for _, items in got]


@pytest.mark.parametrize("name", sorted(_texts()))
@pytest.mark.parametrize("suffix", [".txt", ".md"])
def test_the_pieces_of_a_long_text_are_the_items_of_its_single_pass(
    tmp_path: Path, name: str, suffix: str
) -> None:
    path = tmp_path / f"{name}{suffix}"
    path.write_text(_texts()[name], encoding="utf-8")
    whole = [_dump(item) for item in FileParser().parse_fast(Blob(path=str(path)), _ctx())]
    pieces = _parse(Blob(path=str(path)), 7)
    assert len(whole) > 14 and len(pieces) == -(-len(whole) // 7)
    assert all(len(p) == 7 for p in pieces[:-1])
    assert [item for piece in pieces for item in piece] == whole
    # Without a size, or a size the text fits in: the single pass, in one list.
    assert _parse(Blob(path=str(path)), None) == [whole]
    assert _parse(Blob(path=str(path)), len(whole)) == [whole]


def _ctx() -> ParseContext:
    return ParseContext(options=ReadOptions(chunk_tokens=16))


def test_languages_are_lent_by_neighbours_and_by_the_majority_in_the_pieces_too(
    tmp_path: Path,
) -> None:
    path = tmp_path / "majority.txt"
    path.write_text(_texts()["majority"], encoding="utf-8")
    items = [
        i
        for piece in FileParser().parse_pieces(Blob(path=str(path)), _ctx(), 5)
        for i in piece.items
    ]
    own = [guess_language(i.memory) for i in items]
    langs = [i.metadata.sources[0].lang for i in items]
    unsure = [n for n, g in enumerate(own) if not g.sure]
    assert unsure and unsure[0] == 0  # the text starts unsure: no neighbour before it
    assert langs[0] == "en"  # the document's majority
    assert "fr" in langs and set(langs) <= {"en", "fr"}
    for n, g in enumerate(own):
        if g.sure:
            assert langs[n] == g.lang


def test_the_planned_languages_are_what_guessing_then_inheriting_gives() -> None:
    texts = [UNSURE, ENGLISH, UNSURE, ENGLISH, UNSURE, FRENCH, UNSURE, UNSURE, GERMAN, UNSURE]
    own = [guess_language(t).lang for t in texts]
    lent = _lent(texts, own)
    assert planned_languages(texts) == [b or a for a, b in zip(own, lent)]
    assert planned_languages(texts)[2] == "en"  # between two English chunks


def test_a_markdown_file_with_headings_comes_whole(tmp_path: Path) -> None:
    # Its chunks link to their neighbours in the section (doc_prev / doc_next): one pass.
    path = tmp_path / "notes.md"
    path.write_text("\n\n".join(f"# Part {n}\n\n{ENGLISH * 3}" for n in range(8)))
    pieces = _parse(Blob(path=str(path)), 3)
    assert len(pieces) == 1 and len(pieces[0]) > 3

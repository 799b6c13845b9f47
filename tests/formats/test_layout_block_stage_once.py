"""The block stage's work done once or left out where it cannot matter (issue 38), pinned to
what doing it every time gives: the body size a page's blocks are measured against, and the
line ends a paragraph's reflow keeps (a page's vocabulary outside ASCII: in
``test_layout_vocabulary.py``)."""

from __future__ import annotations

from omnireader.formats.layout.block_kinds import block_of
from omnireader.formats.layout.blocks import make_blocks
from omnireader.formats.layout.headings import HeadingRules
from omnireader.formats.layout.lines import make_lines
from omnireader.formats.layout.model import Word
from omnireader.formats.layout.paragraphs import line_breaks, paragraphs
from omnireader.formats.layout.reflow import Vocabulary, reflow


def test_the_body_size_follows_each_page_added() -> None:
    rules = HeadingRules()
    rules.add_sizes({10.0: 900, 14.0: 40})
    assert rules.body_size == 10.0
    assert rules.level("Results of Operations", 14.0, False, 1, 0) == 2
    rules.add_sizes({14.0: 2000})  # a page set larger: 14 is the body from now on
    assert rules.body_size == 14.0
    assert rules.level("Results of Operations", 14.0, False, 1, 1) == 0
    # Tables holding most characters count in.
    rules.add_sizes({}, {8.0: 10_000})
    assert rules.body_size == 8.0


def test_a_long_block_is_body_text_unless_a_bold_statement() -> None:
    rules = HeadingRules()
    rules.add_sizes({10.0: 1000})
    long = "We face significant competition in every market we serve today and tomorrow"
    assert rules.level(long, 10.5, False, 1, 0) == 0
    assert rules.level(long, 10.5, True, 1, 0) > 0
    assert rules.level("Risk Factors", 10.0, True, 4, 0) == 0  # four lines: no heading


def _page() -> list[Word]:
    """A column of prose: a one-line heading, paragraphs set with no space between them and
    a short address-like run of lines, then a block that is one paragraph."""
    words: list[Word] = []
    y = 72.0

    def line(texts: list[str], bold: bool = False, size: float = 10.0) -> None:
        nonlocal y
        x = 72.0
        for t in texts:
            w = len(t) * size * 0.5
            words.append(Word(t, x, y, x + w, y + size, size, bold))
            x += w + size * 0.3
        y += size * 1.2

    line(["Results", "of", "Operations"], bold=True, size=14.0)
    y += 10
    prose = "the company grew its sales in every region and its margins held as costs fell".split()
    for i in range(6):
        line(prose[i % 3 :] + ["again."] if i == 2 else prose)
    line(["Short", "line", "ends."])
    line(["Next", "paragraph", "starts"] + prose[:10])
    line(["One", "Main", "Street"])
    line(["Springfield"])
    y += 20  # a block of its own, one paragraph: left whole
    for _ in range(3):
        line(prose)
    line(["and", "so", "on."])
    return words


def test_each_paragraph_reflows_with_the_line_ends_worked_out_afresh() -> None:
    rules = HeadingRules()
    rules.add_sizes({10.0: 2000})
    vocabulary = Vocabulary()
    lines = make_lines(_page(), 612.0)
    parts = [p for b in make_blocks(lines) for p in paragraphs(b)]
    assert len(parts) >= 3
    kept = 0
    for part in parts:
        fresh = line_breaks(part)
        if part.breaks is not None:
            kept += 1
            assert part.breaks == fresh
        block = block_of(part, 0, rules, vocabulary)
        want = reflow([line.text for line in part.lines], vocabulary, fresh, [])
        assert block.text == want
    assert kept >= 1  # a block paragraphs() left whole keeps its line ends


def test_a_block_given_another_line_works_its_line_ends_out_again() -> None:
    lines = make_lines(_page(), 612.0)
    whole = [p for b in make_blocks(lines) for p in paragraphs(b) if p.breaks is not None]
    part = whole[0]
    part.add(lines[-1])  # the kept line ends were for the lines before it
    assert part.breaks is None

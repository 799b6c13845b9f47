"""Where a long text is cut (omnireader.text.chunking): at blank lines, then at sentence
ends, and at a line's end only inside a sentence too long for a chunk; no scrap of a few
words is left alone."""

from __future__ import annotations

import textwrap

from omnireader.text.chunking import chunk_text


def _wrapped(sentences: int, width: int = 72) -> str:
    text = " ".join(
        f"Sentence {n} talks about the quarterly budget review and the project timeline."
        for n in range(sentences)
    )
    return textwrap.fill(text, width)  # one paragraph, hard-wrapped as mail bodies are


def test_a_hard_wrapped_paragraph_is_cut_at_sentence_ends_not_at_line_ends() -> None:
    text = _wrapped(120)
    chunks = chunk_text(text, 128)
    assert len(chunks) > 4
    for c in chunks[:-1]:
        assert c.text.rstrip().endswith("."), c.text[-80:]
    assert "".join(c.text for c in chunks) == text  # nothing lost or repeated


def test_a_mails_header_block_goes_with_the_start_of_its_body() -> None:
    header = (
        "Subject: Budget\nFrom: Ana <ana@example.org>\nDate: Mon, 1 Jan 2024 10:00:00 +0100\n\n"
    )
    text = header + _wrapped(240)
    first = chunk_text(text, 512)[0]
    assert first.text.startswith(header)
    assert "Sentence 0 talks" in first.text
    assert first.tokens <= 512 + 512 // 8


def test_a_last_sentence_alone_joins_the_chunk_before() -> None:
    # 39 sentences fill a chunk of 512 tokens; the 40th alone would be a chunk of 13.
    text = " ".join(
        f"Sentence {n} talks about the quarterly budget review and the project timeline."
        for n in range(40)
    )
    [chunk] = chunk_text(text, 512)
    assert chunk.text == text
    assert chunk.tokens <= 512 + 512 // 8
    # Past an eighth over the budget, the scrap stays a chunk of its own.
    longer = chunk_text(_wrapped(200), 512)
    assert all(c.tokens <= 512 + 512 // 8 for c in longer)
    assert [c.index for c in longer] == list(range(len(longer)))
    assert all(c.total == len(longer) for c in longer)

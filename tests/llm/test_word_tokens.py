"""Token ids with each space-separated word tokenized once (``omnireader/llm/word_tokens.py``)
are the bundled tokenizer's own, text by text, truncated as it truncates: on repeated prose
(words from the cache), on mostly new words (tokenized whole), and on the characters where a
BERT tokenizer does something of its own (accents, scripts without spaces, control
characters, special tokens, runs of spaces)."""

from __future__ import annotations

import random

import pytest
from tokenizers import Tokenizer, models, pre_tokenizers

from omnireader.llm.embed_static import MODELS_DIR
from omnireader.llm.word_tokens import WordTokenIds, first_ids, letter_tokens, splits_at_spaces

MAX = 512

PROSE = (
    "The heron nests by the quartz lagoon; its chicks, three of them, hatch in May. "
    "Revenue rose 12.5% to $4,203 million (2023: $3,736m), driven by North-America. "
)

ODD = [
    "Ünïcödé  naïve café à l'école",
    "中文字符和日本語のテキスト混在 text ทดสอบภาษาไทย",
    "a\u0301 \u0301b  c\u0327 e\u0301\u0323",  # combining accents, one after a space
    "tab\there\nnew\r\nline\x0bvertical",
    "ctrl\x1f\x1cchars\x00here \ufffd and\u200bzero\u200dwidth",
    "ΣΑΣ ΟΔΟΣ σας İstanbul ǅ ß ﬁ ligature Ⅻ ① ㎡ ™ 𝐁𝐨𝐥𝐝 ﾃｽﾄ",
    "[CLS] hello [SEP] foo[SEP]bar [MASK][PAD] [UNK]",
    "x" * 300 + " y" * 600,  # a word beyond WordPiece's 100 characters, then 600 tokens
    "a,b,c;" * 400,  # one 2,400-character word of 1,600 tokens
    "emoji 😀👍🏽 ok \u2028sep\u2029 \u00a0nbsp\u3000ideographic",
    "  leading, trailing and   inner   spaces  ",
    "",
    " ",
    "   \t\t  ",
    "https://example.com/a?b=c&d=e#f user@example.org",
]


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    tok = Tokenizer.from_file(str(MODELS_DIR / "minilm-l6-v2" / "tokenizer.json"))
    tok.no_padding()
    return tok


def reference(
    tokenizer: Tokenizer, texts: list[str], keep: list[bool] | None = None
) -> list[list[int]]:
    """The tokenizer's ids; with ``keep``, those it keeps; then the first ``MAX``."""
    whole = [e.ids for e in tokenizer.encode_batch(texts, add_special_tokens=False)]
    return [[i for i in ids if keep is None or keep[i]][:MAX] for ids in whole]


def random_texts(seed: int, n: int) -> list[str]:
    rnd = random.Random(seed)
    alphabet = [
        chr(c)
        for c in [*range(32, 0x250), *range(0x300, 0x370), *range(0x4E00, 0x4E40)]
        + [0x200B, 0x200D, 0xFEFF, 0x1F600, 0x85, 0xA0, 0x2028, 0x1C, 0x1F]
    ]
    pool = alphabet + [" "] * 20
    return ["".join(rnd.choice(pool) for _ in range(rnd.randint(0, 400))) for _ in range(n)]


def test_the_bundled_tokenizer_is_one_whose_tokens_never_cross_a_space(
    tokenizer: Tokenizer,
) -> None:
    assert splits_at_spaces(tokenizer)


def test_a_tokenizer_whose_tokens_carry_their_space_is_not() -> None:
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel()
    assert not splits_at_spaces(bpe)


def test_repeated_prose_gives_the_tokenizers_ids_from_words_tokenized_once(
    tokenizer: Tokenizer,
) -> None:
    texts = [PROSE * n for n in (1, 3, 12, 40)] + ODD  # 40 repeats: far beyond 512 tokens
    ids = WordTokenIds(tokenizer, MAX)

    assert ids(texts) == reference(tokenizer, texts)
    assert ids(texts) == reference(tokenizer, texts)  # the second time, all from the cache
    assert len(ids._words) < 100  # the prose's words, once each


def test_mostly_new_words_are_tokenized_whole_with_the_same_ids(tokenizer: Tokenizer) -> None:
    texts = random_texts(5, 600) + ODD
    ids = WordTokenIds(tokenizer, MAX)

    assert ids(texts) == reference(tokenizer, texts)
    assert ids._words == {}  # nothing learned: the cache would not have paid


def test_odd_characters_among_known_words_give_the_same_ids(tokenizer: Tokenizer) -> None:
    # Each odd text among prose, so the batch takes the cache's path with them in it.
    texts = [PROSE * 8 + odd + " " + PROSE for odd in ODD + random_texts(7, 40)]
    ids = WordTokenIds(tokenizer, MAX)

    assert ids(texts) == reference(tokenizer, texts)
    assert len(ids._words) > 100  # the odd words went through the cache


def test_when_its_budget_is_spent_it_starts_again_and_still_answers_the_same(
    tokenizer: Tokenizer,
) -> None:
    texts = [PROSE * 4 + f" batch{i} of words" for i in range(50)]
    ids = WordTokenIds(tokenizer, MAX, budget=2_000)

    for start in range(0, len(texts), 5):
        part = texts[start : start + 5]
        assert ids(part) == reference(tokenizer, part)
    assert ids._held <= 2_000


def test_words_end_at_line_breaks_and_tabs_and_are_learnt_once_across_lines(
    tokenizer: Tokenizer,
) -> None:
    # Lines of prose ending in numbers, joined by each break a text holds, and the characters
    # Python splits at that the tokenizer deletes or keeps inside a word instead.
    lines = [f"Revenue rose ({n}). Costs fell" for n in range(60)]
    texts = [sep.join(lines) for sep in ("\n", "\r\n", "\t", "\n\n", " \n ")]
    texts += [f"a{c}b c{c} {c}d naïve{c}\u0301é" for c in "\x0b\x0c\x1c\x1f\x85\u2028\u00a0\u3000"]
    ids = WordTokenIds(tokenizer, MAX)

    assert ids(texts) == reference(tokenizer, texts)
    assert ids(texts) == reference(tokenizer, texts)  # from the cache
    assert "Fell" not in ids._words and "fell" in ids._words
    assert not any("\n" in w or "\t" in w or "\r" in w for w in ids._words)
    assert len(ids._words) < 120  # "(n)." once each, not glued to the next line's first word


def test_letter_tokens_are_those_holding_a_letter_continuation_marks_aside(
    tokenizer: Tokenizer,
) -> None:
    keep = letter_tokens(tokenizer)
    token = tokenizer.token_to_id

    assert len(keep) == tokenizer.get_vocab_size()
    assert [keep[token(t)] for t in ("revenue", "##ing", "ß", "##ß", "α", "中", "x")] == [True] * 7
    assert [keep[token(t)] for t in ("4", "##9", "$", "|", ",", "##%", "(")] == [False] * 7
    numbers = tokenizer.encode("1,234.5 (67) | $ % -- 2023", add_special_tokens=False).ids
    assert numbers and not any(keep[i] for i in numbers)


@pytest.mark.parametrize("texts", ["prose", "new words", "odd among prose"])
def test_with_keep_the_ids_are_the_kept_ones_and_the_first_512_of_them(
    tokenizer: Tokenizer, texts: str
) -> None:
    # The same on every path: words from the cache, texts tokenized whole, odd characters;
    # a table of numbers longer than 512 tokens keeps its words past the 512th token.
    table = " | ".join(f"Item {i} | {i * 1_234:,} | ({i}.5)%" for i in range(400))
    chosen = {
        "prose": [PROSE * n for n in (1, 3, 12, 40)] + ODD + [table],
        "new words": random_texts(5, 600) + ODD,
        "odd among prose": [PROSE * 8 + odd + " " + PROSE for odd in ODD] + [table],
    }[texts]
    keep = letter_tokens(tokenizer)
    ids = WordTokenIds(tokenizer, MAX, keep=keep)

    assert ids(chosen) == reference(tokenizer, chosen, keep)
    assert ids(chosen) == reference(tokenizer, chosen, keep)  # again, from the cache
    assert first_ids(tokenizer, MAX, keep, chosen) == reference(tokenizer, chosen, keep)
    assert first_ids(tokenizer, MAX, None, chosen) == reference(tokenizer, chosen)
    tokenizer.no_truncation()  # first_ids(None) set it, as the embedder's own tokenizer

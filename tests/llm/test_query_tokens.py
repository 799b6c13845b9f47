"""A query's token ids without the ``tokenizers`` package (``omnireader/llm/query_tokens.py``)
are the bundled tokenizer's own wherever it gives them (ASCII text), and it steps aside
(None) everywhere else; a cold search then embeds its query without importing the
tokenizer."""

from __future__ import annotations

import json
import random
import string
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer

from omnireader.llm.embed_static import MODELS_DIR, StaticEmbedder
from omnireader.llm.query_tokens import QUERY_VOCAB, QueryTokens, write_query_vocab
from omnireader.llm.word_tokens import letter_tokens

BUNDLED = MODELS_DIR / "potion-base-8m"
ROOT = Path(__file__).resolve().parents[2]


def _tokenizer() -> Tokenizer:
    tokenizer = Tokenizer.from_file(str(BUNDLED / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def _texts() -> list[str]:
    rng = random.Random(7)
    prose = [line for line in (ROOT / "README.md").read_text().splitlines() if line.isascii()]
    alphabet = string.printable + "\x00\x01\x0b\x0c\x1c\x1f\x7f"
    noise = ["".join(rng.choices(alphabet, k=rng.randint(0, 80))) for _ in range(2000)]
    words = ["a" * 99, "b" * 100, "c" * 101, "unbelievableness", "don't", "U.S.A.", "$12,345.67"]
    words += ["[sep]", "##ing", "x" * 30, "zzqxj", "naive", "e-mail", "[UNK", "UNK]"]
    mixed = [" ".join(rng.choices(words, k=5)) for _ in range(300)]
    return prose + noise + mixed


@pytest.mark.parametrize("letters", [False, True])
def test_ascii_queries_get_exactly_the_tokenizers_ids(letters: bool) -> None:
    # With ``letters`` (the default model's pooling), the ids of the tokens holding a letter.
    ours, theirs = QueryTokens.from_folder(BUNDLED, letters), _tokenizer()
    assert ours is not None
    keep = letter_tokens(theirs)
    texts = _texts()
    compared = [(t, ours.ids(t)) for t in texts]
    assert all(ids is not None for _, ids in compared)  # every one is ASCII, no special token
    assert len(texts) > 2000
    for text, ids in compared:
        expected = theirs.encode(text, add_special_tokens=False).ids
        assert ids == [i for i in expected if keep[i] or not letters], repr(text)


@pytest.mark.parametrize(
    "text",
    ["Ünïcödé café", "中文 text", "what is [SEP] for", "a [MASK] b", "non\u00a0breaking"],
)
def test_what_it_cannot_be_sure_of_is_left_to_the_tokenizer(text: str) -> None:
    queries = QueryTokens.from_folder(BUNDLED)
    assert queries is not None and queries.ids(text) is None
    embedder = StaticEmbedder()
    assert np.allclose(embedder.embed_query(text), embedder.embed([text])[0])


@pytest.mark.parametrize("model", ["potion-base-8m-letters", "potion-base-8m"])
def test_the_query_vector_is_the_one_ingest_makes_for_the_same_text(model: str) -> None:
    embedder = StaticEmbedder(model)
    texts = ["When did Caroline go to the LGBTQ support group?", "capex FY2018 ($m)", "", "42 %"]
    for text in texts:
        assert np.array_equal(embedder.embed_query(text), embedder.embed([text])[0])


def test_a_cold_query_does_not_import_the_tokenizer() -> None:
    code = (
        "import sys; from omnireader.llm.embed_static import StaticEmbedder;"
        "StaticEmbedder().embed_query('launch plan for the team');"
        "print('tokenizers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_bundled_vocabulary_is_the_one_written_from_its_tokenizer(tmp_path: Path) -> None:
    tokenizer = json.loads((BUNDLED / "tokenizer.json").read_text())
    assert write_query_vocab(tokenizer, tmp_path)
    assert (tmp_path / QUERY_VOCAB).read_bytes() == (BUNDLED / QUERY_VOCAB).read_bytes()


def test_no_vocabulary_is_written_for_a_tokenizer_of_another_shape(tmp_path: Path) -> None:
    tokenizer = json.loads((BUNDLED / "tokenizer.json").read_text())
    tokenizer["normalizer"]["lowercase"] = False  # a cased model: "Paris" is not "paris"
    assert not write_query_vocab(tokenizer, tmp_path)
    assert QueryTokens.from_folder(tmp_path) is None


def test_every_token_of_a_written_vocabulary_is_found_under_its_id(tmp_path: Path) -> None:
    # Tokens are looked up in byte order, not id order; any character may be in one.
    tokenizer = json.loads((BUNDLED / "tokenizer.json").read_text())
    vocab = tokenizer["model"]["vocab"]
    vocab |= {"a\nb": len(vocab), "zz\u00e9": len(vocab) + 1, "a": len(vocab) + 2}
    assert write_query_vocab(tokenizer, tmp_path)
    queries = QueryTokens.from_folder(tmp_path)
    assert queries is not None
    assert all(queries.token_id(token) == i for token, i in vocab.items())
    assert queries.token_id("no such token") is None and queries.token_id("") is None


def test_a_file_of_another_format_is_not_read(tmp_path: Path) -> None:
    (tmp_path / QUERY_VOCAB).write_bytes(b'{"unk_token": "[UNK]"}\n[UNK]\na\n')
    assert QueryTokens.from_folder(tmp_path) is None


def test_a_word_wordpiece_cannot_cover_is_one_unknown_token() -> None:
    # The bundled vocabulary covers every ASCII word (it has each letter and digit, bare and
    # as a ## continuation), so a small one shows the rule.
    settings = {
        "unk_token": "[UNK]",
        "continuing_subword_prefix": "##",
        "max_input_chars_per_word": 100,
        "added_tokens": ["[UNK]"],
    }
    ids = QueryTokens(settings, ["[UNK]", "un", "##able", "able", "##s"]).ids
    assert ids("Unable ables") == [1, 2, 3, 4]
    assert ids("unknown able") == [0, 3]  # "un" then nothing for "known": the whole word

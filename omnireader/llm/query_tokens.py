"""A query's token ids without the ``tokenizers`` package, where that is exact: ASCII text
and a lowercasing BERT WordPiece tokenizer.

A cold ``omnireader search`` embeds one short query. Importing ``tokenizers`` and loading a
model's ``tokenizer.json`` take ~30 ms of it, as much as the rest of the static embedder;
reading a vocabulary alone ~1.5 ms. For ASCII text a BERT tokenizer's steps are simple
and are done here as it does them: its normaliser drops control characters (not tab, newline
or return, which become spaces) and lowercases (accents cannot occur); its pre-tokenizer splits
at spaces and makes each ASCII punctuation character a word; WordPiece takes each word's longest
known prefix, then its longest known ``##`` continuations, and a word it cannot cover (or one
longer than ``max_input_chars_per_word``) is one ``[UNK]``. Anything else (a character beyond
ASCII, a special token such as ``[SEP]`` written in the text, which the tokenizer matches
whole) gets ``None``, and the caller asks the tokenizer. ``tests/llm/test_query_tokens.py``
compares both on thousands of strings.

The vocabulary file (``query_vocab.txt`` in a static model's folder) is written from the
model's ``tokenizer.json`` by :func:`write_query_vocab`, only for a tokenizer of that shape:
its first line the tokenizer's settings (JSON), then one token a line, a token's id its line
number. Plain lines, because a cold search reads it: split and zipped into a dict it loads in
~1.5 ms, where one JSON document of the same tokens took ~6 (parse, then a dict comprehension).
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

__all__ = ["QUERY_VOCAB", "QueryTokens", "write_query_vocab"]

QUERY_VOCAB = "query_vocab.txt"
_PUNCT = re.escape(string.punctuation)  # Rust's is_ascii_punctuation: the same 32
_WORDS = re.compile(rf"[{_PUNCT}]|[^\s{_PUNCT}]+")
_LETTER = re.compile("[a-z]")  # the text is ASCII and lowercased by then
# Control characters go (BertNormalizer's clean_text); tab, newline and return become spaces.
_CLEAN = {c: None for c in (*range(0x20), 0x7F) if chr(c) not in "\t\n\r"} | {
    ord("\t"): " ",
    ord("\n"): " ",
    ord("\r"): " ",
}


class QueryTokens:
    """``ids(text)``: the token ids the tokenizer would give ``text``, or None where this
    cannot be sure (see the module text)."""

    def __init__(self, settings: dict[str, Any], tokens: list[str], letters: bool = False) -> None:
        self._ids = dict(zip(tokens, range(len(tokens))))
        self._letters = letters  # only the tokens holding a letter (word_tokens.letter_tokens)
        self._unk = self._ids[settings["unk_token"]]
        self._prefix: str = settings["continuing_subword_prefix"]
        self._longest: int = settings["max_input_chars_per_word"]
        self._added: list[str] = settings["added_tokens"]

    @classmethod
    def from_folder(cls, folder: Path, letters: bool = False) -> QueryTokens | None:
        """The folder's query vocabulary, or None when it has none; ``letters``: give only
        the ids of tokens holding a letter."""
        path = folder / QUERY_VOCAB
        if not path.is_file():
            return None
        settings, *tokens = path.read_bytes().decode("utf-8").split("\n")
        return cls(json.loads(settings), tokens, letters)

    def ids(self, text: str) -> list[int] | None:
        if not text.isascii() or any(a in text for a in self._added):
            return None
        out: list[int] = []
        for word in _WORDS.findall(text.translate(_CLEAN).lower()):
            out += self._word(word)
        return out

    def _word(self, word: str) -> list[int]:
        if len(word) > self._longest:
            return [self._unk]
        pieces: list[int] = []
        start = 0
        while start < len(word):
            for end in range(len(word), start, -1):
                piece = word[start:end] if start == 0 else self._prefix + word[start:end]
                found = self._ids.get(piece)
                if found is not None:
                    if not self._letters or _LETTER.search(piece):
                        pieces.append(found)
                    start = end
                    break
            else:
                return [self._unk]
        return pieces


def write_query_vocab(tokenizer_json: dict[str, Any], folder: Path) -> bool:
    """Write ``folder/query_vocab.txt`` from a ``tokenizer.json`` (parsed) if the tokenizer
    is a lowercasing BERT WordPiece one whose tokens hold no line break; whether it was
    written."""
    model = tokenizer_json.get("model") or {}
    normalizer = tokenizer_json.get("normalizer") or {}
    pre = tokenizer_json.get("pre_tokenizer") or {}
    vocab: dict[str, int] = model.get("vocab") or {}
    fits = (
        model.get("type") == "WordPiece"
        and normalizer.get("type") == "BertNormalizer"
        and normalizer.get("lowercase") is True
        and normalizer.get("clean_text") is True
        and pre.get("type") == "BertPreTokenizer"
        and sorted(vocab.values()) == list(range(len(vocab)))
        and not any("\n" in token for token in vocab)
    )
    if not fits:
        return False
    settings = {
        "about": "the tokenizer's vocabulary for ASCII queries (omnireader/llm/query_tokens.py)",
        "unk_token": model["unk_token"],
        "continuing_subword_prefix": model["continuing_subword_prefix"],
        "max_input_chars_per_word": model["max_input_chars_per_word"],
        "added_tokens": [t["content"] for t in tokenizer_json.get("added_tokens", [])],
    }
    lines = [json.dumps(settings, ensure_ascii=False), *sorted(vocab, key=vocab.__getitem__)]
    # Bytes: no newline translation on any platform (a token may hold a carriage return).
    (folder / QUERY_VOCAB).write_bytes("\n".join(lines).encode("utf-8"))
    return True

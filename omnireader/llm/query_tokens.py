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

The vocabulary file (``query_vocab.bin`` in a static model's folder) is written from the
model's ``tokenizer.json`` by :func:`write_query_vocab`, only for a tokenizer of that shape: a
line naming the format, the tokenizer's settings (one JSON line), then the tokens sorted by
their UTF-8 bytes, with their ids and where each starts (little-endian 32-bit integers). A
cold search reads it and looks its query's pieces up by binary search, ~4 µs a piece, rather
than making a dict of all 29,528 tokens (split and zipped from one token a line, ~5.5 ms of a
cold search on this machine; a JSON document of them took longer still). Pieces once looked
up are remembered, so a process that searches often pays the search once a piece.
"""

from __future__ import annotations

import json
import re
import string
import sys
from array import array
from bisect import bisect_left
from pathlib import Path
from typing import Any

__all__ = ["QUERY_VOCAB", "QueryTokens", "write_query_vocab"]

QUERY_VOCAB = "query_vocab.bin"
_FORMAT = b"omnireader query vocabulary 1\n"
_MEMO = 1 << 16  # pieces remembered; then anew (a server's queries may be anything)
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
        order = sorted(range(len(tokens)), key=lambda i: tokens[i].encode("utf-8"))
        self._init(settings, *_index([tokens[i].encode("utf-8") for i in order], order), letters)

    def _init(
        self, settings: dict[str, Any], keys: _SortedKeys, ids: array[int], letters: bool
    ) -> None:
        self._keys, self._id_of = keys, ids
        self._memo: dict[str, int | None] = {}
        self._letters = letters  # only the tokens holding a letter (word_tokens.letter_tokens)
        unk = self.token_id(settings["unk_token"])
        if unk is None:
            raise ValueError(f"the vocabulary lacks its unknown token {settings['unk_token']!r}")
        self._unk = unk
        self._prefix: str = settings["continuing_subword_prefix"]
        self._longest: int = settings["max_input_chars_per_word"]
        self._added: list[str] = settings["added_tokens"]

    @classmethod
    def from_folder(cls, folder: Path, letters: bool = False) -> QueryTokens | None:
        """The folder's query vocabulary, or None when it has none (or one of another
        format); ``letters``: give only the ids of tokens holding a letter."""
        path = folder / QUERY_VOCAB
        if not path.is_file():
            return None
        data = path.read_bytes()
        if not data.startswith(_FORMAT):
            return None
        end = data.index(b"\n", len(_FORMAT))
        settings = json.loads(data[len(_FORMAT) : end])
        n, at = settings["tokens"], end + 1
        blob_at = at + 4 * (2 * n + 1)  # the starts (n + 1), the ids (n), then the tokens
        starts, ids = _ints(data[at : at + 4 * (n + 1)]), _ints(data[at + 4 * (n + 1) : blob_at])
        out = cls.__new__(cls)
        out._init(settings, _SortedKeys(data[blob_at:], starts), ids, letters)
        return out

    def token_id(self, piece: str) -> int | None:
        """The id of the token ``piece`` (a ``##`` continuation written with its prefix), or
        None when the vocabulary has no such token."""
        found = self._memo.get(piece, -1)
        if found != -1:
            return found
        key = piece.encode("utf-8")
        i = bisect_left(self._keys, key)
        found = self._id_of[i] if i < len(self._keys) and self._keys[i] == key else None
        if len(self._memo) >= _MEMO:
            self._memo = {}
        self._memo[piece] = found
        return found

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
                found = self.token_id(piece)
                if found is not None:
                    if not self._letters or _LETTER.search(piece):
                        pieces.append(found)
                    start = end
                    break
            else:
                return [self._unk]
        return pieces


def write_query_vocab(tokenizer_json: dict[str, Any], folder: Path) -> bool:
    """Write ``folder/query_vocab.bin`` from a ``tokenizer.json`` (parsed) if the tokenizer
    is a lowercasing BERT WordPiece one; whether it was written."""
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
        and model.get("unk_token") in vocab
    )
    if not fits:
        return False
    settings = {
        "about": "the tokenizer's vocabulary for ASCII queries (omnireader/llm/query_tokens.py)",
        "unk_token": model["unk_token"],
        "continuing_subword_prefix": model["continuing_subword_prefix"],
        "max_input_chars_per_word": model["max_input_chars_per_word"],
        "added_tokens": [t["content"] for t in tokenizer_json.get("added_tokens", [])],
        "tokens": len(vocab),
    }
    keys = sorted((token.encode("utf-8"), i) for token, i in vocab.items())
    keys_index, ids = _index([k for k, _ in keys], [i for _, i in keys])
    header = _FORMAT + json.dumps(settings, ensure_ascii=False).encode("utf-8") + b"\n"
    starts = _bytes(keys_index.starts)
    (folder / QUERY_VOCAB).write_bytes(header + starts + _bytes(ids) + keys_index.blob)
    return True


class _SortedKeys:
    """The sorted tokens as one bytes object and where each starts: a sequence of bytes
    that :func:`bisect.bisect_left` searches without a Python object a token."""

    def __init__(self, blob: bytes, starts: array[int]) -> None:
        self.blob, self.starts = blob, starts

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, i: int) -> bytes:
        return self.blob[self.starts[i] : self.starts[i + 1]]


def _index(keys: list[bytes], ids: list[int]) -> tuple[_SortedKeys, array[int]]:
    starts = array("I", [0])
    for key in keys:
        starts.append(starts[-1] + len(key))
    return _SortedKeys(b"".join(keys), starts), array("I", ids)


def _ints(data: bytes) -> array[int]:
    out = array("I")
    out.frombytes(data)
    if sys.byteorder == "big":
        out.byteswap()
    return out


def _bytes(ints: array[int]) -> bytes:
    if sys.byteorder == "big":
        ints = array("I", ints)
        ints.byteswap()
    return ints.tobytes()

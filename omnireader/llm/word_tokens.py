"""Token ids of texts, with each word tokenized once: the static embedder's tokenizer pass
(``embed_static.py``), which was ~90% of its time on a big text file. A word is what lies
between two of space, tab, line feed and carriage return (:data:`SEPARATORS`).

A BERT tokenizer (``BertNormalizer``, ``BertPreTokenizer``, WordPiece) never lets a token
cross one of those: normalising is per character (its ``clean_text`` turns tab, line feed and
carriage return into spaces, and the canonical reordering of accents stops at any of them),
pre-tokenizing splits at every whitespace character, and WordPiece works on one pre-token.
(Other characters Python calls whitespace are not separators: the normaliser deletes the
control characters among them, ``\x1c`` or ``\x85``, joining their neighbours.) So a text's
ids are its words' ids one after another, and a long text repeats its words
(the filings' 10 MB of text have ~110,000 distinct words in ~1.6 million; split at spaces
alone, each line break glued two words into one rarely seen again). The words a batch
has not met before are tokenized together, a few hundred joined by a space in one string, and
each token goes back to its word by its offset. A batch that is mostly new words (a short
query, base64, a table of codes) is tokenized as before: the words would not pay for it.

The ids are the tokenizer's, text by text (``tests/llm/test_word_tokens.py`` compares them on
prose, tables, scripts, accents, control characters and special tokens); only the truncation
to the first ``max_tokens`` is done here, as the tokenizer's own does it (right, no stride).
Given ``keep`` (:func:`letter_tokens`: a model that pools only the tokens holding a letter),
the other tokens are left out first, and the first ``max_tokens`` of the rest are kept: a
word's ids are filtered once, when it is learnt.
A tokenizer of another family (a byte-level BPE, whose tokens carry their space) must not use
this: :func:`splits_at_spaces` says whether a tokenizer is one it holds for.

``flat`` gives the same ids as one int32 array with each text's count, what the pooling
reads; where ``_embed_loops.c`` is built, the lookup runs there (~2x cheaper than splitting,
a set of the batch's words and ``chain``/``islice`` over their ids in Python).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

# The compiled lookup and pooling (optional: built by setup.py where a C compiler is). By
# name: import-graph tools cannot see a compiled module and would read ``from omnireader.llm
# import _embed_loops`` as importing the llm package, which imports this module.
try:
    loops: Any = importlib.import_module("omnireader.llm._embed_loops")
except ImportError:  # pragma: no cover - exercised where no compiler built it
    loops = None

__all__ = [
    "SEPARATORS",
    "WordTokenIds",
    "batch_ids",
    "first_ids",
    "flatten",
    "letter_tokens",
    "loops",
    "splits_at_spaces",
    "words_of",
]

#: the characters a word ends at (the compiled lookup splits at the same four)
SEPARATORS = " \t\n\r"
_NEW_SHARE = 0.5  # a batch whose new words hold more of its characters is tokenized whole
_GROUP = 256  # new words tokenized in one string (the tokenizer's cost grows with a string)
_BUDGET = 32 << 20  # bytes of words and ids held (~110,000 words of 10-K text); then anew
# An entry's bytes besides its characters: its slot, the key's header and the list's
# (tracemalloc on 10 MB of 10-K text: 286 bytes an entry of 16 characters and 4.2 ids),
# and each id (an int object and its pointer).
_ENTRY = 205
_ID = 36


def batch_ids(tokenizer: Any, texts: list[str]) -> list[list[int]]:
    """Each text's token ids (no special tokens), in one call: the fast encoder where
    ``tokenizers`` has it (0.21 on), which skips the offsets only ids are read for."""
    encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
    return [e.ids for e in encode(texts, add_special_tokens=False)]


def first_ids(
    tokenizer: Any, max_tokens: int, keep: Sequence[bool] | None, texts: list[str]
) -> list[list[int]]:
    """Each text's first ``max_tokens`` ids among those ``keep`` keeps (all without it), for
    a tokenizer :class:`WordTokenIds` does not hold for. It takes the tokenizer's truncation
    over."""
    if keep is None:
        tokenizer.enable_truncation(max_tokens)
        return batch_ids(tokenizer, texts)
    tokenizer.no_truncation()  # the kept tokens are counted, not all of them
    return [_kept(ids, keep)[:max_tokens] for ids in batch_ids(tokenizer, texts)]


def letter_tokens(tokenizer: Any) -> list[bool]:
    """Per token id, whether the token holds a letter (a WordPiece continuation's ``##``
    aside): the tokens a model pooling ``letters`` keeps."""
    prefix = getattr(tokenizer.model, "continuing_subword_prefix", None) or ""
    vocab: dict[str, int] = tokenizer.get_vocab(with_added_tokens=True)
    keep = [False] * (max(vocab.values(), default=-1) + 1)
    for token, i in vocab.items():
        keep[i] = any(map(str.isalpha, token.removeprefix(prefix) if prefix else token))
    return keep


def flatten(ids: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Texts' ids as one int32 array, one text after another, and each text's count (int64)."""
    import numpy as np

    counts = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
    flat = np.fromiter(chain.from_iterable(ids), dtype=np.int32, count=int(counts.sum()))
    return flat, counts


def _kept(ids: list[int], keep: Sequence[bool]) -> list[int]:
    return [i for i in ids if keep[i]]


def splits_at_spaces(tokenizer: Any) -> bool:
    """Whether a ``tokenizers.Tokenizer`` is a BERT WordPiece one: no token crosses a space,
    a tab, a line feed or a carriage return."""
    from tokenizers import models, normalizers, pre_tokenizers

    return (
        isinstance(tokenizer.normalizer, normalizers.BertNormalizer)
        and isinstance(tokenizer.pre_tokenizer, pre_tokenizers.BertPreTokenizer)
        and isinstance(tokenizer.model, models.WordPiece)
        and not any(
            any(c in t.content for c in SEPARATORS) or t.lstrip or t.rstrip
            for t in tokenizer.get_added_tokens_decoder().values()
        )
    )


def words_of(text: str) -> list[str]:
    """``text`` split at every separator (runs of them give empty words, as ``split(" ")``)."""
    for c in "\t\n\r":
        if c in text:
            text = text.replace(c, " ")
    return text.split(" ")


class WordTokenIds:
    """``ids(texts)``: each text's first ``max_tokens`` token ids, as the tokenizer gives them.

    It takes the tokenizer over: its truncation and padding are turned off."""

    def __init__(
        self,
        tokenizer: Any,
        max_tokens: int,
        budget: int = _BUDGET,
        keep: Sequence[bool] | None = None,
    ) -> None:
        tokenizer.no_truncation()  # its own truncation would cut a string of joined words:
        tokenizer.no_padding()  # truncating is done here, and padding is not wanted
        self._tokenizer = tokenizer
        self._max = max_tokens
        self._budget = budget
        self._keep = keep
        self._mask: Any = None  # keep as a numpy array, made at the first word learnt
        self._lock = threading.Lock()
        self._words: dict[str, list[int]] = {}
        self._held = 0

    def __call__(self, texts: list[str]) -> list[list[int]]:
        pieces = [words_of(text) for text in texts]
        words = self._words  # a new dict replaces it when full: this batch keeps its own
        new = set(chain.from_iterable(pieces)).difference(words)
        whole = self._learn(texts, new, words)
        if whole is not None:
            return whole
        ids = words.__getitem__
        return [list(islice(chain.from_iterable(map(ids, p)), self._max)) for p in pieces]

    def flat(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """The ids ``__call__`` gives, as :func:`flatten` puts them: compiled where built."""
        if loops is None:
            return flatten(self(texts))
        import numpy as np

        texts = texts if type(texts) is list else list(texts)
        words = self._words
        got = loops.word_ids(texts, words, self._max)
        if isinstance(got, set):  # the words the batch has that the dict lacks
            whole = self._learn(texts, got, words)
            if whole is not None:
                return flatten(whole)
            got = loops.word_ids(texts, words, self._max)
            if isinstance(got, set):  # pragma: no cover - every new word was just learnt
                return flatten(self(texts))
        return np.frombuffer(got[0], dtype=np.int32), np.frombuffer(got[1], dtype=np.int64)

    def _learn(self, texts: list[str], new: set[str], words: dict[str, list[int]]) -> Any:
        """Put the ``new`` words' ids into ``words``; or, when they hold more than
        ``_NEW_SHARE`` of the texts, each text's ids tokenized whole (returned)."""
        new_chars = sum(map(len, new))
        if new_chars > _NEW_SHARE * sum(map(len, texts)):
            whole = batch_ids(self._tokenizer, texts)
            keep = self._keep
            return [(ids if keep is None else _kept(ids, keep))[: self._max] for ids in whole]
        if new:
            learnt = self._tokenize(list(new))
            words.update(learnt)
            size = new_chars + _ENTRY * len(learnt) + _ID * sum(len(i) for _, i in learnt)
            with self._lock:
                self._held += size
                if self._held > self._budget:
                    self._words, self._held = {}, 0
        return None

    def _tokenize(self, words: list[str]) -> list[tuple[str, list[int]]]:
        """Each word's ids, from one string of ``_GROUP`` words at a time."""
        import numpy as np

        groups = [words[i : i + _GROUP] for i in range(0, len(words), _GROUP)]
        joined = [" ".join(g) for g in groups]
        out: list[tuple[str, list[int]]] = []
        for group, enc in zip(
            groups, self._tokenizer.encode_batch(joined, add_special_tokens=False), strict=True
        ):
            ends = np.cumsum(np.fromiter(map(len, group), dtype=np.int64, count=len(group)) + 1)
            offsets = enc.offsets
            token_starts = np.fromiter((o[0] for o in offsets), dtype=np.int64, count=len(offsets))
            # Each token's word is the one whose span holds its first character; a word's
            # tokens are a run, from the first token at or after its start.
            bounds = np.searchsorted(token_starts, np.r_[0, ends])
            ids = enc.ids
            if self._keep is not None:  # the group's kept tokens at once, not word by word
                if self._mask is None:
                    self._mask = np.asarray(self._keep, dtype=bool)
                kept = self._mask[np.asarray(ids, dtype=np.int64)]
                bounds = np.r_[0, np.cumsum(kept)][bounds]
                ids = np.asarray(ids, dtype=np.int64)[kept].tolist()
            b = bounds.tolist()
            out.extend((w, ids[x:y]) for w, x, y in zip(group, b, b[1:]))
        return out

"""How the lexical view cuts text into words: the full-text index's tokenizer settings.

What LanceDB's native full-text search does (checked in Lance's tokenizer and measured):

- ``base_tokenizer="icu"`` segments Chinese and Japanese into words (dictionary-based, no
  model download); spaced scripts split on spaces and punctuation as usual.
- Tokens are lower-cased, ASCII-folded ("café" matches "cafe") and stemmed with the English
  Snowball stemmer ("running" matches "run").
- Stop words: with the ICU tokenizer Lance removes the stop words of *every* language it
  knows unless given a list, and that union holds ordinary English words: "dog", "cat",
  "hat" and the digit "7" could not be found at all. So the index gets an explicit English
  list. It also scores better (LoCoMo dev, BM25 over message units: 0.841 within 6,000
  characters, against 0.832 with the union and 0.825 with no stop words at all).
- No positions are stored (phrase queries are not used; the index stays small).
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

# Two or more letters run into a number of two or more digits, either way round ("FY2018",
# "FY21", "2023Q2" is not: one letter): the tokenizer keeps such a word whole, where a text
# says "fiscal 2018". Shorter runs ("3M", "Q2", "B2B") are names as they are.
_MIXED = re.compile(r"\b(?:[A-Za-z]{2,}\d{2,}|\d{2,}[A-Za-z]{2,})\b")
_PARTS = re.compile(r"[A-Za-z]+|\d+")

__all__ = ["ENGLISH_STOP_WORDS", "fts_config", "query_words"]

#: Function words (the usual English list, question words included): they match everywhere
#: and only add noise to a question's score. Data: ``store/data/english_stop_words.txt``.
ENGLISH_STOP_WORDS = tuple(
    word
    for line in resources.files("omnireader.store")
    .joinpath("data/english_stop_words.txt")
    .read_text("utf-8")
    .splitlines()
    if (word := line.strip()) and not word.startswith("#")
)


def fts_config() -> Any:
    """The full-text index configuration for every text column of the store."""
    from lancedb import index as lance_index

    return lance_index.FTS(
        base_tokenizer="icu",
        with_position=False,
        custom_stop_words=list(ENGLISH_STOP_WORDS),
    )


def query_words(text: str) -> str:
    """A question as BM25 is asked it: each word mixing letters and digits is followed by
    its parts ("FY2018" -> "FY2018 FY 2018"), so it matches the text's "2018" too; the word
    itself stays, so a text that writes it the same way still matches it best."""
    if not _MIXED.search(text):
        return text
    return _MIXED.sub(lambda m: f"{m.group(0)} {' '.join(_PARTS.findall(m.group(0)))}", text)

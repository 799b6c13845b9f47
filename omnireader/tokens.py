"""Offline token counting: words in spaced scripts, one token per CJK character.

chonkie's ``word`` tokenizer counts a whole Chinese sentence as one token, and string
tokenizer names such as "gpt2" download from a hub; this needs neither.
"""

from __future__ import annotations

import re

__all__ = ["tokenize", "count_tokens", "pieces"]

_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
# One token per CJK / kana / hangul character, per run of other word characters, per symbol.
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")
# The same tokens for ASCII-only text, which most text is, about 1.5× faster.
_ASCII_TOKEN = re.compile(r"\w+|[^\w\s]", re.ASCII)


# Each token with the whitespace after it (and any leading whitespace alone), so that
# "".join(pieces(text)) == text: a chunker that splits on token boundaries loses nothing.
_PIECE = re.compile(rf"(?:{_TOKEN.pattern})\s*|\s+")


def pieces(text: str) -> list[str]:
    """``text`` cut at token boundaries, whitespace kept: joining the pieces gives it back."""
    return _PIECE.findall(text)


def tokenize(text: str) -> list[str]:
    """Split ``text`` into the tokens :func:`count_tokens` counts."""
    return (_ASCII_TOKEN if text.isascii() else _TOKEN).findall(text)


def count_tokens(text: str) -> int:
    """How many tokens ``text`` holds (roughly what an LLM tokenizer would say, offline)."""
    return len((_ASCII_TOKEN if text.isascii() else _TOKEN).findall(text))

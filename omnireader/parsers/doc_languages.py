"""A document lends its language to the chunks that cannot tell their own.

Each chunk's language is guessed from its own text (:func:`guess_language`). A chunk of a
reference list, a footer, a table of figures, a row of URLs says too little, and the guess
is noise ("und", or a rare language such as Nigerian Pidgin for English full of links). A
chunk whose guess is not sure takes the language of its sure neighbours when the nearest
one before and after agree, and otherwise the document's: the language most of its sure
text is in. A document with no sure text changes nothing; a declared language (an HTML
``lang``) was given to every chunk already and is left alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from omnireader.models import MemoryItem
from omnireader.text.language import UNDETERMINED, Guess, guess_language

__all__ = ["guess_languages", "inherit_languages", "planned_languages"]

# The document's language must hold this share of its sure text to be lent: a bilingual
# document lends by neighbours only.
_MAJORITY = 0.6


def guess_languages(items: list[MemoryItem]) -> None:
    """Each item's own guess (:func:`guess_language` of its text) into its first source's
    ``lang`` where that is None (a declared language stands), in place. A document's chunks
    are guessed here together, after its pages are read, rather than each as its page is
    laid out: the model's tables (~70 MB, read at random) then stay in the CPU's caches
    from one chunk to the next, which halves the guessing's time on PDFs."""
    for item in items:
        source = item.metadata.sources[0]
        if source.lang is None:
            source.lang = guess_language(item.memory).lang


def inherit_languages(items: list[MemoryItem]) -> None:
    """Give each item whose language guess is not sure its neighbours' or its document's
    language, in place. ``items`` are one document's, in reading order."""
    langs = [item.metadata.sources[0].lang if item.metadata.sources else None for item in items]
    lent = _lent([item.memory for item in items], langs)
    for item, lang in zip(items, lent):
        if lang is None or not item.metadata.sources:
            continue
        for n, source in enumerate(item.metadata.sources):
            if source.lang != lang:
                item.metadata.sources[n] = source.model_copy(update={"lang": lang})


def planned_languages(texts: Sequence[str]) -> list[str]:
    """The language :func:`guess_languages` then :func:`inherit_languages` give the items
    of ``texts`` (one document's chunks, in order, no language declared), from the texts
    alone: the items can then be made a piece at a time, each final when made."""
    guesses = [guess_language(text) for text in texts]
    own = [guess.lang for guess in guesses]
    return [lent or lang for lent, lang in zip(_lent(texts, own, guesses), own)]


def _lent(
    texts: Sequence[str], langs: Sequence[str | None], guesses: Sequence[Guess] | None = None
) -> list[str | None]:
    """For each chunk (its text, its language so far), the language it takes from its sure
    neighbours or its document, or None where it keeps its own (``guesses``: the texts'
    guesses when made already; the cache holds only the last few thousand)."""
    sure: list[str | None] = []
    weight: Counter[str] = Counter()
    for n, (text, lang) in enumerate(zip(texts, langs)):
        guess = guesses[n] if guesses is not None else guess_language(text)
        if guess.sure and lang == guess.lang:
            sure.append(lang)
            weight[lang] += len(text)
        else:
            sure.append(None)
    if not weight:
        return [None] * len(sure)
    top, top_weight = weight.most_common(1)[0]
    document = top if top_weight >= _MAJORITY * sum(weight.values()) else None
    before = _nearest(sure)
    after = _nearest(sure[::-1])[::-1]
    out: list[str | None] = []
    for i, mine in enumerate(sure):
        lang = None
        if mine is None:
            lang = before[i] if before[i] is not None and before[i] == after[i] else document
        out.append(None if lang == UNDETERMINED else lang)
    return out


def _nearest(sure: list[str | None]) -> list[str | None]:
    """For each place, the last sure language before it (itself excluded)."""
    out: list[str | None] = []
    last: str | None = None
    for lang in sure:
        out.append(last)
        if lang is not None:
            last = lang
    return out

"""Query expansion for the lexical view: a question that names a thing in one way also asks
for the other ways a document prints it.

BM25 matches words, so "What was the FY2018 capital expenditure?" scores nothing on a cash
flow statement whose line says "Purchases of property, plant and equipment". A lexicon of
groups says which phrases mean one thing; :func:`expand` appends to the question the words of
every group it names that it does not already hold. The question's own words stay, so a text
that uses them still scores best; the words added only lift the texts that say the same thing
otherwise.

Lexicons are data, one JSON file per domain: ``omnireader/lexicons/*.json`` ships
``finance.json`` (US GAAP / IFRS reporting terms). ``$OMNIREADER_LEXICONS`` replaces them: a
list of files or folders of ``*.json`` (separated by ``:``), where ``default`` stands for the
bundled ones (``default:~/my-terms.json`` extends them; an empty value means no lexicon). A
file holds ``{"domain": ..., "groups": [{"names": [...], "adds": [...]}, ...]}``: ``names``
are ways a question names one thing (each also added for the others), ``adds`` what the
documents print for it.

Matching is on whole words of the question, lower-cased, with ``&`` kept inside a word
("P&L", "M&A", "PP&E") and other punctuation a space; a phrase's last word may take an "s".
A question that names nothing in the lexicon is searched unchanged (chat questions almost
always are).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from omnireader.errors import ConfigError

__all__ = ["expand", "normal", "load_lexicons", "Groups", "GROUPS", "LEXICONS_DIR"]

#: the bundled lexicons, one JSON file per domain (package data)
LEXICONS_DIR = Path(__file__).resolve().parent.parent / "lexicons"
ENV = "OMNIREADER_LEXICONS"

#: (phrases that name the thing, phrases added when one of them is named)
Groups = Sequence[tuple[Sequence[str], Sequence[str]]]
_AMP = re.compile(r"\s*&\s*")
_NON_WORD = re.compile(r"[^a-z0-9&]+")
_POSSESSIVE = re.compile(r"['’]s\b")
_APOSTROPHE = re.compile(r"['’]")
_WORD = re.compile(r"[a-z0-9]+")


def normal(text: str) -> str:
    """Lower-case words separated by single spaces ("P & L" -> "p&l", "Amazon's" -> "amazon",
    "I'm" -> "im")."""
    text = _APOSTROPHE.sub("", _POSSESSIVE.sub("", text.lower()))
    return " ".join(_NON_WORD.sub(" ", _AMP.sub("&", text)).split())


@lru_cache(maxsize=8)
def _triggers(
    groups: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...],
) -> dict[str, list[int]]:
    """For each word that starts a name (and its plural), the groups having such a name: a
    query meets only the groups one of its words starts, and only those are compiled (a cold
    search compiled every group's pattern, ~15 ms, for the one or two it names)."""
    out: dict[str, list[int]] = {}
    for index, (names, _) in enumerate(groups):
        for name in names:
            words = _WORD.findall(normal(name))
            if not words:
                continue
            starts = {words[0], f"{words[0]}s"} if len(words) == 1 else {words[0]}
            for word in starts:
                if index not in out.setdefault(word, []):
                    out[word].append(index)
    return out


@lru_cache(maxsize=4096)
def _pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(normal(n)) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![a-z0-9&])(?:{alternatives})s?(?![a-z0-9&])")


def load_lexicons(spec: str | None = None) -> Groups:
    """The groups of the lexicons ``spec`` names (default: ``$OMNIREADER_LEXICONS``, else the
    bundled ones); see the module text."""
    if spec is None:
        spec = os.environ.get(ENV, "default")
    groups: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for part in filter(None, (p.strip() for p in spec.split(os.pathsep))):
        place = LEXICONS_DIR if part == "default" else Path(part).expanduser()
        files = sorted(place.glob("*.json")) if place.is_dir() else [place]
        for file in files:
            groups.extend(_read(file))
    return tuple(groups)


def _read(file: Path) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    where = f"lexicon {file} (from ${ENV} or the bundled ones)"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        return [
            (tuple(map(str, g["names"])), tuple(map(str, g.get("adds", ()))))
            for g in data["groups"]
        ]
    except FileNotFoundError:
        raise ConfigError(f"{where}: no such file") from None
    except (ValueError, KeyError, TypeError) as e:
        raise ConfigError(
            f"{where}: not a lexicon ({type(e).__name__}: {e}); expected "
            '{"groups": [{"names": [...], "adds": [...]}, ...]}'
        ) from None


#: the groups every search expands with (``()``: none; the benches measure both)
GROUPS: Groups = load_lexicons()


def expand(query: str, groups: Groups | None = None) -> str:
    """``query`` followed by the words of each group (default :data:`GROUPS`) it names that
    it does not hold yet."""
    if groups is None:
        groups = GROUPS
    text = normal(query)
    if not text:
        return query
    frozen = tuple((tuple(n), tuple(a)) for n, a in groups)
    have = set(_WORD.findall(text))
    extra: list[str] = []
    triggers = _triggers(frozen)
    met = sorted({i for w in have for i in triggers.get(w, ())})
    for names, added in (frozen[i] for i in met):
        if not _pattern(names).search(text):
            continue
        for phrase in (*names, *added):
            for word in _WORD.findall(normal(phrase)):
                if word not in have:
                    have.add(word)
                    extra.append(word)
    return f"{query} {' '.join(extra)}" if extra else query

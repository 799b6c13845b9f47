"""The language of a text, offline: by its script where the script says it, else by
py3langid (a naive Bayes model over byte n-grams for 97 languages, shipped inside its
wheel; nothing is downloaded).

Three steps, cheapest first:

1. a declared language (an HTML ``lang`` attribute) wins when it is a language tag;
2. the script: CJK characters and words of other scripts are counted as tokens (one per
   Han / kana / hangul character, one per word otherwise, like
   :func:`omnireader.text.tokens.count_tokens`); hangul means Korean, kana Japanese, Han
   alone Chinese, and Hebrew, Greek, Thai, Armenian, Georgian letters their one main
   language;
3. for Latin, Cyrillic, Arabic, Devanagari and the rest, the model, on the opening
   :data:`SAMPLE_CHARS` characters. Plain-ASCII text whose words are mostly English
   function words ("the", "and", "with"...) is English without it, and so is a short
   one with a word only English has ("the", "with", "you"); one or two words without
   such a word are undetermined: even mapped from its
   cache (:mod:`.language_model`) the model costs a fresh process a few tenths of a second,
   which a small English file should not pay.

Text with no letters (numbers, symbols), or too short for the model to be sure of
(:data:`MIN_PROBABILITY`), is ``"und"`` (BCP 47: undetermined). A language rarely met in
documents (not in ``data/common_languages.txt``) needs strong evidence,
:data:`STRONG_PROBABILITY`: English full of URLs and references scores weakly as Nigerian
Pidgin or Luxembourgish, while a real sentence in either scores over 0.95.
:func:`guess_language` also says whether a guess is ``sure``: a short, symbol-heavy or
mixed text is not, and a document lends it its own language (``parsers/doc_languages.py``). Dialect and
historical codes the model knows are reported as their macro-language (``ary`` → ``ar``,
``yue`` → ``zh``, ``hbo`` → ``he``).

>>> detect_language("La réunion est reportée à jeudi après-midi.")
'fr'
>>> detect_language("회의가 목요일 오후로 변경되었습니다."), detect_language("12 345")
('ko', 'und')
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from importlib import resources
from typing import Any, NamedTuple

__all__ = [
    "detect_language",
    "guess_language",
    "language_tag",
    "Guess",
    "SAMPLE_CHARS",
    "UNDETERMINED",
    "MIN_PROBABILITY",
    "STRONG_PROBABILITY",
]

#: How much of a text the model reads: a few sentences tell the language, and the cost
#: grows with the length (~0.3 ms for 300 characters, ~1.5 ms for 1,000).
SAMPLE_CHARS = 300
UNDETERMINED = "und"
#: Below this probability the model's best language is a guess: one- and two-word texts
#: ("Hello" → Breton at 0.06, "Bonjour" → French at 0.15), names, numbers. Every sentence
#: of the bench's samples scores over 0.5.
MIN_PROBABILITY = 0.3
#: What a language outside the common list needs; and under :data:`SURE_PROBABILITY` a
#: common one is a guess a document's own language overrides (mixed or odd text).
STRONG_PROBABILITY = 0.95
SURE_PROBABILITY = 0.6
#: A text of fewer words (of two letters or more) is short: its guess is not sure.
SURE_WORDS = 8

_SCRIPTS: list[tuple[str, str]] = [
    ("ko", "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"),
    ("kana", "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f"),
    ("han", "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"),
    ("he", "\u0590-\u05ff\ufb1d-\ufb4f"),
    ("el", "\u0370-\u03ff\u1f00-\u1fff"),
    ("th", "\u0e00-\u0e7f"),
    ("hy", "\u0530-\u058f"),
    ("ka", "\u10a0-\u10ff"),
]
_CJK = {"ko", "kana", "han"}
_SCRIPT_RUNS = re.compile(
    "|".join(
        f"(?P<{'s' + str(i)}>[{chars}]{'' if name in _CJK else '+'})"
        for i, (name, chars) in enumerate(_SCRIPTS)
    )
    + r"|(?P<other>[^\W\d_]+)"
)
_NAMES = [name for name, _ in _SCRIPTS]
# Any character of the scripts above; without one, every run the counting finds is "other".
_ANY_SCRIPT = re.compile("[" + "".join(chars for _, chars in _SCRIPTS) + "]")
_LETTER = re.compile(r"[^\W\d_]")
_ASCII_WORD = re.compile(r"[a-z]+")
# English function words that are not also common words of another language written in
# Latin script ("a", "in", "on", "was", "die", "for", "at" are, and are left out).
_ENGLISH = frozenset(
    "the and of to is that with this are you have be it not by from they we would can your "
    "our what which there been had were she his about please thanks just all one their "
    "them these those than then into could should".split()
)
# Of those, words no other Latin-script language uses at all ("is" is Dutch too, "has"
# Spanish): one of them is enough in a short text.
_ONLY_ENGLISH = frozenset(
    "the and with this that you have from they would your what which there been were please "
    "thanks about their them these those should could".split()
)
_ENGLISH_SHARE = 0.2
# A plain-ASCII text of fewer words is English on one word only English has.
_FEW_WORDS = 8
_MACRO = {
    "ary": "ar",
    "arz": "ar",
    "yue": "zh",
    "wuu": "zh",
    "hbo": "he",
    "grc": "el",
    "uzs": "uz",
    "gug": "gn",
    "nn": "no",
    "zxx": UNDETERMINED,
}
_TAG = re.compile(r"^([a-zA-Z]{2,3})(?:[-_][a-zA-Z0-9]{1,8})*$")
# A picture as the readers write it in text, with its alt text when it has one.
_PICTURES = re.compile(r"\[image(?:: [^\]]*)?\]")
_LOCK = threading.Lock()

try:  # the compiled counts of _plain (optional: built by setup.py where a C compiler is)
    from omnireader.text import _scan as scan
except ImportError:  # pragma: no cover - exercised where no compiler built it
    scan = None


def language_tag(value: str | None) -> str | None:
    """The primary language subtag of a BCP 47 tag (``en-US`` → ``en``), or None when
    ``value`` is not one (empty, ``x-default``, ``und``, free text)."""
    found = _TAG.match((value or "").strip())
    if not found or found.group(1).lower() in ("und", "mul", "zxx"):
        return None
    return _MACRO.get(found.group(1).lower(), found.group(1).lower())


class Guess(NamedTuple):
    """A text's language and whether the text says so clearly enough to stand on its own
    (not short, not mostly symbols, URLs and numbers, not a weak or mixed reading)."""

    lang: str
    sure: bool


def detect_language(text: str, declared: str | None = None) -> str:
    """The ISO 639-1 code (or ISO 639-3 where there is none) of ``text``'s language; see
    the module. ``declared`` (an HTML ``lang``) wins when it is a language tag."""
    tag = language_tag(declared)
    if tag:
        return tag
    return guess_language(text).lang


def guess_language(text: str) -> Guess:
    """``text``'s language, and whether the guess is sure; cached, so a document's second
    look at its chunks costs nothing. A picture's alt text (``[image: …]``) is left out
    when there is other text: Word writes it in its user's language, not the document's."""
    if "[image" in text and (own := _PICTURES.sub(" ", text)).strip():
        text = own
    return _guess(text[: 4 * SAMPLE_CHARS])


@lru_cache(maxsize=4096)
def _guess(sample: str) -> Guess:
    if _ANY_SCRIPT.search(sample) is None:
        # Latin, Cyrillic, Arabic… only (most text): the counting below could only find
        # "other" runs, and all it tells then is whether there is a letter at all.
        if _LETTER.search(sample) is None:
            return Guess(UNDETERMINED, False)
    elif (script := _by_script(sample)) is not None:
        return Guess(script, script != UNDETERMINED)
    if sample.isascii():
        words = _ASCII_WORD.findall(sample.lower())
        hits = sum(map(_ENGLISH.__contains__, words))  # counted at C speed
        if len(words) < 3:
            # Too short for the model to be sure of (it scores such texts under
            # MIN_PROBABILITY), and not worth loading it for.
            return Guess("en" if hits else UNDETERMINED, False)
        # English needs a word only English has ("is" and "we" are Dutch too), and in a
        # longer text function words at the rate English prose has them.
        if not _ONLY_ENGLISH.isdisjoint(words) and (
            len(words) < _FEW_WORDS or hits >= _ENGLISH_SHARE * len(words)
        ):
            return Guess("en", _plain(sample))
    code, probability = _classify(sample[:SAMPLE_CHARS])
    if probability < SURE_PROBABILITY and (prose := _prose_lines(sample)) != sample:
        # The opening was a title, names, a table: the text's sentences may say more.
        better = _guess(prose) if prose else None
        return better if better and better.lang != UNDETERMINED else Guess(code, False)
    # Whether the sample is prose is asked last: an unsure guess is unsure either way.
    return Guess(code, code != UNDETERMINED and probability >= SURE_PROBABILITY and _plain(sample))


def _prose_lines(sample: str) -> str:
    """The sample's lines that read as sentences (:data:`SURE_WORDS` words or more, mostly
    words: not a table row, a heading, a line of names and marks or of figures), joined;
    ``sample`` itself when every line is one."""
    lines = [line for line in sample.splitlines() if line.strip()]
    kept = [line for line in lines if not line.lstrip().startswith(("|", "#")) and _plain(line)]
    return sample if len(kept) == len(lines) else "\n".join(kept)


def _by_script(sample: str) -> str | None:
    """The language the sample's scripts name ("und" when it has no letters), or None
    when its letters are mostly of the scripts the model tells apart."""
    counts = dict.fromkeys([*_NAMES, "other"], 0)
    for m in _SCRIPT_RUNS.finditer(sample):
        counts[m.lastgroup if m.lastgroup == "other" else _NAMES[int(m.lastgroup[1:])]] += 1
    total = sum(counts.values())
    if not total:
        return UNDETERMINED
    script = max(counts, key=counts.__getitem__)
    cjk = counts["ko"] + counts["kana"] + counts["han"]
    if cjk >= counts["other"] and cjk >= max(counts[n] for n in _NAMES if n not in _CJK):
        if counts["ko"] and counts["ko"] >= counts["kana"]:
            return "ko"
        return "ja" if counts["kana"] else "zh"
    if script not in ("other", *_CJK):
        return script  # a script of one main language
    return None


# What makes a whitespace-separated token a URL, an address or a number rather than a word.
_URLISH = re.compile(r"://|www\.|@|\.(?:com|org|net|gov|edu)\b|\d", re.I)
_WORD = re.compile(r"[^\W\d_]{2,}")


def _plain(sample: str) -> bool:
    """Whether ``sample`` reads as prose: enough words, and words the bulk of it once
    URLs, addresses and numbers are set aside (a reference list, a footer, a table of
    figures is not)."""
    if scan is not None:
        words, letters, non_space = scan.prose_counts(sample)
    else:
        words, letters, non_space = _prose_counts(sample)
    return words >= SURE_WORDS and letters >= 0.5 * non_space


def _prose_counts(sample: str) -> tuple[int, int, int]:
    """The words of two letters or more outside URLs, addresses and numbers, their letters,
    and the characters that are not space (``_scan.prose_counts`` compiled)."""
    tokens = sample.split()
    words = _WORD.findall(" ".join(t for t in tokens if _URLISH.search(t) is None))
    return len(words), sum(len(w) for w in words), sum(len(t) for t in tokens)


def _classify(sample: str) -> tuple[str, float]:
    # The best language alone (``classify``: rank's first, without ranking all 97).
    code, probability = _identifier().classify(sample)
    code = _MACRO.get(code, code)
    if code != UNDETERMINED and code not in _common() and probability < STRONG_PROBABILITY:
        # A rare language on weak evidence: the likeliest common one, if it is likely at
        # all; else nothing is claimed.
        ranked = _identifier().rank(sample)
        code, probability = next(
            ((_MACRO.get(c, c), p) for c, p in ranked[1:4] if _MACRO.get(c, c) in _common()),
            (UNDETERMINED, 0.0),
        )
    if probability < MIN_PROBABILITY:
        return UNDETERMINED, probability  # a word or two ("Hello", "Lisbon Oslo"): noise
    return code, probability


@lru_cache(maxsize=1)
def _common() -> frozenset[str]:
    text = resources.files("omnireader.text").joinpath("data/common_languages.txt")
    lines = text.read_text(encoding="utf-8").splitlines()
    return frozenset(w for line in lines if not line.startswith("#") for w in line.split())


@lru_cache(maxsize=1)
def _identifier() -> Any:
    # Loaded once per process, on the first text that needs it: mapped from a local cache
    # of the unpacked model (unpacking the wheel's xz file takes 1.5-3 s; see
    # language_model.py); the lock keeps two threads from loading it twice.
    with _LOCK:
        from omnireader.text.language_model import load_identifier

        return load_identifier()

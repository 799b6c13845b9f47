"""The language guess's loops, compiled (``text/_scan.c``) and in Python, give the same counts.

The compiled module is optional (built where a C compiler is). Where it is built, every
chunk's guess goes through it, so a text it counted differently would be guessed
differently depending on the machine: each loop is run beside the Python it replaces, on
every code point and on texts of many languages, and must agree exactly.
"""

from __future__ import annotations

import random
import re
import shutil
import sys
import sysconfig

import numpy as np
import pytest
from py3langid.langid import LanguageIdentifier, visit_counts

from omnireader.text import language, language_model

scan = language_model.scan
needs_scan = pytest.mark.skipif(scan is None, reason="_scan is not built (no C compiler)")

# Prose, lists, references, numbers and URLs in several scripts: what chunks hold.
TEXTS = [
    "The meeting moved to Thursday afternoon; please bring the Q3 figures.",
    "La réunion est reportée à jeudi après-midi, salle 4B (voir www.example.org).",
    "Die Sitzung wurde auf Donnerstagnachmittag verschoben. Bitte Unterlagen mitbringen.",
    "Встреча перенесена на четверг, после обеда. Подробности: info@example.ru",
    "会议改到星期四下午。请带上第三季度的数据。",
    "Smith, J. (2019). Deep nets. https://doi.org/10.1000/xyz123 pp. 1-20",
    "Revenue 4,512 3,998 12.9% Net income 1,020 (880) 15.9%",
    "foo.com bar.COM baz.comb qux.edu. quux.Gov_x a.b.org: WWW.X.NET ftp://h_x h_x__y",
    "naïve café coöperate ² ½ Ⅻ ٣ ４５ a١b x_y __ _a a_",
    "\u00a0tab\there\x1cfile\x1dgroup\u2028line\u3000wide  ",
]


def _random_texts(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    alphabet = (
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .:/@_-wWcomrgnetvdu"
        "éüßçñøåЖжπΣ中文日本語한국어٣४²½\u00a0\t\n"
    )
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 120))) for _ in range(n)]


def test_the_compiled_scan_is_built_where_a_c_compiler_is() -> None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}): the Python loops run")
    assert scan is not None, "setup.py should have built _scan (pip install -e .)"


@needs_scan
def test_prose_counts_are_the_regular_expressions_counts() -> None:
    for text in TEXTS + _random_texts(400):
        assert scan.prose_counts(text) == language._prose_counts(text), text


@needs_scan
def test_every_code_point_is_a_letter_a_space_or_a_mark_as_the_regular_expressions_say() -> None:
    # Each code point inside a word, alone, next to a digit and inside each URL pattern: any
    # character whose class (space, word, digit, letter, the cases of "www" and the
    # top-level domains) the C reads differently from re and str.split changes a count.
    step = 2048
    for start in range(0, sys.maxunicode + 1, step):
        chars = [chr(c) for c in range(start, min(start + step, sys.maxunicode + 1))]
        text = " ".join(f"a{ch}b {ch}ww.x n.ed{ch} c.com{ch}" for ch in chars)
        assert scan.prose_counts(text) == language._prose_counts(text), hex(start)


def test_only_their_two_cases_match_the_url_letters_without_case() -> None:
    # What the C's ASCII case folding stands on: re.IGNORECASE matches no other character
    # to the letters of "www" and the five top-level domains.
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    for letter in set("wcomrgnetvdu"):
        assert set(re.findall(letter, every, re.I)) == {letter, letter.upper()}, letter


@needs_scan
def test_the_automaton_walk_counts_what_py3langids_walk_counts_in_the_same_order() -> None:
    identifier = language._identifier()
    rng = random.Random(3)
    samples = [t.encode("utf-8", "surrogatepass") for t in TEXTS + _random_texts(200)]
    samples += [bytes(rng.randrange(256) for _ in range(rng.randrange(300))) for _ in range(200)]
    rowbase = [r << 8 for r in identifier.tk_row]
    for data in samples:
        theirs = visit_counts(identifier.tk_nextmove, rowbase, identifier.tk_output, data)
        ours = scan.feature_counts(
            identifier.tk_nextmove, identifier.tk_row, identifier.outputs, data
        )
        assert (list(ours.items()) if ours else None) == (list(theirs.items()) if theirs else None)


def test_the_identifier_scores_as_py3langid_to_the_last_bit() -> None:
    ours = language._identifier()
    theirs = LanguageIdentifier(
        ours.nb_ptc,
        ours.nb_pc,
        ours.nb_classes,
        ours.tk_nextmove,
        ours.tk_output,
        norm_probs=True,
        tk_row=ours.tk_row,
    )
    for text in TEXTS + _random_texts(100, seed=11):
        assert np.array_equal(ours._decide(text), theirs._decide(text)), text
        assert ours.classify(text) == theirs.classify(text)


@needs_scan
def test_a_damaged_automaton_is_an_error_not_a_read_past_its_arrays() -> None:
    moves = np.array([5, 0], dtype=np.uint32)  # a transition to a state that does not exist
    rows = np.zeros(1, dtype=np.uint16)
    outputs = np.full(1, -1, dtype=np.int32)
    with pytest.raises(ValueError, match="leaves its arrays"):
        scan.feature_counts(moves, rows, outputs, b"\x00")
    with pytest.raises(ValueError, match="uint32, uint16 and int32"):
        scan.feature_counts(moves.astype(np.uint64), rows, outputs, b"\x00")
    with pytest.raises(ValueError, match="empty or unequal"):
        scan.feature_counts(moves, rows[:0], outputs[:0], b"\x00")

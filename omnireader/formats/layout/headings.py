"""Which blocks are headings, and at which level; the heading trail across pages.

Three signs, strongest first: the PDF outline (a block whose text is an outline entry of
its page, or of any page, takes the entry's level), numbering ("1.2 Scope" is level 2,
when the line is also larger or bold), and size and weight against the body text (the
size most characters of the document so far are set in). A heading is short, is not a
sentence, and is not the body size in the body weight.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from omnireader.formats.word_lists import load_word_list

__all__ = ["MAX_PATH", "MAX_TITLE", "HeadingRules", "Outline", "Trail", "leader_end", "normalize"]

#: A heading path keeps at most this many levels, each title at most this long.
MAX_PATH = 6
MAX_TITLE = 120
_MAX_WORDS = 18
_MAX_CHARS = 160
# A whole bold block at least this much larger than the body, of up to this many words,
# is a heading even when it is a sentence.
_STATEMENT_RATIO = 1.05
_STATEMENT_WORDS = 45
_NUMBERED = re.compile(
    r"^(?:(?:section|chapter|part|article|item)\s+)?"
    r"((?:\d{1,2}\.){0,4}\d{1,2}|[A-Z]|[IVXLC]{1,6})[.)]?(?:\s+|$)",
    re.IGNORECASE,
)
_NON_WORD = re.compile(r"[\W_]+")
_CJK = re.compile(r"[\u3040-\u9fff\uac00-\ud7af]")
_RUNS = re.compile(r"[^\W_]{2,}")
# A contents entry: a dot leader, then the page number ("2.1 Syntax . . . . 2").
_LEADER_END = re.compile(r"(?:\.\s?){4,}\s*[\divxlc]{1,5}$|\u2026\s*\d{1,5}$")


def leader_end(text: str) -> bool:
    """``text`` ends in a dot leader and a page number (a contents entry)."""
    # Four dots or an ellipsis first, counted at C speed: every line of a page is asked.
    return (text.count(".") >= 4 or "\u2026" in text) and _LEADER_END.search(text) is not None


# A date alone ("June 2023", "12 March 2021", "2023-06-01") dates a title; it heads nothing.
_DATE = re.compile(
    r"^(?:\d{1,2}\.?\s+)?(?i:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?"
    r"|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
    r"(?:\s+\d{1,2},?)?\s+\d{4}$|^\d{4}-\d{2}(?:-\d{2})?$|^\d{1,2}[./]\d{1,2}[./]\d{2,4}$"
)
# A form's check boxes, and the answers beside them ("☒ Yes ☐ No").
_BOXES = re.compile(r"[\u2610-\u2612]")
_ANSWERS = re.compile(r"[\u2610-\u2612]|\b(?i:yes|no)\b")
# A short block this much larger than the body is a title even when it ends in a period.
_TITLE_RATIO = 1.3
_TITLE_WORDS = 12


def normalize(text: str) -> str:
    """Text compared loosely: lower case, letters and digits only."""
    return _NON_WORD.sub("", text.lower())


@dataclass(slots=True)
class Outline:
    """The PDF outline: normalized title → level, by page (0-based) and for any page."""

    by_page: dict[int, dict[str, int]] = field(default_factory=dict)
    anywhere: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_toc(cls, items: list[tuple[str, int, int | None]], cap: int = 5000) -> Outline:
        """From ``(title, level, page_index)`` triples (level 1 = top)."""
        out = cls()
        for title, level, page in items[:cap]:
            key = normalize(title)[:200]
            if not key:
                continue
            out.anywhere.setdefault(key, level)
            if page is not None:
                out.by_page.setdefault(page, {}).setdefault(key, level)
        return out

    def level(self, text: str, page: int) -> int:
        """The level of the entry ``text`` is (0: none). On its own page an entry may also
        be the start of the printed heading, or the heading the start of the entry (a
        bookmark says "Note 4 – Receivables, net" for a longer printed title)."""
        if not self.anywhere:
            return 0  # most documents have no outline: every block would be normalized
        key = normalize(text)[:200]
        if not key:
            return 0
        entries = self.by_page.get(page, {})
        found = entries.get(key) or self.anywhere.get(key, 0)
        if found or len(key) < 8:
            return found
        for entry, level in entries.items():
            prefix = key.startswith(entry) or entry.startswith(key)
            close = min(len(entry), len(key)) >= 0.5 * max(len(entry), len(key))
            if len(entry) >= 8 and prefix and close:
                return level
        return 0


class HeadingRules:
    """Decides headings against the body size seen so far in the document."""

    # The body size worked out once between two pages' sizes (every block of a page asks).
    _body: float | None = None

    def __init__(self, outline: Outline | None = None, single_page: bool = False) -> None:
        self.outline = outline or Outline()
        # A one-page document cannot show a running header repeating: the page's margins
        # then hold no heading (``page.layout_words``).
        self.single_page = single_page
        self._sizes: dict[float, int] = {}  # rounded size → characters set in it
        self._table_sizes: dict[float, int] = {}  # the same, of the words in tables

    def add_sizes(self, sizes: dict[float, int], in_tables: dict[float, int] | None = None) -> None:
        """Count the characters of a page by size: ``sizes`` outside tables, ``in_tables``
        inside them."""
        self._body = None
        for size, count in sizes.items():
            self._sizes[size] = self._sizes.get(size, 0) + count
        for size, count in (in_tables or {}).items():
            self._table_sizes[size] = self._table_sizes.get(size, 0) + count

    @property
    def body_size(self) -> float:
        """The size most characters outside tables are set in; while tables hold most of
        the text (a slide or a page that is one table under its title), the size most of
        all characters are set in: the few lines outside would else be their own body."""
        if self._body is None:
            self._body = self._most_set()
        return self._body

    def _most_set(self) -> float:
        sizes = self._sizes
        if sum(self._table_sizes.values()) > sum(sizes.values()):
            sizes = dict(sizes)
            for size, count in self._table_sizes.items():
                sizes[size] = sizes.get(size, 0) + count
        return max(sizes, key=sizes.__getitem__) if sizes else 0.0

    def level(self, text: str, size: float, bold: bool, lines: int, page: int) -> int:
        """The heading level of a block (1 = top), or 0 when it is body text."""
        text = text.strip()
        if not text or len(text) > _MAX_CHARS * 2:
            return 0
        from_outline = self.outline.level(text, page)
        if from_outline:
            return from_outline
        words = text.split()
        if not bold and (len(words) > _MAX_WORDS or len(text) > _MAX_CHARS or lines > 3):
            return 0  # too long for a heading, and no bold statement (below): body text
        body = self.body_size or size
        ratio = size / body if body else 1.0
        # A bold sentence standing alone, a little larger than the body: the heading of
        # a risk factor or a question ("We face significant competition ...").
        statement = (
            bold
            and ratio >= _STATEMENT_RATIO
            and len(words) <= _STATEMENT_WORDS
            and lines <= 3
            and text[0].isupper()  # not a bullet, not the tail of a sentence cut above
        )
        if (len(words) > _MAX_WORDS or len(text) > _MAX_CHARS or lines > 3) and not statement:
            return 0
        if not _wordy(text) or leader_end(text) or _DATE.match(text):
            return 0
        if _BOXES.search(text) and not _wordy(_ANSWERS.sub(" ", text)):
            return 0  # check boxes and their "Yes" / "No": a form's answer, set large
        letters = sum(map(str.isalpha, text))
        if letters * 2 < len(text) - text.count(" "):
            return 0  # mostly digits and symbols: a formula or a row of figures
        title = ratio >= _TITLE_RATIO and len(words) <= _TITLE_WORDS
        if text[-1] in ".,;" and len(words) > 3 and not (statement or title):
            return 0
        if text[-1] == "." and len(words) == 1 and not title and not _NUMBERED.fullmatch(text):
            return 0  # a one-word sentence ("None.", "Yes."): an answer, not a title
        # A line saying only what unit a table's figures are in ("In Millions"): a note.
        if load_word_list("unit_notes").match(text):
            return 0
        if text[-1] == ":" and len(words) > 3 and not (statement or title):
            # A sentence announcing what follows ("… net sales were as follows:") is a
            # lead-in, however it is set; a title ending in a colon capitalises its words.
            if sum(w[0].islower() for w in words) * 2 >= len(words):
                return 0
        if text[-1] in "-\u2010\u2011" and not title:
            return 0  # a word broken at the line end: the text runs on
        numbered = _NUMBERED.match(text)
        depth = _depth(numbered.group(1)) if numbered and len(words) > 1 else 0
        larger = ratio >= 1.15
        if not (larger or bold):
            return 0
        if bold and not larger and (text.islower() or ratio < 0.9):
            return 0  # bold small print or a bold word in lower case: emphasis
        if depth:
            return min(depth, MAX_PATH)
        if ratio >= 1.6:
            return 1
        if ratio >= 1.3:
            return 2
        if larger:
            return 3
        # Bold a little larger than the body heads what bold at the body size heads.
        return 4 if ratio >= _STATEMENT_RATIO else 5


def _wordy(text: str) -> bool:
    """Whether ``text`` holds a word: two letters or digits in a row with a letter among
    them ("5G", "Fact-Checking"), or a CJK character. Single letters and symbols are a
    formula, an axis label or a glyph set large ("Z p", "O(h", "þ Þ ¼")."""
    return any(not run.isdigit() for run in _RUNS.findall(text)) or bool(_CJK.search(text))


def _depth(number: str) -> int:
    if number[0].isdigit():
        return number.count(".") + 1
    return 1


class Trail:
    """The heading path in force: each heading replaces those at its level and below."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def push(self, level: int, title: str) -> None:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, " ".join(title.split())[:MAX_TITLE]))
        del self._stack[:-MAX_PATH]

    @property
    def path(self) -> list[str]:
        return [title for _, title in self._stack]

    @property
    def levels(self) -> list[int]:
        """Each title's heading level, as :attr:`path` lists them."""
        return [level for level, _ in self._stack]

    @property
    def here(self) -> tuple[list[str], list[int]]:
        """The path in force and its levels."""
        return self.path, self.levels

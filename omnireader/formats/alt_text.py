"""A picture's alt text as a document's text keeps it: ``[image: …]``, or nothing.

Office writes a caption of its own into a picture's alt text when nobody wrote one, and
marks it: "A jellyfish in water Description automatically generated", "A red and blue
square AI-generated content may be incorrect." The description is kept, the note is not
(the notes, in the languages Office writes them, are data:
``data/generated_alt_notes.txt``). An alt text that is only a file name ("IMG_0042.jpg",
"Toyota Yaris WRC.jpg") or the word "image" says nothing about the picture: dropped.

    >>> picture("A jellyfish in water  Description automatically generated")
    '[image: A jellyfish in water]'
    >>> picture("chart.png")
    ''
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

__all__ = ["picture", "clean_alt"]

_FILE_NAME = re.compile(
    r"[^/\\]{0,200}\.(?:png|jpe?g|gif|svg|webp|bmp|tiff?|emf|wmf|heic|avif|ico)", re.I
)
_NAMELESS = {"", "image", "picture", "photo", "img"}
_TRAILING = " \t,.;:-–—"


@lru_cache(maxsize=1)
def _notes() -> re.Pattern[str]:
    raw = resources.files("omnireader.formats").joinpath("data/generated_alt_notes.txt")
    notes = [
        line.strip()
        for line in raw.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return re.compile("|".join(re.escape(n) for n in notes), re.I)


def clean_alt(alt: str | None) -> str:
    """``alt`` on one line, without Office's generated-caption note, brackets made round
    (the text's ``[image: …]`` stays one mark); ``""`` when it says nothing."""
    text = " ".join((alt or "").replace("[", "(").replace("]", ")").split())
    if found := _notes().search(text):
        text = text[: found.start()].rstrip(_TRAILING)
    if text.casefold() in _NAMELESS or _FILE_NAME.fullmatch(text):
        return ""
    return text


def picture(alt: str | None) -> str:
    """``[image: alt]`` for a picture with something said about it, else ``""``."""
    text = clean_alt(alt)
    return f"[image: {text}]" if text else ""

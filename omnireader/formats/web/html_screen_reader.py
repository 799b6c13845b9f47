"""Text a page writes for screen readers only: dropped where it repeats or annotates what
the page shows, kept where it is the only words of what it labels.

Sites put such text off screen with a class (WordPress's ``screen-reader-text``,
Bootstrap's ``sr-only``, Drupal's ``visually-hidden``; the names are data:
``../data/screen_reader_classes.txt``). Read as text, it is:

- a note on a link whose words are on screen, dropped: ``Continue reading<span
  class="screen-reader-text"> "Post title"</span>``, ``Report<span class="sr-only"> (opens
  in a new tab)</span>``;
- the label of an embedded player, dropped with the player (which is never read): ``<p
  id="l1" class="screen-reader-text">YouTube Video</p><iframe aria-labelledby="l1">``, the
  three videos of the Microsoft blog's feed (``markitdown/test_rss.xml``);
- anything else, kept: the only words of an icon's link ("Download the report"), a table's
  caption or header cell, a chart's description. Its words are the page's own, if unseen.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from omnireader.formats.web.html_walk import gone, named, parent_named, tags
from omnireader.formats.word_lists import load_word_list

__all__ = ["SCREEN_READER_CLASSES", "drop_screen_reader_notes"]

#: The word list (``formats/data/screen_reader_classes.txt``) of their class names.
SCREEN_READER_CLASSES = "screen_reader_classes"
# Elements the reading drops whatever they hold: an aria-labelledby of theirs labels nothing read.
_EMBEDS = ["iframe", "embed", "object", "video", "audio"]


def _screen_reader_only(el: Any) -> bool:
    return any(_listed(str(c)) for c in (el.attrs or {}).get("class") or [])


@lru_cache(maxsize=4096)
def _listed(name: str) -> bool:
    # A page repeats a few class names thousands of times: each is looked up once.
    return load_word_list(SCREEN_READER_CLASSES).match(name)


def _shown_words(link: Any, note: Any) -> bool:
    """Whether ``link`` has words on screen besides ``note`` and other screen-reader text."""
    return any(
        text.strip() and not _in_note(text, link, note) for text in link.find_all(string=True)
    )


def _in_note(text: Any, link: Any, note: Any) -> bool:
    for parent in text.parents:  # up to the link, not past it
        if parent is link:
            return False
        if parent is note or _screen_reader_only(parent):
            return True
    return False


def _embed_labels(embeds: list[Any]) -> set[str]:
    ids: set[str] = set()
    for embed in embeds:
        # Strip stray quotes: the blog's feed writes aria-labelledby=ariaLabel_675e…" unquoted.
        ids.update(i.strip("\"'") for i in str(embed.get("aria-labelledby") or "").split())
    return ids


def drop_screen_reader_notes(root: Any) -> int:
    """Remove under ``root`` the screen-reader-only text that notes a link's shown words or
    labels an embedded player (see the module); returns how many elements went. Run before
    embeds are dropped and links flattened: both are what tells."""
    every = tags(root)  # one walk for the players and the notes
    labels = _embed_labels([el for el in every if named(el, _EMBEDS)])
    found = [
        el
        for el in every
        if _screen_reader_only(el)
        and (
            (el.get("id") and str(el.get("id")) in labels)
            or ((link := parent_named(el, ("a",))) is not None and _shown_words(link, el))
        )
    ]
    for el in found:
        if not gone(el):
            el.decompose()
    return len(found)

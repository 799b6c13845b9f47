"""A DOCX's comments, each with the words it is anchored on and its replies under it.

Word stores a comment's text in ``comments.xml`` and its anchor in the body, as
``commentRangeStart`` / ``commentRangeEnd`` around the words it is about (a comment on a
point, with no range, is about the paragraph holding its ``commentReference``); a reply is a
comment of its own, tied to the comment it answers only in ``commentsExtended.xml``
(``w15:paraIdParent``, by the ``w14:paraId`` of the comment's last paragraph). Read alone,
"- Randy Bartels: COMMENT on par 5" says nothing of what it is about; here it reads

    - Randy Bartels on "Par5 Lorem ipsum dolor sit amet": COMMENT on par 5
      - Shay Hill: Response from Shay Hill on par 5

The comments stay a part of their own (never glued into the text they annotate, which
would change the document's words); an anchor is quoted up to :data:`QUOTE` characters.
"""

from __future__ import annotations

from typing import Any

__all__ = ["comment_line", "comment_lines", "quote_anchor", "QUOTE"]

QUOTE = 80  # characters of the anchored words quoted; a longer anchor is cut at a word
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
_W15 = "{http://schemas.microsoft.com/office/word/2012/wordml}"


def _anchors(body: Any) -> dict[str, str]:
    """Each comment id's anchored words, walking the body in document order."""
    open_ids: list[str] = []
    words: dict[str, list[str]] = {}
    for el in body.iter(_W + "commentRangeStart", _W + "commentRangeEnd", _W + "t", _W + "p"):
        comment_id = el.get(_W + "id") or ""
        if el.tag == _W + "commentRangeStart":
            open_ids.append(comment_id)
            words.setdefault(comment_id, [])
        elif el.tag == _W + "commentRangeEnd":
            open_ids = [i for i in open_ids if i != comment_id]
        elif el.tag == _W + "p":  # a paragraph break inside an anchor reads as a space
            for i in open_ids:
                words[i].append(" ")
        elif el.text:
            for i in open_ids:
                words[i].append(el.text)
    anchors = {i: " ".join("".join(parts).split()) for i, parts in words.items()}
    # A comment on a point (a reference, no range) is about the paragraph it stands in.
    for ref in body.iter(_W + "commentReference"):
        comment_id = ref.get(_W + "id") or ""
        paragraph = next(ref.iterancestors(_W + "p"), None)
        if not anchors.get(comment_id) and paragraph is not None:
            text = "".join(t.text or "" for t in paragraph.iter(_W + "t"))
            anchors[comment_id] = " ".join(text.split())
    return anchors


def quote_anchor(text: str) -> str:
    """Anchored words as a comment quotes them: cut at a word past :data:`QUOTE`."""
    if len(text) > QUOTE:
        text = text[:QUOTE].rsplit(" ", 1)[0] + "…"
    return text


def comment_line(author: str, anchor: str, text: str) -> str:
    """A comment as every reader writes it: ``Author on "anchored words": text`` (the
    anchor quoted by :func:`quote_anchor`; no author, no anchor: less of it). DOCX, ODT
    and RTF comments alike."""
    quoted = quote_anchor(anchor)
    on = f' on "{quoted}"' if quoted else ""
    who = f"{author}{on}: " if author else (f'On "{quoted}": ' if quoted else "")
    return who + text


def _parents(extended: Any | None) -> dict[str, str]:
    """paraId of a reply's last paragraph -> paraId of the comment it answers."""
    if extended is None:
        return {}
    return {
        el.get(_W15 + "paraId") or "": el.get(_W15 + "paraIdParent") or ""
        for el in extended.iter(_W15 + "commentEx")
        if el.get(_W15 + "paraIdParent")
    }


def comment_lines(comments: Any, body: Any, extended: Any | None, text_of: Any) -> list[str]:
    """Markdown list lines of the comments (``comments.xml``'s root), a reply indented under
    the comment it answers; ``text_of(element)`` is a comment's text, one line."""
    anchors = _anchors(body)
    parents = _parents(extended)
    entries: list[tuple[str, str, str]] = []  # (paraId of last paragraph, line, parent)
    for comment in comments.iter(_W + "comment"):
        text = text_of(comment)
        if not text:
            continue
        paragraphs = comment.findall(_W + "p")
        para_id = (paragraphs[-1].get(_W14 + "paraId") or "") if paragraphs else ""
        author = comment.get(_W + "author") or ""
        anchor = anchors.get(comment.get(_W + "id") or "", "")
        parent = parents.get(para_id, "") if para_id else ""
        # A reply is listed under its comment: the anchor is said there once.
        entries.append((para_id, comment_line(author, "" if parent else anchor, text), parent))
    known = {para_id for para_id, _, _ in entries if para_id}
    replies: dict[str, list[str]] = {}
    for _, line, parent in entries:
        if parent in known:
            replies.setdefault(parent, []).append(line)
    lines: list[str] = []
    for para_id, line, parent in entries:
        if parent in known:
            continue  # listed under the comment it answers
        lines.append(f"- {line}")
        lines.extend(f"  - {reply}" for reply in replies.get(para_id, []))
    return lines

"""Markdown front matter becomes the document's title, date and authors; the fields worth
searching stay as readable lines; the raw ``---`` block never reaches an item."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.formats.plain.front_matter import front_matter

NOTES = """---
title: "Trip notes: Azores"
date: 2023-05-01
tags: [travel, azores, hiking]
author: Lena Fischer
draft: false
layout: post
---

# Trip notes

We hiked the crater rim at Sete Cidades on the second day.
"""


def test_title_date_and_author_describe_the_item_and_the_block_is_gone(tmp_path: Path) -> None:
    (tmp_path / "azores.md").write_text(NOTES, encoding="utf-8")
    [item] = Reader().read(tmp_path / "azores.md")
    meta = item.metadata
    assert (meta.key, meta.timestamp, meta.time_source) == (
        "Trip notes: Azores",
        "2023-05-01",
        None,
    )
    assert meta.persons == ["Lena Fischer"]
    assert item.memory.startswith("Tags: travel, azores, hiking\n\n# Trip notes")
    for junk in ("---", "draft", "layout", 'title: "'):
        assert junk not in item.memory


def test_a_list_of_authors_and_a_description_are_kept() -> None:
    info, body = front_matter(
        "---\nauthors:\n  - Ann Lee\n  - Bo Chen\n"
        "description: Field notes from the ferry.\n---\nBody."
    )
    assert info.authors == ["Ann Lee", "Bo Chen"] and info.title is None
    assert body == "Description: Field notes from the ferry.\n\nBody."


@pytest.mark.parametrize(
    "text",
    [
        "---\nJust a paragraph after a rule.\n---\nMore.",  # YAML, but a string, not fields
        "---\ntitle: [unclosed\n---\nBody.",  # not YAML at all
        "Intro.\n---\ntitle: late\n---\n",  # not at the top
        "# No front matter\n\nText.",
    ],
    ids=["rule-and-paragraph", "broken-yaml", "not-at-top", "none"],
)
def test_text_without_front_matter_is_left_as_it_is(text: str) -> None:
    info, body = front_matter(text)
    assert body == text and info.title is None and info.created is None

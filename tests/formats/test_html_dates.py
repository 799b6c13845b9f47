"""A web page is dated by what it says of itself (OpenGraph, Dublin Core, JSON-LD, the
article header's <time>), not by the day it was saved, and its authors are its items'
persons. Read through the real reader, on pages written here and on saved pages from the
shared corpus (skipped when ../shared is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader
from omnireader.models import MemoryMetadata

ARTICLE = "<article><h1>Permits</h1><p>Plants need a permit to emit pollutants.</p></article>"


def first_meta(path: Path) -> MemoryMetadata:
    result = Reader().read_report(path)
    assert result.items, result.failures
    metas = [i.metadata for i in result.items]
    assert all((m.timestamp, m.persons) == (metas[0].timestamp, metas[0].persons) for m in metas)
    return metas[0]


def page(tmp_path: Path, head: str, body: str = ARTICLE) -> Path:
    path = tmp_path / "page.html"
    path.write_text(f"<html><head><title>Permits</title>{head}</head><body>{body}</body></html>")
    return path


def test_the_blog_is_dated_by_its_publication_and_names_its_author(corpus: Path) -> None:
    meta = first_meta(corpus / "markitdown" / "test_blog.html")
    assert meta.timestamp == "2023-04-21T00:00:00+00:00"
    assert meta.time_source is None  # the page's own time, not the file's
    assert meta.extra["time_source"] == "meta article:published_time"
    # article:author is a LinkedIn URL, no name; the byline's microdata names him.
    assert meta.persons == ["Chi Wang"]


def test_a_page_revised_years_after_it_was_published_is_dated_by_the_revision(
    corpus: Path,
) -> None:
    # Wikipedia's JSON-LD: datePublished 2001-11-03 (the article's creation),
    # dateModified 2024-03-13 (the text saved); the author is an Organization, no person.
    meta = first_meta(corpus / "markitdown" / "test_wikipedia.html")
    assert meta.timestamp == "2024-03-13T14:21:39+00:00"
    assert meta.extra["time_source"] == "json-ld dateModified"
    assert meta.persons == []


@pytest.mark.parametrize(
    ("head", "body", "when", "source"),
    [
        (
            '<meta name="DC.date.issued" content="2008-02-15">',
            ARTICLE,
            "2008-02-15",
            "meta dc.date.issued",
        ),
        (  # a time without a zone: the day is known, not the moment
            '<meta name="date" content="2019-06-03T09:30:00">',
            ARTICLE,
            "2019-06-03",
            "meta date",
        ),
        (
            '<script type="application/ld+json">{"@context": "https://schema.org",'
            ' "@graph": [{"@type": "NewsArticle", "datePublished": "2021-05-04T08:00:00+02:00"}]}'
            "</script>",
            ARTICLE,
            "2021-05-04T08:00:00+02:00",
            "json-ld datePublished",
        ),
        (
            "",
            '<article><header><h1>Permits</h1><time datetime="2020-01-31">31 January</time>'
            "</header><p>Plants need a permit.</p></article>",
            "2020-01-31",
            "time datetime",
        ),
    ],
    ids=["dublin-core", "no-zone", "json-ld-graph", "article-header-time"],
)
def test_the_date_a_page_gives_is_its_timestamp(
    tmp_path: Path, head: str, body: str, when: str, source: str
) -> None:
    meta = first_meta(page(tmp_path, head, body))
    # The item's own time (time_source None, as a PDF's or a DOCX's), and where it was read.
    assert (meta.timestamp, meta.time_source, meta.extra["time_source"]) == (when, None, source)


def test_authors_come_from_meta_and_json_ld_people_not_organisations(tmp_path: Path) -> None:
    meta = first_meta(
        page(
            tmp_path,
            '<meta name="author" content="Ana Lima">'
            '<meta property="article:author" content="https://example.org/ana">'
            '<script type="application/ld+json">{"@type": "Article", "author": ['
            '{"@type": "Person", "name": "Bo Chen"}, {"@type": "Organization", "name": "EPA"}],'
            ' "datePublished": "not a date"}</script>',
        )
    )
    assert meta.persons == ["Ana Lima", "Bo Chen"]
    assert meta.time_source == "mtime"  # no date in it: the file's time, said so


def test_a_page_that_says_nothing_of_itself_is_dated_by_the_file(tmp_path: Path) -> None:
    meta = first_meta(page(tmp_path, ""))
    assert (meta.time_source, meta.persons, "time_source" in meta.extra) == ("mtime", [], False)

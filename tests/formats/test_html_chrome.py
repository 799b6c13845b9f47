"""Page chrome a page names only in its id / class, or gives away by being all links, is
not read; the article is, whole. Small pages written here, and real saved pages from the
shared corpus (skipped when ../shared is absent)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown

HIDDEN = re.compile(r"display\s*:\s*none")
ARTICLE = (
    "<h1>Air permits</h1><p>Industrial operations emit nearly 100 million tons of"
    " pollutants into the air each year, and permits limit what each plant may emit.</p>"
)


def markdown(html: str) -> str:
    return html_markdown(html.encode()).text


def read_text(path: Path) -> str:
    result = Reader().read_report(path)
    assert result.items, result.failures
    return "\n".join(i.memory for i in result.items)


def words(text: str) -> str:
    """Text as lower-case words only: Markdown marks and escapes do not count."""
    return " ".join(re.sub(r"[\W_]+", " ", text).lower().split())


def test_furniture_named_in_id_or_class_is_not_read() -> None:
    text = markdown(
        "<body><p class=skip><a href='#c'>Jump to main content.</a></p>"
        "<div id=header><p>Air Quality Planning</p>"
        "<ul class='breadcrumbs'><li>You are here: <a href='/'>EPA Home</a></li></ul></div>"
        f"<div id=content>{ARTICLE}</div>"
        "<div id=area-nav><h3>Local Navigation</h3><ul><li><a href=a>Visibility</a></li>"
        "<li><a href=b>Emissions</a></li></ul></div>"
        "<div id=footer>Privacy and Security Notice</div></body>"
    )
    assert text.startswith("# Air permits\n\nIndustrial operations emit")
    for chrome in ("Jump to main", "Air Quality Planning", "You are here", "Local Navigation"):
        assert chrome not in text, chrome
    assert "Privacy" not in text


def test_a_name_counts_only_as_a_whole_token() -> None:
    # "navigable" is not "nav", "StickyNavbar" is not "navbar", "footerless" no "footer".
    text = markdown(
        f"<body>{ARTICLE}<div class='navigable-waters'><p>The river is navigable to the"
        " dam.</p></div><h2 class='anchorWithStickyNavbar'>Findings</h2>"
        "<p class='footerless'>Emissions fell by a third.</p></body>"
    )
    for kept in ("navigable to the dam", "## Findings", "Emissions fell by a third"):
        assert kept in text, kept


def test_a_block_of_short_links_is_navigation_on_a_page_without_landmarks() -> None:
    links = (
        "<p><a href=p>Publications</a> | <a href=o>Organization</a> |"
        " <a href=t>Technical Information</a></p>"
    )
    assert "Publications" not in markdown(f"<body>{ARTICLE}{links}</body>")
    # Inside <main> the page says what its content is: a list of links there is its own.
    assert "Publications | Organization" in markdown(f"<body><main>{ARTICLE}{links}</main></body>")


def test_links_with_prose_or_long_labels_and_labelled_values_stay() -> None:
    text = markdown(
        f"<body>{ARTICLE}"
        "<p>See <a href=a>the permit rules</a> and <a href=b>the fee schedule</a> before"
        " you apply for a permit at your regional office.</p>"
        "<ul><li><a href=r>Acid rain permits lower sulfur dioxide and nitrogen oxides</a></li>"
        "<li><a href=n>New source review covers plants built or changed</a></li></ul>"
        "<table><tr><th>Founders</th><td><ul><li><a href=g>Bill Gates</a></li>"
        "<li><a href=p>Paul Allen</a></li></ul></td></tr></table></body>"
    )
    for kept in ("the fee schedule", "Acid rain permits lower", "Bill Gates", "Paul Allen"):
        assert kept in text, kept


def test_a_page_that_is_all_links_is_kept_rather_than_emptied() -> None:
    page = "<body><ul>" + "".join(f"<li><a href={n}>Site map {n}</a></li>" for n in range(9))
    text = markdown(page + "</ul></body>")
    assert "Site map 0" in text and "Site map 8" in text


def test_the_saved_epa_page_keeps_its_article_and_drops_its_chrome(corpus: Path) -> None:
    # A multipart/related message saved by Internet Explorer 7: a 2008 page with no
    # HTML5 landmarks, its chrome named in ids and classes (area-nav, footer, skip).
    text = read_text(corpus / "realworld" / "testRFC822_oddfrom")
    for chrome in (
        "Jump to main content",
        "You are here",
        "Local Navigation",
        "Toxic Air Pollutants",
        "Privacy and Security Notice",
        "Publications | Organization | Technical Information",
    ):
        assert chrome not in text, chrome
    for article in (
        "# Air Permit Programs\n\nTitle IV Permits | Title V Permits | New Source Review",
        "Each year in the U.S., industrial operations emit nearly 100 million",
        "The purpose of title V permits is to reduce violations of air pollution laws",
    ):
        assert article in text, article


@pytest.mark.parametrize(
    ("name", "landmark"),
    [("test_blog.html", {"name": "article"}), ("test_wikipedia.html", {"id": "mw-content-text"})],
)
def test_every_paragraph_of_an_article_is_still_read(
    corpus: Path, name: str, landmark: dict[str, str]
) -> None:
    path = corpus / "markitdown" / name
    soup = BeautifulSoup(path.read_bytes(), "lxml")
    article = soup.find(**landmark)
    # Citation marks whose note the page does not hold, what the page hides ("[update]")
    # and its maintenance tags not to be printed ("[dubious – discuss]") are not read, by
    # design; a mark whose note is on the page is read as the page shows it ("[2]").
    marks = article.find_all("sup", class_="reference")
    dangling = [m for m in marks if not (a := m.find("a")) or not soup.find(id=a["href"][1:])]
    drop = dangling + article.find_all(class_="noprint") + article.find_all(style=HIDDEN)
    for mark in drop:
        mark.decompose()
    paragraphs = [words(p.get_text()) for p in article.find_all("p")]
    paragraphs = [p for p in paragraphs if len(p.split()) >= 8]
    assert len(paragraphs) >= 10
    text = words(read_text(path))
    lost = [p[:60] for p in paragraphs if p not in text]
    assert not lost

"""Every step of the HTML reading on two pages at once, pinned to the Markdown, title and
dates the reading gave before its steps found elements by plain walks (html_walk) instead
of BeautifulSoup's searches: which landmark is the content, hidden and chrome elements,
screen-reader notes, note marks, permalink marks and word-break hints, the article header's
date and the authors in order, key/value and layout tables, stray nested lists, ``<pre>``."""

from __future__ import annotations

from omnireader.formats.web.html_markdown import html_markdown

LANDMARKED = '<html lang="en"><head><title>Pinned page</title>\n<meta name="author" content="Ann Meta"><meta property="article:published_time" content="2024-03-01T10:00:00Z">\n<script type="application/ld+json">{"@graph": [{"@type": "Article", "dateModified": "2024-04-02T09:00:00+02:00", "author": {"@type": "Person", "name": "Bo Json"}}]}</script>\n</head><body>\n<header class="site"><a href="/">Home</a> | <a href="/blog">Blog</a></header>\n<aside><nav>Side menu</nav></aside>\n<div style="display:none"><ix:header><ix:hidden>HIDDEN FACT</ix:hidden></ix:header></div>\n<main>\n<article><header><h1>Title <a class="headerlink" href="#t">¶</a></h1><time datetime="2024-02-01">Feb 1</time>\n<span itemprop="author" itemscope><span itemprop="name">Cy Micro</span></span></header>\n<p>Body text with a note<sup><a href="#fn1">1</a></sup> and a\n<a href="https://example.com/x">link<span class="screen-reader-text"> (opens in a new tab)</span></a>.</p>\n<p class="sr-only">Only for screen readers but kept.</p>\n<p id="lbl" class="screen-reader-text">YouTube Video</p><iframe aria-labelledby="lbl" src="v"></iframe>\n<pre>line one<br>   indented after br\n<b>bold</b>   kept   spaces</pre>\n<table><caption>Facts</caption><tr><th>Founded</th><td>1975</td></tr><tr><th>Founders</th><td><ul><li>Bill</li><li>Paul</li></ul></td></tr></table>\n<table role="presentation"><tr><td><h2>Inside layout</h2><p>First para.</p><p>Second para.</p>\n<table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>\n<ul><li>one</li><ul><li>stray nested</li></ul><li>two</li></ul>\n<p>Is<wbr>_long<wbr>_name here.</p>\n<ol><li id="fn1">The footnote.</li></ol>\n<sup><a href="#missing">9</a></sup>\n</article>\n</main>\n<footer>Footer text</footer>\n</body></html>\n'

NO_LANDMARK = '<html><head><title>No landmark</title><meta name="dc.date" content="2023-05-06"></head><body>\n<div id="area-nav"><ul><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li><li><a href="/c">Gamma</a></li></ul></div>\n<div id="content"><h1>Heading</h1>\n<div role="main"><p>Role main is small.</p></div>\n<article><p>First article text is here and it is long enough to matter for the share of the page.</p></article>\n<article><p>Second article text.</p></article>\n<p>Plain paragraph with <a href="#n2"><sup>2</sup></a> a mark, <a name="n2"></a> anchor by name.</p>\n<table><tr><td>Cell with prose. It has two sentences here.</td><td>x</td></tr><tr><td>a</td><td>b</td></tr></table>\n<table><tr><th>Country</th><th>Capital</th></tr><tr><td>France</td><td>Paris</td></tr></table>\n<div class="footer">Copyright</div>\n<p class="skip">Jump to content</p>\n<span aria-hidden="true">★</span>\n</div></body></html>\n'


def test_a_landmarked_page_reads_as_before() -> None:
    page = html_markdown(LANDMARKED.encode())
    assert (
        page.text
        == "# Title\n\nFeb 1 Cy Micro\n\nBody text with a note[1] and a link.\n\nOnly for screen readers but kept.\n\n```\nline one\n   indented after br\nbold   kept   spaces\n```\n\nFacts\nFounded: 1975\nFounders: Bill; Paul\n\n## Inside layout\n\nFirst para.\n\nSecond para.\n\n| k | v |\n| --- | --- |\n| 1 | 2 |\n\n* one\n  + stray nested\n* two\n\nIs_long_name here.\n\n1. The footnote."
    )
    assert (page.title, page.lang) == ("Pinned page", "en")
    assert page.page is not None
    assert page.page.model_dump() == {
        "published": "2024-03-01T10:00:00+00:00",
        "published_from": "meta article:published_time",
        "modified": "2024-04-02T09:00:00+02:00",
        "modified_from": "json-ld dateModified",
        "authors": ["Ann Meta", "Bo Json", "Cy Micro"],
    }


def test_a_page_without_landmark_reads_as_before() -> None:
    page = html_markdown(NO_LANDMARK.encode())
    assert (
        page.text
        == "# Heading\n\nRole main is small.\n\nFirst article text is here and it is long enough to matter for the share of the page.\n\nSecond article text.\n\nPlain paragraph with [2] a mark,  anchor by name.\n\nCell with prose. It has two sentences here.\n\nx\n\na\n\nb\n\n| Country | Capital |\n| --- | --- |\n| France | Paris |"
    )
    assert page.page is not None
    assert (page.page.published, page.page.published_from) == ("2023-05-06", "meta dc.date")

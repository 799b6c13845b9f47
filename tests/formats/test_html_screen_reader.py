"""Text a page writes for screen readers only (omnireader.formats.web.html_screen_reader):
a note on a link's shown words and the label of an embedded player are not read; the only
words of a link, a table's caption and header cells are. Through the real reader, on pages
and feeds written to tmp_path and on the shared corpus's Microsoft blog feed."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader

POST = """<html><head><title>Garden notes</title></head><body><main>
<h1>Garden notes</h1>
<p>Read the <a href="https://example.org/r" target="_blank">planting report<span
  class="screen-reader-text"> (opens in a new tab)</span></a> before spring.</p>
<div class="video-container"><p id="ariaLabel_1" class="screen-reader-text">YouTube Video</p>
  <p><iframe title="YouTube Video" aria-labelledby=ariaLabel_1" src="https://y.t/e/1">
  </iframe></p></div>
<p>Tulips open in April.</p>
<p><a href="/report.pdf"><svg></svg><span class="sr-only">Download the bulb price list</span></a></p>
<table><caption class="visually-hidden">Bulb prices per dozen</caption>
  <tr><th><span class="sr-only">Bulb</span></th><th>Price</th></tr>
  <tr><td>Tulip</td><td>4.50</td></tr><tr><td>Crocus</td><td>2.10</td></tr></table>
<p><a class="more-link" href="/p/1">Continue reading<span class="screen-reader-text">
  "Garden notes"</span></a></p>
</main></body></html>"""


def _text(path: Path) -> str:
    return "\n".join(i.memory for i in Reader().read(str(path)))


def test_screen_reader_notes_and_player_labels_are_not_read(tmp_path: Path) -> None:
    page = tmp_path / "post.html"
    page.write_text(POST, encoding="utf-8")
    text = _text(page)
    assert "Read the planting report before spring." in text
    assert "opens in a new tab" not in text
    assert "YouTube Video" not in text  # the label of a player that is not read
    assert '"Garden notes"' not in text  # the post's title again, after "Continue reading"


def test_screen_reader_text_that_is_the_only_label_is_read(tmp_path: Path) -> None:
    page = tmp_path / "post.html"
    page.write_text(POST, encoding="utf-8")
    text = _text(page)
    assert "Download the bulb price list" in text  # the link shows only an icon
    assert "Bulb prices per dozen" in text  # the table's caption
    assert "| Bulb | Price |" in text  # a header cell's only word


def test_a_feed_entry_loses_its_player_labels(tmp_path: Path) -> None:
    feed = tmp_path / "feed.xml"
    body = (
        "&lt;p&gt;Our new video on compost.&lt;/p&gt;&lt;div&gt;&lt;p id=&quot;l7&quot; "
        "class=&quot;screen-reader-text&quot;&gt;YouTube Video&lt;/p&gt;&lt;iframe "
        "aria-labelledby=&quot;l7&quot; src=&quot;https://y.t/e/7&quot;&gt;&lt;/iframe&gt;"
        "&lt;/div&gt;&lt;p&gt;Turn the heap weekly.&lt;/p&gt;"
    )
    feed.write_text(
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Garden blog</title>'
        "<link>https://example.org</link><description>Notes</description>"
        "<item><title>Compost</title><link>https://example.org/compost</link>"
        f"<description>{body}</description></item></channel></rss>",
        encoding="utf-8",
    )
    text = _text(feed)
    assert "Turn the heap weekly." in text and "YouTube Video" not in text


def test_the_microsoft_blog_feed_reads_without_its_youtube_labels(corpus: Path) -> None:
    # markitdown/test_rss.xml embeds three YouTube players, each labelled "YouTube Video"
    # for screen readers; the posts around them stay.
    items = Reader().read(str(corpus / "markitdown" / "test_rss.xml"))
    text = "\n".join(i.memory for i in items)
    assert "YouTube Video" not in text
    assert "The challenge: Navigating the complexity of data" in text

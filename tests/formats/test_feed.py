"""RSS and Atom feeds: each post its own input, keyed by its title, dated by its own date."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader.intake.router import route
from omnireader.models import MemoryItem
from omnireader.parsers.base import ParseContext, get_parser

ATOM_FEED = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Otter Notes</title>
  <subtitle>Field notes from the river</subtitle>
  <updated>2024-05-02T08:00:00+02:00</updated>
  <entry>
    <title type="html">Pups &lt;em&gt;learn&lt;/em&gt; to float</title>
    <link rel="alternate" href="https://otters.example/pups"/>
    <link rel="edit" href="https://otters.example/edit/1"/>
    <published>2024-05-01T09:30:00+02:00</published>
    <updated>2024-05-02T10:00:00+02:00</updated>
    <author><name>Ann Lee</name></author>
    <category term="pups"/><category term="river" label="River life"/>
    <summary>Pups learn to float in their first week.</summary>
    <content type="html">&lt;p&gt;Pups learn to float in their first week, watched by
      &lt;a href="https://t.example/r?u=aHR0c"&gt;their mother&lt;/a&gt;.&lt;/p&gt;
      &lt;p&gt;&lt;img src="https://otters.example/pup.png" alt="a floating pup"&gt;&lt;/p&gt;
    </content>
  </entry>
  <entry>
    <title>Winter dens</title>
    <id>urn:uuid:2</id>
    <updated>2023-12-01T07:00:00Z</updated>
    <author><name>Bo Chen</name></author>
    <summary>Dens are dug into the bank above the water line.</summary>
  </entry>
</feed>
"""

RSS_FEED = """<?xml version="1.0"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Team blog</title><link>https://team.example/</link>
<item>
  <title>We shipped v2</title><link>https://team.example/v2</link>
  <dc:creator>Jo Park</dc:creator><pubDate>Tue, 19 Nov 2024 13:30:02 +0000</pubDate>
  <category>Releases</category>
  <description>&lt;p&gt;Search is faster. [&amp;#8230;]&lt;/p&gt;&lt;p&gt;The post
   &lt;a href="https://team.example/v2"&gt;We shipped v2&lt;/a&gt; appeared first on
   &lt;a href="https://team.example"&gt;Team blog&lt;/a&gt;.&lt;/p&gt;</description>
  <content:encoded>&lt;p&gt;Search is faster. Indexes build in half the time.&lt;/p&gt;
   &lt;p&gt;The post &lt;a href="https://team.example/v2"&gt;We shipped v2&lt;/a&gt; appeared
   first on &lt;a href="https://team.example"&gt;Team blog&lt;/a&gt;.&lt;/p&gt;</content:encoded>
</item>
<item>
  <title>Roadmap</title><pubDate>Mon, 02 Dec 2024 08:00:00 -0500</pubDate>
  <description>A teaser for the roadmap.</description>
  <content:encoded>&lt;p&gt;Next: faster imports.&lt;/p&gt;</content:encoded>
</item>
</channel></rss>
"""


def read(path: Path) -> list[MemoryItem]:
    items: list[MemoryItem] = []
    for task in route(path):
        assert task.failure is None, task.failure
        items.extend(get_parser(task.parser).parse_fast(task.payload, ParseContext()))
    return items


def posts(items: list[MemoryItem]) -> dict[str, list[MemoryItem]]:
    """The items of each post (a member of the feed), by the post's key."""
    out: dict[str, list[MemoryItem]] = {}
    for item in items:
        if item.source.member:
            out.setdefault(item.metadata.key or "", []).append(item)
    return out


def test_each_atom_entry_is_its_own_input_keyed_and_dated_by_itself(tmp_path: Path) -> None:
    path = tmp_path / "otters.atom"
    path.write_text(ATOM_FEED)
    items = read(path)
    by_key = posts(items)
    assert set(by_key) == {"Pups learn to float", "Winter dens"}
    [pup] = by_key["Pups learn to float"]
    assert pup.source.member == "entry/1.xml"
    assert pup.metadata.timestamp == "2024-05-01T09:30:00+02:00"  # published, with its zone
    assert pup.metadata.persons == ["Ann Lee"]
    assert pup.metadata.keywords == ["pups", "River life"]
    assert pup.metadata.extra["link"] == "https://otters.example/pups"  # not the edit link
    # The summary is the post's opening: said once. Links and images as a reader sees them.
    assert pup.memory.count("Pups learn to float in their first week") == 1
    assert "watched by their mother." in pup.memory and "t.example" not in pup.memory
    assert "[image: a floating pup]" in pup.memory and "pup.png" not in pup.memory
    [den] = by_key["Winter dens"]  # no content: its summary is its text; updated its date
    assert den.metadata.timestamp == "2023-12-01T07:00:00+00:00"
    assert "dug into the bank" in den.memory
    [feed] = [i for i in items if not i.source.member]  # the feed itself: what it is, its posts
    assert feed.metadata.key == "Otter Notes"
    assert "Field notes from the river" in feed.memory and "- Winter dens" in feed.memory


def test_an_rss_post_prefers_its_full_content_to_its_excerpt(tmp_path: Path) -> None:
    path = tmp_path / "feed.xml"
    path.write_text(RSS_FEED)
    by_key = posts(read(path))
    [v2] = by_key["We shipped v2"]
    assert v2.memory == "# We shipped v2\n\nSearch is faster. Indexes build in half the time."
    assert v2.metadata.timestamp == "2024-11-19T13:30:02+00:00"
    assert v2.metadata.persons == ["Jo Park"] and v2.metadata.keywords == ["Releases"]
    assert v2.metadata.extra["link"] == "https://team.example/v2"
    # A description that is not the post's opening says something of its own: kept.
    [roadmap] = by_key["Roadmap"]
    assert "A teaser for the roadmap." in roadmap.memory and "faster imports" in roadmap.memory
    assert roadmap.metadata.timestamp == "2024-12-02T08:00:00-05:00"


def test_a_feed_with_entity_declarations_is_read_as_text_without_posts(tmp_path: Path) -> None:
    lol = "".join(f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' for i in range(1, 10))
    path = tmp_path / "bomb.rss"
    path.write_text(
        f'<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY l0 "lol">{lol}]><rss version="2.0">'
        "<channel><title>Kept title</title><item><title>&l9;</title></item></channel></rss>"
    )
    items = read(path)
    assert [i.source.member for i in items] == [None]
    assert "Kept title" in items[0].memory and "lollol" not in items[0].memory


def test_the_markitdown_feed_gives_one_input_per_post(corpus: Path) -> None:
    path = corpus / "markitdown" / "test_rss.xml"
    if not path.is_file():
        pytest.skip("test_rss.xml is not in the corpus")
    items = read(path)
    by_key = posts(items)
    assert len(by_key) == 10  # its ten <item>s
    ignite = by_key["Ignite 2024: Why nearly 70% of the Fortune 500 now use Microsoft 365 Copilot"]
    assert {i.metadata.timestamp for i in ignite} == {"2024-11-19T13:30:02+00:00"}
    assert {tuple(i.metadata.persons) for i in ignite} == {("Frank X. Shaw",)}
    text = "\n".join(i.memory for i in items)
    assert text.count("Two things can be true at the same time") == 1  # not the excerpt too
    assert "appeared first on" not in text and "Click here to load media" not in text
    assert "](http" not in text  # links flattened as on web pages: no tracking URLs


def test_only_posts_cut_from_a_feed_and_atom_entry_documents_read_as_posts() -> None:
    from omnireader.formats.sniff import sniff

    item = b'<?xml version="1.0"?><item><title>Bolt</title><price>2</price></item>'
    assert sniff(item, "stock.xml").kind == "xml"  # someone's own XML, rooted at <item>
    assert sniff(item, "feed.xml!item/3.xml").kind == "feed_entry"
    entry = b'<entry xmlns="http://www.w3.org/2005/Atom"><title>Hi</title></entry>'
    assert sniff(entry, "post.atom").kind == "feed_entry"

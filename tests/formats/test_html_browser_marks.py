"""What a page writes for the browser alone is not read as text: the permalink mark beside a
documentation page's headings and definitions ("¶", "#"), the word-break hints inside long
names, the markup's own newline after a ``<br>``."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown


def test_a_sphinx_page_s_headings_and_their_path_lose_the_pilcrow(tmp_path: Path) -> None:
    path = tmp_path / "idle.html"
    path.write_text(
        "<html><head><title>IDLE — Python documentation</title></head><body>"
        '<div class="body"><section id="idle"><h1>IDLE<a class="headerlink" href="#idle" '
        'title="Link to this heading">¶</a></h1><section id="menus"><h2>Menus<a '
        'class="headerlink" href="#menus">¶</a></h2><p>IDLE has two main window types.</p>'
        '<dl><dt id="idlelib.run"><code>run()</code><a class="headerlink" '
        'href="#idlelib.run" title="Link to this definition">¶</a></dt><dd>Runs it.</dd></dl>'
        "</section></section></div></body></html>",
        encoding="utf-8",
    )
    [item] = Reader().read(path)
    assert item.metadata.extra["heading_path"] == ["IDLE", "Menus"]
    assert "¶" not in item.memory
    assert item.memory == (
        "# IDLE\n\n## Menus\n\nIDLE has two main window types.\n\n`run()`\n:   Runs it."
    )


def test_a_node_style_hash_mark_goes_and_a_heading_that_is_its_own_link_stays() -> None:
    text = html_markdown(
        '<h2>C++ addons<span><a class="mark" href="#c-addons" id="c-addons">#</a></span></h2>'
        '<h3><a href="#hello">Hello world</a></h3><p>Tracked in '
        '<a href="https://example.com/issues">#</a>.</p>'
    ).text
    assert text.splitlines()[0] == "## C++ addons"
    assert "### Hello world" in text
    # A "#" that links elsewhere is the page's own text: only an anchor's mark goes.
    assert text.endswith("Tracked in #.")


def test_word_break_hints_leave_a_name_whole_and_unescaped() -> None:
    text = html_markdown(
        "<h1>Macro <span>is_<wbr>mips64_<wbr>feature_<wbr>detected</span></h1>"
        '<p>Call is_<wbr>mips64_<wbr>feature_<wbr>detected!("msa") first.</p>'
    ).text
    assert text == (
        '# Macro is_mips64_feature_detected\n\nCall is_mips64_feature_detected!("msa") first.'
    )


def test_a_line_after_a_break_starts_with_its_first_word_and_pre_keeps_its_spaces() -> None:
    text = html_markdown(
        "<p>Unless there is a need for direct access to functionality which is not<br>\n"
        "exposed by Node-API, use Node-API.</p><pre>a<br>\n    indented</pre>"
    ).text
    assert "which is not\nexposed by Node-API" in text
    assert "\n    indented" in text

"""Markdown with raw HTML: the HTML goes, the code stays exactly as written."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader
from omnireader.formats.plain.markdown import markdown_text

README = """<div align="center">
  <picture>
    <source media="(prefers-color-scheme: dark)" srcset="logo-dark.svg">
    <img alt="Orchard logo" src="logo.svg" width="200">
  </picture>
</div>
<!-- badges -->
<p align="center"><a href="https://example.org/ci"><img src="ci.svg"></a></p>

# Orchard

Plant <b>plums</b> &amp; quinces. Inline `<b>code</b>` stays.

```html
<p align="center">kept verbatim</p>
```
"""


def test_html_is_dropped_outside_code_and_alt_text_kept() -> None:
    text = markdown_text(README)
    assert text.startswith("[image: Orchard logo]")
    assert "# Orchard" in text and "Plant plums & quinces." in text
    assert "`<b>code</b>`" in text
    assert '```html\n<p align="center">kept verbatim</p>\n```' in text
    for junk in ("<picture>", "srcset=", '<p align="center"><a', "badges", "<img"):
        assert junk not in text.replace('<p align="center">kept verbatim', "")


def test_a_markdown_file_with_html_is_read_as_markdown(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(README)
    [item] = Reader().read(path)
    assert item.metadata.tags == ["markdown"] and item.metadata.key == "Orchard"
    assert "<picture>" not in item.memory

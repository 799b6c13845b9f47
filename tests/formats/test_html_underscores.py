"""A name written with underscores on a web page reads as written ("top_p"), not with
Markdown's escape in it ("top\\_p"), which a search for the name would miss; an underscore
that could open emphasis stays escaped."""

from __future__ import annotations

from pathlib import Path

from omnireader import Reader
from omnireader.formats.web.html_markdown import html_markdown


def test_the_blog_s_parameter_names_read_as_written(corpus: Path) -> None:
    items = Reader().read(corpus / "markitdown" / "test_blog.html")
    text = "\n".join(item.memory for item in items)
    assert "* top_p: The parameter that controls the probability mass" in text
    assert "* max_tokens: The maximum number of tokens" in text
    assert "\\_" not in text


def test_only_an_underscore_between_letters_or_digits_loses_its_escape() -> None:
    text = html_markdown(
        "<p>Set top_p, snake_case_name and 2_000; not __init__ or _emphasis_.</p>"
    ).text
    assert text == ("Set top_p, snake_case_name and 2_000; not \\_\\_init\\_\\_ or \\_emphasis\\_.")

"""The README is a front page (issue 24): short, true for a fresh clone, pointing at docs/.

The long text lives in the mkdocs site (``docs/``), which ``python3 dev.py test`` builds with
``--strict`` before the suite; this checks what mkdocs does not see, the README itself.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAX_LINES = 250


def test_the_readme_is_a_front_page() -> None:
    assert len(README.splitlines()) <= MAX_LINES
    # A clone has no ../shared beside it: the README must not send a reader there.
    assert "../shared" not in README
    for command in ("python3 dev.py run", "python3 dev.py test"):
        assert command in README


def test_the_format_table_is_the_one_the_registry_writes() -> None:
    # Written by `python3 dev.py readme` from each format's record: it cannot drift.
    from omnireader.formats.registry import readme_table

    start, end = "<!-- formats:start -->", "<!-- formats:end -->"
    assert README.count(start) == 1 and README.count(end) == 1
    block = README[README.index(start) + len(start) : README.index(end)].strip()
    assert block == readme_table()
    assert len(block.splitlines()) > 10


def test_every_link_into_docs_names_a_page_that_exists() -> None:
    links = re.findall(r"\]\((docs/[^)#\s]+)(?:#[^)]*)?\)", README)
    assert len(links) >= 9  # one per page of the site, at least
    missing = [link for link in links if not (ROOT / link).is_file()]
    assert not missing, missing

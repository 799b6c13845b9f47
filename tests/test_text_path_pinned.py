"""The text path's output is pinned: the same chunks, item ids, items and vectors as before it
was made faster (issue 12). Stores written before must keep their ids, or a re-ingest of an
unchanged file would write every item again.

The digests in ``fixtures/text_path_pinned.json`` were computed by the implementation before
the change (see ``support/text_path_snapshot.py``); a difference means an output changed.
Re-pinned once on purpose since: ``mixed.items`` when plain text's CRLF / CR line ends became
``\n`` (Dec 2026); its ids, chunks and vectors stayed as they were. Re-pinned again on
purpose: ``items`` of every input but ``short`` and ``cjk`` when each item's ``lang`` came
from a language identifier instead of the en/zh rule (issue 27); ids, chunks and vectors
unchanged, and the items equal the old ones again with ``lang`` set by the old rule.
Re-pinned on purpose (issue 42): ``items`` of ``one_line_words`` ("lorem lorem ...", no
longer Latin: a rare language needs strong evidence, it is ``und``) and of ``mixed`` (one
``und`` chunk takes its sure neighbours' ``ja``); ids, chunks and vectors unchanged.
Re-pinned on purpose (Dec 2026): the chunks of ``prose``, ``prose_long_paragraphs``,
``mixed``, ``cjk`` and ``spaces_edges`` when long texts were cut at sentence ends before
line ends and scraps joined a neighbour (``tests/test_chunk_boundaries.py``). An item's id
is its text's hash and its chunk's index, so a text read again gets the same ids for its
first chunks and new text under them (upserted); ``one_line``, ``one_line_words``,
``no_spaces`` and ``short`` are unchanged.
Re-pinned on purpose (Dec 2026): ``items`` of every input, when ``Source`` gained
``page_end`` (a PDF paragraph read across a page break); ids, chunks and vectors unchanged,
and the items equal the old ones with that field (None for every one of them) left out.
"""

from __future__ import annotations

import json

import pytest

from tests.support.text_path_snapshot import FIXTURE, inputs, snapshot


@pytest.fixture(scope="module")
def current(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return snapshot(tmp_path_factory.mktemp("text-path"))


PINNED = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("name", [*inputs(), "embed_mixed", "embed_mixed_dim64"])
def test_output_matches_the_pinned_digests(name: str, current: dict) -> None:
    assert current[name] == PINNED[name]


def test_every_input_is_pinned() -> None:
    assert set(PINNED) == {*inputs(), "embed_mixed", "embed_mixed_dim64"}

"""The shared corpus ingested into one store: every must-find fragment is found by keyword
search in an item of the right file, and a second ingest writes nothing new."""

from __future__ import annotations

import json
from pathlib import Path

from omnireader import IngestOptions, Reader, Store, ingest


def test_corpus_fragments_are_found_by_fts_and_reingest_writes_nothing(
    corpus: Path, tmp_path: Path
) -> None:
    store = Store.open(tmp_path / "corpus.lance")
    folders = [corpus / "markitdown", corpus / "pypdf"]
    # OCR of the scans has its own tests (test_corpus_markitdown); here it would only add
    # a minute of engine time to an ingest about every other format.
    first = ingest(folders, store, reader=Reader(ocr="off"), options=IngestOptions(workers=2))
    assert first.items_inserted > 100
    assert "unsupported" in first.failed_by_error and "encrypted" in first.failed_by_error

    expected = json.loads((corpus / "markitdown" / "expected.json").read_text())["files"]
    # Every markitdown file is stored twice (itself and its copy in test_files.zip), so the
    # first 20 hits are about ten places: "Microsoft Corporation is" (test_serp.html) ranks
    # below the Wikipedia article's chunks under "Corporate affairs" / "Corporate identity".
    for name, spec in expected.items():
        for fragment in spec.get("must_find", []):
            hits = store.search(fragment, k=20, view="fts")
            files = {Path(h.item.source.path).name for h in hits if h.item.source}
            assert name in files, (name, fragment, files)

    crazy = store.search("Here's to the crazy ones", k=5, view="fts")
    assert "crazyones.pdf" in {Path(h.item.source.path).name for h in crazy}

    second = ingest(folders, store, reader=Reader(ocr="off"), options=IngestOptions(workers=2))
    assert (second.items_inserted, second.items_deleted) == (0, 0)

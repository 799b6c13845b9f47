"""The static embedder's loops, compiled (``llm/_embed_loops.c``) and in Python, give the same
token ids and the same vectors (to float32 rounding), and the same store.

The compiled module is optional (built where a C compiler is). Where it is built, every
chunk's vector goes through it: a vector it pooled differently would search differently
depending on the machine, so both paths run on the same texts and are compared, down to a
real LanceDB store's columns and search results.
"""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer

from omnireader import Reader
from omnireader.llm import word_tokens
from omnireader.llm.embed_static import MODELS_DIR, StaticEmbedder
from omnireader.llm.word_tokens import WordTokenIds, flatten, letter_tokens
from omnireader.store import Store
from tests.llm.test_word_tokens import MAX, ODD, PROSE, random_texts, reference

loops = word_tokens.loops
needs_loops = pytest.mark.skipif(loops is None, reason="_embed_loops is not built (no C compiler)")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tokenizer() -> Tokenizer:
    tok = Tokenizer.from_file(str(MODELS_DIR / "minilm-l6-v2" / "tokenizer.json"))
    tok.no_padding()
    return tok


@pytest.fixture(params=["compiled", "python"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with the compiled loops (where built) and with the Python ones."""
    if request.param == "compiled" and loops is None:
        pytest.skip("_embed_loops is not built (no C compiler)")
    if request.param == "python":
        monkeypatch.setattr(word_tokens, "loops", None)
    return str(request.param)


def test_the_compiled_loops_are_built_where_a_c_compiler_is() -> None:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}): the Python loops run")
    assert loops is not None, "setup.py should have built _embed_loops (pip install -e .)"


@pytest.mark.parametrize("letters", [False, True])
def test_flat_ids_are_the_tokenizers_ids_one_text_after_another(
    tokenizer: Tokenizer, path: str, letters: bool
) -> None:
    # Known words, new words, odd characters and runs of spaces (empty words), texts past
    # 512 tokens: every batch through the cache, then again from it.
    table = " | ".join(f"Item {i} | {i * 1_234:,} | ({i}.5)%" for i in range(400))
    batches = [
        [PROSE * n for n in (1, 3, 12, 40)] + ODD + [table, "\n".join(ODD), "\r\n\t".join(ODD)],
        random_texts(5, 300) + ODD,
        [PROSE * 8 + odd + "  " + PROSE for odd in ODD + random_texts(7, 40)],
        [],
    ]
    keep = letter_tokens(tokenizer) if letters else None
    ids = WordTokenIds(tokenizer, MAX, keep=keep)
    for texts in batches * 2:
        flat, counts = ids.flat(texts)
        want, want_counts = flatten(reference(tokenizer, texts, keep))
        assert flat.dtype == np.int32 and counts.dtype == np.int64
        assert counts.tolist() == want_counts.tolist()
        assert flat.tolist() == want.tolist()


@needs_loops
def test_the_compiled_lookup_names_every_word_the_cache_lacks() -> None:
    words = {"the": [1], "heron": [2, 3], "": []}
    texts = ["the heron  nests", "by\tthe \nlagoon", "the"]

    assert loops.word_ids(texts, words, MAX) == {"nests", "by", "lagoon"}  # type: ignore[union-attr]
    words.update(nests=[4], by=[5], lagoon=[6, 7, 8])
    flat, counts = loops.word_ids(texts, words, 4)  # type: ignore[union-attr]
    assert np.frombuffer(flat, np.int32).tolist() == [1, 2, 3, 4, 5, 1, 6, 7, 1]
    assert np.frombuffer(counts, np.int64).tolist() == [4, 4, 1]  # at most 4 a text


@needs_loops
def test_the_compiled_pooling_is_numpys_to_float_rounding() -> None:
    embedder = StaticEmbedder()
    vocab = embedder._codes.shape[0]
    rng = np.random.default_rng(3)
    # Repeated tokens, texts without any, one of 512, the vocabulary's first and last rows.
    counts = np.array([0, 1, 7, 512, 0, 40, 3, 200], dtype=np.int64)
    ids = rng.integers(0, vocab, int(counts.sum())).astype(np.int32)
    ids[:20] = ids[20]
    ids[-2:] = (0, vocab - 1)

    compiled = embedder._pooled(ids, counts)
    ends = np.cumsum(counts)
    python = np.stack(
        [embedder._summed(ids[e - c : e], np.array([c]))[0] for e, c in zip(ends, counts)]
    )
    # float32 sums of up to 512 rows: they differ by the rounding, a millionth of the sum
    norms = np.linalg.norm(python, axis=1)
    assert (np.abs(compiled - python).max(axis=1) <= 1e-6 * norms).all()
    assert np.abs(embedder._unit(compiled) - embedder._unit(python)).max() < 1e-6
    with pytest.raises(ValueError):  # an id past the vocabulary is refused, not read
        loops.pool(  # type: ignore[union-attr]
            np.array([vocab], np.int32),
            np.array([1], np.int64),
            embedder._codes,
            embedder._scales,
            np.empty((1, embedder.dim), np.float32),
            embedder.dim,
        )


def _store_columns(folder: Path, monkeypatch: pytest.MonkeyPatch, compiled: bool) -> Store:
    """A real store of the repository's docs pages, embedded by one path of the loops."""
    monkeypatch.setattr(word_tokens, "loops", loops if compiled else None)
    items = Reader(ocr="off").read(sorted((ROOT / "docs").glob("*.md"))[:12])
    store = Store.open(folder / "store.lance")
    store.add(items)
    store.optimize()
    return store


@needs_loops
def test_a_store_is_the_same_with_the_compiled_loops_and_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stores = [_store_columns(tmp_path / s, monkeypatch, s == "c") for s in ("c", "py")]
    tables = [s.table.to_arrow().sort_by("id") for s in stores]
    assert tables[0].num_rows == tables[1].num_rows > 50
    for name in tables[0].column_names:
        a, b = (t.column(name).to_pylist() for t in tables)
        if name == "vector":
            assert np.abs(np.array(a) - np.array(b)).max() < 1e-6
        elif "_at" not in name and name != "item_json":  # the write times
            assert a == b, name
    queries = ["search results", "ingest a folder of PDFs", "hybrid fusion weight", "memory"]
    for query in queries:
        for view in ("hybrid", "vector", "fts"):
            found = [[r.item.id for r in s.search(query, k=8, view=view)] for s in stores]
            assert found[0] == found[1], (query, view)

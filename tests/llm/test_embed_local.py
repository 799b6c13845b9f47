"""Local ONNX embedders: a tiny model and tokenizer, made here, loaded and run for real."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from omnireader.errors import ConfigError
from omnireader.llm.embedding import make_embedder
from omnireader.store import Store

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
tokenizers = pytest.importorskip("tokenizers")

WORDS = ["[PAD]", "[UNK]", "otter", "river", "swims", "tax", "form", "due", "the", "in"]
HIDDEN = 6


def tiny_model(folder: Path, *, pooled: bool = False) -> np.ndarray:
    """A word-embedding "transformer": token vectors straight from a table (ids -> rows)."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(3)
    table = rng.normal(size=(len(WORDS), HIDDEN)).astype(np.float32)
    table[2:5] += 3.0  # the river words share a direction, the tax words another
    table[5:8] -= 3.0
    nodes = [helper.make_node("Gather", ["table", "input_ids"], ["tokens"])]
    out = "tokens"
    if pooled:
        nodes.append(helper.make_node("ReduceMean", ["tokens", "axes"], ["pooled"], keepdims=0))
        out = "pooled"
    graph = helper.make_graph(
        nodes,
        "tiny",
        inputs=[
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["b", "t"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["b", "t"]),
        ],
        outputs=[helper.make_tensor_value_info(out, TensorProto.FLOAT, None)],
        initializer=[
            numpy_helper.from_array(table, "table"),
            numpy_helper.from_array(np.array([1], dtype=np.int64), "axes"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    folder.mkdir(parents=True, exist_ok=True)
    onnx.save(model, folder / "model.onnx")
    tok = tokenizers.Tokenizer(
        tokenizers.models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]")
    )
    tok.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tok.normalizer = tokenizers.normalizers.Lowercase()
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    tok.save(str(folder / "tokenizer.json"))
    return table


def test_vectors_are_the_mean_of_the_real_tokens_normalised(tmp_path: Path) -> None:
    table = tiny_model(tmp_path / "m")
    embedder = make_embedder(f"onnx:{tmp_path / 'm'}")

    vectors = embedder.embed(["otter swims", "the tax form is due"])

    assert embedder.dim == HIDDEN and vectors.shape == (2, HIDDEN)
    # Padding of the shorter text must not count: compare with the plain mean.
    expected = table[[2, 4]].mean(axis=0)
    assert np.allclose(vectors[0], expected / np.linalg.norm(expected), atol=1e-5)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(embedder.embed(["otter swims"])[0], vectors[0], atol=1e-5)  # no padding


def test_a_model_that_pools_itself_is_used_as_is(tmp_path: Path) -> None:
    tiny_model(tmp_path / "p", pooled=True)

    vectors = make_embedder(f"onnx:{tmp_path / 'p'}").embed(["river otter", "tax"])

    assert vectors.shape == (2, HIDDEN)


def test_a_store_built_with_it_reopens_with_the_same_model(tmp_path: Path) -> None:
    tiny_model(tmp_path / "m")
    from omnireader.models import MemoryItem, MemoryMetadata

    store = Store.open(tmp_path / "s.lance", embedder=f"onnx:{tmp_path / 'm'}")
    store.add(
        [
            MemoryItem(id=i, memory=t, metadata=MemoryMetadata())
            for i, t in (("a", "the otter swims in the river"), ("b", "the tax form is due"))
        ]
    )

    again = Store.open(tmp_path / "s.lance")  # the recorded name rebuilds the embedder

    assert again.embedder.name == f"onnx:{(tmp_path / 'm').resolve()}"
    assert again.search("river swims", k=1, view="vector")[0].item.id == "a"


def test_a_folder_without_a_model_is_a_config_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="model.onnx"):
        make_embedder(f"onnx:{tmp_path}")


def test_sentence_transformers_missing_names_what_to_install() -> None:
    try:
        import sentence_transformers  # noqa: F401
    except ImportError:
        with pytest.raises(ConfigError, match="sentence_transformers"):
            make_embedder("st:/nowhere/model")
    else:  # installed: an absent model is still a clear error, not a download
        with pytest.raises(ConfigError, match="offline"):
            make_embedder("st:/nowhere/model")


def test_the_thread_cap_is_honoured_and_changes_no_vector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny_model(tmp_path / "m")
    texts = ["otter swims in the river", "the tax form"]
    free = make_embedder(f"onnx:{tmp_path / 'm'}")

    monkeypatch.setenv("OMNIREADER_EMBED_THREADS", "1")
    capped = make_embedder(f"onnx:{tmp_path / 'm'}")

    assert capped._session.get_session_options().intra_op_num_threads == 1
    assert np.allclose(capped.embed(texts), free.embed(texts), atol=1e-6)
    assert capped.name == free.name  # a store made either way opens with the other


def test_a_thread_cap_that_is_not_a_number_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny_model(tmp_path / "m")
    monkeypatch.setenv("OMNIREADER_EMBED_THREADS", "two")

    with pytest.raises(ConfigError, match="OMNIREADER_EMBED_THREADS"):
        make_embedder(f"onnx:{tmp_path / 'm'}")

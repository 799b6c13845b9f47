"""Embedders: the offline hashing default, and the OpenAI / Ollama backends over real HTTP."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from omnireader.errors import ConfigError, EmbedderMismatchError, LLMError
from omnireader.llm.embed_hashing import HashingEmbedder
from omnireader.llm.embed_ollama import OllamaEmbedder
from omnireader.llm.embed_openai import OpenAIEmbedder
from omnireader.llm.embed_remote import RemoteEmbedder
from omnireader.llm.embedding import make_embedder
from omnireader.llm.retry import RetryPolicy
from omnireader.models import MemoryItem, MemoryMetadata
from omnireader.store import Store
from tests.support import Fault, LLMServer
from tests.support.llm_replies import hashed_embedding

FAST_RETRY = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05)
TEXTS = ["The cat sat on the mat.", "A cat was sitting on the mat.", "Quarterly revenue grew 12%."]


# ---------------------------------------------------------------- hashing (offline default)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_hashing_vectors_are_unit_length_float32_of_the_stated_dimension() -> None:
    embedder = HashingEmbedder()

    vectors = embedder.embed(TEXTS + ["", "!!!"])

    assert vectors.shape == (5, embedder.dim) == (5, 256)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_hashing_is_deterministic_across_processes() -> None:
    here = HashingEmbedder().embed(TEXTS)
    script = (
        "import sys, numpy as np\n"
        "from omnireader.llm.embed_hashing import HashingEmbedder\n"
        f"np.save(sys.stdout.buffer, HashingEmbedder().embed({TEXTS!r}))\n"
    )
    # A different hash seed would change Python's hash(); the vectors must not change.
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert out.returncode == 0, out.stderr.decode()
    there = np.load(io.BytesIO(out.stdout))

    assert np.array_equal(here, there)


def test_hashing_a_text_alone_or_in_a_batch_gives_the_same_vector() -> None:
    embedder = HashingEmbedder()

    batch = embedder.embed(TEXTS)

    for text, row in zip(TEXTS, batch):
        assert np.allclose(embedder.embed_query(text), row, atol=1e-6)


def test_similar_texts_are_closer_than_unrelated_ones() -> None:
    cat, cat2, revenue = HashingEmbedder().embed(TEXTS)

    assert cosine(cat, cat2) > 0.4
    assert cosine(cat, cat2) > cosine(cat, revenue) + 0.3


def test_word_forms_share_character_n_grams() -> None:
    a, b, c = HashingEmbedder().embed(["embedding", "embeddings", "lighthouse"])

    assert cosine(a, b) > cosine(a, c) + 0.25


def test_chinese_texts_get_meaningful_vectors() -> None:
    walk, walk2, stocks = HashingEmbedder().embed(
        ["我们今天去公园散步", "今天我们在公园里散步了", "股票市场大幅下跌"]
    )

    assert cosine(walk, walk2) > 0.4
    assert cosine(walk, walk2) > cosine(walk, stocks) + 0.3


def test_hashing_dimension_is_configurable_and_named() -> None:
    small = HashingEmbedder(dim=64)

    assert small.embed(["hello"]).shape == (1, 64)
    assert small.name == "hashing-v1:64"
    assert HashingEmbedder().name == "hashing-v1"


# ---------------------------------------------------------------- make_embedder


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        (None, "static:potion-base-8m-letters"),
        ("", "static:potion-base-8m-letters"),
        ("static", "static:potion-base-8m-letters"),
        ("hashing", "hashing-v1"),
        ("hashing:512", "hashing-v1:512"),
        ("hashing-v1:512", "hashing-v1:512"),  # a stored name is a valid spec
        ("ollama:nomic-embed-text", "ollama:nomic-embed-text"),
        ("ollama:nomic-embed-text:latest", "ollama:nomic-embed-text:latest"),
        ("ollama:mxbai-embed-large@512", "ollama:mxbai-embed-large@512"),
    ],
)
def test_specs_name_their_embedder(spec: str | None, name: str) -> None:
    assert make_embedder(spec).name == name


def test_openai_spec_reads_the_server_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    embedder = make_embedder("openai:text-embedding-3-small")

    assert isinstance(embedder, OpenAIEmbedder)
    assert embedder.base_url == "http://127.0.0.1:9/v1"


def test_openai_without_key_or_server_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        make_embedder("openai:text-embedding-3-small")


@pytest.mark.parametrize(
    "spec", ["bert", "openai:", "ollama", "hashing:big", "hashing:2", "sbert:x"]
)
def test_unknown_specs_list_the_valid_forms(spec: str) -> None:
    with pytest.raises(ConfigError) as caught:
        make_embedder(spec)
    if "dimension" not in str(caught.value):
        assert "openai:MODEL" in str(caught.value) and "ollama:MODEL" in str(caught.value)


# ---------------------------------------------------------------- HTTP backends


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer(embed_dim=48) as srv:
        yield srv


def remote(kind: str, srv: LLMServer, **kwargs: object) -> RemoteEmbedder:
    if kind == "openai":
        return OpenAIEmbedder(
            "test-embed",
            base_url=srv.openai_base_url,
            api_key="k",
            retry=FAST_RETRY,
            timeout=5,
            **kwargs,
        )  # type: ignore[arg-type]
    return OllamaEmbedder("test-embed", host=srv.ollama_host, retry=FAST_RETRY, timeout=5, **kwargs)  # type: ignore[arg-type]


KINDS = ["openai", "ollama"]
PATHS = {"openai": "/v1/embeddings", "ollama": "/api/embed"}


@pytest.mark.parametrize("kind", KINDS)
def test_remote_vectors_are_the_servers_in_input_order(kind: str, server: LLMServer) -> None:
    vectors = remote(kind, server).embed(TEXTS)

    expected = np.array([hashed_embedding(t, 48) for t in TEXTS], dtype=np.float32)
    assert np.allclose(vectors, expected, atol=1e-6)
    (request,) = server.requests_to(PATHS[kind])
    assert request.json["model"] == "test-embed" and request.json["input"] == TEXTS


@pytest.mark.parametrize("kind", KINDS)
def test_remote_calls_are_batched_128_texts_at_a_time(kind: str, server: LLMServer) -> None:
    texts = [f"text number {i}" for i in range(300)]

    vectors = remote(kind, server).embed(texts)

    assert vectors.shape == (300, 48)
    sizes = [len(r.json["input"]) for r in server.requests_to("embeddings")]
    assert sizes == [128, 128, 44]


@pytest.mark.parametrize("kind", KINDS)
def test_remote_dimension_is_learned_from_the_server(kind: str, server: LLMServer) -> None:
    embedder = remote(kind, server)

    assert embedder.dim == 48  # one probe request
    assert len(server.requests_to("embeddings")) == 1
    assert embedder.name == f"{kind}:test-embed"


@pytest.mark.parametrize("kind", KINDS)
def test_remote_server_errors_are_retried(kind: str, server: LLMServer) -> None:
    server.inject("embeddings", [Fault.server_error(503), Fault.rate_limited(retry_after=0.01)])

    vectors = remote(kind, server).embed(["retry me"])

    assert vectors.shape == (1, 48)
    assert len(server.requests_to("embeddings")) == 3


@pytest.mark.parametrize("kind", KINDS)
def test_remote_failure_after_retries_is_an_llm_error(kind: str, server: LLMServer) -> None:
    server.inject("embeddings", [Fault.server_error()] * 3)

    with pytest.raises(LLMError, match=f"{kind}:test-embed") as caught:
        remote(kind, server).embed(["doomed"])

    assert caught.value.reason == "server_error"
    assert len(server.requests_to("embeddings")) == 3


@pytest.mark.parametrize("kind", KINDS)
def test_remote_auth_failure_is_not_retried(kind: str, server: LLMServer) -> None:
    server.inject("embeddings", Fault.status(401, message="bad key"))

    with pytest.raises(LLMError) as caught:
        remote(kind, server).embed(["secret"])

    assert caught.value.reason == "auth"
    assert len(server.requests_to("embeddings")) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_a_store_built_with_a_remote_embedder_searches_and_refuses_others(
    kind: str, server: LLMServer, tmp_path: Path
) -> None:
    path = tmp_path / "db"
    store = Store.open(path, embedder=remote(kind, server))
    store.add(
        [MemoryItem(id=f"i{n}", memory=t, metadata=MemoryMetadata()) for n, t in enumerate(TEXTS)]
    )

    hits = store.search("Quarterly revenue grew 12%.", k=1, view="vector")

    assert hits[0].item.id == "i2"
    assert store.stats().embedder == f"{kind}:test-embed" and store.stats().dim == 48
    with pytest.raises(EmbedderMismatchError, match=f"{kind}:test-embed"):
        Store.open(path, embedder="hashing")


def test_one_hashing_embedder_can_be_shared_by_threads() -> None:
    texts = [f"thread safe text {i} with words w{i % 97} and w{i % 89}" for i in range(400)]
    expected = HashingEmbedder().embed(texts)
    shared = HashingEmbedder()

    with ThreadPoolExecutor(max_workers=4) as pool:
        parts = list(pool.map(lambda i: shared.embed(texts[i : i + 20]), range(0, 400, 20)))

    assert np.allclose(np.concatenate(parts), expected, atol=1e-6)

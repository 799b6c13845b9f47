"""Test support: a real HTTP LLM server on 127.0.0.1 speaking the OpenAI and Ollama protocols."""

from .llm_replies import ChatRequest, default_responder, example_from_schema, hashed_embedding
from .llm_server import LLAMA_CPP_JSON_SCHEMA_ERROR, Fault, LLMServer, RecordedRequest, Transcript

__all__ = [
    "LLAMA_CPP_JSON_SCHEMA_ERROR",
    "ChatRequest",
    "Fault",
    "LLMServer",
    "RecordedRequest",
    "Transcript",
    "default_responder",
    "example_from_schema",
    "hashed_embedding",
]

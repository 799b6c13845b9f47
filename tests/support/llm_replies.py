"""Deterministic answers for the test LLM server: schema-valid JSON, embeddings, transcripts.

Nothing here is random or learned: the same request always gets the same answer, so tests can
assert on what a backend made of it. The default chat answer is built from the JSON schema the
client sent (``response_format`` / Ollama ``format`` / a schema quoted in the prompt) and filled
with words from the data the prompt delimits, so fine-mode code sees plausible, valid output.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

from omnireader.text.tokens import count_tokens, tokenize

__all__ = [
    "ChatRequest",
    "default_responder",
    "example_from_schema",
    "find_schema_in_text",
    "hashed_embedding",
    "message_text",
    "parse_multipart",
    "word_count",
]


@dataclass
class ChatRequest:
    """One chat request as the server understood it, handed to a responder."""

    api: str  # "openai" | "ollama"
    model: str
    messages: list[dict[str, Any]]
    schema: dict[str, Any] | None  # the JSON schema asked for, if any
    json_mode: str  # "json_schema" | "json_object" | "ollama_schema" | "ollama_json" | "plain"
    images: list[str] = field(default_factory=list)  # data URLs / URLs / base64, in message order
    body: dict[str, Any] = field(default_factory=dict)

    @property
    def last_user_text(self) -> str:
        for m in reversed(self.messages):
            if m.get("role") == "user":
                return message_text(m)
        return ""

    @property
    def all_text(self) -> str:
        return "\n".join(message_text(m) for m in self.messages)

    @property
    def data_text(self) -> str:
        """The delimited data (``<document>…</document>`` etc.) of the last user turn, else its text."""
        text = self.last_user_text
        blocks = re.findall(r"<([a-z_]+)>\n?(.*?)\n?</\1>", text, flags=re.S)
        data = [b for tag, b in blocks if tag in _DATA_TAGS]
        return data[-1] if data else text


_DATA_TAGS = {"document", "messages", "text", "transcript", "trajectory", "data", "context"}


def message_text(message: dict[str, Any]) -> str:
    """The text of an OpenAI / Ollama message whose content is a string or a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"
        )
    return ""


def word_count(text: str) -> int:
    """Tokens as the server reports them in ``usage`` (offline count, same as omnireader's)."""
    return count_tokens(text)


def find_schema_in_text(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` that looks like a JSON schema (prompt-only fallback)."""
    decoder = json.JSONDecoder()
    for m in re.finditer(r"\{", text):
        try:
            obj, _ = decoder.raw_decode(text, m.start())
        except ValueError:
            continue
        if isinstance(obj, dict) and ("properties" in obj or "$defs" in obj):
            return obj
    return None


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        node: Any = root
        for part in ref[2:].split("/"):
            node = node[part]
        return _resolve({**node, **{k: v for k, v in schema.items() if k != "$ref"}}, root)
    return schema


_TEXT_FIELDS = {
    "memory",
    "description",
    "experience",
    "summary",
    "text_in_image",
    "text",
    "content",
}


def example_from_schema(
    schema: dict[str, Any], text: str, *, root: dict[str, Any] | None = None, name: str = ""
) -> Any:
    """A value valid under ``schema`` built from ``text``: deterministic, minimal but non-empty."""
    root = root or schema
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [_resolve(o, root) for o in schema[key]]
            if any(o.get("type") == "null" for o in options):
                return None  # optional field: leave it out rather than invent a value
            return example_from_schema(options[0], text, root=root, name=name)
    typ = schema.get("type")
    if isinstance(typ, list):
        typ = next((t for t in typ if t != "null"), "null")
    words = [w for w in tokenize(text) if w.isalnum()]
    if typ == "object" or "properties" in schema:
        props: dict[str, Any] = schema.get("properties", {})
        return {k: example_from_schema(v, text, root=root, name=k) for k, v in props.items()}
    if typ == "array":
        n = max(int(schema.get("minItems", 0)), 1)
        items = _resolve(schema.get("items", {}), root)
        if items.get("type") == "string" and name not in {"tags", "keywords"}:
            n = int(schema.get("minItems", 0))  # persons / entities: unknown, so none
        if items.get("type") == "string":
            distinct = list(
                dict.fromkeys(w.lower() for w in words if len(w) > 3 or not w.isascii())
            )
            return (distinct or ["item"])[: max(n, 3)] if n else []
        return [example_from_schema(items, text, root=root, name=name) for _ in range(n)]
    if typ == "string":
        clean = " ".join(text.split())
        if name in _TEXT_FIELDS and clean:
            # At most 200 characters, ended at a word as a model ends a statement.
            cut = clean if len(clean) <= 200 else clean[:200].rsplit(" ", 1)[0]
            return cut.rstrip(" ,;:([{-–—/&")
        if name == "key" and words:
            return " ".join(words[:5])
        return name or "value"
    if typ == "integer":
        return int(schema.get("minimum", 0))
    if typ == "number":
        return float(schema.get("minimum", 0))
    if typ == "boolean":
        return True
    return None


def default_responder(request: ChatRequest) -> str:
    """Schema-valid JSON when a schema is known, else a generic JSON answer (or text if plain)."""
    schema = request.schema or find_schema_in_text(request.all_text)
    if schema is not None:
        return json.dumps(example_from_schema(schema, request.data_text), ensure_ascii=False)
    if request.json_mode == "plain":
        return " ".join(request.data_text.split())[:200] or "ok"
    return json.dumps({"answer": " ".join(request.data_text.split())[:200]}, ensure_ascii=False)


def hashed_embedding(text: str, dim: int = 64) -> list[float]:
    """A unit vector from hashed words: equal texts are equal, texts sharing words are close."""
    vec = [0.0] * dim
    for tok in tokenize(text.lower()) or [""]:
        h = hashlib.blake2b(tok.encode(), digest_size=8).digest()
        idx = int.from_bytes(h[:4], "little") % dim
        vec[idx] += 1.0 if h[4] & 1 else -1.0
    norm = math.sqrt(sum(v * v for v in vec))
    if norm == 0.0:  # words cancelled out: still return a valid unit vector
        vec[0], norm = 1.0, 1.0
    return [v / norm for v in vec]


def parse_multipart(
    body: bytes, content_type: str
) -> tuple[dict[str, str], dict[str, tuple[str, bytes]]]:
    """Form fields and files of a ``multipart/form-data`` body (the cgi module is gone in 3.13)."""
    m = re.search(r'boundary="?([^";]+)"?', content_type)
    if not m:
        return {}, {}
    boundary = b"--" + m.group(1).encode()
    fields: dict[str, str] = {}
    files: dict[str, tuple[str, bytes]] = {}
    for part in body.split(boundary)[1:]:
        if part.startswith(b"--"):
            break
        head, _, data = part.lstrip(b"\r\n").partition(b"\r\n\r\n")
        data = data[:-2] if data.endswith(b"\r\n") else data
        disp = next(
            (
                h
                for h in head.decode("utf-8", "replace").split("\r\n")
                if h.lower().startswith("content-disposition")
            ),
            "",
        )
        fname = re.search(r'name="([^"]*)"', disp)
        filename = re.search(r'filename="([^"]*)"', disp)
        if not fname:
            continue
        if filename:
            files[fname.group(1)] = (filename.group(1), data)
        else:
            fields[fname.group(1)] = data.decode("utf-8", "replace")
    return fields, files

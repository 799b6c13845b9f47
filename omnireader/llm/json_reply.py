"""JSON in and out of a chat model: the schema we ask for, and reading what comes back.

``strict_json_schema`` turns a pydantic model's schema into the form OpenAI's strict
``json_schema`` mode accepts (every property required, no extra keys, no ``default``).
``parse_reply`` reads a model's answer — fenced in ```json or wrapped in chatter, as small models
do — and validates it, raising :class:`ReplyError` with ``bad_json`` or ``wrong_schema``.

    >>> from pydantic import BaseModel
    >>> class A(BaseModel):
    ...     x: int
    >>> parse_reply('```json\\n{"x": 1}\\n```', A)
    A(x=1)
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

__all__ = [
    "ReplyError",
    "json_schema",
    "strict_json_schema",
    "grammar_json_schema",
    "close_truncated",
    "parse_truncated",
    "parse_reply",
    "schema_instruction",
    "retry_instruction",
]

M = TypeVar("M", bound=BaseModel)

# Keywords OpenAI's strict mode rejects; they only describe, so dropping them is harmless.
_STRICT_DROP = (
    "default",
    "format",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "examples",
)


class ReplyError(ValueError):
    """A reply that cannot be used: ``reason`` is ``bad_json`` or ``wrong_schema``."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(detail)


@lru_cache(maxsize=128)
def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model.model_json_schema()``, built once per model (pydantic rebuilds it on every call).

    Callers must not mutate the result.
    """
    return model.model_json_schema()


#: Bounds a grammar puts on a reply where the schema's field sets none: every string and list
#: ends, so a small model that loops inside one (measured: SmolLM2-135M copies the chat into a
#: "memory" until max_tokens) still closes its JSON.
GRAMMAR_MAX_STRING = 300
GRAMMAR_MAX_ITEMS = 12
_BOUNDS = ("maxLength", "maxItems")


@lru_cache(maxsize=128)
def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON schema in the subset OpenAI's ``strict: true`` mode accepts (cached;
    do not mutate)."""
    return _strict(model, bounded=False)


@lru_cache(maxsize=128)
def grammar_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The strict schema with a length bound on every string and list (the field's own
    ``maxLength`` / ``maxItems``, else the defaults above): for servers that compile the schema
    into a grammar (llama.cpp's ``json_object`` with ``schema``), so every reply is finite JSON.
    The bounds are not validated on the way back: a longer reply from another server is fine."""
    return _strict(model, bounded=True)


def _strict(model: type[BaseModel], *, bounded: bool) -> dict[str, Any]:
    schema = copy.deepcopy(json_schema(model))
    defs = schema.get("$defs", {})

    def fix(node: Any) -> Any:
        if isinstance(node, list):
            return [fix(n) for n in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node and len(node) > 1:
            # Strict mode refuses siblings next to $ref: inline the definition instead.
            target = defs[node["$ref"].split("/")[-1]]
            node = {**copy.deepcopy(target), **{k: v for k, v in node.items() if k != "$ref"}}
        keep = _BOUNDS if bounded else ()
        out = {k: fix(v) for k, v in node.items() if k not in _STRICT_DROP or k in keep}
        if out.get("type") == "object" or "properties" in out:
            out["additionalProperties"] = False
            out["required"] = list(out.get("properties", {}))
        if bounded and out.get("type") == "string" and "enum" not in out:
            out.setdefault("maxLength", GRAMMAR_MAX_STRING)
        if bounded and out.get("type") == "array":
            out.setdefault("maxItems", GRAMMAR_MAX_ITEMS)
        return out

    return fix(schema)


@lru_cache(maxsize=128)
def schema_instruction(model: type[BaseModel]) -> str:
    """A system message asking for JSON: needed where the server cannot enforce the schema."""
    schema = json.dumps(json_schema(model), ensure_ascii=False)
    return (
        "Reply with exactly one JSON object and nothing else (no prose, no Markdown fences). "
        f"It must validate against this JSON schema:\n{schema}"
    )


def retry_instruction(error: ReplyError) -> str:
    """The follow-up message when a reply failed validation: say what was wrong, ask again."""
    what = "was not valid JSON" if error.reason == "bad_json" else "did not match the JSON schema"
    return (
        f"Your previous reply {what}: {error.detail}\n"
        "Answer the same request again. Reply with only one JSON object that matches the schema."
    )


_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)\n?```", re.S)


def _json_text(content: str) -> str:
    text = content.strip()
    fenced = _FENCE.search(text)
    if fenced:
        return fenced.group(1).strip()
    if not text.startswith(("{", "[")):
        # Chatter around the object ("Sure! {...} Hope this helps"): take the outermost braces.
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            return text[start : end + 1]
    return text


def close_truncated(content: str) -> list[str]:
    """Ways to close a JSON reply cut off mid-way (the server hit ``max_tokens``), longest first:
    the text up to each container that completed, plus the brackets still open then. What a
    grammar produced is a valid prefix, so one of them parses; the caller validates each and
    keeps the first that fits, so a memory cut mid-sentence is dropped, never stored half."""
    text = _json_text(content)
    start = text.find("{")
    if start < 0:
        return []
    stack: list[str] = []
    cuts: list[str] = []
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                return cuts[::-1]  # not JSON at all: no repair
            if not stack:
                return [text[start : i + 1]]  # complete: the reply was not cut
            closed = text[start : i + 1] + "".join(reversed(stack))
            if not cuts or cuts[-1] != closed:
                cuts.append(closed)
    return cuts[::-1]


def parse_truncated(content: str | None, model: type[M]) -> M | None:
    """The longest closing of a cut-off reply that validates as ``model``, or None."""
    for closed in close_truncated(content or ""):
        try:
            return parse_reply(closed, model)
        except ReplyError:
            continue
    return None


def parse_reply(content: str | None, model: type[M]) -> M:
    """The validated ``model`` instance in a chat reply, or :class:`ReplyError`."""
    if not content or not content.strip():
        raise ReplyError("bad_json", "the reply was empty")
    text = _json_text(content)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        preview = " ".join(content.split())[:120]
        raise ReplyError(
            "bad_json", f"{e.msg} at char {e.pos} (reply began: {preview!r})"
        ) from None
    try:
        return model.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
            for err in e.errors()[:8]
        )
        raise ReplyError("wrong_schema", problems) from None

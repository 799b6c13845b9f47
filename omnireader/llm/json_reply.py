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


@lru_cache(maxsize=128)
def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """``model``'s JSON schema in the subset OpenAI's ``strict: true`` mode accepts (cached;
    do not mutate)."""
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
        out = {k: fix(v) for k, v in node.items() if k not in _STRICT_DROP}
        if out.get("type") == "object" or "properties" in out:
            out["additionalProperties"] = False
            out["required"] = list(out.get("properties", {}))
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

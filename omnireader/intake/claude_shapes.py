"""Anthropic (Claude) Messages API content blocks, as the OpenAI chat shapes omnireader reads.

Claude puts tool calls and results inside a message's content: an assistant turn holds
``tool_use`` blocks, and the user turn after it holds the matching ``tool_result`` blocks.
The rest of omnireader (trajectories, pairing checks, attachments) speaks the OpenAI shape,
so each Claude message is rewritten into it before validation:

- ``tool_use`` (and ``server_tool_use``) → an entry of the assistant message's ``tool_calls``;
- ``tool_result`` (and ``*_tool_result``) → a ``role: tool`` message with ``tool_call_id``,
  placed before what else the user said (Claude requires the results to come first);
- ``image`` with a ``base64`` / ``url`` / ``file`` source → an ``image_url`` (or file) part;
- ``document`` → a ``file`` part (base64 PDF as a data URL, plain text as the file's text);
- ``thinking`` / ``redacted_thinking`` → dropped: the model's scratch work, not conversation.

    >>> expand_message({"role": "assistant", "content": [
    ...     {"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "x"}}]}, 0)
    [{'role': 'assistant', 'content': None, 'tool_calls': [{'id': 't1', 'type': 'function', \
'function': {'name': 'search', 'arguments': {'q': 'x'}}}]}]
"""

from __future__ import annotations

import json
from typing import Any

from omnireader.errors import InvalidInputError

__all__ = ["CLAUDE_BLOCKS", "expand_message", "system_message"]

#: Block types only Claude sends: a message holding one of these is rewritten.
CLAUDE_BLOCKS = frozenset(
    {
        "tool_use",
        "server_tool_use",
        "tool_result",
        "image",
        "document",
        "thinking",
        "redacted_thinking",
        "web_search_tool_result",
        "code_execution_tool_result",
    }
)
_CALLS = ("tool_use", "server_tool_use")
_SKIPPED = ("thinking", "redacted_thinking")
# Document media types whose files a reader recognises by extension when named.
_EXTENSIONS = {"application/pdf": "pdf", "text/plain": "txt", "text/markdown": "md"}


def _is_claude(raw: Any) -> bool:
    return (
        isinstance(raw, dict)
        and isinstance(raw.get("content"), list)
        and any(isinstance(b, dict) and _block_type(b) in CLAUDE_BLOCKS for b in raw["content"])
    )


def _block_type(block: dict[str, Any]) -> str:
    kind = block.get("type")
    if isinstance(kind, str) and kind.endswith("_tool_result"):
        return "tool_result"  # web search, code execution...: results all the same
    return kind if isinstance(kind, str) else ""


def expand_message(raw: Any, n: int) -> list[Any]:
    """One message, as one or more OpenAI-shaped messages (``n``: its index, for errors).

    Messages without Claude blocks come back unchanged, in a list of one.
    """
    if not _is_claude(raw):
        return [raw]
    base = {k: v for k, v in raw.items() if k != "content"}
    results: list[dict[str, Any]] = []
    parts: list[Any] = []
    calls: list[dict[str, Any]] = []
    for k, block in enumerate(raw["content"]):
        kind = _block_type(block) if isinstance(block, dict) else ""
        where = f"message {n} block {k} ({kind or 'no type'})"
        if kind in _CALLS:
            calls.append(_call(block, where))
        elif kind == "tool_result":
            results.append(_result(block, base, where))
        elif kind == "image":
            parts.append(_image(block, where))
        elif kind == "document":
            parts.append(_document(block, where))
        elif kind not in _SKIPPED:
            parts.append(block)  # text and OpenAI parts: validated as they are, later
    out = results
    if parts or calls or not results:
        message: dict[str, Any] = {**base, "content": parts or None}
        if calls:
            message["tool_calls"] = [*(raw.get("tool_calls") or []), *calls]
        out.append(message)
    return out


def system_message(system: Any) -> dict[str, Any] | None:
    """The top-level ``system`` of a Claude request (a string or text blocks) as a message."""
    if isinstance(system, list):
        system = "\n".join(
            b["text"] for b in system if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    if isinstance(system, str) and system.strip():
        return {"role": "system", "content": system}
    return None


def _call(block: dict[str, Any], where: str) -> dict[str, Any]:
    name = block.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidInputError(f"{where}: a tool_use block needs the tool's name")
    args = block.get("input", {})
    if not isinstance(args, (dict, str)):
        raise InvalidInputError(
            f"{where}: input must be an object of arguments, got {type(args).__name__}"
        )
    return {
        "id": block.get("id"),
        "type": "function",
        "function": {"name": name, "arguments": args},
    }


def _result(block: dict[str, Any], base: dict[str, Any], where: str) -> dict[str, Any]:
    call_id = block.get("tool_use_id")
    if not isinstance(call_id, str) or not call_id:
        raise InvalidInputError(f"{where}: a tool_result block needs the tool_use_id it answers")
    text = _result_text(block.get("content"), where)
    if block.get("is_error") and not text.lower().startswith("error"):
        # Failures are judged from the result's text: say it the way a failing tool would.
        text = f"Error: {text}" if text else "Error"
    keep = {k: base[k] for k in ("chat_time", "message_id") if base.get(k) is not None}
    return {**keep, "role": "tool", "tool_call_id": call_id, "content": text}


def _result_text(content: Any, where: str) -> str:
    """A tool result's content (a string, or text / image / search-result blocks) as text."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, dict):
        if content.get("error_code"):  # e.g. web_search_tool_result_error
            return f"Error: {content['error_code']}"
        content = [content]
    if not isinstance(content, list):
        raise InvalidInputError(
            f"{where}: content must be a string or a list of blocks, got {type(content).__name__}"
        )
    lines: list[str] = []
    for b in content:
        if isinstance(b, str):
            lines.append(b)
        elif not isinstance(b, dict):
            continue
        elif isinstance(b.get("text"), str):
            lines.append(b["text"])
        elif b.get("type") == "image":
            lines.append("[image]")  # a tool's picture: noted, the trajectory is text
        elif b.get("url") or b.get("title"):  # a search result
            lines.append(" ".join(str(b[k]) for k in ("title", "url") if b.get(k)))
        elif b.get("stdout") or b.get("stderr"):  # code execution output
            lines.append("\n".join(str(b[k]) for k in ("stdout", "stderr") if b.get(k)))
        else:
            lines.append(json.dumps(b, ensure_ascii=False))
    return "\n".join(lines)


def _source(block: dict[str, Any], where: str) -> dict[str, Any]:
    source = block.get("source")
    if not isinstance(source, dict):
        raise InvalidInputError(
            f"{where}: needs a source object (type base64 with media_type and data, url, "
            "text, or file with file_id)"
        )
    return source


def _need(source: dict[str, Any], keys: tuple[str, ...], what: str, where: str) -> None:
    missing = [k for k in keys if not source.get(k)]
    if missing:
        raise InvalidInputError(
            f"{where}: a {source.get('type')} {what} source needs {' and '.join(missing)}"
        )


def _image(block: dict[str, Any], where: str) -> dict[str, Any]:
    source = _source(block, where)
    kind = source.get("type")
    if kind == "base64":
        _need(source, ("media_type", "data"), "image", where)
        url = f"data:{source['media_type']};base64,{source['data']}"
        return {"type": "image_url", "image_url": {"url": url}}
    if kind == "url":
        _need(source, ("url",), "image", where)
        return {"type": "image_url", "image_url": {"url": source["url"]}}
    if kind == "file":
        _need(source, ("file_id",), "image", where)
        return {"type": "file", "file": {"file_id": source["file_id"]}}
    raise InvalidInputError(f"{where}: an image source's type is base64, url or file, got {kind!r}")


def _document(block: dict[str, Any], where: str) -> dict[str, Any]:
    source = _source(block, where)
    kind, media = source.get("type"), source.get("media_type")
    title = block.get("title") if isinstance(block.get("title"), str) else None
    ext = _EXTENSIONS.get(media or "", "bin")
    name = title if title and "." in title else f"{title or 'document'}.{ext}"
    if kind == "base64":
        _need(source, ("data",), "document", where)
        data = f"data:{media or 'application/octet-stream'};base64,{source['data']}"
        return {"type": "file", "file": {"file_data": data, "filename": name}}
    if kind == "url":
        _need(source, ("url",), "document", where)
        return {"type": "file", "file": {"file_data": source["url"], "filename": title}}
    if kind == "text":
        _need(source, ("data",), "document", where)
        return {
            "type": "file",
            "file": {"file_data": str(source["data"]), "filename": title or "document.txt"},
        }
    if kind == "content":
        text = _result_text(source.get("content"), where)
        return {"type": "file", "file": {"file_data": text, "filename": title or "document.txt"}}
    if kind == "file":
        _need(source, ("file_id",), "document", where)
        return {"type": "file", "file": {"file_id": source["file_id"], "filename": title}}
    raise InvalidInputError(
        f"{where}: a document source's type is base64, url, text, content or file, got {kind!r}"
    )

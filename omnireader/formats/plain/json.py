"""JSON and JSON Lines, pretty-printed as text (a chat log in JSON is read as a chat by
the intake layer before it gets here)."""

from __future__ import annotations

import json

from omnireader.errors import TooLargeError
from omnireader.formats.document import Extraction
from omnireader.formats.plain.text import decode_text
from omnireader.formats.plain.text_file import one_section
from omnireader.formats.registry import Format, Magic, by_extension
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["read_json", "FORMATS"]

# Pretty-printing indents every level: past this depth it would blow a small file up
# quadratically, so deeper documents are written compactly.
_INDENT_DEPTH = 32


def read_json(blob: Blob, options: ReadOptions | None = None) -> Extraction:
    """The JSON document (or JSON Lines) in ``blob``, indented; invalid JSON as its text."""
    text = decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff")
    try:
        values = [json.loads(text)]
    except json.JSONDecodeError:
        try:  # JSON Lines: one document per line
            values = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError:
            return one_section(text)  # not valid JSON after all: its text is still worth reading
        except RecursionError:
            raise _too_deep(blob) from None
    except RecursionError:
        raise _too_deep(blob) from None
    try:
        pretty = "\n".join(
            json.dumps(v, indent=2 if _depth(v) <= _INDENT_DEPTH else None, ensure_ascii=False)
            for v in values
        )
    except (RecursionError, ValueError):
        raise _too_deep(blob) from None
    return one_section(pretty)


def _too_deep(blob: Blob) -> TooLargeError:
    # Nesting that deep is an attack on parsers' stacks, not data anyone wrote.
    return TooLargeError(blob.label, "the JSON is nested too deeply to read (over ~1000 levels)")


def _depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (iterative: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in node)
    return deepest


FORMATS = (
    Format(
        name="json",
        rank=14,
        display="JSON",
        extensions=(".json", ".jsonl"),
        mimes=("application/json",),
        magic=(
            Magic(80, by_extension(".json"), "text"),
            Magic(80, by_extension(".jsonl", mime="application/jsonl"), "text"),
            Magic(90, lambda p: p.lowered.startswith((b"{", b"[")), "text"),
        ),
        extract=read_json,
        readme_group="text, Markdown, JSON, XML",
    ),
)

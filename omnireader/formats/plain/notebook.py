"""Jupyter notebooks (.ipynb) as Markdown: the cells in order, each code cell followed by
what it printed.

Markdown cells are kept as written, code cells fenced in the notebook's language, raw cells
fenced bare (what MarkItDown's converter does). A code cell's outputs are what a reader
often wants to recall ("what did the model score?"), so they follow it as a fenced
``output`` block: stream text (stdout / stderr), a result's or display's ``text/plain``,
and an error's name and message. Images and HTML are left out, and so is the
``text/plain`` placeholder that stands for them (``<Figure size 640x480 with 1 Axes>``).
Terminal colour codes and progress bars redrawn with ``\\r`` keep only what was left on
screen; a cell's output past :data:`MAX_OUTPUT` characters is cut, saying so.

>>> cell = {"cell_type": "code", "source": "print(6 * 7)",
...         "outputs": [{"output_type": "stream", "name": "stdout", "text": "42\\n"}]}
>>> print(notebook_markdown({"cells": [cell]})[1])
```python
print(6 * 7)
```
<BLANKLINE>
```output
42
```
"""

from __future__ import annotations

import json
import re
from typing import Any

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.document import DocInfo, Extraction, Section
from omnireader.formats.plain.text import decode_text
from omnireader.formats.probe import Probe
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["notebook_markdown", "MAX_OUTPUT"]

#: Characters of one code cell's outputs kept: a printed log or a dumped array runs to
#: megabytes, and what it says is in its first lines.
MAX_OUTPUT = 2000
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# What a rich output (a figure, a widget, an HTML table's object) says in text/plain.
_PLACEHOLDER = re.compile(r"<[^<>\n]{1,200}>")
_RICH = ("image/", "text/html", "application/vnd.jupyter.widget", "text/latex")


def _text(value: Any) -> str:
    """A notebook string: a list of lines or one string."""
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return value if isinstance(value, str) else ""


def _screen(text: str) -> str:
    """What a terminal shows: colour codes dropped, each line as its last ``\\r`` redraw
    left it."""
    lines = _ANSI.sub("", text).replace("\r\n", "\n").split("\n")
    return "\n".join(line.rsplit("\r", 1)[-1] for line in lines)


def _output_text(output: dict[str, Any]) -> str:
    kind = output.get("output_type")
    if kind == "stream":
        return _screen(_text(output.get("text")))
    if kind in ("execute_result", "display_data", "pyout"):
        data = output.get("data") or {}
        plain = _text(data.get("text/plain"))
        rich = any(k.startswith(_RICH) for k in data)
        if rich and _PLACEHOLDER.fullmatch(plain.strip()):
            return ""  # "<Figure ...>", "<IPython.core.display.HTML object>": the image's stand-in
        return plain
    if kind in ("error", "pyerr"):  # the traceback is colour-coded frames; its last line says it
        name, value = str(output.get("ename") or ""), str(output.get("evalue") or "")
        return f"{name}: {value}" if name and value else name or value
    return ""


def _outputs(cell: dict[str, Any]) -> str:
    said = (_output_text(o).strip("\n") for o in cell.get("outputs") or [] if isinstance(o, dict))
    text = "\n".join(t for t in said if t.strip())
    if len(text) > MAX_OUTPUT:
        cut = text[:MAX_OUTPUT].rsplit("\n", 1)[0] or text[:MAX_OUTPUT]
        text = f"{cut}\n… (output cut: {len(text):,} characters in all)"
    return text.replace("```", "` ` `")  # a fence inside would end the block early


def notebook_markdown(notebook: dict[str, Any]) -> tuple[str | None, str]:
    """The notebook's title (its metadata's, else its first ``#`` heading) and Markdown."""
    meta = notebook.get("metadata") or {}
    language = str(
        (meta.get("kernelspec") or {}).get("language")
        or (meta.get("language_info") or {}).get("name")
        or "python"
    )
    title = meta.get("title") if isinstance(meta.get("title"), str) else None
    parts: list[str] = []
    for cell in notebook.get("cells") or []:
        if not isinstance(cell, dict):
            continue
        kind, source = cell.get("cell_type"), _text(cell.get("source") or cell.get("input"))
        if kind == "markdown":
            parts.append(source)
            if title is None:
                title = next(
                    (ln[2:].strip() for ln in source.splitlines() if ln.startswith("# ")), None
                )
        elif kind == "code":
            parts.append(f"```{language}\n{source}\n```")
            if output := _outputs(cell):
                parts.append(f"```output\n{output}\n```")
        elif kind == "raw":
            parts.append(f"```\n{source}\n```")
    return title or None, "\n\n".join(p for p in parts if p.strip())


def _read_notebook(blob: Blob, options: ReadOptions) -> Extraction:
    text = decode_text(blob.read_bytes(), blob.label).lstrip("\ufeff")
    try:
        notebook = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise CorruptError(blob.label, f"not a notebook: its JSON does not parse ({e})") from None
    if not isinstance(notebook, dict):
        raise CorruptError(blob.label, "not a notebook: its JSON is no object")
    if "cells" not in notebook and notebook.get("worksheets"):  # nbformat 3: cells in sheets
        sheets = notebook["worksheets"]
        notebook = {**notebook, "cells": [c for w in sheets for c in w.get("cells", [])]}
    title, markdown = notebook_markdown(notebook)
    if not markdown.strip():
        raise EmptyInputError(blob.label, "the notebook holds no cells with text")
    info = DocInfo(title=title, extra={"extractor": "notebook"})
    return Extraction(info=info, sections=iter([Section(text=markdown)]))


def _is_notebook(p: Probe) -> bool:
    return p.ext == ".ipynb" or (p.lowered.startswith(b"{") and b'"nbformat"' in p.text_head)


FORMATS = (
    Format(
        name="ipynb",
        rank=15,
        display="IPYNB",
        extensions=(".ipynb",),
        mimes=("application/x-ipynb+json",),
        magic=(Magic(30, _is_notebook, "text"),),
        extract=_read_notebook,
        readme="the cells in order (code fenced in the kernel's language), each code cell's "
        f"output after it (stream text, `text/plain` results, errors; images and HTML left "
        f"out; cut at {MAX_OUTPUT:,} characters, saying so); title from the metadata or the "
        "first `#` heading",
    ),
)

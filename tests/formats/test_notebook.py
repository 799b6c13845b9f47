"""Jupyter notebooks: the cells in order, each code cell followed by what it printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from omnireader.parsers.base import ParseContext
from omnireader.parsers.file import FileParser
from omnireader.payloads import Blob


def read(path: Path) -> str:
    return "\n".join(
        i.memory for i in FileParser().parse_fast(Blob(path=str(path)), ParseContext())
    )


def notebook(tmp_path: Path, *outputs: dict) -> Path:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Fit\n"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": 1,
            "source": ["model.fit(x, y)\n", "model.score(x, y)"],
            "outputs": list(outputs),
        },
    ]
    path = tmp_path / "fit.ipynb"
    path.write_text(
        json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})
    )
    return path


def test_the_markitdown_notebook_keeps_what_its_cells_printed(corpus: Path) -> None:
    path = corpus / "markitdown" / "test_notebook.ipynb"
    if not path.is_file():
        pytest.skip("test_notebook.ipynb is not in the corpus")
    text = read(path)
    assert '```python\nprint("markitdown")\n```\n\n```output\nmarkitdown\n```' in text
    assert "print(42)\n```\n\n```output\n42\n```" in text


def test_a_result_and_an_error_are_kept_and_pictures_are_left_out(tmp_path: Path) -> None:
    path = notebook(
        tmp_path,
        {
            "output_type": "stream",
            "name": "stderr",
            "text": "\x1b[32mepoch 1\x1b[0m\repoch 2\rdone\n",
        },
        {
            "output_type": "display_data",
            "metadata": {},
            "data": {
                "image/png": "iVBORw0KGgo=",
                "text/plain": ["<Figure size 640x480 with 1 Axes>"],
            },
        },
        {"output_type": "display_data", "metadata": {}, "data": {"text/html": ["<b>table</b>"]}},
        {
            "output_type": "execute_result",
            "execution_count": 1,
            "metadata": {},
            "data": {"text/plain": ["0.93"], "text/html": ["<p>0.93</p>"]},
        },
        {
            "output_type": "error",
            "ename": "ValueError",
            "evalue": "x has 3 rows, y 4",
            "traceback": ["\x1b[0;31m---------\x1b[0m", "long frames"],
        },
    )
    text = read(path)
    # Colour codes and a progress line's redraws: only what was left on the screen.
    assert "```output\ndone\n0.93\nValueError: x has 3 rows, y 4\n```" in text
    assert "Figure" not in text and "iVBOR" not in text and "table" not in text
    assert "long frames" not in text


def test_a_long_output_is_cut_and_says_so(tmp_path: Path) -> None:
    lines = "".join(f"step {n}: loss {1 / n:.6f}\n" for n in range(1, 5001))
    text = read(notebook(tmp_path, {"output_type": "stream", "name": "stdout", "text": lines}))
    output = text.split("```output\n", 1)[1].split("\n```", 1)[0]
    assert output.startswith("step 1: loss 1.000000\n")
    assert len(output) < 2200
    assert output.endswith(f"… (output cut: {len(lines) - 1:,} characters in all)")

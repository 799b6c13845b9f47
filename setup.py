"""Builds the optional compiled loops: the PDF layout stage's, the language guess's and the
static embedder's (everything else is in pyproject.toml). Without a C compiler the build goes on without them,
and the same loops run in Python: the same output, slower (the layout by about a third)."""

import sys

from setuptools import Extension, setup

# Python's float arithmetic rounds after every operation: no fused multiply-add, so the
# compiled loops give the same coordinates as the Python ones.
_FLAGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]

setup(
    ext_modules=[
        Extension(
            "omnireader.formats.layout._loops",
            ["omnireader/formats/layout/_loops.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
        Extension(
            "omnireader.text._scan",
            ["omnireader/text/_scan.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
        Extension(
            "omnireader.llm._embed_loops",
            ["omnireader/llm/_embed_loops.c"],
            extra_compile_args=_FLAGS,
            optional=True,
        ),
    ]
)

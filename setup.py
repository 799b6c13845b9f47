"""Builds the optional compiled loops of the PDF layout stage (everything else is in
pyproject.toml). Without a C compiler the build goes on without them, and the layout runs
the same loops in Python: the same output, about a third slower."""

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
        )
    ]
)

#!/usr/bin/env python3
"""Demo of the string parser: plain strings (English, Chinese, long)."""

import sys

from _demo import demo, sample_files  # noqa: I001

if __name__ == "__main__":
    files = sample_files()
    sys.exit(
        demo(
            "string",
            ["Maria opened the Lisbon office in 2024.", "张伟负责上海仓库的搬迁。", "word " * 2000],
        )
    )

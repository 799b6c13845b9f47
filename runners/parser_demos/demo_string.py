#!/usr/bin/env python3
"""Demo of the string parser: plain strings (English, Chinese, long)."""

import sys
from pathlib import Path

if not __package__:  # run as a file (python runners/x.py): make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from runners.parser_demos._demo import demo, sample_files  # noqa: E402

if __name__ == "__main__":
    files = sample_files()
    sys.exit(
        demo(
            "string",
            ["Maria opened the Lisbon office in 2024.", "张伟负责上海仓库的搬迁。", "word " * 2000],
        )
    )

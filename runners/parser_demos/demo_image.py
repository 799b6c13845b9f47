#!/usr/bin/env python3
"""Demo of the image parser: image metadata: format, size, EXIF time and GPS."""

import sys
from pathlib import Path

if not __package__:  # run as a file (python runners/x.py): make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from runners.parser_demos._demo import demo, sample_files  # noqa: E402

if __name__ == "__main__":
    files = sample_files()
    sys.exit(demo("image", [files / "eiffel_photo.jpg", files / "whiteboard.png"]))

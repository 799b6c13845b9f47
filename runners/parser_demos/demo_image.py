#!/usr/bin/env python3
"""Demo of the image parser: image metadata: format, size, EXIF time and GPS."""

import sys

from _demo import demo, sample_files  # noqa: I001

if __name__ == "__main__":
    files = sample_files()
    sys.exit(demo("image", [files / "eiffel_photo.jpg", files / "whiteboard.png"]))

#!/usr/bin/env python3
"""Demo of the text parser: bare text content parts."""

import sys

from _demo import demo, sample_files  # noqa: I001

if __name__ == "__main__":
    files = sample_files()
    sys.exit(
        demo("text", [{"type": "text", "text": "Remember: the VPN password rotates monthly."}])
    )

#!/usr/bin/env python3
"""Demo of the audio parser: audio metadata: duration, sample rate, channels."""

import sys

from _demo import demo, sample_files  # noqa: I001

if __name__ == "__main__":
    files = sample_files()
    sys.exit(demo("audio", [files / "voice_note.wav"]))

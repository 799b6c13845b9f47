#!/usr/bin/env python3
"""Demo of the chat parser: a conversation grouped into windows; system prompt kept as context."""

import sys
from pathlib import Path

if not __package__:  # run as a file (python runners/x.py): make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from runners.parser_demos._demo import demo, sample_files  # noqa: E402

if __name__ == "__main__":
    files = sample_files()
    sys.exit(
        demo(
            "chat",
            [
                [
                    {"role": "system", "content": "Be brief."},
                    {
                        "role": "user",
                        "content": "I live in Porto.",
                        "message_id": "m1",
                        "chat_time": "2025-01-10T09:00:00",
                    },
                    {"role": "assistant", "content": "Nice city!", "message_id": "m2"},
                ],
                files / "chat_tokyo_trip.json",
            ],
        )
    )

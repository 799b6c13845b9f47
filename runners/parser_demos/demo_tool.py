#!/usr/bin/env python3
"""Demo of the tool parser: a tool-call trajectory, one succeeding and one failing call."""

import sys
from pathlib import Path

if not __package__:  # run as a file (python runners/x.py): make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from runners.parser_demos._demo import demo, sample_files  # noqa: E402

if __name__ == "__main__":
    files = sample_files()
    sys.exit(
        demo(
            "tool",
            [
                [
                    {"role": "user", "content": "Weather in Oslo?"},
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "id": "t1",
                                "type": "function",
                                "function": {
                                    "name": "get_weather",
                                    "arguments": '{"city": "Oslo"}',
                                },
                            }
                        ],
                    },
                    {
                        "role": "tool",
                        "tool_call_id": "t1",
                        "content": '{"error": "city not found", "status": 404}',
                    },
                    {"role": "assistant", "content": "I could not find Oslo."},
                ]
            ],
        )
    )

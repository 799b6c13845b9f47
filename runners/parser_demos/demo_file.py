#!/usr/bin/env python3
"""Demo of the file parser: documents: PDF per page, DOCX as Markdown, CSV, ZIP members."""

import sys
from pathlib import Path

if not __package__:  # run as a file (python runners/x.py): make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from runners.parser_demos._demo import demo, sample_files  # noqa: E402

if __name__ == "__main__":
    files = sample_files()
    sys.exit(
        demo(
            "file",
            [
                files / "quarterly_report.pdf",
                files / "project_plan.docx",
                files / "sales.csv",
                files / "archive.zip",
            ],
        )
    )

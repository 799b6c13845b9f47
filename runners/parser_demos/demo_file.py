#!/usr/bin/env python3
"""Demo of the file parser: documents: PDF per page, DOCX as Markdown, CSV, ZIP members."""

import sys

from _demo import demo, sample_files  # noqa: I001

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

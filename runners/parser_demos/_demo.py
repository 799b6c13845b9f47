"""Shared body of the parser demos: route an input, then show source → rebuild → fast parse."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from runners import _common


def demo(parser_name: str, inputs: list[Any]) -> int:
    from omnireader.intake.router import route
    from omnireader.parsers.base import ParseContext, get_parser

    parser = get_parser(parser_name)
    ctx = ParseContext(user_id="demo_user", session_id="demo")
    shown = 0
    for input in inputs:
        for task in route(input):
            if task.parser != parser_name:
                continue
            shown += 1
            source = parser.create_source(task.payload)
            print(f"\n=== {parser_name} parser · input {task.label}")
            print("source :", source.model_dump_json(exclude_none=True)[:300])
            rebuilt = parser.rebuild_from_source(source)
            print("rebuilt:", type(rebuilt).__name__, repr(rebuilt)[:200])
            items = parser.parse_fast(task.payload, ctx)
            print(f"fast   : {len(items)} item(s)")
            _common.show(items)
    if not shown:
        print(f"no input was routed to the {parser_name} parser", file=sys.stderr)
        return 1
    return 0


def sample_files() -> Path:
    from samples.make_samples import make_all

    return make_all()[0].parent

"""Shared bits of the runner scripts: build the LLM, print items."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")


def add_llm_args(ap: Any) -> None:
    ap.add_argument(
        "--llm",
        default=None,
        help="openai:MODEL or ollama:MODEL (default: env OMNIREADER_LLM or the "
        "config file); fine mode needs it",
    )
    ap.add_argument("--vision-llm", default=None, help="vision model (default: --llm)")
    ap.add_argument("--speech-model", default=None, help="speech-to-text model")


def make_llm(args: Any) -> Any:
    """The LLM bundle for fine mode, or None when no backend is configured."""
    from omnireader.llm.config import make_chat_backend

    return make_chat_backend(args.llm, vision=args.vision_llm, speech=args.speech_model)


def show(items: list[Any]) -> None:
    from omnireader.cli.output import render_item

    for item in items:
        print(render_item(item))

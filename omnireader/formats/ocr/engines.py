"""The process's OCR engines: each loaded once, on first use (loading takes a second), then
shared by every thread; how many threads each may use.

``$OMNIREADER_OCR_THREADS`` caps an engine's threads when :func:`set_threads` was not called.
"""

from __future__ import annotations

import os
import threading

from omnireader.formats.ocr.base import OcrEngine

__all__ = ["get_engine", "set_threads"]

_ENGINES: dict[str, OcrEngine] = {}
_LOCK = threading.Lock()
_THREADS: int | None = None


def set_threads(threads: int | None) -> None:
    """Threads each OCR engine of this process may use (None: ONNX Runtime's default, all
    cores). Worker processes set one each, so parallel workers do not fight over cores."""
    global _THREADS
    _THREADS = threads


def get_engine(name: str = "rapidocr") -> OcrEngine:
    """The process's engine (loaded once, then reused: loading takes a second)."""
    with _LOCK:
        engine = _ENGINES.get(name)
        if engine is None:
            engine = _ENGINES[name] = _load(name)
        return engine


def _load(name: str) -> OcrEngine:
    threads = _THREADS or _env_threads()
    if name == "rapidocr":
        from omnireader.formats.ocr.rapid import RapidOcrEngine

        return RapidOcrEngine(threads=threads)
    from omnireader.errors import ConfigError

    raise ConfigError(f"unknown OCR engine {name!r}; known: rapidocr")


def _env_threads() -> int | None:
    value = os.environ.get("OMNIREADER_OCR_THREADS", "")
    return int(value) if value.isdigit() and int(value) > 0 else None

"""chonkie is imported without the OpenAI SDK, and the SDK still imports after it."""

from __future__ import annotations

import subprocess
import sys

_SCRIPT = """
import sys
from omnireader.text.chunking import chunk_text
chunks = chunk_text("word " * 3000, 512)
assert len(chunks) > 1 and "chonkie" in sys.modules, chunks
assert "openai" not in sys.modules, "chonkie pulled the OpenAI SDK in"
import openai  # fine mode's backend: the real package, not the marker
assert hasattr(openai, "AsyncOpenAI"), openai
print("ok")
"""


def _passes(script: str) -> None:
    """Run ``script`` in a fresh interpreter (imports start from nothing): it prints ok."""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_chonkie_loads_without_openai_and_openai_still_imports() -> None:
    _passes(_SCRIPT)


_THREADED = """
import sys, threading
stop = threading.Event()
threading.Thread(target=stop.wait, daemon=True).start()  # another thread could import openai
from omnireader.text.chunking import chunk_text
chunk_text("word " * 3000, 512)
assert sys.modules.get("openai") is not None, "openai was marked missing with a thread running"
stop.set()
print("ok")
"""


def test_with_other_threads_running_openai_is_never_marked_missing() -> None:
    _passes(_THREADED)

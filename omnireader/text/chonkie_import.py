"""Import chonkie without the OpenAI SDK it does not need here.

``import chonkie`` imports every optional integration it finds installed; with the ``openai``
package present (omnireader's fine mode uses it) that alone is ~1 s of an idle core (11 s
under load), more than the rest of chonkie: measured with ``python -X importtime``. chonkie
guards that import (``try: from openai import ...  except ImportError``) and only its
OpenAI "genie" needs it, which omnireader never uses. So while chonkie is imported, the
name ``openai`` is marked missing (``sys.modules["openai"] = None``) and restored after: a
later ``import openai`` (fine mode) loads the real package as usual.

Importing this module does the import: the worker pool's fork server preloads it.
"""

from __future__ import annotations

import sys
import threading
from types import ModuleType

__all__ = ["chonkie"]

_LOCK = threading.Lock()


def _import() -> ModuleType:
    with _LOCK:
        # With other threads running, one of them could import openai while it is marked
        # missing and fail; the marker is only safe in a single-threaded process (the fork
        # server, a CLI before its first thread).
        if "chonkie" in sys.modules or "openai" in sys.modules or threading.active_count() > 1:
            import chonkie as module  # already loaded, openai costs nothing more, or unsafe

            return module
        sys.modules["openai"] = None  # type: ignore[assignment]  # "not installed" to chonkie
        try:
            import chonkie as module
        finally:
            # Only our marker is removed: a real openai module is never put there meanwhile.
            if sys.modules.get("openai", 0) is None:
                del sys.modules["openai"]
        return module


chonkie = _import()

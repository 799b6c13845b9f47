"""Progress for long runs: a live bar on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """Counts files done, items and failures; prints rate and ETA to ``stream``."""

    def __init__(
        self,
        total: int,
        *,
        stream: TextIO | None = None,
        label: str = "files",
        enabled: bool = True,
    ) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.label = label
        self.enabled = enabled
        self.tty = enabled and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.done = self.items = self.failed = self.skipped = self.ocr_pages = 0
        self.started = time.perf_counter()
        self._last = 0.0

    def update(
        self,
        *,
        done: int = 0,
        items: int = 0,
        failed: int = 0,
        skipped: int = 0,
        ocr_pages: int = 0,
        note: str = "",
    ) -> None:
        self.done += done
        self.ocr_pages += ocr_pages
        self.items += items
        self.failed += failed
        self.skipped += skipped
        now = time.perf_counter()
        # Plain lines at most every 2 s (and at the end) so logs stay readable.
        if not self.enabled or (not self.tty and now - self._last < 2 and self.done < self.total):
            return
        self._last = now
        self._print(note)

    def _line(self) -> str:
        elapsed = time.perf_counter() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        pct = self.done / self.total if self.total else 1.0
        return (
            f"{self.done}/{self.total} {self.label} ({pct:.0%}) · {self.items} items · "
            f"{self.skipped} skipped · {self.failed} failed · "
            + (f"{self.ocr_pages} pages OCR'd · " if self.ocr_pages else "")
            + f"{rate:.1f} {self.label}/s"
            + (f" · ETA {eta:.0f}s" if self.done < self.total else f" · {elapsed:.1f}s")
        )

    def _print(self, note: str) -> None:
        line = self._line()
        if self.tty:
            width = 24
            filled = int(width * (self.done / self.total if self.total else 1))
            bar = "█" * filled + "░" * (width - filled)
            self.stream.write(f"\r\033[K{bar} {line}")
            if self.done >= self.total:
                self.stream.write("\n")
        else:
            self.stream.write(line + (f" · {note}" if note else "") + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.tty and self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()

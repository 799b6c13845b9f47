"""The benchmark modules import their helpers as top-level modules (``from _util import``),
as they do when run as scripts from bench/."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

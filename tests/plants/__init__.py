"""Bugs planted on purpose, to prove the instruments see them.

Each plant is a folder holding a ``sitecustomize.py``. Putting the folder first on
``PYTHONPATH`` makes every Python process of a run — the ingest process, the forkserver
and every parser worker it forks — load the plant before anything else, so the bug is in
the real batch path, not in a test double. The product code has no hook for it.

    env = plant_env("pdf_cut", chars=10)       # every PDF page's text cut to 10 characters
    subprocess.run([sys.executable, "tests/faultkit/matrix.py", ...], env=env)

- ``pdf_cut``: PDF page text cut to ``chars`` characters (the fault matrix must then fail
  every row whose controls include a PDF: ``tests/faultkit/selftest.py``);
- ``worker_ballast``: each file parsed in a worker holds ``mb`` MB more while it is read
  (the memory benchmark must then see it on the worker: ``tests/benchmarks``);
- ``worker_dies_midfile``: the worker is killed right after sending the first piece of a
  file whose name holds ``file`` (a big file handed over in pieces must then leave no row
  behind: ``tests/batch/test_batch_pieces.py``);
- ``parse_fails_midfile``: reading a file whose name holds ``file`` raises a typed error at
  its chunk number ``chunk`` (a long text made and sent a piece at a time must then leave
  no row behind either: ``tests/batch/test_batch_pieces.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["PLANTS", "plant_env"]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PLANTS = sorted(p.name for p in HERE.iterdir() if (p / "sitecustomize.py").is_file())


def plant_env(name: str, env: dict[str, str] | None = None, **settings: object) -> dict[str, str]:
    """A copy of ``env`` (default: this process's) with the plant ``name`` switched on.

    Each setting becomes ``OMNIREADER_PLANT_<NAME>``, read by the plant."""
    if name not in PLANTS:
        raise ValueError(f"no plant {name!r}; the plants are {', '.join(PLANTS)}")
    out = dict(os.environ if env is None else env)
    # The checkout second: the plant imports omnireader before the run's own sys.path is
    # set, so without it a venv whose editable install points at another checkout would
    # plant the bug in that checkout's code instead of this one's.
    path = [str(HERE / name), str(ROOT), out.get("PYTHONPATH", "")]
    out["PYTHONPATH"] = os.pathsep.join(p for p in path if p)
    out["OMNIREADER_PLANT"] = name
    for key, value in settings.items():
        out[f"OMNIREADER_PLANT_{key.upper()}"] = str(value)
    return out

"""Store cases: an ingest killed mid-write, two ingests at once, the wrong embedder.

Ingests run as real subprocesses (``python -c``) against a LanceDB directory; the checks
read the store afterwards: every file's items exactly once (as many as the file gives when
read alone, no id twice), nothing written when the embedder does not match.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from omnireader import ingest
from tests.faultkit import fault_cases as gen

from .checks import baseline_count, check_batch, control_readables
from .harness import Outcome, RunEnv, fault
from .reading import Batch, item_key

__all__ = ["write_corpus", "ingest_process"]

ROOT = Path(__file__).resolve().parents[2]
_INGEST = """
import sys
from pathlib import Path
from omnireader import IngestOptions, Store, ingest
store = Store.open(sys.argv[1])
report = ingest([Path(p) for p in sys.argv[3:]], store,
                options=IngestOptions(workers=2, batch_size=int(sys.argv[2])))
print(report.model_dump_json())
"""


def write_corpus(folder: Path, files: int) -> list[Path]:
    """``files`` small documents: notes, CSVs and multi-page PDFs, each with its own words."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for n in range(files):
        if n % 3 == 2:
            path = folder / f"doc{n:03}.pdf"
            gen.write_text_pdf(
                path, [[f"Document {n}, page {p}: shipment {n * 10 + p}."] for p in range(1, 4)]
            )
        elif n % 3 == 1:
            path = folder / f"table{n:03}.csv"
            path.write_text(f"item,count\nbolt-{n},{n}\nnut-{n},{n * 2}\n")
        else:
            path = folder / f"note{n:03}.md"
            path.write_text(f"# Note {n}\n\nThe crate {n} left the dock on day {n % 28 + 1}.\n")
        out.append(path)
    return out


def ingest_process(db: Path, paths: list[Path], batch_size: int = 8) -> subprocess.Popen[str]:
    """An ingest of ``paths`` into ``db`` in a new process group (so it can be killed whole)."""
    return subprocess.Popen(
        [sys.executable, "-c", _INGEST, str(db), str(batch_size), *map(str, paths)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _exactly_once(db: Path, files: list[Path], out: Outcome) -> int:
    """Compare the store with each file read alone; returns the items stored."""
    from omnireader import Store

    items = list(Store.open(db).iter_items())
    ids = Counter(i.id for i in items)
    twice = [i for i, n in ids.items() if n > 1]
    if twice:
        out.problems.append(f"{len(twice)} item ids stored twice, e.g. {twice[0]}")
    by_file = Counter(item_key(i) for i in items)
    for path in files:
        want = baseline_count(path)[0]
        got = by_file.get(os.path.realpath(path), 0)
        if got < want:
            out.items_lost += want - got
        elif got > want:
            out.problems.append(f"{path.name}: {got} items stored, {want} expected (duplicates)")
    return len(items)


@fault(
    "store",
    "store-sigkill-mid-write",
    "an ingest killed with SIGKILL after its first write batch, then run again",
    "every file stored exactly once; the re-run resumes",
)
def _sigkill(env: RunEnv) -> Outcome:
    from omnireader import Store

    files = write_corpus(env.folder("corpus"), 60 if env.scale == "full" else 15)
    total = sum(baseline_count(f)[0] for f in files)
    db = env.tmp / "db"
    Store.open(db)  # created up front, so the poll below can watch it fill
    proc = ingest_process(db, files, batch_size=3)
    at_kill = 0
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        at_kill = Store.open(db).count()
        if at_kill >= total // 3:  # some batches written and recorded, most still to come
            os.killpg(proc.pid, signal.SIGKILL)  # the ingest and its workers, mid-run
            break
        time.sleep(0.005)
    proc.wait()
    out = Outcome(via="2 ingest processes")
    if proc.returncode != -signal.SIGKILL:  # nothing was tested: not a pass
        _, stderr = proc.communicate()
        out.outcome = f"not killed (exit {proc.returncode})"
        out.problems.append(
            f"the ingest ended (exit {proc.returncode}) before it could be "
            f"killed mid-write, at {at_kill} of {total} items: {stderr[-1500:]}"
        )
        return out
    rerun = ingest_process(db, files, batch_size=3)
    stdout, stderr = rerun.communicate(timeout=300)
    if rerun.returncode != 0:
        out.problems.append(f"the re-run failed: {stderr[-1500:]}")
        return out
    from omnireader import IngestReport

    report = IngestReport.model_validate_json(stdout.strip().splitlines()[-1])
    stored = _exactly_once(db, files, out)
    if report.files_read + report.files_skipped != len(files):
        out.problems.append(
            f"re-run: {report.files_read} read + {report.files_skipped} "
            f"skipped of {len(files)} files"
        )
    out.outcome = (
        f"killed at {at_kill} of {total} items; re-run read {report.files_read}, "
        f"skipped {report.files_skipped}; {stored} items, each once"
    )
    return out


@fault(
    "store",
    "store-two-ingests-at-once",
    "two ingest processes writing one store at once, with overlapping folders",
    "every file stored exactly once, none lost",
)
def _concurrent(env: RunEnv) -> Outcome:
    files = write_corpus(env.folder("corpus"), 40 if env.scale == "full" else 15)
    third = len(files) // 3
    first, second = files[: 2 * third], files[third:]  # the middle third in both
    db = env.tmp / "db"
    procs = [ingest_process(db, first), ingest_process(db, second)]
    out = Outcome(via="2 ingest processes")
    for p in procs:
        _, stderr = p.communicate(timeout=300)
        if p.returncode != 0:
            out.problems.append(f"an ingest failed: {stderr[-1500:]}")
    total = _exactly_once(db, files, out)
    out.outcome = f"{total} items from {len(files)} files, each once"
    return out


@fault(
    "store",
    "store-embedder-mismatch",
    "a store built with the default embedder (static, 256) opened "
    "with hashing:128 and with an OpenAI-compatible embedder",
    "EmbedderMismatchError naming both; nothing written, no embedding call",
)
def _mismatch(env: RunEnv) -> Outcome:
    from omnireader import EmbedderMismatchError, Store
    from tests.support import LLMServer

    db = env.tmp / "db"
    controls = gen.write_controls(env.folder("docs"))
    report = ingest(controls, Store.open(db))
    before = Store.open(db)
    count, version = before.count(), before.table.version
    stored = Batch(items=list(before.iter_items()), failures=report.failures, via="ingest")
    out = check_batch(stored, bad={}, readable=control_readables(controls))
    out.via = "Store.open"
    codes = []
    with LLMServer() as srv:
        from omnireader.llm.embed_openai import OpenAIEmbedder

        remote = OpenAIEmbedder("text-embed-test", base_url=srv.openai_base_url, api_key="k")
        for other in ("hashing:128", remote):
            try:
                Store.open(db, embedder=other)
                out.problems.append(f"opening with {getattr(other, 'name', other)} worked")
            except EmbedderMismatchError as e:
                codes.append("EmbedderMismatchError")
                if before.embedder.name not in str(e):
                    out.problems.append(f"the error does not name the store's embedder: {e}")
        if srv.requests_to("embeddings"):
            out.problems.append("an embedding request was sent before refusing")
    after = Store.open(db)
    if after.count() != count or after.table.version != version:
        out.problems.append("the store changed")
    out.outcome = f"EmbedderMismatchError ×{len(codes)}; {count} items unchanged"
    return out

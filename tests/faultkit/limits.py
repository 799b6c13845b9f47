"""Per-file limits: a worker that hangs, eats memory or crashes is killed and reported.

The pool cases drive :class:`omnireader.batch.workers.WorkerPool` with job functions that
misbehave on purpose (:mod:`.jobs`), between well-behaved jobs that must all come back.
The ingest cases show the real batch path passes its limits through: a real file too slow
or too big for the limits given to ``ingest`` is reported, the others land.
"""

from __future__ import annotations

from collections import Counter

from omnireader.batch.workers import Job, WorkerPool
from tests.faultkit import fault_cases as gen

from .checks import check_batch, control_readables
from .harness import Outcome, RunEnv, fault
from .jobs import run_job
from .reading import Batch, read_batch

__all__ = ["run_pool", "Plan"]

OK = "ok"


Plan = list[tuple]  # (job kind, size, expected code or None[, words its report must hold])


def run_pool(plan: Plan, *, timeout: float, memory_mb: int) -> Outcome:
    """Run ``plan`` on a 2-worker pool: each entry (job kind, size, expected error code or
    None for a good job, and optionally words the failure's message must hold — how it was
    caught, e.g. ``"in native code"``)."""
    jobs, expected = [], {}
    for n, (kind, size, code, *words) in enumerate(plan):
        key = f"{kind}#{n}"
        jobs.append(Job(key=key, args={"kind": kind, "n": size}))
        expected[key] = (code, f"result {size}" if kind == OK else None, tuple(words))
    out = Outcome(via="pool")
    seen = Counter()
    got = {}
    for res in WorkerPool(run_job, 2, timeout=timeout, memory_mb=memory_mb).run(jobs):
        got[res.key] = res
    for key, (code, value, words) in expected.items():
        res = got.get(key)
        if res is None:
            out.problems.append(f"{key}: no result came back")
            out.items_lost += code is None
        elif code is None:
            if not res.ok or res.value != value:
                out.items_lost += 1
                out.problems.append(f"{key}: expected {value!r}, got {res.error}: {res.message}")
        else:
            seen[res.error or "ok"] += 1
            if res.ok or res.error != code:
                out.problems.append(
                    f"{key}: expected {code}, got {res.error or 'a result'}"
                    f" ({res.message or res.value})"
                )
            elif key not in (res.message or ""):
                out.problems.append(f"{key}: the report does not name the job: {res.message}")
            out.problems += [
                f"{key}: the report does not say {w!r}: {res.message}"
                for w in words
                if res.error == code and w not in (res.message or "")
            ]
    oks = sum(1 for c, _, _ in expected.values() if c is None)
    parts = [f"{c}" + (f" ×{n}" if n > 1 else "") for c, n in sorted(seen.items())]
    out.outcome = " + ".join(parts + [f"{oks - out.items_lost}/{oks} good jobs back"])
    return out


def _between_goods(bad: Plan) -> Plan:
    plan: Plan = [(OK, 0, None)]
    for n, job in enumerate(bad, start=1):
        plan += [job, (OK, n, None)]
    return plan


@fault(
    "limits",
    "worker-hangs",
    "a parser that sleeps forever / spins in a loop",
    "timeout ×2; the other jobs come back",
)
def _hangs(env: RunEnv) -> Outcome:
    timeout = 1.0 if env.scale == "test" else 3.0
    return run_pool(
        _between_goods([("hang", 0, "timeout"), ("spin", 0, "timeout")]),
        timeout=timeout,
        memory_mb=256,
    )


@fault(
    "limits",
    "worker-out-of-memory",
    "a parser that allocates 2 GB (600 MB in tests) under a 256 MB limit: in Python, in C "
    "(numpy), in shared memory, and in Rust (pydantic-core), which aborts when an "
    "allocation fails",
    "too_large ×4, each caught where it happened; the other jobs come back",
)
def _memory(env: RunEnv) -> Outcome:
    size = 2048 if env.scale == "full" else 600
    plan = _between_goods(
        [
            ("python_memory", size, "too_large", "ran out of memory"),
            ("native_memory", size, "too_large", "ran out of memory"),
            ("shared_memory", size, "too_large", "used more than 256 MB"),
            ("native_oom_abort", size, "too_large", "in native code (memory allocation of"),
        ]
    )
    return run_pool(plan, timeout=30.0, memory_mb=256)


@fault(
    "limits",
    "worker-native-crash",
    "a parser that aborts, segfaults, or calls exit()",
    "crashed ×3; the other jobs come back",
)
def _crash(env: RunEnv) -> Outcome:
    plan = _between_goods(
        [("abort", 0, "crashed"), ("segfault", 0, "crashed"), ("exit", 0, "crashed")]
    )
    return run_pool(plan, timeout=30.0, memory_mb=256)


@fault(
    "limits",
    "worker-raises",
    "a parser with a bug (AttributeError), between good jobs",
    "internal, naming the exception (never corrupt or crashed); the worker lives on",
)
def _bug(env: RunEnv) -> Outcome:
    return run_pool(
        _between_goods(
            [("bug", 0, "internal", "AttributeError"), ("bug", 1, "internal", "AttributeError")]
        ),
        timeout=30.0,
        memory_mb=256,
    )


@fault(
    "limits",
    "worker-big-parent",
    "the pool started by a process holding 600 MB (300 MB in tests), with a 200 MB limit",
    "every job read: none blamed for the parent",
)
def _big_parent(env: RunEnv) -> Outcome:
    ballast = [bytes(1 << 20) for _ in range(600 if env.scale == "full" else 300)]
    try:
        return run_pool([(OK, n, None) for n in range(8)], timeout=30.0, memory_mb=200)
    finally:
        del ballast


# Big enough that no plausible text path reads it inside the limits: its bytes alone
# exceed the memory limit, and ~180,000 chunks are far more than 10 s of work even at
# 30 MB/s (the text path ran at ~1 MB/s when these cases used a 50 MB line that needed
# ~30 s and ~1 GB; once it got faster, that file no longer tripped either limit).
_BIG_MB = 300


def _ingest_limited(env: RunEnv, name: str, code: str, **limits: object) -> Outcome:
    folder = env.folder(name)
    controls = gen.write_controls(folder)
    big = gen.write_one_line_text(folder / "huge_line.txt", _BIG_MB << 20)
    try:
        batch = read_batch(env, folder, via="ingest", **limits)
        return check_batch(batch, bad={big: code}, readable=control_readables(controls))
    finally:
        big.unlink(missing_ok=True)  # 300 MB of scratch: gone as soon as it is read


@fault(
    "limits",
    "ingest-timeout",
    f"ingest with timeout=10 s: a real {_BIG_MB} MB text "
    "file (minutes of work; no memory limit, so only the time limit can stop it)",
    "timeout; the other files stored",
)
def _ingest_timeout(env: RunEnv) -> Outcome:
    # 10 s, not less: a control CSV's first read in a worker imports MarkItDown, which took
    # over 5 s on a loaded two-core machine (load average 9).
    return _ingest_limited(env, "slow", "timeout", timeout=10.0, memory_mb=None)


@fault(
    "limits",
    "ingest-memory",
    f"ingest with memory_mb=256: a real {_BIG_MB} MB text "
    "file (its bytes alone are more than the limit)",
    "too_large; the other files stored",
)
def _ingest_memory(env: RunEnv) -> Outcome:
    return _ingest_limited(env, "greedy", "too_large", memory_mb=256)


_SCRIPT = """
from pathlib import Path
import sys
from omnireader import IngestOptions, Store, ingest
report = ingest([Path(sys.argv[1])], Store.open(sys.argv[2]), options=IngestOptions(workers=2))
print(report.model_dump_json())
"""


@fault(
    "limits",
    "unguarded-script",
    "a user's script calling ingest with no `if __name__ == '__main__':` guard",
    "every file read: workers do not re-run it",
)
def _unguarded(env: RunEnv) -> Outcome:
    import subprocess
    import sys

    from omnireader import IngestReport, Store

    folder = env.folder("docs")
    controls = gen.write_controls(folder)
    script = env.tmp / "my_script.py"  # run as a file: workers would import it again
    script.write_text(_SCRIPT)
    db = env.tmp / "db"
    done = subprocess.run(
        [sys.executable, str(script), str(folder), str(db)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=env.tmp,
    )
    if done.returncode != 0:
        return Outcome(
            via="ingest from a script",
            outcome="the script failed",
            problems=[f"the script failed: {done.stderr[-1500:]}"],
        )
    report = IngestReport.model_validate_json(done.stdout.strip().splitlines()[-1])
    batch = Batch(
        items=list(Store.open(db).iter_items()),
        failures=report.failures,
        via="ingest from a script",
        report=report,
    )
    out = check_batch(batch, bad={}, readable=control_readables(controls))
    if report.files_read != len(controls):
        out.problems.append(f"{report.files_read} of {len(controls)} files read")
    out.outcome = f"{report.files_read} of {len(controls)} files read; " + out.outcome
    return out

"""A pool job may hand back its result in pieces before it returns: the pool yields each piece
as it comes (``partial``), then the job's own result, and a job that fails after its pieces is
reported as any failed job is."""

from __future__ import annotations

import os
import signal
import time

from omnireader.batch.job_parts import can_send_parts, send_part
from omnireader.batch.workers import Job, WorkerPool


def pieces_then(parts: int, fail: bool = False, die: bool = False) -> dict[str, object]:
    """A job: ``parts`` pieces, then its result (or an error, or its worker's death)."""
    assert can_send_parts()
    for n in range(parts):
        send_part({"piece": n})
    if die:
        os.kill(os.getpid(), signal.SIGKILL)
    if fail:
        raise ValueError("broken after its pieces")
    return {"pieces": parts}


def _run(*jobs: Job) -> list[tuple[str, bool, bool, object]]:
    pool = WorkerPool(pieces_then, 1, timeout=60, memory_mb=None)
    return [(r.key, r.partial, r.ok, r.value if r.ok else r.error) for r in pool.run(jobs)]


def test_pieces_come_in_order_before_the_result() -> None:
    got = _run(Job(key="a", args={"parts": 3}), Job(key="b", args={"parts": 0}))
    assert got == [
        ("a", True, True, {"piece": 0}),
        ("a", True, True, {"piece": 1}),
        ("a", True, True, {"piece": 2}),
        ("a", False, True, {"pieces": 3}),
        ("b", False, True, {"pieces": 0}),  # the worker goes on with the next job
    ]


def test_a_job_failing_after_its_pieces_is_reported_after_them() -> None:
    got = _run(Job(key="a", args={"parts": 2, "fail": True}), Job(key="b", args={"parts": 1}))
    assert got == [
        ("a", True, True, {"piece": 0}),
        ("a", True, True, {"piece": 1}),
        ("a", False, False, "internal"),
        ("b", True, True, {"piece": 0}),
        ("b", False, True, {"pieces": 1}),
    ]


def test_a_worker_dying_on_its_next_job_is_blamed_on_that_job_not_the_finished_one() -> None:
    # The caller is slow with the first piece: by the time the pool looks again, the worker
    # has finished a, sent b's first piece and died, all of it waiting in the pipe.
    pool = WorkerPool(pieces_then, 1, timeout=60, memory_mb=None)
    got = []
    for r in pool.run(
        [Job(key="a", args={"parts": 2}), Job(key="b", args={"parts": 1, "die": True})]
    ):
        if not got:
            time.sleep(1.0)
        got.append((r.key, r.partial, r.ok, r.value if r.ok else r.error))
    assert got == [
        ("a", True, True, {"piece": 0}),
        ("a", True, True, {"piece": 1}),
        ("a", False, True, {"pieces": 2}),
        ("b", True, True, {"piece": 0}),
        ("b", False, False, "crashed"),
    ]


def test_outside_a_pool_there_is_nobody_to_send_to() -> None:
    assert not can_send_parts()

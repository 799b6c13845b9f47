"""Batch ingest on Ray Data: files parsed across a Ray cluster, written here by one committer.

The driver lists the files and decides which changed (ledger, content hashes), exactly as
local ingest does; only the parsing moves. The paths become a Ray Dataset, and each block
is read by ``map_batches`` with a stateful class holding the parse context (and the local
embedder) once per worker: the same :func:`.file_task.parse_file` as the local worker pool, so the same
router, parsers, chunking, OCR and embedding. What comes back is consumed here, one file at
a time, and handed to the same writer (``merge_insert``, the ledger after the commit, stale
items deleted, indexes at the end): every promise of the local store holds.

Why a single committer rather than Ray writing Lance fragments in parallel: fragment writes
append, so upsert (re-ingest writes nothing; a changed file replaces its items) and the
ledger-after-commit resume would need a second pass anyway, while the commit is a small
share of the work (see docs/ray.md, "How it scales").

Failures: a worker that dies is restarted by Ray and its task retried
(:data:`TASK_RETRIES` times); items have deterministic ids, so a retried file is an update,
never a duplicate. A file whose task still fails is reported ``crashed`` (transient: the
next run reads it again), and the other files go on.

Fine mode: each worker reads and refines its files as local fine ingest does, and every
LLM request takes a permit from one cluster-wide limit (:mod:`.ray_fine`).
"""

from __future__ import annotations

import logging
import os
import pickle
import warnings
from collections.abc import Iterator
from typing import Any

from omnireader.batch.ray_quiet import own_proxies, quiet_environment
from omnireader.errors import EngineUnavailableError
from omnireader.models import Mode, ReadFailure
from omnireader.options import IngestOptions
from omnireader.parsers.base import ParseContext
from omnireader.reading.failures import log_internal

__all__ = ["RAY_EXTRA", "require_ray", "ray_runner", "ray_results", "TASK_RETRIES"]

RAY_EXTRA = "pip install 'omnireader[ray]'"
TASK_RETRIES = 3  # a file that kills its worker this often is reported as crashed
log = logging.getLogger("omnireader")


def require_ray() -> Any:
    """Ray, or a typed error that says what to install."""
    try:
        import ray
        import ray.data  # noqa: F401  (the extra is ray[data])
    except ImportError as e:
        raise EngineUnavailableError(
            f"--engine ray needs Ray Data, which is not installed ({e}): {RAY_EXTRA} "
            "(on the driver and on every node of the cluster)"
        ) from None
    return ray


class ParseFiles:
    """A Ray Data worker: reads the files of each batch it is given.

    Constructed once per worker process (the parse context validated once, the embedder
    loaded once), then called per batch. One bad file never fails the batch: an exception
    becomes that file's ``internal`` failure, as in the local pool.
    """

    def __init__(self, ctx: dict[str, Any], embedder: str | None, ocr_threads: int) -> None:
        self.ctx = ctx
        self.embedder = embedder
        self.ocr_threads = ocr_threads

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        import numpy as np

        from omnireader.batch.file_task import parse_file

        paths = [str(p) for p in batch["path"]]
        payloads = []
        for path in paths:
            try:
                res = parse_file(path, self.ctx, self.embedder, self.ocr_threads)
                value = (res["items"], res["vectors"], res["failures"])
            except MemoryError:
                value = (
                    [],
                    None,
                    [
                        ReadFailure(
                            input=path, error="too_large", message=f"{path}: ran out of memory"
                        )
                    ],
                )
            except Exception as e:  # reported for this file; the worker lives on
                from omnireader.batch.worker_main import internal_failure

                r = internal_failure(path, e)
                value = (
                    [],
                    None,
                    [
                        ReadFailure(
                            input=path, error="internal", message=r.message or path, detail=r.detail
                        )
                    ],
                )
            payloads.append(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        return {"path": np.array(paths, dtype=object), "payload": np.array(payloads, dtype=object)}


def _connect(ray: Any, address: str | None, verbose: bool) -> bool:
    """Connect to ``address`` or start a local cluster; True when this call connected."""
    if ray.is_initialized():
        return False
    address = address or os.environ.get("RAY_ADDRESS") or None
    # Ray's console output (its notices, Ray Data's, the C++ core worker's) only with
    # --verbose; failures that matter reach us as exceptions or as files' failures.
    level = logging.INFO if verbose else logging.ERROR
    for name in ("ray", "ray.data"):
        logging.getLogger(name).setLevel(level)
    common: dict[str, Any] = {
        "log_to_driver": verbose,
        "logging_level": level,
        "configure_logging": verbose,
    }
    # The processes Ray starts now inherit the quiet environment (ray_quiet).
    with quiet_environment():
        if not verbose:
            os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "fatal")
        if address:
            ray.init(address=address, **common)
        else:
            # A cluster of this machine only: bound to loopback, no dashboard.
            ray.init(include_dashboard=False, _node_ip_address="127.0.0.1", **common)
    return True


def ray_runner(mode: str, address: str | None, verbose: bool) -> Any:
    """The batch ingest's :func:`.local_engine.local_results` for Ray; fails before
    anything is read when Ray is missing. Fine mode reads and refines on the workers
    (:mod:`.ray_fine`)."""
    require_ray()

    def results(
        reader: Any,
        ctx: ParseContext,
        store: Any,
        todo: dict[str, str],
        opts: IngestOptions,
        fresh: frozenset[str] = frozenset(),
    ) -> Any:
        # Ray sizes and times its own workers: the local pool's timeout and memory cap
        # do not apply there; a Ray task returns its file whole (no pieces: ``fresh``).
        return ray_results(reader, ctx, store, todo, opts.workers, address=address, verbose=verbose)

    return results


def ray_results(
    reader: Any,
    ctx: ParseContext,
    store: Any,
    todo: dict[str, str],
    workers: int | None,
    *,
    address: str | None = None,
    verbose: bool = False,
) -> Iterator[Any]:
    """(path, items, vectors, failures) per file, parsed on Ray, in completion order."""
    ray = require_ray()
    if not todo:
        return
    connected = _connect(ray, address, verbose)
    try:
        yield from _run(ray, reader, ctx, store, list(todo), workers, verbose)
    finally:
        if connected:
            ray.shutdown()


def _worker(ray: Any, reader: Any, ctx: ParseContext, store: Any) -> tuple[type, dict[str, Any]]:
    """The Ray Data worker class for ``ctx.mode`` and its constructor's arguments."""
    local = getattr(store.embedder, "local", False)
    common = {
        "ctx": ctx.model_dump(exclude={"refiner"}),
        "embedder": store.embedder.name if local else None,
    }
    if ctx.mode != Mode.FINE:
        # Each worker's OCR engine gets one core: Ray schedules one worker per CPU.
        return ParseFiles, {**common, "ocr_threads": 1}
    from omnireader.batch.ray_fine import ReadFilesFine, permits_actor, recipe_of

    recipe = recipe_of(reader.llm)
    config = recipe["config"]
    # One limit for the cluster; a permit outlives any request (timeout) before it lapses.
    permits = permits_actor(ray, int(config["concurrency"]), float(config["timeout"]) + 30)
    return ReadFilesFine, {**common, "recipe": recipe, "permits": permits, "proxies": own_proxies()}


def files_per_block(files: int, workers: int) -> int:
    """Files a Ray task reads: a few, so the per-task overhead is shared, yet at least eight
    tasks per worker so the workers stay evenly busy to the end."""
    return max(1, min(8, files // (workers * 8)))


def _run(
    ray: Any,
    reader: Any,
    ctx: ParseContext,
    store: Any,
    paths: list[str],
    workers: int | None,
    verbose: bool,
) -> Iterator[Any]:
    import ray.data as rd

    data_ctx = rd.DataContext.get_current()
    data_ctx.enable_progress_bars = verbose  # ours is fed from the results below
    data_ctx.print_on_execution_start = verbose
    # A file whose task fails after its retries is reported (crashed), not the whole run.
    data_ctx.max_errored_blocks = -1
    cpus = int(ray.cluster_resources().get("CPU", 1))
    n = max(1, min(workers or cpus, len(paths)))
    worker, fn_kwargs = _worker(ray, reader, ctx, store)
    seen: set[str] = set()
    # Files go in groups (fewer tasks); the files of a group whose task failed after its
    # retries are read again one per task, so one file that kills its worker costs only
    # itself: it is reported crashed and the others are stored.
    group = files_per_block(len(paths), n)
    for size in dict.fromkeys((group, 1)):
        left = [p for p in paths if p not in seen]
        if not left:
            break
        yield from _pass(rd, worker, fn_kwargs, left, size, n, seen)
    for path in paths:
        if path not in seen:  # its task failed after every retry
            failure = ReadFailure(
                input=path,
                error="crashed",
                message=f"{path}: the Ray task reading it failed "
                f"{TASK_RETRIES + 1} times (a worker died)",
            )
            yield path, [], None, [failure]


def _pass(
    rd: Any,
    worker: type,
    fn_kwargs: dict[str, Any],
    paths: list[str],
    size: int,
    n: int,
    seen: set[str],
) -> Iterator[Any]:
    """Read ``paths`` on ``n`` workers, ``size`` files a task; results as they come."""
    blocks = -(-len(paths) // size)
    ds = rd.from_items([{"path": p} for p in paths], override_num_blocks=blocks)
    with warnings.catch_warnings():
        # Ray 2.60 deprecates remote args here, but its default is to retry a task
        # forever: a file that always kills its worker would never let the run end.
        warnings.simplefilter("ignore")
        ds = ds.map_batches(
            worker,
            fn_constructor_kwargs=fn_kwargs,
            batch_size=size,
            compute=rd.ActorPoolStrategy(size=n),
            num_cpus=1,
            batch_format="numpy",
            max_restarts=-1,
            max_task_retries=TASK_RETRIES,
        )
    for batch in ds.iter_batches(batch_size=None, batch_format="numpy", prefetch_batches=0):
        for path, payload in zip(batch["path"], batch["payload"]):
            path = str(path)
            if path in seen:  # a retried block that also delivered: deterministic ids anyway
                continue
            seen.add(path)
            items, vectors, failures = pickle.loads(payload)
            log_internal(failures)  # logged on the worker too, but its log stays there
            yield path, items, vectors, failures

"""Fine mode on Ray: files read and refined on the workers, under one cluster-wide LLM limit.

Each Ray worker rebuilds the chat backend from the recipe ``make_chat_backend`` left on it
and reads its files exactly as local fine ingest does (:meth:`Reader.read_one`: parse, then
the LLM calls of every part in flight together). Its backends' concurrency limit is not
the worker's own: every request first takes a permit from one :class:`_Permits` actor, so
``--concurrency N`` means N requests in flight on the whole cluster, however many workers
run. A permit is a lease: one held by a worker that died is taken back after
``lease_s`` (longer than a request may last with its retries), so a killed worker cannot
shrink the limit for good.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from pathlib import Path
from typing import Any

from omnireader.errors import EngineUnavailableError
from omnireader.llm.limits import Limiter
from omnireader.models import ReadFailure

__all__ = ["ClusterLimiter", "ReadFilesFine", "permits_actor", "recipe_of"]


def recipe_of(llm: Any) -> dict[str, Any]:
    """What a Ray worker needs to build ``llm`` again; a typed error when it cannot."""
    recipe = getattr(llm, "recipe", None)
    if not recipe:
        raise EngineUnavailableError(
            "fine mode on --engine ray rebuilds the LLM backend on each Ray worker, so it "
            "needs one made by omnireader.make_chat_backend(...) (or --llm on the command "
            "line), not a backend constructed by hand"
        )
    return recipe


class _Permits:
    """A cluster-wide semaphore with leases (a Ray async actor; see :func:`permits_actor`)."""

    def __init__(self, limit: int, lease_s: float) -> None:
        self.limit = limit
        self.lease_s = lease_s
        self.leases: dict[str, float] = {}  # token -> when it expires
        self.freed = asyncio.Condition()
        self.peak = 0

    def _expire(self) -> None:
        now = time.monotonic()
        for token in [t for t, until in self.leases.items() if until < now]:
            del self.leases[token]

    async def acquire(self) -> str:
        async with self.freed:
            while True:
                self._expire()
                if len(self.leases) < self.limit:
                    break
                try:  # woken by a release, or in time to take back an expired lease
                    await asyncio.wait_for(
                        self.freed.wait(),
                        timeout=min(self.leases.values()) - time.monotonic() + 0.01,
                    )
                except TimeoutError:
                    pass
            token = uuid.uuid4().hex
            self.leases[token] = time.monotonic() + self.lease_s
            self.peak = max(self.peak, len(self.leases))
            return token

    async def release(self, token: str) -> None:
        async with self.freed:
            self.leases.pop(token, None)
            self.freed.notify()

    def peak_in_flight(self) -> int:
        return self.peak


def permits_actor(ray: Any, limit: int, lease_s: float) -> Any:
    """A :class:`_Permits` actor on the cluster (no CPU of its own: it only waits)."""
    actor = ray.remote(num_cpus=0, max_concurrency=10_000)(_Permits)
    return actor.remote(limit, lease_s)


class ClusterLimiter(Limiter):
    """A :class:`Limiter` whose permits come from the cluster's :class:`_Permits` actor."""

    def __init__(self, actor: Any, limit: int) -> None:
        super().__init__(limit)
        self.actor = actor
        self._tokens: dict[int, list[str]] = {}

    async def __aenter__(self) -> ClusterLimiter:
        token = await self.actor.acquire.remote()
        task = id(asyncio.current_task())
        self._tokens.setdefault(task, []).append(token)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        return self

    async def __aexit__(self, *exc: object) -> None:
        tokens = self._tokens[id(asyncio.current_task())]
        token = tokens.pop()
        if not tokens:
            del self._tokens[id(asyncio.current_task())]
        self.in_flight -= 1
        await self.actor.release.remote(token)


class ReadFilesFine:
    """A Ray Data worker for fine mode: reads (parses and refines) the files of each batch.

    Built once per worker: the backend from its recipe, its limit the cluster's, the
    driver's proxy settings (see :mod:`.ray_quiet`). One bad
    file never fails the batch: an exception becomes that file's ``internal`` failure.
    """

    def __init__(
        self,
        ctx: dict[str, Any],
        recipe: dict[str, Any],
        permits: Any,
        embedder: str | None,
        proxies: dict[str, str | None],
    ) -> None:
        from omnireader.batch.ray_quiet import use_proxies
        from omnireader.llm.config import LLMConfig, make_chat_backend
        from omnireader.options import ReadOptions
        from omnireader.parsers.base import ParseContext
        from omnireader.reading.reader import Reader

        use_proxies(proxies)  # the LLM server is reached as the driver reaches it

        config = LLMConfig.model_validate(recipe["config"])
        llm = make_chat_backend(
            recipe["spec"], vision=recipe["vision"], speech=recipe["speech"], config=config
        )
        limiter = ClusterLimiter(permits, config.concurrency)
        for backend in {id(b): b for b in (llm, llm.vision, llm.speech) if b}.values():
            backend.limiter = limiter
        self.reader = Reader(llm=llm, options=ReadOptions.model_validate(ctx["options"]))
        self.ctx = ParseContext.model_validate({**ctx, "refiner": self.reader.refiner})
        self.embedder = embedder

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        import pickle

        import numpy as np

        paths = [str(p) for p in batch["path"]]
        payloads = [pickle.dumps(self._read(p), protocol=pickle.HIGHEST_PROTOCOL) for p in paths]
        return {"path": np.array(paths, dtype=object), "payload": np.array(payloads, dtype=object)}

    def _read(self, path: str) -> tuple[list[Any], Any, list[ReadFailure]]:
        try:
            out = self.reader.read_one(Path(path), self.ctx)
        except Exception as e:  # reported for this file; the worker lives on
            from omnireader.batch.worker_main import internal_failure

            r = internal_failure(path, e)
            return (
                [],
                None,
                [
                    ReadFailure(
                        input=path, error="internal", message=r.message or path, detail=r.detail
                    )
                ],
            )
        # The fast items the fine ones came from are stored too, as local fine ingest does.
        items = [*out.items, *out.refined_fast]
        vectors = None
        if self.embedder and items:
            from omnireader.batch.file_task import local_embedder
            from omnireader.store.embed_text import item_texts

            embedder = local_embedder(self.embedder)
            vectors = embedder.embed(item_texts(items, embedder))
        return items, vectors, out.failures

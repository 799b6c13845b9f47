"""The server's one Reader, one Store and job manager, and what the routes ask of them.

Every method takes the caller's pinned ``user`` (None when the server has no keys) and
forces it onto what it reads, searches, deletes or writes: a filter naming another user is
refused, never widened.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from omnireader.batch.ingest import ingest
from omnireader.errors import InvalidInputError
from omnireader.options import IngestOptions
from omnireader.server.auth import KeyRing, RateLimiter
from omnireader.server.config import ServerConfig
from omnireader.server.job_counts import counts_of
from omnireader.server.jobs import JobManager
from omnireader.server.schemas import FilterFields, Info, JobState

__all__ = ["Service", "ForbiddenError", "refuse_local_paths", "counts_of"]


class ForbiddenError(Exception):
    """A request for another user's items (answered with 403)."""


def refuse_local_paths(value: Any, where: str = "inputs") -> None:
    """Refuse any part of a request that names a server-side file: a file part with a
    ``path``, or a ``file://`` URL anywhere. (Plain strings are read as text, never as paths:
    the server's Reader has ``allow_path_parts=False``.)"""
    if isinstance(value, dict):
        if isinstance(value.get("path"), str) and value.get("type") in ("file", "input_file", None):
            raise InvalidInputError(
                f"{where}: a file part may not name a path on the server "
                f"({value['path'][:60]!r}): upload the file or send it as "
                "file_data (base64)"
            )
        for k, v in value.items():
            refuse_local_paths(v, f"{where}.{k}")
    elif isinstance(value, list):
        for n, v in enumerate(value):
            refuse_local_paths(v, f"{where}[{n}]")
    elif isinstance(value, str) and value[:7].lower() == "file://" and value not in ("",):
        raise InvalidInputError(
            f"{where}: file:// URLs are not read by the server: upload the file instead"
        )


class Service:
    def __init__(self, config: ServerConfig, llm: Any = None) -> None:
        from omnireader.reading.reader import Reader
        from omnireader.store import Store

        self.config = config
        self.keys = KeyRing(config.keys)
        self.limiter = RateLimiter(config.limits.rate_per_minute)
        # Untrusted input: strings are never paths; URLs go through the address guard.
        self.reader = Reader(
            llm=llm, allow_path_parts=False, allow_private_urls=config.allow_private_urls
        )
        from omnireader.server.maintenance import DeferredOptimize

        self.store = Store.open(config.db, create=True)
        # what in-process ingest (fine mode, MCP) writes through
        self.job_store = DeferredOptimize(self.store, nice=config.ingest_nice)
        # fast-mode jobs: parsed, embedded and written in child processes (see writer_proc)
        self.writers = None
        if config.ingest_process:
            from omnireader.server.writer_proc import WriterPool

            self.writers = WriterPool(
                {
                    "db": str(config.db),
                    "nice": config.ingest_nice,
                    "workers": config.workers,
                    "allow_private_urls": config.allow_private_urls,
                }
            )
            self.writers.prestart()
        self.started = time.time()
        self.jobs = JobManager(
            config.spool_dir,
            config.limits.max_concurrent_jobs,
            self._ingest_file,
            self._ingest_inputs,
            nice=config.ingest_nice,
            ingest_jobs=self._ingest_jobs if self.writers else None,
            joinable=self._in_child,
        )
        from omnireader.server.webhooks import Webhooks

        self.webhooks = Webhooks(
            self.jobs,
            self.webhook_secret,
            allow_private=config.allow_private_urls,
            attempts=config.webhook_attempts,
            timeout=config.webhook_timeout,
            backoff=config.webhook_backoff,
        )

    # ------------------------------------------------------------------ users

    @staticmethod
    def pinned(user: str | None, asked: str | None) -> str | None:
        """The user a request acts as: the key's user; asking for another is refused."""
        if user is None:
            return asked
        if asked is not None and asked != user:
            raise ForbiddenError(
                f"this API key belongs to user {user!r}; it cannot act on user {asked!r}'s items"
            )
        return user

    def filters(self, user: str | None, given: FilterFields) -> Any:
        from omnireader.store.filters import as_filters

        data = given.model_dump(exclude_none=True)
        data["user_id"] = self.pinned(user, given.user_id)
        return as_filters({k: v for k, v in data.items() if v not in (None, [])})

    def info(self, user: str | None, given: Info) -> dict[str, Any]:
        return {"user_id": self.pinned(user, given.user_id), "session_id": given.session_id}

    def webhook_secret(self, key_id: str | None) -> str | None:
        """The secret that signs the callbacks of jobs sent with the key named ``key_id``:
        derived from the key (see ``KeyRing.webhook_secret``); a server without keys has
        one of its own, generated once and kept in the spool."""
        if key_id is not None:
            return self.keys.webhook_secret(key_id)
        if self.keys.enabled:
            return None  # a job recorded before keys were configured: no key, no secret
        from omnireader.server.webhooks import anonymous_secret

        return anonymous_secret(self.config.spool_dir)

    # ------------------------------------------------------------------ calls

    def read(self, user: str | None, inputs: Any, mode: str, info: Info) -> Any:
        refuse_local_paths(inputs)
        return self.reader.read_report(inputs, info=self.info(user, info), mode=mode)

    def search(
        self,
        user: str | None,
        query: str,
        view: str,
        k: int,
        max_chars: int | None,
        filters: FilterFields,
        *,
        include_archived: bool = False,
    ) -> list[Any]:
        return self.store.search(
            query,
            k=k,
            view=view,
            filters=self.filters(user, filters),
            max_chars=max_chars,
            include_archived=include_archived,
        )

    def item(self, user: str | None, item_id: str) -> Any:
        item = self.store.get(item_id)
        if item is None or (user is not None and item.metadata.user_id != user):
            return None  # another user's item is as absent as a missing one
        return item

    def delete(self, user: str | None, filters: FilterFields, dry_run: bool) -> Any:
        asked = filters.model_dump(exclude_none=True, exclude_defaults=True)
        if not asked:
            raise InvalidInputError(
                "delete needs at least one filter (user_id, session_id, "
                "memory_type, mode, since, until, persons, entities, path, "
                "page, source_kind)"
            )
        result = self.store.delete_report(filters=self.filters(user, filters), dry_run=dry_run)
        if result.deleted and not dry_run:
            self.store.optimize()
        return result

    def stats(self, user: str | None) -> dict[str, Any]:
        if user is None:
            return self.store.stats().model_dump(mode="json")
        from collections import Counter

        where = self.filters(user, FilterFields()).where()
        cols = self.store._columns(["memory_type", "mode", "source_kind"], where)
        return {
            "items": len(cols["mode"]),
            "user_id": user,
            "by_type": dict(Counter(cols["memory_type"])),
            "by_mode": dict(Counter(cols["mode"])),
            "by_source_kind": dict(Counter(c for c in cols["source_kind"] if c)),
            "embedder": self.store.embedder.name,
            "dim": self.store.embedder.dim,
        }

    def files(self, user: str | None, limit: int) -> Any:
        from omnireader.server.files import list_files

        return list_files(self.store, self.filters(user, FilterFields()).where(), limit)

    def close(self) -> None:
        self.webhooks.close()
        self.jobs.shutdown()
        if self.writers is not None:
            self.writers.close()
        self.job_store.close()

    # ------------------------------------------------------------------ job steps

    def _in_child(self, job: JobState) -> bool:
        # fine mode needs the server's LLM client, which lives here
        return self.writers is not None and job.mode == "fast"

    def _ingest_file(self, job: JobState, paths: list[Path]) -> dict[str, Any]:
        if self._in_child(job):
            assert self.writers is not None
            return self.writers.ingest(
                {"paths": [str(p) for p in paths], "info": job.info.model_dump(), "mode": job.mode}
            )
        report = ingest(
            paths,
            self.job_store,
            reader=self.reader,
            info=job.info.model_dump(),
            mode=job.mode,
            options=IngestOptions(workers=self.config.workers),
        )
        return counts_of(report, paths[0].parent.parent if paths else None)

    def _ingest_jobs(self, jobs: list[tuple[JobState, list[Path]]]) -> dict[str, Any]:
        """Several fast-mode upload jobs of one info in one call to the ingest process."""
        assert self.writers is not None
        first = jobs[0][0]
        got = self.writers.ingest(
            {
                "jobs": [{"id": job.id, "paths": [str(p) for p in paths]} for job, paths in jobs],
                "info": first.info.model_dump(),
                "mode": first.mode,
            }
        )
        return dict(got["jobs"])

    def _ingest_inputs(self, job: JobState) -> dict[str, Any]:
        refuse_local_paths(job.inputs)
        if self._in_child(job):
            assert self.writers is not None
            return self.writers.ingest(
                {"inputs": job.inputs, "info": job.info.model_dump(), "mode": job.mode}
            )
        report = ingest(
            job.inputs,
            self.job_store,
            reader=self.reader,
            info=job.info.model_dump(),
            mode=job.mode,
            options=IngestOptions(workers=self.config.workers),
        )
        return counts_of(report, None)

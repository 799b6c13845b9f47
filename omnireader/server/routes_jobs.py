"""``POST /v1/ingest``, ``GET /v1/jobs/{id}`` and its server-sent events."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from omnireader.errors import InvalidInputError
from omnireader.server.auth import Caller
from omnireader.server.job_folders import job_files
from omnireader.server.schemas import Delivery, Info, JobState
from omnireader.server.service import refuse_local_paths
from omnireader.server.spool import SpoolLimitError, receive_multipart

__all__ = ["add_job_routes"]

_FIELD_BYTES = 1024 * 1024


def add_job_routes(app: FastAPI, service: Any, caller: Any, problem: Any) -> None:

    def owned(job_id: str, who: Caller) -> JobState:
        job = service().jobs.get(job_id)
        if job is None or (who.user_id is not None and job.owner != who.user_id):
            raise problem(404, "not_found", f"no job {job_id!r}")
        return job

    @app.post("/v1/ingest", status_code=202, tags=["ingest"])
    async def ingest(request: Request, who: Caller = Depends(caller)) -> Any:
        """Upload files (multipart ``files``) and/or JSON ``inputs`` into the store.

        Form fields (or a JSON body): ``inputs`` (a JSON list), ``info`` (JSON:
        ``user_id``, ``session_id``), ``mode`` (fast|fine), ``wait`` (true: answer when the
        job is done), ``callback_url`` (http(s): the final status is POSTed there, signed;
        see ``GET /v1/webhooks/secret``). Returns the job id as soon as the uploads are on
        disk.
        """
        svc = service()
        limits = svc.config.limits
        if svc.jobs.active() >= limits.max_concurrent_jobs:
            raise problem(
                429,
                "too_many_jobs",
                f"{limits.max_concurrent_jobs} ingest jobs are "
                "already queued or running: retry when one has finished",
                {"Retry-After": str(svc.jobs.retry_after())},
            )
        ctype = request.headers.get("content-type", "")
        job_id, folder = svc.jobs.new_folder()
        try:
            if ctype.startswith("multipart/"):
                room = limits.max_spool_bytes - await run_in_threadpool(svc.jobs.spooled_bytes)
                if room <= 0:
                    raise SpoolLimitError(
                        507, "the upload spool is full: retry when running jobs have finished"
                    )
                form = await receive_multipart(
                    request.stream(),
                    ctype,
                    folder / "files",
                    max_file_bytes=limits.max_upload_bytes,
                    max_files=limits.max_files_per_request,
                    spool_room=room,
                    max_field_bytes=_FIELD_BYTES,
                )
                fields, files = form.fields, form.files
            else:
                try:
                    data = await request.json()
                except ValueError:
                    raise InvalidInputError(
                        "send multipart/form-data with files, or a JSON object with inputs"
                    ) from None
                if not isinstance(data, dict):
                    raise InvalidInputError("the JSON body must be an object")
                fields = {k: v if isinstance(v, str) else json.dumps(v) for k, v in data.items()}
                files = []
            from omnireader.server.webhooks import check_callback_url

            # before the job exists: a refused callback is a 400, not a job that cannot report
            callback = await run_in_threadpool(
                check_callback_url, fields.get("callback_url"), svc.config.allow_private_urls
            )
            job = _job(svc, who, job_id, fields, files, folder)
            if callback is not None:
                job.callback, job.key_id = Delivery(url=callback), who.key_id
        except SpoolLimitError as e:
            _remove(folder)
            status = 413 if e.status == 507 else e.status
            raise problem(status, "too_large" if status == 413 else "bad_upload", str(e)) from None
        except BaseException:
            _remove(folder)
            raise
        svc.jobs.submit(job)  # job.json is on disk before the id goes out
        if fields.get("wait", "").lower() in ("1", "true", "yes"):
            while (cur := svc.jobs.get(job_id)) and cur.status not in ("done", "failed"):
                await run_in_threadpool(svc.jobs.wait_change, job_id, cur.version, 5.0)
            return (cur or job).public()
        return {
            "job_id": job_id,
            "status": "queued",
            "files": len(job.files),
            "status_url": f"/v1/jobs/{job_id}",
            "events_url": f"/v1/jobs/{job_id}/events",
        }

    @app.get("/v1/jobs/{job_id}", tags=["ingest"])
    def job_status(job_id: str, who: Caller = Depends(caller)) -> Any:
        """Progress (files done, items written, failures) and, once done, the final report."""
        return owned(job_id, who).public()

    @app.get("/v1/webhooks/secret", tags=["ingest"])
    def webhook_secret(who: Caller = Depends(caller)) -> Any:
        """The secret that signs the callbacks of jobs sent with this key, and how."""
        secret = service().webhook_secret(who.key_id)
        return {
            "secret": secret,
            "algorithm": "HMAC-SHA256",
            "signature_header": "X-OmniReader-Signature",
            "timestamp_header": "X-OmniReader-Timestamp",
            "signed": "TIMESTAMP + '.' + BODY (the raw request body)",
            "format": "sha256=HEX",
        }

    @app.get("/v1/jobs/{job_id}/events", tags=["ingest"])
    async def job_events(job_id: str, who: Caller = Depends(caller)) -> StreamingResponse:
        """Server-sent events: one ``progress`` event per change, then ``done``."""
        job = owned(job_id, who)

        async def events() -> Any:
            version = -1
            cur: JobState | None = job
            deadline = time.monotonic() + 3600
            while cur is not None and time.monotonic() < deadline:
                if cur.version != version:
                    version = cur.version
                    final = cur.status in ("done", "failed")
                    kind = "done" if final else "progress"
                    yield f"event: {kind}\ndata: {json.dumps(cur.public())}\n\n"
                    if final:
                        return
                cur = await run_in_threadpool(service().jobs.wait_change, job_id, version, 10.0)
                if cur is not None and cur.version == version:
                    yield ": keep-alive\n\n"

        return StreamingResponse(
            events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"}
        )


def _job(
    svc: Any, who: Caller, job_id: str, fields: dict[str, str], files: list[Any], folder: Any
) -> JobState:
    try:
        info = Info.model_validate_json(fields.get("info") or "{}")
        inputs = json.loads(fields["inputs"]) if fields.get("inputs") else []
    except ValueError as e:
        raise InvalidInputError(
            f"info and inputs must be JSON: {' '.join(str(e).split())[:200]}"
        ) from None
    if not isinstance(inputs, list):
        inputs = [inputs]
    refuse_local_paths(inputs)
    mode = fields.get("mode") or "fast"
    if mode not in ("fast", "fine"):
        raise InvalidInputError(f"mode must be fast or fine, not {mode!r}")
    if mode == "fine" and svc.reader.llm is None:
        raise InvalidInputError("fine mode needs the server to be started with --llm")
    if not files and not inputs:
        raise InvalidInputError("nothing to ingest: send files (multipart field 'files') or inputs")
    pinned = Info(user_id=svc.pinned(who.user_id, info.user_id), session_id=info.session_id)
    return JobState(
        id=job_id,
        owner=who.user_id,
        mode=mode,
        info=pinned,
        files=job_files(files, folder),
        inputs=inputs,
        created=time.time(),
    )


def _remove(folder: Any) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)

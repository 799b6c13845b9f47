"""The service's request and response bodies (pydantic: they make the OpenAPI document)."""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from omnireader.models import MemoryItem, ReadFailure

__all__ = [
    "ReadRequest",
    "ReadResponse",
    "SearchRequest",
    "SearchResponse",
    "DeleteResponse",
    "JobFile",
    "Delivery",
    "JobState",
    "JobAccepted",
    "Info",
    "FilterFields",
    "ErrorBody",
]


class Info(BaseModel):
    model_config = ConfigDict(extra="forbid")
    user_id: str | None = Field(
        None, description="ignored when the server has API keys: the key's user is used"
    )
    session_id: str | None = None


class ReadRequest(BaseModel):
    """What ``Reader.read`` takes, as JSON: a string, a list of chat messages (OpenAI Chat or
    Responses shapes) or a list of content parts. Local paths are never read."""

    model_config = ConfigDict(extra="forbid")
    inputs: Any = Field(..., description="a string, a message, a content part, or a list")
    mode: Literal["fast", "fine"] = "fast"
    info: Info = Field(default_factory=Info)


class ReadResponse(BaseModel):
    items: list[MemoryItem]
    failures: list[ReadFailure]
    # Fine mode: items the LLM wrote, and fast items it could not refine (returned as they
    # are, marked refine_status "failed"), by reason.
    fine_items: int = 0
    refine_failed: int = 0
    refine_reasons: dict[str, int] = Field(default_factory=dict)


class FilterFields(BaseModel):
    """The store's filters (see ``omnireader.SearchFilters``); ``user_id`` is overwritten by
    the caller's key when the server has keys."""

    model_config = ConfigDict(extra="forbid")
    user_id: str | None = None
    session_id: str | None = None
    memory_type: str | None = None
    mode: Literal["fast", "fine"] | None = None
    since: str | None = None
    until: str | None = None
    persons: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    path: str | None = None
    page: int | None = Field(None, ge=0)
    source_kind: str | None = None


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str = Field(..., min_length=1, max_length=4000)
    view: Literal["hybrid", "vector", "fts"] = "hybrid"
    k: int = Field(10, ge=1, le=200)
    max_chars: int | None = Field(None, ge=1)
    filters: FilterFields = Field(default_factory=FilterFields)
    include_archived: bool = Field(
        False, description="also search archived versions (they say when and by what replaced)"
    )


class SearchResponse(BaseModel):
    results: list[dict[str, Any]] = Field(description="omnireader SearchResult objects")


def search_response_json(results: list[Any]) -> bytes:
    """A :class:`SearchResponse` as JSON, written by pydantic's serializer in one pass.

    Returned as the response itself: FastAPI's own path (``model_dump`` per result, then
    validating and encoding the dicts again) cost ~8 ms of a search's CPU at k=10, more
    than half of the search; this costs ~0.2 ms (same JSON)."""
    return b'{"results":' + _results_adapter().dump_json(results) + b"}"


@cache
def _results_adapter() -> Any:
    from pydantic import TypeAdapter

    from omnireader.store.results import SearchResult

    return TypeAdapter(list[SearchResult])


class DeleteResponse(BaseModel):
    deleted: int
    updated: int = Field(0, description="items kept without the deleted path")
    dry_run: bool = False


class ErrorBody(BaseModel):
    error: str
    message: str


class JobFile(BaseModel):
    name: str  # the upload's safe label
    path: str  # inside the job's folder (internal; not shown to clients)
    size: int = 0
    done: bool = False


class Delivery(BaseModel):
    """The job's webhook: where its final status goes, and how sending it went so far."""

    url: str
    state: Literal["pending", "delivered", "failed"] = "pending"
    attempts: int = 0
    last_status: int | None = Field(None, description="the receiver's last HTTP status")
    last_error: str | None = Field(None, description="why the last attempt failed")
    last_attempt_at: float | None = None
    next_attempt_at: float | None = None
    delivered_at: float | None = None


class JobState(BaseModel):
    id: str
    owner: str | None = None  # the key's user; another user never sees the job
    # which API key sent the job (a hash, never the key): its webhook secret signs the callback
    key_id: str | None = None
    callback: Delivery | None = None
    status: Literal["queued", "running", "done", "failed"] = "queued"
    mode: Literal["fast", "fine"] = "fast"
    info: Info = Field(default_factory=Info)
    files: list[JobFile] = Field(default_factory=list)
    inputs: list[Any] = Field(default_factory=list)
    inputs_done: bool = False
    files_done: int = 0
    items_written: int = 0
    failures: list[dict[str, Any]] = Field(default_factory=list)
    # Fine mode: items stored fast because the LLM could not refine them, by reason. The
    # job is done (the rest of its work is kept); these say what was not.
    refine_failed: int = 0
    refine_reasons: dict[str, int] = Field(default_factory=dict)
    error: str | None = None
    created: float = 0.0
    started: float | None = None
    finished: float | None = None
    resumed: int = 0
    version: int = 0

    def public(self) -> dict[str, Any]:
        """What a client sees: no spool paths."""
        data = self.model_dump(mode="json", exclude={"owner", "inputs", "key_id"})
        data["files"] = [{k: f[k] for k in ("name", "size", "done")} for f in data["files"]]
        data["files_total"] = len(self.files)
        data["inputs"] = len(self.inputs)
        return data


class JobAccepted(BaseModel):
    job_id: str
    status: str
    files: int
    status_url: str
    events_url: str

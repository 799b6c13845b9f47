"""Symbolic filters for search, count, delete and export, as safe LanceDB where-clauses.

Users never write SQL. A :class:`SearchFilters` holds typed values; :meth:`SearchFilters.where`
renders them against a fixed set of known columns: strings become quoted literals with ``'``
doubled, times are parsed and re-rendered as ``TIMESTAMP '...'`` literals, numbers are ints.
Nothing a user typed reaches the SQL text except inside a quoted literal.

    >>> SearchFilters(user_id="u1", persons=["O'Neil"]).where()
    "user_id = 'u1' AND array_has_any(persons, ['O''Neil'])"
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import UTC, date, datetime, time
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from omnireader.errors import InvalidInputError
from omnireader.file_names import shown_path
from omnireader.models import MemoryType, Mode, SourceKind
from omnireader.store.locations import match_keys

__all__ = [
    "SearchFilters",
    "sql_string",
    "ids_clause",
    "sql_timestamp",
    "parse_bound",
    "combine",
    "as_filters",
]


def sql_string(value: str) -> str:
    """``value`` as a SQL string literal: quotes doubled, NUL refused. A path whose name is
    not UTF-8 (``--path`` with such a file) goes in its shown form (``\\xNN``): LanceDB
    takes UTF-8 only, and the store holds no such name, so it matches nothing."""
    if "\x00" in value:
        raise InvalidInputError("filter values may not contain NUL characters")
    return "'" + shown_path(value).replace("'", "''") + "'"


def ids_clause(ids: Iterable[str]) -> str:
    """``id IN (...)`` for ``ids`` (at least one: an empty list is not SQL)."""
    return f"id IN ({', '.join(sql_string(i) for i in ids)})"


def sql_timestamp(moment: datetime) -> str:
    """An aware datetime as a UTC ``TIMESTAMP`` literal (built from numbers, not user text)."""
    utc = moment.astimezone(UTC)
    return f"TIMESTAMP '{utc:%Y-%m-%d %H:%M:%S.%f}'"


def parse_bound(value: str | date | datetime, *, end_of_day: bool = False) -> datetime:
    """A time-range bound as an aware UTC datetime.

    Accepts ISO 8601 strings, dates and datetimes; a time without a zone is UTC. A bare date
    means the start of that day, or with ``end_of_day`` its last microsecond, so
    ``until="2024-03-31"`` includes all of March 31.
    """
    is_date_only = isinstance(value, date) and not isinstance(value, datetime)
    if isinstance(value, str):
        text = value.strip()
        try:
            parsed: date | datetime = (
                date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
            )
        except ValueError:
            raise InvalidInputError(
                f"not an ISO 8601 date or time: {value!r} (e.g. 2024-03-31 or 2024-03-31T12:00:00Z)"
            ) from None
        is_date_only = not isinstance(parsed, datetime)
        value = parsed
    if is_date_only:
        day = value if not isinstance(value, datetime) else value.date()
        moment = datetime.combine(day, time.max if end_of_day else time.min)
    else:
        assert isinstance(value, datetime)
        moment = value
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


class SearchFilters(BaseModel):
    """Which items to consider. Every field is optional; set fields must all hold (AND).

    ``persons`` / ``entities`` match items naming *any* of the values. ``path`` matches an
    item seen at that whole path or URL (or archive member, ``a.zip!x.md``), or anywhere in
    that folder: ``/docs/a.doc`` never matches ``/docs/a.docx``. ``since`` / ``until`` bound
    the item's timestamp (inclusive); items without a timestamp do not match a time range.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    user_id: str | None = None
    session_id: str | None = None
    memory_type: MemoryType | None = None
    mode: Mode | None = None
    since: datetime | None = None
    until: datetime | None = None
    persons: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    path: str | None = Field(
        None,
        description="a path, URL or archive member the item was seen at, or a folder of them",
        # path_prefix: the old name (it matched any string prefix; now whole names only)
        validation_alias=AliasChoices("path", "path_prefix"),
    )
    page: int | None = Field(
        None, ge=0, description="items on that page, or that begin before it and run onto it"
    )
    source_kind: SourceKind | None = None
    refine_status: Literal["refined", "failed", "none"] | None = Field(
        None, description="'none' matches items never refined"
    )
    ids: list[str] = Field(default_factory=list, description="only these item ids")

    @field_validator("persons", "entities", "ids", mode="before")
    @classmethod
    def _no_list(cls, v: Any) -> Any:
        return [] if v is None else v  # CLI options left out arrive as None

    @field_validator("since", mode="before")
    @classmethod
    def _since(cls, v: Any) -> datetime | None:
        return None if v is None or v == "" else parse_bound(v)

    @field_validator("until", mode="before")
    @classmethod
    def _until(cls, v: Any) -> datetime | None:
        return None if v is None or v == "" else parse_bound(v, end_of_day=True)

    def where(self, columns: Collection[str] | None = None) -> str | None:
        """The where-clause, or None when nothing is filtered.

        ``columns``: the table's, when it may be an older one (a store made before
        ``page_end`` matches a page on an item's first page only)."""
        parts: list[str] = []
        for column in ("user_id", "session_id", "memory_type", "mode", "source_kind"):
            value = getattr(self, column)
            if value is not None:
                parts.append(f"{column} = {sql_string(value)}")
        if self.refine_status == "none":
            parts.append("refine_status IS NULL")
        elif self.refine_status is not None:
            parts.append(f"refine_status = {sql_string(self.refine_status)}")
        if self.since is not None:
            parts.append(f"timestamp >= {sql_timestamp(self.since)}")
        if self.until is not None:
            parts.append(f"timestamp <= {sql_timestamp(self.until)}")
        for column in ("persons", "entities"):
            values: list[str] = getattr(self, column)
            if values:
                listed = ", ".join(sql_string(v) for v in values)
                parts.append(f"array_has_any({column}, [{listed}])")
        if self.path is not None:
            listed = ", ".join(sql_string(k) for k in match_keys(self.path))
            parts.append(f"array_has_any(path_keys, [{listed}])")
        if self.page is not None:
            page = int(self.page)
            if columns is None or "page_end" in columns:
                # A paragraph a page break cut is one item on its first page (page_end).
                parts.append(f"(page = {page} OR (page < {page} AND page_end >= {page}))")
            else:
                parts.append(f"page = {page}")
        if self.ids:
            parts.append(ids_clause(self.ids))
        return " AND ".join(parts) or None

    def is_empty(self) -> bool:
        return self.where() is None


def combine(*clauses: str | None) -> str | None:
    """AND of the clauses that are set."""
    present = [f"({c})" for c in clauses if c]
    return " AND ".join(present) or None


def as_filters(value: SearchFilters | dict[str, Any] | None) -> SearchFilters:
    """Filters from a model, a plain dict (validated: unknown keys fail), or nothing."""
    if value is None:
        return SearchFilters()
    if isinstance(value, SearchFilters):
        return value
    try:
        return SearchFilters.model_validate(value)
    except ValidationError as e:
        bad = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors())
        raise InvalidInputError(
            f"invalid filters: {bad}; valid filters are {', '.join(SearchFilters.model_fields)}"
        ) from None

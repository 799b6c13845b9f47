"""``ingest --sync``: the items of files that are gone from under the folders (or files) an
ingest was given are removed, for this user and session; items another path still holds
stay, with that path. A file whose name is not UTF-8 is stored under its shown form
(``\\xNN``): it is there while a name its folder lists is shown so
(:class:`omnireader.file_names.DiskNames`)."""

from __future__ import annotations

import os
from pathlib import Path

from omnireader.batch.report import IngestReport
from omnireader.file_names import DiskNames
from omnireader.parsers.base import ParseContext
from omnireader.reading.reader import Reader, ReadInput
from omnireader.store.protocol import StoreLike

__all__ = ["sync_removed"]


def sync_removed(
    store: StoreLike, ctx: ParseContext, inputs: ReadInput, reader: Reader, report: IngestReport
) -> None:
    """Remove the items of files gone from under the given roots (this user and session)."""
    from omnireader.store.filters import sql_string
    from omnireader.store.locations import outer_path

    roots = [str(Path(p).resolve()) for p in _roots(inputs, reader)]
    scope = " AND ".join(
        f"{column} IS NULL" if value is None else f"{column} = {sql_string(value)}"
        for column, value in (("user_id", ctx.user_id), ("session_id", ctx.session_id))
    )
    gone: set[str] = set()
    names = DiskNames()
    for root in roots:
        for loc in store.locations_under(root, scope):
            path = outer_path(loc)
            if "://" not in path and path not in gone and not _is_file(path, names):
                gone.add(path)
    if gone:
        removed = store.detach_paths(sorted(gone), where=scope)
        report.items_deleted += removed.deleted
        report.files_removed = len(gone)
        store.ledger(scope="", settings="").forget_everywhere(gone)


def _is_file(stored: str, names: DiskNames) -> bool:
    if os.path.isfile(stored):  # every UTF-8 name: one stat, as before
        return True
    found = names.find(stored) if "\\x" in stored else None
    return found is not None and os.path.isfile(found)


def _roots(inputs: ReadInput, reader: Reader) -> list[os.PathLike[str]]:
    """The paths the user named (folders and files), not what they expand to."""
    from omnireader.intake.string_refs import local_path

    given = inputs if isinstance(inputs, (list, tuple)) else [inputs]
    roots: list[os.PathLike[str]] = []
    for one in given:
        if isinstance(one, os.PathLike):
            roots.append(one)
        elif isinstance(one, str) and (path := local_path(one, reader.options)) is not None:
            roots.append(path)
    return roots

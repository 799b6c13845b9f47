"""Uploads streamed to disk: a multipart body is parsed as it arrives and each file part is
written to the spool in chunks, so no upload is ever held whole in memory.

A client's file name is never used as a path: it is reduced to a safe base name that only
labels the file (what the items' provenance shows). Limits are checked while the bytes
arrive: one file too big, too many files, or the spool too full stops the upload at once.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "SpoolLimitError",
    "SpooledFile",
    "UploadForm",
    "safe_name",
    "spool_bytes",
    "receive_multipart",
]

_UNSAFE = re.compile(r"[^\w.\- ]+")


class SpoolLimitError(Exception):
    """An upload broke a limit; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class SpooledFile:
    name: str  # the safe label (never a path)
    path: Path  # where it was written, inside the job's folder
    size: int = 0


@dataclass
class UploadForm:
    files: list[SpooledFile] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)


def safe_name(raw: str | None, n: int) -> str:
    """A file name a client sent, as a harmless label: last path part, no control or
    separator characters, no leading dots, at most 120 characters."""
    base = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = _UNSAFE.sub("_", base).lstrip(". ")[:120]
    return base or f"upload-{n}"


def spool_bytes(root: Path) -> int:
    """Bytes of every file under the spool (the total the spool limit counts)."""
    total = 0
    for dirpath, _, files in os.walk(root):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(dirpath, f))
            except OSError:
                pass
    return total


async def receive_multipart(
    stream: AsyncIterator[bytes],
    content_type: str,
    folder: Path,
    *,
    max_file_bytes: int,
    max_files: int,
    spool_room: int,
    max_field_bytes: int,
) -> UploadForm:
    """Parse a ``multipart/form-data`` body from ``stream`` into ``folder`` (created here)."""
    from python_multipart.multipart import MultipartParser, parse_options_header

    ctype, params = parse_options_header(content_type)
    boundary = params.get(b"boundary")
    if ctype != b"multipart/form-data" or not boundary:
        raise SpoolLimitError(415, "send the files as multipart/form-data")
    folder.mkdir(parents=True, exist_ok=True)
    form = UploadForm()
    state: dict[str, object] = {"headers": {}, "field": b"", "value": b""}
    current: dict[str, object] = {}
    total = [0]
    errors: list[SpoolLimitError] = []

    def on_header_field(data: bytes, start: int, end: int) -> None:
        state["field"] = bytes(state["field"]) + data[start:end]  # type: ignore[arg-type]

    def on_header_value(data: bytes, start: int, end: int) -> None:
        state["value"] = bytes(state["value"]) + data[start:end]  # type: ignore[arg-type]

    def on_header_end() -> None:
        headers = state["headers"]
        assert isinstance(headers, dict)
        headers[bytes(state["field"]).lower()] = bytes(state["value"])  # type: ignore[arg-type]
        state["field"], state["value"] = b"", b""

    def on_headers_finished() -> None:
        headers = state["headers"]
        assert isinstance(headers, dict)
        _, disp = parse_options_header(headers.get(b"content-disposition", b""))
        name = disp.get(b"name", b"").decode("utf-8", "replace")
        filename = disp.get(b"filename")
        current.clear()
        if filename is not None:
            n = len(form.files) + 1
            if n > max_files:
                raise SpoolLimitError(413, f"more than {max_files} files in one request")
            label = safe_name(filename.decode("utf-8", "replace"), n)
            target = folder / f"{n:04d}" / label
            target.parent.mkdir()
            spooled = SpooledFile(name=label, path=target)
            form.files.append(spooled)
            current.update(file=spooled, fp=open(target, "wb"))  # noqa: SIM115 - closed at part end
        else:
            current.update(field=name, buf=bytearray())

    def on_part_data(data: bytes, start: int, end: int) -> None:
        chunk = data[start:end]
        if "fp" in current:
            spooled = current["file"]
            assert isinstance(spooled, SpooledFile)
            spooled.size += len(chunk)
            total[0] += len(chunk)
            if spooled.size > max_file_bytes:
                raise SpoolLimitError(
                    413, f"file {spooled.name!r} is larger than {max_file_bytes} bytes"
                )
            if total[0] > spool_room:
                raise SpoolLimitError(
                    507 if spool_room <= 0 else 413,
                    "the upload spool is full: try again when running jobs have finished",
                )
            current["fp"].write(chunk)  # type: ignore[union-attr]
        else:
            buf = current["buf"]
            assert isinstance(buf, bytearray)
            buf.extend(chunk)
            if len(buf) > max_field_bytes:
                raise SpoolLimitError(
                    413, f"form field {current['field']!r} is larger than {max_field_bytes} bytes"
                )

    def on_part_end() -> None:
        if "fp" in current:
            current["fp"].close()  # type: ignore[union-attr]
        elif "field" in current:
            form.fields[str(current["field"])] = bytes(current["buf"]).decode(  # type: ignore[arg-type]
                "utf-8", "replace"
            )
        current.clear()
        state["headers"] = {}

    parser = MultipartParser(
        boundary,
        {
            "on_header_field": on_header_field,
            "on_header_value": on_header_value,
            "on_header_end": on_header_end,
            "on_headers_finished": on_headers_finished,
            "on_part_data": on_part_data,
            "on_part_end": on_part_end,
        },
    )
    try:
        async for chunk in stream:
            if errors:
                continue  # the rest is read and dropped, so the client gets the answer
            try:
                parser.write(chunk)
            except SpoolLimitError as e:
                errors.append(e)
            except Exception as e:  # a malformed body: python-multipart's own errors
                errors.append(SpoolLimitError(400, f"malformed multipart body: {e}"))
        if not errors:
            parser.finalize()
    except SpoolLimitError as e:
        errors.append(e)
    except Exception as e:
        errors.append(SpoolLimitError(400, f"malformed multipart body: {e}"))
    finally:
        if "fp" in current:
            current["fp"].close()  # type: ignore[union-attr]
    if errors:
        shutil.rmtree(folder, ignore_errors=True)
        raise errors[0]
    return form

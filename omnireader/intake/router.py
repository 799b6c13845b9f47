"""Send each input to the parser for its kind.

Inputs: a string (text; or, unless ``strings_as_text``, the file or URL it names: see
:mod:`omnireader.intake.string_refs`), a chat message, a conversation (list of messages), a content
part, a list of parts, a :class:`pathlib.Path` (file or folder), raw bytes, or a
:class:`~omnireader.payloads.Blob` (bytes with a file name). Files are recognised by their
content, not by their extension alone.

Inside one input, a part that cannot be read (an unreachable image URL, a corrupt
attachment, a bad archive member) becomes a failure record of its own and the other parts
are still read: a bad part never loses the rest of the message.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from omnireader.errors import (
    EmptyInputError,
    InvalidInputError,
    OmniReaderWarning,
    ReadError,
    TooLargeError,
)
from omnireader.formats.archives.containers import container_members, has_body, is_container
from omnireader.formats.sniff import family, resniff_whole, sniff
from omnireader.intake import conversation
from omnireader.intake.conversation import chat_log_tasks
from omnireader.intake.openai_shapes import (
    CHAT_SUFFIXES,
    chat_in_bytes,
    chat_log,
    is_message,
    is_part,
    parse_messages,
    parse_parts,
)
from omnireader.intake.part_blobs import blob_from_url
from omnireader.intake.parts import route_parts
from omnireader.intake.string_refs import is_url, local_path, looks_like_path
from omnireader.intake.tasks import FileRoutes, Task, task
from omnireader.intake.walk import Unreadable, link_problem, not_a_file
from omnireader.models import Message
from omnireader.options import ReadOptions
from omnireader.payloads import Blob, TextInput

__all__ = ["Task", "route", "iter_route", "route_conversation"]


# -------------------------------------------------------------------- routing


def route(input: Any, options: ReadOptions | None = None) -> list[Task]:
    """The parsing tasks for one input (already split by :func:`expand`).

    Raises a :class:`ReadError` naming the input when it cannot be read at all, and
    :class:`InvalidInputError` when its shape is wrong.
    """
    return list(iter_route(input, options))


def iter_route(input: Any, options: ReadOptions | None = None) -> Iterator[Task]:
    """:func:`route`, one task at a time: a mailbox of 10,000 messages is read message by
    message, never held whole. Errors are raised when the iteration reaches them."""
    options = options or ReadOptions()
    if isinstance(input, (bytes, bytearray, memoryview)):
        yield from _iter_blob(Blob(data=bytes(input)), options)
    elif isinstance(input, Blob):
        yield from _iter_blob(input, options)
    elif isinstance(input, os.PathLike):
        yield from _iter_path(Path(input), options)
    else:
        yield from _route_other(input, options)


def _route_other(input: Any, options: ReadOptions) -> list[Task]:
    if isinstance(input, str):
        return _route_string(input, options)
    if isinstance(input, Unreadable):
        from omnireader.errors import error_for_code

        raise error_for_code(input.code, input.path, input.reason)
    if isinstance(input, (list, tuple)):
        if not input:
            raise InvalidInputError("an empty list has nothing to read")
        if all(is_message(x) for x in input):
            return route_conversation(parse_messages(list(input)), options)
        return route_parts(parse_parts(list(input)), options, context=None, files=_FILES)
    if is_message(input):
        return route_conversation(parse_messages([input]), options)
    if is_part(input):
        return route_parts(parse_parts([input]), options, context=None, files=_FILES)
    raise InvalidInputError(
        f"cannot read a {type(input).__name__}: pass a string, a chat message or a list of "
        "them, a content part, a pathlib.Path, bytes, or omnireader.Blob"
    )


def _route_string(text: str, options: ReadOptions) -> list[Task]:
    if not options.strings_as_text:
        if is_url(text):
            return _route_blob(blob_from_url(text.strip(), options), options)
        path = local_path(text, options)
        if path is not None:
            if path.is_dir():
                raise InvalidInputError(f"{path} is a folder: pass it to read() or ingest()")
            return _route_path(path, options)
        if options.allow_path_parts and looks_like_path(text):
            warnings.warn(
                f"{text.strip()!r} looks like a file path, but no such file exists: it is read "
                "as text. Pass an existing path, or strings_as_text=True to silence this.",
                OmniReaderWarning,
                stacklevel=2,
            )
    return [task("string", TextInput(text=text), "<string>")]


def _route_path(path: Path, options: ReadOptions) -> list[Task]:
    return list(_iter_path(path, options))


def _iter_path(path: Path, options: ReadOptions) -> Iterator[Task]:
    label = str(path)
    if not path.exists():
        raise ReadError(label, link_problem(path) or "no such file or folder")
    if path.is_dir():
        raise InvalidInputError(f"{label} is a folder: expand() it into files first")
    special = not_a_file(path)
    if special:
        from omnireader.errors import error_for_code

        raise error_for_code(special[0], label, special[1])
    try:
        size = path.stat().st_size
    except OSError as e:
        raise ReadError(label, f"cannot read: {e.strerror or e}") from None
    if size == 0:
        raise EmptyInputError(label, "the file is empty (0 bytes)")
    if size > options.max_file_bytes:
        raise TooLargeError(label, f"{size} bytes is over the {options.max_file_bytes} byte limit")
    if path.suffix.lower() in CHAT_SUFFIXES:
        logs = chat_log(path)
        if logs is not None:
            yield from chat_log_tasks(logs, options, label, _FILES)
            return
    try:
        with path.open("rb") as f:
            head = f.read(1 << 20)
    except OSError as e:
        raise ReadError(label, f"cannot read: {e.strerror or e}") from None
    yield from _iter_blob(Blob(path=str(path)), options, head=head)


def _route_blob(blob: Blob, options: ReadOptions, head: bytes | None = None) -> list[Task]:
    return list(_iter_blob(blob, options, head))


def _iter_blob(blob: Blob, options: ReadOptions, head: bytes | None = None) -> Iterator[Task]:
    if head is None:
        data = blob.read_bytes()
        if not data:
            raise EmptyInputError(blob.label, "no content (0 bytes)")
        head = data[: 1 << 20]
    sniffed = sniff(head, blob.display_name)
    if resniff_whole(sniffed.kind) and blob.data is None and blob.path and len(head) >= 1 << 20:
        # A ZIP's directory sits at its end, an OLE file's stream names anywhere: a DOCX or
        # a Word file over 1 MiB needs the whole file to tell.
        sniffed = sniff(Path(blob.path).read_bytes(), blob.display_name)
    blob = blob.model_copy(
        update={"mime": blob.mime or sniffed.mime, "sniffed": (sniffed.kind, sniffed.mime)}
    )
    logs = chat_in_bytes(blob.data, blob.display_name, blob.label, sniffed.kind)
    if logs is not None:
        yield from chat_log_tasks(logs, options, blob.label, _FILES)
    elif not is_container(sniffed.kind):
        yield task(family(sniffed), blob, blob.label)
    elif sniffed.kind == "mbox":
        yield from _iter_mailbox(blob, options)
    else:
        yield from _container_tasks(blob, sniffed.kind, options)


def _container_tasks(blob: Blob, kind: str, options: ReadOptions) -> list[Task]:
    """An archive or a message: each member is routed by its own content (containers inside
    recurse, up to max_archive_depth); a member that cannot be read is reported and the
    rest still read. A message is also read itself (headers and body)."""
    from omnireader.errors import error_for_code

    body = has_body(kind)
    tasks: list[Task] = [task("file", blob, blob.label)] if body else []
    errors: list[ReadError] = []

    def failed(e: ReadError) -> None:
        errors.append(e)
        tasks.append(Task.failed(e))

    for member in container_members(blob, kind, options, on_error=failed):
        try:
            tasks.extend(_iter_blob(member, options))
        except ReadError as e:
            failed(e)
    if body:
        return tasks
    if not tasks:
        raise EmptyInputError(blob.label, "the archive holds no files")
    if all(t.failure for t in tasks):
        if len(errors) == 1:  # the archive's one file: its reason, in one line
            raise _only_member_failed(blob.label, errors[0])
        codes = {t.failure.error for t in tasks if t.failure}
        first = tasks[0].failure
        assert first is not None
        raise error_for_code(
            codes.pop() if len(codes) == 1 else EmptyInputError.code,
            blob.label,
            f"none of the archive's {len(tasks)} files could be read (first: {first.message})",
        )
    return tasks


def _only_member_failed(label: str, e: ReadError) -> ReadError:
    """The archive ``label`` failed as its only member did: ``a.zip: b.zip!c.txt: <reason>``.

    The archive is what failed (a batch reports and records it), and nested archives name
    the whole path once instead of wrapping the message at every level."""
    from omnireader.errors import error_for_code

    inner = getattr(e, "member_path", None)
    name = e.input_name.removeprefix(label + "!")
    path, reason = (f"{name}!{inner[0]}", inner[1]) if inner else (name, e.detail)
    error = error_for_code(e.code, label, f"{path}: {reason}")
    error.member_path = (path, reason)  # type: ignore[attr-defined]  (read just above)
    return error


def _iter_mailbox(blob: Blob, options: ReadOptions) -> Iterator[Task]:
    """Each message of a mailbox is its own input, routed as it is read from the file."""
    count = 0
    skipped: list[ReadError] = []  # stretches that are not messages (a trailer), reported
    for member in container_members(blob, "mbox", options, on_error=skipped.append):
        yield from (Task.failed(e) for e in skipped)
        skipped.clear()
        count += 1
        try:
            tasks = _route_blob(member, options)
        except ReadError as e:
            tasks = [Task.failed(e)]
        yield from tasks
    yield from (Task.failed(e) for e in skipped)
    if not count:
        raise EmptyInputError(blob.label, "the mailbox holds no messages")


def route_conversation(
    messages: list[Message],
    options: ReadOptions,
    label: str = "<conversation>",
    title: str | None = None,
) -> list[Task]:
    """Split a conversation into chat windows, tool trajectories and attachments
    (:func:`omnireader.intake.conversation.route_conversation`, files routed here)."""
    return conversation.route_conversation(messages, options, _FILES, label=label, title=title)


_FILES = FileRoutes(path=_route_path, blob=_route_blob)

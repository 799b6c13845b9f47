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
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from omnireader.net.dataurl import decode_data_url, is_data_url
from omnireader.errors import (
    EmptyInputError,
    InvalidInputError,
    OmniReaderWarning,
    ReadError,
    TooLargeError,
)
from omnireader.formats.archives.containers import container_members, has_body, is_container
from omnireader.formats.sniff import family, resniff_whole, sniff
from omnireader.intake.openai_shapes import (
    CHAT_SUFFIXES,
    PART_TYPES,
    ChatLog,
    chat_in_bytes,
    chat_log,
    check_tool_pairing,
    is_message,
    is_part,
    parse_messages,
    parse_parts,
)
from omnireader.models import AudioPart, FilePart, ImagePart, Message, ReadFailure, TextPart
from omnireader.options import ReadOptions
from omnireader.intake.part_blobs import blob_from_url, file_base64
from omnireader.parsers import audio, chat, file, image, string, text, tool  # noqa: F401  (registers)
from omnireader.parsers.base import get_parser
from omnireader.payloads import Blob, Conversation, TextInput, Trajectory
from omnireader.intake.string_refs import is_url, local_path, looks_like_path
from omnireader.intake.walk import Unreadable, link_problem, not_a_file

__all__ = ["Task", "route", "iter_route", "route_conversation"]


class Task(BaseModel):
    """One unit of parsing work: which parser, what payload, and a label for reports."""

    parser: str
    payload: Any
    label: str
    # Set when this part of a larger input could not be read (e.g. one bad attachment):
    # the rest of the input is still parsed and this is reported, never stored.
    failure: ReadFailure | None = None

    @classmethod
    def failed(cls, e: ReadError) -> Task:
        """A part of an input that could not be read: reported, never parsed."""
        failure = ReadFailure(input=e.input_name, error=e.code, message=str(e))
        return cls(parser="", payload=None, label=e.input_name, failure=failure)


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
        return _route_parts(parse_parts(list(input)), options, context=None)
    if is_message(input):
        return route_conversation(parse_messages([input]), options)
    if is_part(input):
        return _route_parts(parse_parts([input]), options, context=None)
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
    return [_task("string", TextInput(text=text), "<string>")]


def _task(parser: str, payload: BaseModel, label: str) -> Task:
    get_parser(parser)  # fail early, with the list of parsers, if one is missing
    return Task(parser=parser, payload=payload, label=label)


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
            yield from _chat_log_tasks(logs, options, label)
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
    blob = blob.model_copy(update={"mime": blob.mime or sniffed.mime})
    logs = chat_in_bytes(blob.data, blob.display_name, blob.label, sniffed.kind)
    if logs is not None:
        yield from _chat_log_tasks(logs, options, blob.label)
    elif not is_container(sniffed.kind):
        yield _task(family(sniffed), blob, blob.label)
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
    tasks: list[Task] = [_task("file", blob, blob.label)] if body else []
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
    for member in container_members(blob, "mbox", options):
        count += 1
        try:
            tasks = _route_blob(member, options)
        except ReadError as e:
            tasks = [Task.failed(e)]
        yield from tasks
    if not count:
        raise EmptyInputError(blob.label, "the mailbox holds no messages")


# ------------------------------------------------------------- conversations


def _chat_log_tasks(logs: list[ChatLog], options: ReadOptions, label: str) -> list[Task]:
    """Each conversation of a file (an export may hold hundreds) routed on its own."""
    tasks: list[Task] = []
    for k, log in enumerate(logs):
        where = label if len(logs) == 1 else f"{label}#{k + 1}"
        tasks.extend(route_conversation(log.messages, options, label=where, title=log.title))
    if not tasks:
        raise EmptyInputError(label, "the chat export holds no message with text")
    return tasks


def route_conversation(
    messages: list[Message],
    options: ReadOptions,
    label: str = "<conversation>",
    title: str | None = None,
) -> list[Task]:
    """Split a conversation into chat windows, tool trajectories and attachments.

    A trajectory is the user request before an assistant turn with ``tool_calls``, those
    calls, their ``role: tool`` results and the assistant's final answer. The request and
    the answer also stay in the chat, where they are conversation too.
    """
    check_tool_pairing(messages, label)
    chat_msgs: list[Message] = []
    tasks: list[Task] = []
    i = 0
    while i < len(messages):
        m = messages[i]
        if m.role == "assistant" and m.tool_calls:
            request = next((p for p in reversed(chat_msgs) if p.role == "user"), None)
            steps: list[Message] = [request] if request else []
            while i < len(messages) and (
                messages[i].role == "tool"
                or (messages[i].role == "assistant" and messages[i].tool_calls)
            ):
                steps.append(messages[i])
                i += 1
            if i < len(messages) and messages[i].role == "assistant":
                steps.append(messages[i])  # the final answer
                chat_msgs.append(messages[i])
                i += 1
            tasks.append(_task("tool", Trajectory(messages=steps), f"{label}#tool"))
            continue
        if m.role == "tool":  # a result whose call was in an earlier, separate input
            tasks.append(_task("tool", Trajectory(messages=[m]), f"{label}#tool"))
        else:
            chat_msgs.append(m)
            if isinstance(m.content, list):
                tasks.extend(_route_parts(m.content, options, context=m))
        i += 1
    if chat_msgs and (
        any(m.text().strip() for m in chat_msgs) or not tasks
    ):
        convo = Conversation(messages=chat_msgs, title=title)
        tasks.insert(0, _task("chat", convo, label))
    return tasks


# --------------------------------------------------------------------- parts


def _route_parts(
    parts: Iterable[Any], options: ReadOptions, context: Message | None
) -> list[Task]:
    parts = list(parts)
    around = " ".join(p.text for p in parts if isinstance(p, TextPart)).strip()
    if context is not None:
        around = context.text().strip()
    msg = dict(
        role=context.role if context else None,
        chat_time=context.chat_time if context else None,
        message_id=context.message_id if context else None,
    )
    tasks: list[Task] = []
    for p in parts:
        try:
            tasks.extend(_route_part(p, options, around, msg, in_message=context is not None))
        except ReadError as e:
            tasks.append(Task.failed(e))
    return tasks


def _route_part(
    p: Any, options: ReadOptions, around: str, msg: dict[str, Any], in_message: bool
) -> list[Task]:
    if isinstance(p, TextPart):
        # Inside a message the text is already in the chat window.
        return [] if in_message else [_task("text", TextInput(text=p.text, **msg), "<text part>")]
    if isinstance(p, FilePart):
        return _route_file_part(p, options, around, msg)
    if isinstance(p, ImagePart):
        blob = blob_from_url(p.image_url.url, options, context=around, **msg)
        return [_task("image", blob, blob.label)]
    if isinstance(p, AudioPart):
        data, _ = decode_data_url(p.input_audio.data, "<input_audio>", bare_base64=True)
        blob = Blob(data=data, filename=f"audio.{p.input_audio.format}", context=around, **msg)
        return [_task("audio", blob, "<input_audio>")]
    raise InvalidInputError(f"unknown content part {p!r}; valid types are {PART_TYPES}")


def _route_file_part(
    p: FilePart, options: ReadOptions, around: str, msg: dict[str, Any]
) -> list[Task]:
    spec = p.file
    common = dict(filename=spec.filename, file_id=spec.file_id, context=around, **msg)
    if spec.path:
        if not options.allow_path_parts:
            raise InvalidInputError(
                f"file part names the local path {spec.path!r}, but path parts are turned off "
                "(allow_path_parts=False): send the content as file_data instead"
            )
        tasks = _route_path(Path(spec.path), options)
        for t in tasks:
            if isinstance(t.payload, Blob):
                t.payload = t.payload.model_copy(update={k: v for k, v in common.items() if v})
        return tasks
    if spec.file_data:
        fd = spec.file_data
        if is_data_url(fd) or fd.startswith(("http://", "https://")):
            blob = blob_from_url(fd, options, **common)
        elif (data := file_base64(fd, spec.filename)) is not None:
            blob = Blob(data=data, **common)  # bare base64, as the OpenAI file part sends
        else:  # plain text handed over as the file's content
            blob = Blob(data=fd.encode("utf-8"), mime="text/plain", **common)
        return _route_blob(blob, options)
    if not (spec.filename or spec.file_id):
        raise InvalidInputError(
            "a file part needs file_data, path, filename or file_id; this one has none"
        )
    # A reference only (file_id / filename): nothing to read, but never silently dropped.
    blob = Blob(**common)
    return [_task("file", blob, blob.label)]

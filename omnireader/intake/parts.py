"""Content parts -> tasks: text, images, audio and files, as the OpenAI, Responses and
Claude shapes carry them (already parsed into :mod:`omnireader.models` parts)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from omnireader.errors import InvalidInputError, ReadError
from omnireader.intake.openai_shapes import PART_TYPES
from omnireader.intake.part_blobs import blob_from_url, file_base64
from omnireader.intake.tasks import FileRoutes, Task, task
from omnireader.models import AudioPart, FilePart, ImagePart, Message, TextPart
from omnireader.net.dataurl import decode_data_url, is_data_url
from omnireader.options import ReadOptions
from omnireader.payloads import Blob, TextInput

__all__ = ["route_parts"]


def route_parts(
    parts: Iterable[Any], options: ReadOptions, context: Message | None, files: FileRoutes
) -> list[Task]:
    """The tasks of a list of content parts; a part that cannot be read becomes a failed
    task and the others are still read."""
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
            tasks.extend(
                _route_part(p, options, around, msg, files, in_message=context is not None)
            )
        except ReadError as e:
            tasks.append(Task.failed(e))
    return tasks


def _route_part(
    p: Any,
    options: ReadOptions,
    around: str,
    msg: dict[str, Any],
    files: FileRoutes,
    in_message: bool,
) -> list[Task]:
    if isinstance(p, TextPart):
        # Inside a message the text is already in the chat window.
        return [] if in_message else [task("text", TextInput(text=p.text, **msg), "<text part>")]
    if isinstance(p, FilePart):
        return _route_file_part(p, options, around, msg, files)
    if isinstance(p, ImagePart):
        blob = blob_from_url(p.image_url.url, options, context=around, **msg)
        return [task("image", blob, blob.label)]
    if isinstance(p, AudioPart):
        data, _ = decode_data_url(p.input_audio.data, "<input_audio>", bare_base64=True)
        blob = Blob(data=data, filename=f"audio.{p.input_audio.format}", context=around, **msg)
        return [task("audio", blob, "<input_audio>")]
    raise InvalidInputError(f"unknown content part {p!r}; valid types are {PART_TYPES}")


def _route_file_part(
    p: FilePart, options: ReadOptions, around: str, msg: dict[str, Any], files: FileRoutes
) -> list[Task]:
    spec = p.file
    common = dict(filename=spec.filename, file_id=spec.file_id, context=around, **msg)
    if spec.path:
        if not options.allow_path_parts:
            raise InvalidInputError(
                f"file part names the local path {spec.path!r}, but path parts are turned off "
                "(allow_path_parts=False): send the content as file_data instead"
            )
        tasks = files.path(Path(spec.path), options)
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
        return files.blob(blob, options)
    if not (spec.filename or spec.file_id):
        raise InvalidInputError(
            "a file part needs file_data, path, filename or file_id; this one has none"
        )
    # A reference only (file_id / filename): nothing to read, but never silently dropped.
    blob = Blob(**common)
    return [task("file", blob, blob.label)]

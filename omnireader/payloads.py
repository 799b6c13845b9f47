"""What the router hands a parser: one payload type per family of parsers."""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field

from omnireader.models import Message

__all__ = ["TextInput", "Conversation", "Trajectory", "Blob", "ParentMessage"]


class TextInput(BaseModel):
    """A plain string or a text content part, with the message it came in (if any)."""

    text: str
    role: str | None = None
    name: str | None = None
    chat_time: str | None = None
    message_id: str | None = None


class Conversation(BaseModel):
    """Chat messages (system / user / assistant) to be grouped into windows."""

    messages: list[Message]
    title: str | None = None  # the conversation's name in the app it came from, if any


class Trajectory(BaseModel):
    """A user request, the assistant's tool calls, the tool results and the final answer."""

    messages: list[Message]


class ParentMessage(BaseModel):
    """The e-mail an attachment came in: its items say which message they belong to
    (``parent_subject``, ``parent_message_id`` in their extra), as the message's own do."""

    subject: str | None = None
    message_id: str | None = None

    def extra(self) -> dict[str, str]:
        fields = (("parent_subject", self.subject), ("parent_message_id", self.message_id))
        return {key: value for key, value in fields if value}


class Blob(BaseModel):
    """Binary content for the file, image and audio parsers: bytes, a path, or a URL.

    ``context`` is the text that came with it in the message (what the user said about it).
    ``label`` names the input in errors and reports: the path, the URL, or the file name.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    data: bytes | None = None
    path: str | None = None
    url: str | None = None
    filename: str | None = None
    file_id: str | None = None
    member: str | None = None  # when read out of an archive
    mime: str | None = None
    context: str = ""
    role: str | None = None
    chat_time: str | None = None
    message_id: str | None = None
    # The e-mail this blob is an attachment of (set by the mail reader, kept by the
    # members of a ZIP attached to it).
    parent: ParentMessage | None = None
    password: str | None = Field(default=None, exclude=True, repr=False)
    # What the router sniffed the content as (a format's name and the MIME type its bytes
    # show): the parser reads it as that instead of sniffing the same bytes again. Never
    # stored; a rebuilt source sniffs anew.
    sniffed: tuple[str, str] | None = Field(default=None, exclude=True, repr=False)

    @property
    def label(self) -> str:
        base = self.path or self.url or self.filename or self.file_id or "<bytes>"
        return f"{base}!{self.member}" if self.member else base

    @property
    def source_name(self) -> str | None:
        """The name its items' source records (``Source.filename``): the file name given,
        else the last part of the path or URL. The store renames a source it moves to
        another copy of the content by the same rule (:mod:`omnireader.store.locations`)."""
        if self.filename:
            return self.filename
        if self.path:
            return Path(self.path).name
        if self.url:
            return PurePosixPath(self.url.split("?", 1)[0]).name or None
        return None

    @property
    def display_name(self) -> str:
        """The file's own name: member, file name, or last part of the path / URL."""
        if self.member:
            return self.member
        if self.filename:
            return self.filename
        if self.path:
            return Path(self.path).name
        if self.url:
            return self.url.rsplit("/", 1)[-1].split("?", 1)[0] or self.url
        return self.file_id or "<bytes>"

    def read_bytes(self) -> bytes:
        """The content; reads the file when only a path was given."""
        if self.data is None:
            if self.path is None:
                raise ValueError(f"{self.label}: no content to read")
            self.data = Path(self.path).read_bytes()
        return self.data

"""Every error omnireader raises, under one root.

    OmniReaderError
    ├── InvalidInputError          the input's shape is wrong (bad info, unknown part type, ...)
    ├── ReadError                  one input could not be read; ``code`` says why
    │   ├── UnsupportedFormatError     code "unsupported"
    │   ├── EncryptedError             code "encrypted"  (give the password)
    │   ├── CorruptError               code "corrupt"
    │   ├── EmptyInputError            code "empty"
    │   ├── NeedsOcrError              code "needs_ocr" (pages with no text OCR did not read)
    │   ├── TooLargeError              code "too_large"
    │   ├── FileNameError              code "bad_file_name" (a name not UTF-8, shown as another's)
    │   ├── ReadTimeoutError           code "timeout"
    │   ├── CrashedError               code "crashed"   (a worker died reading it)
    │   ├── InternalError              code "internal"  (a bug in omnireader or a library:
    │   │                                               report it, with the failure's detail)
    │   └── FetchError                 code "fetch_failed"
    │       └── BlockedURLError            code "blocked_url" (private / loopback address)
    ├── FineModeUnavailableError   fine mode asked for without an LLM backend
    ├── LLMError                   the LLM backend failed after retries
    │   └── BadReplyError              a reply that is not what the protocol says (retried)
    ├── StoreError                 the store cannot do what was asked
    │   └── EmbedderMismatchError      a store built with one embedder opened with another
    ├── ServiceError               the service's own machinery failed (an ingest process)
    └── ConfigError                a setting is wrong or missing
        ├── EngineUnavailableError     --engine ray without its extra (or for fine mode)
        └── MissingExtraError          an optional extra is not installed (also an ImportError)

``ConfigError`` is also a ``ValueError`` (a wrong value), ``BadReplyError`` too (a reply
with a wrong value), and ``ServiceError`` a ``RuntimeError``, as Python's own conventions
would have them.

Every ``ReadError`` names its input, so a batch report can say which file failed and why.
``OmniReaderWarning`` (a ``UserWarning``) flags what was read but may not be what was meant,
e.g. a string that looks like the path of a missing file, or one bad part of a message.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "OmniReaderError",
    "InvalidInputError",
    "ReadError",
    "UnsupportedFormatError",
    "EncryptedError",
    "CorruptError",
    "EmptyInputError",
    "NeedsOcrError",
    "TooLargeError",
    "FileNameError",
    "ReadTimeoutError",
    "CrashedError",
    "InternalError",
    "FetchError",
    "BlockedURLError",
    "FineModeUnavailableError",
    "LLMError",
    "BadReplyError",
    "StoreError",
    "EmbedderMismatchError",
    "ItemNotFoundError",
    "ConfigError",
    "EngineUnavailableError",
    "ServiceError",
    "MissingExtraError",
    "OmniReaderWarning",
    "error_for_code",
]


class OmniReaderError(Exception):
    """Root of every error omnireader raises."""


class InvalidInputError(OmniReaderError):
    """The input's shape is wrong; the message says what and what is valid."""


class ReadError(OmniReaderError):
    """One input could not be read. ``code`` is the machine-readable reason."""

    code: ClassVar[str] = "unreadable"

    def __init__(self, input_name: str, detail: str) -> None:
        self.input_name = input_name
        self.detail = detail
        super().__init__(f"{input_name}: {detail}")


class UnsupportedFormatError(ReadError):
    code = "unsupported"


class EncryptedError(ReadError):
    code = "encrypted"


class CorruptError(ReadError):
    code = "corrupt"


class EmptyInputError(ReadError):
    code = "empty"


class NeedsOcrError(ReadError):
    """Pages (or a whole file) with no text layer that OCR did not read: OCR was off or
    failed, or found no text; the message names the pages and what to do."""

    code = "needs_ocr"


class TooLargeError(ReadError):
    code = "too_large"


class FileNameError(ReadError):
    """A file whose name is not UTF-8 and whose shown form (``\\xNN`` for those bytes, the
    name it would be stored under) is another file's name too: it cannot be told apart."""

    code = "bad_file_name"


class ReadTimeoutError(ReadError):
    code = "timeout"


class CrashedError(ReadError):
    code = "crashed"


class InternalError(ReadError):
    """Reading failed in a way no broken input explains: an unexpected exception in
    omnireader or in a library it calls. Never reported as ``corrupt``: that would blame
    the file for a bug. The traceback is kept (``ReadFailure.detail``, and the log)."""

    code = "internal"


class FetchError(ReadError):
    code = "fetch_failed"


class BlockedURLError(FetchError):
    code = "blocked_url"


class FineModeUnavailableError(OmniReaderError):
    """Fine mode needs an LLM backend (``--llm openai:MODEL`` or ``--llm ollama:MODEL``)."""


class LLMError(OmniReaderError):
    """The LLM backend failed for one request after its retries."""

    def __init__(self, message: str, *, reason: str = "llm_error") -> None:
        self.reason = reason
        super().__init__(message)


class BadReplyError(LLMError, ValueError):
    """A backend's reply is not what its protocol says (not JSON, the wrong shape, a count
    that does not match): read as a failed attempt, and retried."""

    def __init__(self, message: str) -> None:
        super().__init__(message, reason="bad_reply")


class ServiceError(OmniReaderError, RuntimeError):
    """The service's own machinery failed (its ingest process answered with an error)."""


class StoreError(OmniReaderError):
    """The store cannot do what was asked."""


class EmbedderMismatchError(StoreError):
    """The store was built with another embedder; mixing vectors would break search."""


class ItemNotFoundError(InvalidInputError):
    """No stored item (or version of one) has the id asked for: check the id (``search`` or
    ``export`` shows them) and, for a version, ``history``."""


class ConfigError(OmniReaderError, ValueError):
    """A setting is wrong or missing."""


class EngineUnavailableError(ConfigError):
    """The ingest engine asked for cannot run here: its optional extra is not installed
    (the message names the ``pip install``), or it does not do what was asked."""


class MissingExtraError(ConfigError, ImportError):
    """A module that needs an optional extra was imported or used without it. The message
    is one line naming the ``pip install``; ``extra`` is the extra's name. An ImportError
    too, so ``try: import ... except ImportError`` in a caller's code keeps working."""

    def __init__(self, message: str, *, extra: str) -> None:
        self.extra = extra
        super().__init__(message)


class OmniReaderWarning(UserWarning):
    """Something was read, but perhaps not as meant; the message says what to do."""


def _read_errors(cls: type[ReadError]) -> list[type[ReadError]]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_read_errors(sub)]
    return out


# Every ReadError by its code, found from the classes themselves (the tree is written once).
_BY_CODE: dict[str, type[ReadError]] = {cls.code: cls for cls in _read_errors(ReadError)}


def error_for_code(code: str, input_name: str, detail: str) -> ReadError:
    """Rebuild a typed ReadError from its code (e.g. one reported by a worker process)."""
    return _BY_CODE.get(code, ReadError)(input_name, detail)

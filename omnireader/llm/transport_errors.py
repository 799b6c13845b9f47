"""Map ``openai`` / ``ollama`` / ``httpx`` exceptions to retry-or-fail decisions.

Timeouts, dropped connections, 408, 429 and 5xx become :class:`RetryableError`; other 4xx
become :class:`~omnireader.errors.LLMError` with a reason a user can act on (``auth``,
``not_found``, ``bad_request``). Shared by the chat and embedding backends so both retry alike.
Client packages are imported lazily: only the backend in use pays for its import.
"""

from __future__ import annotations

from omnireader.errors import LLMError
from omnireader.llm.retry import RetryableError, parse_retry_after

__all__ = [
    "classify_openai_error",
    "classify_ollama_error",
    "classify_status",
    "is_format_rejection",
]

# Words a server uses when it refuses a response_format it does not implement.
_FORMAT_WORDS = (
    "response_format",
    "json_schema",
    "json_object",
    "structured output",
    "guided_json",
)


def is_format_rejection(status: int, message: str) -> bool:
    """True when an error says the server does not take the requested ``response_format``.

    Told by what the error says, whatever the status: llama-cpp-python answers
    ``json_schema`` with HTTP 500 and its validation error ("response_format.type: Input
    should be 'text' or 'json_object'"); others use 400, 404, 415, 422 or 501. A rate limit
    or a timeout is never one, whatever its text.
    """
    text = message.lower()
    return status not in (408, 429) and any(w in text for w in _FORMAT_WORDS)


def classify_status(status: int, message: str, retry_after: str | None, label: str) -> Exception:
    """The exception for an HTTP error status: retryable or final."""
    if status == 429:
        return RetryableError(
            "rate_limited", f"HTTP 429: {message}", retry_after=parse_retry_after(retry_after)
        )
    if status == 408:
        return RetryableError("timeout", f"HTTP 408: {message}")
    if status >= 500:
        return RetryableError(
            "server_error", f"HTTP {status}: {message}", retry_after=parse_retry_after(retry_after)
        )
    reason = {401: "auth", 403: "auth", 404: "not_found"}.get(status, "bad_request")
    return LLMError(f"{label}: HTTP {status}: {message}", reason=reason)


def classify_openai_error(exc: BaseException, label: str) -> Exception:
    """The retry decision for an exception raised by the ``openai`` client, or ``exc`` itself."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return RetryableError("timeout", "the request timed out")
    if isinstance(exc, openai.APIConnectionError):
        return RetryableError("transport", f"connection failed: {exc}")
    if isinstance(exc, openai.APIStatusError):
        return classify_status(
            exc.status_code, _openai_message(exc), exc.response.headers.get("retry-after"), label
        )
    if isinstance(exc, openai.APIResponseValidationError):
        return RetryableError("bad_response", f"the server's reply was not valid: {exc}")
    if isinstance(exc, ValueError):  # e.g. a 200 whose body is not JSON (a proxy's HTML page)
        return RetryableError("bad_response", f"the server's reply could not be read: {exc}")
    return exc


def classify_ollama_error(exc: BaseException, label: str) -> Exception:
    """The retry decision for an exception raised by the ``ollama`` client, or ``exc`` itself."""
    import httpx
    import ollama

    if isinstance(exc, ollama.ResponseError):
        # ollama drops the response; the httpx error it replaced still has the headers.
        ctx = exc.__context__
        headers = getattr(getattr(ctx, "response", None), "headers", None)
        retry_after = headers.get("retry-after") if headers is not None else None
        return classify_status(exc.status_code, str(exc.error), retry_after, label)
    if isinstance(exc, httpx.TimeoutException):
        return RetryableError("timeout", "the request timed out")
    if isinstance(exc, (httpx.TransportError, ConnectionError)):
        return RetryableError("transport", f"connection failed: {exc}")
    if isinstance(exc, ValueError):  # a 200 whose body is not JSON / not a chat response
        return RetryableError("bad_response", f"the server's reply could not be read: {exc}")
    return exc


def _openai_message(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"])
        if isinstance(err, str):
            return err
    return str(getattr(exc, "message", exc))

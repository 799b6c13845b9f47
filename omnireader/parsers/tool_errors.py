"""Is this tool result a failure? Judged from its shape, never from words in its data.

A tool result is text: JSON from an API, a traceback, an HTTP status line, or plain prose.
Failures are recognised by JSON keys (``error``, ``status_code`` ≥ 400, ``success: false``)
or by how the text *starts* (``Error:``, ``Traceback (most recent call last)``, ``HTTP 404``,
``timed out``), so a search result that merely mentions an error stays a success.

    >>> detect_error("HTTP 503 Service Unavailable"), detect_error('{"result": "no error found"}')
    ('http_error', None)
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["detect_error", "diagnose_result"]

_HTTP_PHRASES = (
    "bad request|unauthorized|payment required|forbidden|not found|method not allowed|"
    "not acceptable|request timeout|conflict|gone|too many requests|internal server error|"
    "not implemented|bad gateway|service unavailable|gateway timeout"
)
_MARK = r"(?:\[?error\]?|exception|failed|failure)[\s:,!-]*"
# HTTP failures at the start of a result ("HTTP 404", "404 Not Found", "Error: HTTP 500").
_HTTP_START = re.compile(
    rf"^(?:{_MARK})?(?:https?(?:/\d(?:\.\d)?)?\s*(?:error\s*)?(?P<a>[45]\d\d)\b"
    rf"|(?P<b>[45]\d\d)\s*(?:{_HTTP_PHRASES})\b)",
    re.I,
)
# Inside an error message already known to be one, any mention of a status code counts.
_HTTP_ANY = re.compile(
    rf"\b(?:https?|status(?:[ _]code)?|code)\s*[:=]?\s*(?P<a>[45]\d\d)\b"
    rf"|\b(?P<b>[45]\d\d)\s*(?:{_HTTP_PHRASES})\b",
    re.I,
)
# "Request timed out", "The read operation timed out.", "ReadTimeout: …", "Timeout after 30 s";
# not "Timeout settings: 30 s" or "The server timed out last night, …", which are data.
_TIMEOUT_START = re.compile(
    r"^(?:error[\s:,-]*)?(?:(?:the\s+)?(?:\w+\s+){0,2}timed\s?out"
    r"|(?:\w+\.)*(?:read|connect|connection|request|operation|gateway|socket|pool)?\s*time-?out"
    r"(?:error|exception)?)\s*(?:[:!.(-]|$|(?:after|while|waiting|exceeded|expired|occurred)\b)",
    re.I,
)
_TIMEOUT_ANY = re.compile(r"timed\s?out|time-?out", re.I)
# "Error: …", "[ERROR] …", "ValueError: …", "requests.exceptions.ConnectionError: …";
# not "Error rate: 2%" or "Exception handling in Python …", which are data.
_EXCEPTION_START = re.compile(
    r"^(?:\[error\]|error\s*(?:[:!-]|$)|exception\s*(?:[:!-]|$|(?:occurred|raised|thrown)\b)"
    r"|(?:[a-z_]\w*\.)*[a-z_]\w*(?:error|exception)\s*:)",
    re.I,
)
_FAILED_START = re.compile(r"^(?:failed|unable) to\b", re.I)
_TRACEBACK = "traceback (most recent call last)"


def _http_code(obj: Any) -> str | None:
    """An HTTP error status (400-599) in a JSON object's status / code fields."""
    if not isinstance(obj, dict):
        return None
    fields = {str(k).lower(): v for k, v in obj.items()}
    for key in ("status", "status_code", "statuscode", "code", "http_status"):
        v = fields.get(key)
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, str)) and re.fullmatch(r"[45][0-9][0-9]", str(v).strip()):
            return str(v).strip()
    return None


def _present(v: Any) -> bool:
    if isinstance(v, str):
        return v.strip().lower() not in ("", "none", "null", "false")
    return bool(v)


def _specific(message: str) -> tuple[str, str | None] | None:
    """The HTTP status or timeout an error message names, if any."""
    m = _HTTP_ANY.search(message)
    if m:
        return "http_error", m.group("a") or m.group("b")
    return ("timeout", None) if _TIMEOUT_ANY.search(message) else None


def _text_error(text: str) -> tuple[str, str | None] | None:
    s = text.strip()
    head = s.split("\n", 1)[0][:400]
    if s.lower().startswith(_TRACEBACK):
        last = next((ln for ln in reversed(s.splitlines()) if ln.strip()), "")
        kind = "timeout" if _TIMEOUT_ANY.search(last) else "exception"
        return kind, last.split(":", 1)[0].strip() or None
    m = _HTTP_START.match(head)
    if m:
        return "http_error", m.group("a") or m.group("b")
    if _TIMEOUT_START.match(head):
        return "timeout", None
    if _EXCEPTION_START.match(head):
        return _specific(head) or ("exception", None)
    if _FAILED_START.match(head):
        return _specific(head) or ("tool_error", None)
    return None


def _json_error(obj: Any) -> tuple[str, str | None] | None:
    if isinstance(obj, str):  # a JSON-encoded string: judge the string
        return _text_error(obj)
    if not isinstance(obj, dict):
        return None  # lists and scalars are data
    fields = {str(k).lower(): v for k, v in obj.items()}
    code = _http_code(obj)
    for key in ("error", "errors", "exception", "err"):
        value = fields.get(key)
        if not _present(value):
            continue
        if code := code or _http_code(value):  # {"error": {"code": 404, ...}}
            return "http_error", code
        message = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        return _specific(message) or ("exception" if key == "exception" else "tool_error", None)
    if code:
        return "http_error", code
    status = fields.get("status")
    if isinstance(status, str) and status.strip().lower() in ("error", "failed", "failure", "fail"):
        return "tool_error", None
    if isinstance(status, str) and _TIMEOUT_ANY.fullmatch(status.strip()):
        return "timeout", None
    if fields.get("success") is False or fields.get("ok") is False:
        return "tool_error", None
    if fields.get("iserror") is True or fields.get("is_error") is True:  # MCP results
        return "tool_error", None
    return None


def diagnose_result(result_text: str) -> tuple[str, str | None] | None:
    """``(error_type, detail)`` when a tool result reports a failure, else None.

    ``detail`` is the HTTP status for ``http_error`` and the exception name after a
    traceback. JSON results are judged by their keys only, never by words in their data,
    so ``{"result": "no error found"}`` is a success.
    """
    s = result_text.strip()
    if not s:
        return None
    if s[0] in '{"':
        try:
            return _json_error(json.loads(s))
        except ValueError:
            pass  # not JSON after all: judge it as text
    return _text_error(s)


def detect_error(result_text: str) -> str | None:
    """The error type a tool result reports: ``http_error``, ``timeout``, ``exception``,
    ``tool_error``; None when it looks like a normal result.

    >>> detect_error('{"status_code": 503}'), detect_error('{"result": "no error found"}')
    ('http_error', None)
    """
    found = diagnose_result(result_text)
    return found[0] if found else None

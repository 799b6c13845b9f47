"""API input cases: inputs of the wrong shape get a clear InvalidInputError, not a traceback.

Each bad input is passed to ``Reader().read`` alone (it must raise
:class:`~omnireader.errors.InvalidInputError` whose message names what is wrong, with no
frame from inside a library and no chained library exception shown), and then in a batch
between two good strings with ``read_report`` (it must come back as an ``invalid_input``
failure while both strings give their items).
"""

from __future__ import annotations

import os
import traceback
from typing import Any

import omnireader
from omnireader import InvalidInputError, Reader

from .checks import Readable, check_batch
from .harness import Outcome, RunEnv, fault
from .reading import Batch

__all__ = ["check_invalid"]

_PACKAGE = os.path.dirname(omnireader.__file__)
_HERE = os.path.dirname(os.path.dirname(__file__))
GOOD = ["Good input one: the quince jam recipe.", "Good input two: the kiwifruit order."]


def _call(fn: Any) -> BaseException | None:
    try:
        fn()
    except BaseException as e:  # noqa: BLE001 - what was raised is what is checked
        return e
    return None


def _shape_problems(e: BaseException | None, what: str, words: tuple[str, ...]) -> list[str]:
    if e is None:
        return [f"{what}: no error was raised"]
    if not isinstance(e, InvalidInputError):
        return [f"{what}: raised {type(e).__name__}, not InvalidInputError: {e}"]
    problems = [f"{what}: the message does not name {w!r}: {e}" for w in words if w not in str(e)]
    for frame in traceback.extract_tb(e.__traceback__):
        if not frame.filename.startswith((_PACKAGE, _HERE)):
            problems.append(f"{what}: a frame from {frame.filename} is in the traceback")
    shown = e.__cause__ or (None if e.__suppress_context__ else e.__context__)
    if shown is not None:
        problems.append(f"{what}: a chained {type(shown).__name__} would be printed with it")
    return problems


def check_invalid(cases: list[tuple[str, Any, tuple[str, ...]]], *, batch: bool = True) -> Outcome:
    """``cases``: (what, bad input, words its message must hold). See the module docstring."""
    out = Outcome(via="api")
    for what, bad, words in cases:
        out.problems += _shape_problems(_call(lambda: Reader().read(bad)), what, words)
        if not batch:
            continue
        result = Reader().read_report([GOOD[0], bad, GOOD[1]])
        got = Batch(items=result.items, failures=result.failures, via="reader")
        checked = check_batch(
            got,
            bad={},
            readable=[Readable("<string>", exact_items=2, contains=("quince", "kiwifruit"))],
        )
        codes = [f.error for f in got.failures]
        if codes != ["invalid_input"]:
            out.problems.append(f"{what} in a batch: failures {codes}, expected [invalid_input]")
        out.problems += [p for p in checked.problems if not p.startswith("unexpected failure")]
        out.items_lost += checked.items_lost
    n = len(cases)
    out.outcome = f"invalid_input ×{n}" if not out.problems else f"{len(out.problems)} problems"
    return out


@fault(
    "api",
    "api-wrong-info",
    "info as a string, an unknown key, a list as user_id; an unknown Reader option",
    "invalid_input naming the key and the valid ones",
)
def _wrong_info(env: RunEnv) -> Outcome:
    out = Outcome(via="api")
    for what, info, words in [
        ("info as a string", "u1", ("info must be a dict", "str")),
        ("unknown info key", {"user": "u1"}, ("user", "user_id, session_id")),
        ("user_id as a list", {"user_id": ["a"]}, ("user_id", "string")),
    ]:
        out.problems += _shape_problems(
            _call(lambda: Reader().read(GOOD[0], info=info)), what, words
        )
    for what, kwargs, words in [
        ("misspelt option", {"pasword": "x"}, ("pasword", "password")),
        ("negative chunk size", {"chunk_tokens": -5}, ("chunk_tokens",)),
    ]:
        out.problems += _shape_problems(_call(lambda: Reader(**kwargs)), what, words)
    out.outcome = "invalid_input ×5" if not out.problems else f"{len(out.problems)} problems"
    return out


@fault(
    "api",
    "api-unknown-part-types",
    "parts of type video / video_url, a part missing its field, an empty file part, a role 'robot'",
    "invalid_input naming the type; the batch's good inputs read",
)
def _parts(env: RunEnv) -> Outcome:
    return check_invalid(
        [
            ("unknown part type", [{"type": "video", "video": "x"}], ("'video'", "image_url")),
            (
                "unknown part in a message",
                [{"role": "user", "content": [{"type": "video_url", "video_url": {"url": "x"}}]}],
                ("video_url", "content"),
            ),
            ("image part without image_url", [{"type": "image_url"}], ("image_url", "required")),
            ("file part with nothing", [{"type": "file", "file": {}}], ("file part", "file_data")),
            ("unknown role", [{"role": "robot", "content": "hi"}], ("role", "robot")),
        ]
    )


@fault(
    "api",
    "api-broken-tool-pairing",
    "a tool result for a call never made; two calls sharing one id",
    "invalid_input naming the message and the id",
)
def _pairing(env: RunEnv) -> Outcome:
    call = {"type": "function", "function": {"name": "weather", "arguments": "{}"}}
    return check_invalid(
        [
            (
                "result for an unknown call",
                [
                    {"role": "user", "content": "weather in Oslo?"},
                    {"role": "assistant", "tool_calls": [{"id": "c1", **call}]},
                    {"role": "tool", "tool_call_id": "c9", "content": "sunny"},
                ],
                ("tool_call_id 'c9'", "message 2", "c1"),
            ),
            (
                "two calls, one id",
                [
                    {"role": "user", "content": "weather in Oslo and Rome?"},
                    {
                        "role": "assistant",
                        "tool_calls": [{"id": "c1", **call}, {"id": "c1", **call}],
                    },
                    {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
                ],
                ("same id 'c1'", "message 1"),
            ),
        ]
    )


@fault(
    "api",
    "api-not-an-input",
    "an int, None, a dict that is neither message nor part, a URL with an unknown scheme",
    "invalid_input listing what can be read",
)
def _not_input(env: RunEnv) -> Outcome:
    return check_invalid(
        [
            ("an int", 5, ("int", "pass a string")),
            ("None", None, ("NoneType",)),
            ("a plain dict", {"foo": 1}, ("dict",)),
            (
                "an ftp image URL",
                [{"type": "image_url", "image_url": {"url": "ftp://x/y.png"}}],
                ("ftp://", "http"),
            ),
        ]
    )

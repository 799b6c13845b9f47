"""Tool trajectories: a request, the tool calls and their results, the answer — one item.

Fast mode renders the trajectory as text and records each call as a
:class:`~omnireader.models.ToolUse` (arguments, success, error type, a result preview);
whether a result is a failure is read from its shape by :func:`detect_error`.

    >>> from omnireader.models import Message
    >>> from omnireader.parsers.base import ParseContext
    >>> from omnireader.payloads import Trajectory
    >>> steps = Trajectory(messages=[
    ...     Message(role="assistant", tool_calls=[{"id": "c1", "function": {
    ...         "name": "get_weather", "arguments": '{"city": "Paris"}'}}]),
    ...     Message(role="tool", tool_call_id="c1", content='{"temp_c": 21}'),
    ... ])
    >>> [item] = ToolParser().parse_fast(steps, ParseContext())
    >>> print(item.memory)
    Tool call 1: get_weather(city="Paris") → success: {"temp_c": 21}
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from omnireader.errors import EmptyInputError, InvalidInputError
from omnireader.ids import content_hash
from omnireader.models import MemoryItem, Message, Source, ToolCall, ToolUse
from omnireader.normalize import guess_lang, normalize_time
from omnireader.parsers.base import ParseContext, Parser, register
from omnireader.parsers.tool_errors import detect_error, diagnose_result
from omnireader.payloads import Trajectory

__all__ = ["ToolParser", "detect_error", "diagnose_result", "parse_arguments"]

_PREVIEW = 300
_ARGS_SHOWN = 200
_JSON = "application/json"  # Source.mime marking content that is a serialised message

# --------------------------------------------------------------------- rendering


def parse_arguments(raw: str | dict[str, Any]) -> dict[str, Any] | str:
    """A call's arguments as a dict when they are a JSON object, else the raw string."""
    if isinstance(raw, dict):
        return raw
    if not raw.strip():
        return {}
    try:
        parsed = json.loads(raw)
    except ValueError:
        return raw
    return parsed if isinstance(parsed, dict) else raw


def _unescaped_json(text: str) -> str:
    """A JSON result with its ``\\u`` escapes written out ("19\\u00b0C" -> "19°C"):
    tools serialise with ASCII-only JSON by default, and an escape is neither readable nor
    found by a search for the word. Anything else, or JSON without escapes, is unchanged."""
    if "\\u" not in text or text[:1] not in "{[":
        return text
    try:
        return json.dumps(json.loads(text), ensure_ascii=False)
    except (ValueError, RecursionError):
        return text


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _signature(use: ToolUse) -> str:
    if isinstance(use.arguments, str):
        args = use.arguments
    else:
        pairs = use.arguments.items()
        args = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in pairs)
    return f"{use.name}({_clip(args, _ARGS_SHOWN)})"


def _outcome(use: ToolUse, detail: str | None) -> str:
    preview = " ".join((use.result_preview or "").split())
    if use.success is None:
        return "no result"
    if use.success:
        return f"success: {preview}" if preview else "success"
    why = f"{use.error_type} {detail}" if detail else str(use.error_type)
    return f"failed ({why}): {preview}" if preview else f"failed ({why})"


def _correctness(uses: list[ToolUse]) -> str:
    seen = [u.success for u in uses if u.success is not None]
    if not seen:
        return "unknown"
    if all(seen):
        return "success"
    return "failed" if not any(seen) else "partial"


def _step_source(m: Message) -> Source:
    content, mime = m.text(), None
    if m.tool_calls:  # the calls are the substance: keep the whole message, as JSON
        content, mime = json.dumps(m.model_dump(mode="json", exclude_none=True)), _JSON
    return Source(
        kind="tool",
        role=m.role,
        name=m.name,
        tool_call_id=m.tool_call_id,
        message_id=m.message_id,
        chat_time=m.chat_time,
        content=content,
        mime=mime,
        content_hash=content_hash(content),
        lang=guess_lang(m.text()),
    )


class _Trace:
    """The calls of one trajectory, their results, and the text lines in order."""

    def __init__(self) -> None:
        self.uses: list[ToolUse] = []
        self.details: list[str | None] = []  # HTTP status / exception name per call
        self.called: set[int] = set()  # calls seen being made (their arguments are known)
        self.by_id: dict[str, int] = {}
        self.events: list[str | int] = []  # a text line, or the index of a call

    def call(self, call: ToolCall) -> None:
        args = parse_arguments(call.function.arguments)
        idx = self._new(ToolUse(name=call.function.name, arguments=args, call_id=call.id))
        self.called.add(idx)
        if call.id:
            self.by_id[call.id] = idx

    def result(self, m: Message) -> None:
        idx = self._match(m)
        if idx is None:  # a result whose call is not in this trajectory
            idx = self._new(ToolUse(name=m.name or "unknown_tool", call_id=m.tool_call_id))
        text = _unescaped_json(m.text().strip())
        found = diagnose_result(text)
        use = self.uses[idx]
        use.success = found is None
        use.error_type, self.details[idx] = found if found else (None, None)
        use.result_preview = _clip(text, _PREVIEW)

    def lines(self) -> list[str]:
        out: list[str] = []
        for ev in self.events:
            if isinstance(ev, str):
                out.append(ev)
                continue
            use = self.uses[ev]
            what = _signature(use) if ev in self.called else use.name
            out.append(f"Tool call {ev + 1}: {what} → {_outcome(use, self.details[ev])}")
        return out

    def _new(self, use: ToolUse) -> int:
        self.uses.append(use)
        self.details.append(None)
        self.events.append(len(self.uses) - 1)
        return len(self.uses) - 1

    def _match(self, m: Message) -> int | None:
        if m.tool_call_id:
            return self.by_id.get(m.tool_call_id)
        # No id: the first call still waiting for its result (of the same tool, if named).
        for i in sorted(self.called):
            if self.uses[i].success is None and (not m.name or self.uses[i].name == m.name):
                return i
        return None


def _messages_json(messages: list[Message]) -> str:
    return json.dumps(
        [m.model_dump(mode="json", exclude_none=True) for m in messages], ensure_ascii=False
    )


@register
class ToolParser(Parser[Trajectory]):
    """request → tool calls → results → answer, as one ToolTrajectoryMemory."""

    name: ClassVar[str] = "tool"
    payload: ClassVar[type[Trajectory]] = Trajectory
    label: ClassVar[str] = "<tool trajectory>"

    def parse_fast(self, input: Trajectory, ctx: ParseContext) -> list[MemoryItem]:
        msgs = input.messages
        trace = _Trace()
        for n, m in enumerate(msgs):
            text = m.text().strip()
            if m.role == "tool":
                trace.result(m)
            elif text and m.role == "user":
                trace.events.append(f"User request: {text}")
            elif text and m.role == "assistant":
                final = not m.tool_calls and n == len(msgs) - 1
                trace.events.append(f"{'Answer' if final else 'Assistant'}: {text}")
            for call in m.tool_calls or []:
                trace.call(call)
        if not trace.events:
            raise EmptyInputError(self.label, "no request, tool call, result or answer")
        times = (normalize_time(m.chat_time) for m in reversed(msgs))
        persons = [m.name for m in msgs if m.role == "user" and m.name]
        return [
            self.make_item(
                "\n".join(trace.lines()),
                ctx,
                sources=[_step_source(m) for m in msgs],
                position=(content_hash(_messages_json(msgs)),),
                memory_type="ToolTrajectoryMemory",
                tags=list(dict.fromkeys(u.name for u in trace.uses)),
                tools=trace.uses,
                correctness=_correctness(trace.uses),
                timestamp=next((t for t in times if t), None),
                persons=list(dict.fromkeys(persons)),
            )
        ]

    def create_source(self, input: Trajectory) -> Source:
        """One step: its source. Several: the messages as JSON, so they rebuild whole."""
        if len(input.messages) == 1:
            return _step_source(input.messages[0])
        data = _messages_json(input.messages)
        last_time = next((m.chat_time for m in reversed(input.messages) if m.chat_time), None)
        return Source(
            kind="tool",
            content=data,
            content_hash=content_hash(data),
            mime=_JSON,
            chat_time=last_time,
        )

    def rebuild_from_source(self, source: Source) -> Trajectory:
        """The step (or, for a whole-trajectory source, every step) a source names."""
        if source.content is None:
            raise InvalidInputError("a tool source without content cannot be rebuilt")
        if source.mime == _JSON:
            try:
                data = json.loads(source.content)
                return Trajectory(messages=data if isinstance(data, list) else [data])
            except ValueError as e:  # pydantic's ValidationError is a ValueError too
                raise InvalidInputError(f"the source's messages do not parse: {e}") from None
        role = source.role if source.role in ("user", "assistant") else "tool"
        message = Message(
            role=role,  # type: ignore[arg-type]  (one of the Literal's values, checked above)
            content=source.content,
            name=source.name,
            tool_call_id=source.tool_call_id,
            chat_time=source.chat_time,
            message_id=source.message_id,
        )
        return Trajectory(messages=[message])

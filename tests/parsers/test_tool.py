"""Tool trajectories: one item per request → calls → results → answer, failures detected."""

from __future__ import annotations

import json
from typing import Any

import pytest

from omnireader.errors import EmptyInputError, FineModeUnavailableError
from omnireader.models import Message
from omnireader.parsers.base import ParseContext
from omnireader.parsers.tool import ToolParser, detect_error, parse_arguments
from omnireader.payloads import Trajectory

PARSER = ToolParser()
CTX = ParseContext(user_id="u1")


def call(call_id: str, name: str, args: Any) -> dict[str, Any]:
    raw = args if isinstance(args, str) else json.dumps(args)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}


def calls(*items: dict[str, Any], text: str | None = None, **kw: Any) -> Message:
    return Message(role="assistant", content=text, tool_calls=items, **kw)  # type: ignore[arg-type]


def result(call_id: str | None, content: str, **kw: Any) -> Message:
    return Message(role="tool", tool_call_id=call_id, content=content, **kw)


def weather_trip(rome_result: str = "HTTP 500 Internal Server Error") -> Trajectory:
    return Trajectory(
        messages=[
            Message(role="user", content="Weather in Paris and Rome?", name="Lea", message_id="u1"),
            calls(
                call("c1", "get_weather", {"city": "Paris"}),
                call("c2", "get_weather", {"city": "Rome"}),
                message_id="a1",
            ),
            result("c1", '{"temp_c": 21, "sky": "clear"}', message_id="t1"),
            result("c2", rome_result, message_id="t2", chat_time="2025-06-01 12:00"),
            Message(
                role="assistant",
                content="Paris: 21°C and clear. Rome: unavailable.",
                message_id="a2",
                chat_time="2025-06-01T12:00:05Z",
            ),
        ]
    )


def parse(trajectory: Trajectory) -> Any:
    [item] = PARSER.parse_fast(trajectory, CTX)
    return item


# ---------------------------------------------------------------- error shapes


@pytest.mark.parametrize(
    ("result_text", "error_type"),
    [
        ('{"error": "Invalid API key"}', "tool_error"),
        ('{"errors": [{"message": "city is required"}]}', "tool_error"),
        ('{"exception": "KeyError: city"}', "exception"),
        ('{"status": 503, "body": "maintenance"}', "http_error"),
        ('{"status_code": "404"}', "http_error"),
        ('{"code": 429, "message": "slow down"}', "http_error"),
        ('{"error": {"code": 502, "message": "bad gateway"}}', "http_error"),
        ('{"error": "request timed out after 30s"}', "timeout"),
        ('{"success": false, "reason": "quota"}', "tool_error"),
        ('{"ok": false}', "tool_error"),
        ('{"status": "failed"}', "tool_error"),
        ('{"isError": true, "content": [{"type": "text", "text": "denied"}]}', "tool_error"),
        ("Error: division by zero", "exception"),
        ("[ERROR] disk full", "exception"),
        ("ValueError: invalid literal for int()", "exception"),
        ("Exception: worker crashed", "exception"),
        ("Traceback (most recent call last):\n  File \"t.py\"\nKeyError: 'city'", "exception"),
        ("Traceback (most recent call last):\n  ...\nTimeoutError: timed out", "timeout"),
        ("HTTP 404", "http_error"),
        ("HTTP/1.1 500 Internal Server Error", "http_error"),
        ("404 Not Found", "http_error"),
        ("500 Internal Server Error", "http_error"),
        ("Error: request failed with status code 503", "http_error"),
        ("Request timed out", "timeout"),
        ("The read operation timed out", "timeout"),
        ("ReadTimeout: HTTPSConnectionPool(host='api.example.com')", "timeout"),
        ("timeout", "timeout"),
        ("Failed to fetch https://example.com/feed", "tool_error"),
    ],
)
def test_each_failure_shape_is_detected(result_text: str, error_type: str) -> None:
    assert detect_error(result_text) == error_type


@pytest.mark.parametrize(
    "result_text",
    [
        '{"result": "no error found"}',
        '{"errors": [], "data": [1, 2]}',
        '{"error": null, "temp_c": 21}',
        '{"status": "ok", "code": 200}',
        '{"code": 75001, "city": "Paris"}',
        '["error", "warning"]',
        "No errors found in the log.",
        "Error rate: 0.2% over the last hour",
        "Exception handling in Python uses try / except.",
        "Found 3 results about error handling best practices.",
        "Timeout settings: 30 s",
        "404 pages are a common annoyance.",
        "HTTP 200 OK",
        "",
    ],
)
def test_normal_results_that_mention_errors_are_not_failures(result_text: str) -> None:
    assert detect_error(result_text) is None


# ------------------------------------------------------------------- trajectory


def test_a_trajectory_renders_request_calls_results_and_answer() -> None:
    item = parse(weather_trip())
    assert item.memory.split("\n") == [
        "User request: Weather in Paris and Rome?",
        'Tool call 1: get_weather(city="Paris") → success: {"temp_c": 21, "sky": "clear"}',
        'Tool call 2: get_weather(city="Rome") → failed (http_error 500): '
        "HTTP 500 Internal Server Error",
        "Answer: Paris: 21°C and clear. Rome: unavailable.",
    ]
    assert item.metadata.memory_type == "ToolTrajectoryMemory"


def test_tool_uses_record_arguments_outcomes_and_previews() -> None:
    paris, rome = parse(weather_trip()).metadata.tools
    assert (paris.name, paris.arguments, paris.call_id) == ("get_weather", {"city": "Paris"}, "c1")
    assert (paris.success, paris.error_type) == (True, None)
    assert (rome.success, rome.error_type) == (False, "http_error")
    assert rome.result_preview == "HTTP 500 Internal Server Error"


def test_a_json_result_shows_its_escaped_characters_as_written() -> None:
    escaped = json.dumps({"summary": "drizzle, 19°C", "city": "Zürich"})  # ASCII-only JSON
    item = parse(weather_trip(rome_result=escaped))
    _, rome = item.metadata.tools
    assert rome.result_preview == '{"summary": "drizzle, 19°C", "city": "Zürich"}'
    assert "19°C" in item.memory and "\\u00b0" not in item.memory
    not_json = "temperature 19\\u00b0C (raw)"
    _, raw = parse(weather_trip(rome_result=not_json)).metadata.tools
    assert raw.result_preview == not_json  # only JSON is decoded


def test_a_long_result_is_previewed_in_at_most_300_characters() -> None:
    big = json.dumps({"rows": [{"id": n, "name": f"row {n}"} for n in range(200)]})
    _, rome = parse(weather_trip(rome_result=big)).metadata.tools
    assert rome.success is True
    assert len(rome.result_preview) <= 300 and big.startswith(rome.result_preview[:-1])


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        ('{"q": "pizza", "n": 3}', {"q": "pizza", "n": 3}),
        ("", {}),
        ("pizza near me", "pizza near me"),
        ("[1, 2]", "[1, 2]"),
        ({"q": "x"}, {"q": "x"}),
    ],
)
def test_arguments_are_a_dict_when_json_and_the_raw_string_otherwise(raw: Any, parsed: Any) -> None:
    assert parse_arguments(raw) == parsed


def test_non_json_arguments_are_shown_as_given() -> None:
    search = calls(call("c1", "search", "pizza near me"))
    steps = Trajectory(messages=[search, result("c1", "3 places found")])
    item = parse(steps)
    assert item.metadata.tools[0].arguments == "pizza near me"
    assert "Tool call 1: search(pizza near me) → success: 3 places found" in item.memory


@pytest.mark.parametrize(
    ("rome_result", "correctness"),
    [('{"temp_c": 18}', "success"), ("HTTP 500 Internal Server Error", "partial")],
)
def test_correctness_says_whether_the_calls_succeeded(rome_result: str, correctness: str) -> None:
    assert parse(weather_trip(rome_result)).metadata.correctness == correctness


def test_all_calls_failing_is_failed_and_no_results_is_unknown() -> None:
    failed = Trajectory(messages=[calls(call("c1", "lookup", {})), result("c1", "Error: boom")])
    pending = Trajectory(messages=[calls(call("c1", "lookup", {}))])
    assert parse(failed).metadata.correctness == "failed"
    item = parse(pending)
    assert item.metadata.correctness == "unknown"
    assert item.metadata.tools[0].success is None
    assert "Tool call 1: lookup() → no result" in item.memory


def test_a_result_without_a_call_id_is_matched_to_the_waiting_call() -> None:
    steps = Trajectory(
        messages=[
            calls(call("c1", "get_time", {}), call("c2", "get_date", {})),
            result(None, "2025-06-01", name="get_date"),
            result(None, "12:00"),
        ]
    )
    time_use, date_use = parse(steps).metadata.tools
    assert (time_use.result_preview, date_use.result_preview) == ("12:00", "2025-06-01")


@pytest.mark.parametrize(("name", "expected"), [("get_stock", "get_stock"), (None, "unknown_tool")])
def test_a_lone_tool_result_is_a_trajectory_of_one_call(name: str | None, expected: str) -> None:
    item = parse(Trajectory(messages=[result("c9", '{"price": 12.5}', name=name)]))
    [use] = item.metadata.tools
    assert (use.name, use.call_id, use.success) == (expected, "c9", True)
    assert item.memory == f'Tool call 1: {expected} → success: {{"price": 12.5}}'
    assert item.metadata.memory_type == "ToolTrajectoryMemory"


def test_sources_tags_time_and_persons() -> None:
    item = parse(weather_trip())
    assert [s.message_id for s in item.metadata.sources] == ["u1", "a1", "t1", "t2", "a2"]
    assert {s.kind for s in item.metadata.sources} == {"tool"}
    assert [s.tool_call_id for s in item.metadata.sources] == [None, None, "c1", "c2", None]
    assert item.metadata.tags == ["get_weather"]
    assert item.metadata.timestamp == "2025-06-01T12:00:05+00:00"
    assert item.metadata.persons == ["Lea"]


def test_ids_are_stable_and_change_when_a_result_changes() -> None:
    a, b = parse(weather_trip()).id, parse(weather_trip()).id
    c = parse(weather_trip(rome_result='{"temp_c": 18}')).id
    assert a == b != c


def test_each_source_rebuilds_its_step_and_the_whole_trajectory_rebuilds_too() -> None:
    trip = weather_trip()
    item = parse(trip)
    for source, original in zip(item.metadata.sources, trip.messages):
        [m] = PARSER.rebuild_from_source(source).messages
        assert (m.role, m.text()) == (original.role, original.text())
        assert m.message_id == original.message_id
        assert m.tool_calls == original.tool_calls
        assert m.tool_call_id == original.tool_call_id
    assert PARSER.rebuild_from_source(PARSER.create_source(trip)) == trip
    again = parse(PARSER.rebuild_from_source(PARSER.create_source(trip)))
    assert again.id == item.id


def test_an_empty_trajectory_is_an_empty_error() -> None:
    with pytest.raises(EmptyInputError):
        PARSER.parse_fast(Trajectory(messages=[Message(role="user", content=" ")]), CTX)


def test_fine_mode_without_an_llm_names_the_flag_to_pass() -> None:
    with pytest.raises(FineModeUnavailableError, match="--llm"):
        PARSER.parse(weather_trip(), ParseContext(mode="fine"))


def test_a_routed_tool_result_without_its_call_becomes_a_lone_trajectory() -> None:
    import omnireader.intake.router as router

    [task] = router.route({"role": "tool", "tool_call_id": "c1", "name": "ping", "content": "pong"})
    assert task.parser == "tool"
    assert [u.name for u in parse(task.payload).metadata.tools] == ["ping"]

"""Chat backends over real HTTP: the real openai / ollama clients against the test LLM server.

Each test says what a backend does when a server behaves well or badly: structured output,
format fallbacks, re-asks, retries with backoff, timeouts, images, speech and the concurrency cap.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator

import pytest
from pydantic import BaseModel

from omnireader.errors import LLMError
from omnireader.llm import (
    ChatBackend,
    ExtractedMemory,
    Extraction,
    OllamaChatBackend,
    OpenAIChatBackend,
    RetryPolicy,
    TrajectoryReview,
)
from omnireader.llm.json_reply import grammar_json_schema
from tests.support import LLAMA_CPP_JSON_SCHEMA_ERROR, ChatRequest, Fault, LLMServer

FAST_RETRY = RetryPolicy(max_attempts=3, base_delay=0.001, max_delay=0.01)
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
ASK = [{"role": "user", "content": "<text>\nAlice moved to Berlin on 2024-05-03.\n</text>"}]


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


def make(kind: str, srv: LLMServer, **kwargs: object) -> ChatBackend:
    opts: dict = {"retry": FAST_RETRY, "timeout": 2.0} | kwargs
    if kind == "openai":
        return OpenAIChatBackend(
            "gpt-test", base_url=srv.openai_base_url, api_key="sk-test", **opts
        )
    return OllamaChatBackend("qwen-test", host=srv.ollama_host, **opts)


BOTH = pytest.mark.parametrize("kind", ["openai", "ollama"])


def berlin(req: ChatRequest) -> Extraction:
    """A responder that answers like a good model would, from the request's data."""
    return Extraction(
        memories=[
            ExtractedMemory(
                memory="Alice moved to Berlin on 2024-05-03.",
                key="Alice moves",
                persons=["Alice"],
                timestamp="2024-05-03",
                source_indexes=[0],
            )
        ],
        summary=req.data_text.strip()[:40],
    )


# -- structured output -------------------------------------------------------------------------


@BOTH
def test_structured_reply_is_validated_into_the_schema_with_token_usage(
    kind: str, server: LLMServer
) -> None:
    server.responder = berlin
    result, usage = make(kind, server).complete_json(ASK, Extraction)
    assert result.memories[0].persons == ["Alice"]
    assert result.summary == "Alice moved to Berlin on 2024-05-03."
    assert usage.calls == 1 and usage.prompt_tokens > 0 and usage.completion_tokens > 0
    (req,) = server.requests_to("chat")
    if kind == "openai":
        rf = req.json["response_format"]
        assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
        item = rf["json_schema"]["schema"]["$defs"]["ExtractedMemory"]
        assert item["additionalProperties"] is False and set(item["required"]) == set(
            ExtractedMemory.model_fields
        )
    else:
        assert req.json["format"] == Extraction.model_json_schema() and req.json["stream"] is False


def test_server_that_rejects_json_schema_gets_json_object_and_the_downgrade_is_remembered(
    server: LLMServer,
) -> None:
    server.json_schema_supported = False
    backend = make("openai", server)
    first, _ = backend.complete_json(ASK, Extraction)
    second, _ = backend.complete_json(ASK, Extraction)
    modes = [(r.json.get("response_format") or {}).get("type") for r in server.requests_to("chat")]
    assert modes == ["json_schema", "json_object", "json_object"]
    assert backend.json_mode == "json_object" and first == second
    # json_object cannot enforce a shape, so the schema travels in the system prompt.
    assert '"memories"' in server.requests_to("chat")[1].json["messages"][0]["content"]


def test_llama_cpp_refusal_of_json_schema_with_http_500_steps_down_to_json_object_with_schema(
    server: LLMServer,
) -> None:
    # llama-cpp-python's server answers json_schema with HTTP 500 and a validation error.
    server.json_schema_rejection = LLAMA_CPP_JSON_SCHEMA_ERROR
    server.responder = berlin
    backend = make("openai", server)
    result, _ = backend.complete_json(ASK, Extraction)
    assert result.memories[0].persons == ["Alice"]
    refused, asked = server.requests_to("chat")
    assert refused.json["response_format"]["type"] == "json_schema"
    # json_object carries the strict schema, every string and list bounded: llama.cpp turns
    # it into a grammar, and a bounded grammar always ends.
    assert asked.json["response_format"] == {
        "type": "json_object",
        "schema": grammar_json_schema(Extraction),
    }
    assert backend.json_mode == "json_object"


def test_the_step_down_is_remembered_for_the_server_by_later_backends(server: LLMServer) -> None:
    server.json_schema_rejection = LLAMA_CPP_JSON_SCHEMA_ERROR
    make("openai", server).complete_json(ASK, Extraction)
    later = make("openai", server)
    assert later.json_mode == "json_object"
    server.reset()
    later.complete_json(ASK, Extraction)
    [only] = server.requests_to("chat")  # no refusal paid again
    assert only.json["response_format"]["type"] == "json_object"
    # An explicit mode is the user's: it is not overridden.
    assert OpenAIChatBackend("m", base_url=server.openai_base_url, json_mode="plain").json_mode == (
        "plain"
    )


def test_a_server_error_that_does_not_name_the_format_is_retried_not_stepped_down(
    server: LLMServer,
) -> None:
    server.inject("chat", Fault.server_error(500))
    backend = make("openai", server)
    backend.complete_json(ASK, Extraction)
    modes = [r.json["response_format"]["type"] for r in server.requests_to("chat")]
    assert modes == ["json_schema", "json_schema"] and backend.json_mode == "json_schema"


def test_a_rate_limit_that_mentions_response_format_is_not_a_format_refusal(
    server: LLMServer,
) -> None:
    server.inject(
        "chat", Fault.status(429, retry_after=0.01, message="too many response_format requests")
    )
    backend = make("openai", server)
    backend.complete_json(ASK, Extraction)
    assert backend.json_mode == "json_schema"


def test_server_without_any_response_format_is_asked_by_prompt_alone(server: LLMServer) -> None:
    server.json_schema_supported = server.json_object_supported = False
    backend = make("openai", server)
    result, _ = backend.complete_json(
        [{"role": "system", "content": "Be brief."}, *ASK], TrajectoryReview
    )
    last = server.requests_to("chat")[-1].json
    assert backend.json_mode == "plain" and "response_format" not in last
    assert last["messages"][0]["content"].startswith(
        "Be brief."
    )  # merged into the one system message
    assert result.correctness in ("success", "failed", "partial")


def test_fenced_json_with_chatter_is_accepted_without_a_re_ask(server: LLMServer) -> None:
    server.inject(
        "chat",
        Fault.reply('Here you go:\n```json\n{"memories": [{"memory": "Tea is green."}]}\n```'),
    )
    result, usage = make("openai", server).complete_json(ASK, Extraction)
    assert result.memories[0].memory == "Tea is green." and usage.calls == 1


# -- re-asks ---------------------------------------------------------------------------------------


@BOTH
def test_wrong_schema_is_re_asked_once_with_the_validation_error(
    kind: str, server: LLMServer
) -> None:
    server.responder = berlin
    server.inject("chat", Fault.wrong_schema('{"facts": ["Alice moved"]}'))
    result, usage = make(kind, server).complete_json(ASK, Extraction)
    assert result.memories[0].timestamp == "2024-05-03" and usage.calls == 2
    retry_msgs = server.requests_to("chat")[1].json["messages"]
    assert retry_msgs[-2] == {"role": "assistant", "content": '{"facts": ["Alice moved"]}'}
    assert "memories" in retry_msgs[-1]["content"] and "did not match" in retry_msgs[-1]["content"]


@BOTH
def test_wrong_schema_twice_raises_wrong_schema(kind: str, server: LLMServer) -> None:
    server.inject("chat", [Fault.wrong_schema(), Fault.wrong_schema()])
    with pytest.raises(LLMError) as err:
        make(kind, server).complete_json(ASK, Extraction)
    assert err.value.reason == "wrong_schema" and len(server.requests_to("chat")) == 2


@BOTH
def test_non_json_reply_is_re_asked_and_twice_raises_bad_json(kind: str, server: LLMServer) -> None:
    backend = make(kind, server)
    server.inject("chat", Fault.non_json())
    result, usage = backend.complete_json(ASK, Extraction)
    assert (
        usage.calls == 2
        and "not valid JSON" in server.requests_to("chat")[1].json["messages"][-1]["content"]
    )
    server.inject("chat", [Fault.non_json(), Fault.non_json("")])
    with pytest.raises(LLMError) as err:
        backend.complete_json(ASK, Extraction)
    assert err.value.reason == "bad_json"


# -- retries ---------------------------------------------------------------------------------------


@BOTH
def test_rate_limit_waits_for_retry_after_then_succeeds(kind: str, server: LLMServer) -> None:
    server.inject("chat", Fault.rate_limited(retry_after=0.3))
    _, usage = make(kind, server).complete_json(ASK, Extraction)
    first, second = server.requests_to("chat")
    # Backoff alone would wait ~1 ms; only the header explains a gap this long.
    assert usage.calls == 2 and second.received_at - first.received_at >= 0.28


@BOTH
def test_server_errors_are_retried_then_succeed(kind: str, server: LLMServer) -> None:
    server.inject("chat", [Fault.server_error(500), Fault.server_error(503)])
    _, usage = make(kind, server).complete_json(ASK, Extraction)
    assert usage.calls == 3


@BOTH
@pytest.mark.parametrize(
    "fault, reason",
    [
        (Fault.rate_limited(retry_after=0.01), "rate_limited"),
        (Fault.server_error(), "server_error"),
        (Fault.broken_body(), "bad_response"),
        (Fault.disconnect(), "transport"),
    ],
)
def test_persistent_failures_stop_after_the_attempt_limit(
    kind: str, fault: Fault, reason: str, server: LLMServer
) -> None:
    server.inject("chat", [fault] * 5)
    with pytest.raises(LLMError) as err:
        make(kind, server).complete_json(ASK, Extraction)
    assert err.value.reason == reason and len(server.requests_to("chat")) == FAST_RETRY.max_attempts


@BOTH
def test_timeouts_raise_timeout_after_bounded_retries(kind: str, server: LLMServer) -> None:
    server.inject("chat", [Fault.timeout(10)] * 3)
    with pytest.raises(LLMError) as err:
        make(kind, server, timeout=0.2).complete_json(ASK, Extraction)
    assert err.value.reason == "timeout" and "3 attempts" in str(err.value)
    assert len(server.requests_to("chat")) == 3


@BOTH
@pytest.mark.parametrize(
    "status, reason", [(401, "auth"), (404, "not_found"), (400, "bad_request")]
)
def test_client_errors_fail_at_once_without_retrying(
    kind: str, status: int, reason: str, server: LLMServer
) -> None:
    server.inject("chat", Fault.status(status, message="model 'x' not available"))
    with pytest.raises(LLMError) as err:
        make(kind, server).complete_json(ASK, Extraction)
    assert err.value.reason == reason and len(server.requests_to("chat")) == 1


# -- images, speech, concurrency ------------------------------------------------------------------


def test_openai_images_arrive_as_image_parts_of_the_last_user_message(server: LLMServer) -> None:
    make("openai", server).complete_json(
        ASK, Extraction, images=[PNG, "https://example.org/cat.jpg"]
    )
    content = server.requests_to("chat")[0].json["messages"][-1]["content"]
    assert content[0] == {"type": "text", "text": ASK[0]["content"]}
    assert (
        content[1]["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(PNG).decode()
    )
    assert content[2]["image_url"]["url"] == "https://example.org/cat.jpg"


def test_ollama_images_arrive_as_base64_on_the_message(server: LLMServer) -> None:
    make("ollama", server).complete_json(ASK, Extraction, images=[PNG])
    msg = server.requests_to("chat")[0].json["messages"][-1]
    assert msg["images"] == [base64.b64encode(PNG).decode()] and msg["content"] == ASK[0]["content"]


def test_ollama_refuses_image_links_it_cannot_fetch(server: LLMServer) -> None:
    with pytest.raises(LLMError) as err:
        make("ollama", server).complete_json(
            ASK, Extraction, images=["https://example.org/cat.jpg"]
        )
    assert err.value.reason == "unsupported" and server.requests_to("chat") == []


def test_calls_with_images_go_to_the_vision_backend(server: LLMServer) -> None:
    main = make("ollama", server)
    main.vision = make("openai", server)
    main.complete_json(ASK, Extraction)
    main.complete_json(ASK, Extraction, images=[PNG])
    assert [r.path for r in server.requests_to("chat")] == ["/api/chat", "/v1/chat/completions"]
    assert main.total_usage.calls == 2 and main.usage.calls == 1


def test_transcription_returns_the_segments_with_their_times(server: LLMServer) -> None:
    audio = b"ID3" + b"\x01" * 64
    server.register_transcript(
        audio, [(0.0, 2.5, " Call Bob tomorrow. "), (2.5, 4.0, "Budget is 40 EUR.")]
    )
    backend = OpenAIChatBackend("whisper-1", base_url=server.openai_base_url, retry=FAST_RETRY)
    tr = backend.transcribe(audio, "memo", "mp3")
    assert tr.text == "Call Bob tomorrow. Budget is 40 EUR."
    assert [(s.start, s.end, s.text) for s in tr.segments] == [
        (0.0, 2.5, "Call Bob tomorrow."),
        (2.5, 4.0, "Budget is 40 EUR."),
    ]
    (req,) = server.requests_to("transcriptions")
    assert req.files["file"] == ("memo.mp3", audio)
    assert req.form["model"] == "whisper-1" and req.form["response_format"] == "verbose_json"


def test_transcription_is_retried_on_server_errors(server: LLMServer) -> None:
    server.inject("transcriptions", Fault.server_error())
    tr = OpenAIChatBackend(
        "whisper-1", base_url=server.openai_base_url, retry=FAST_RETRY
    ).transcribe(b"RIFF", "a.wav")
    assert (
        tr.text == "transcript of 4 bytes from a.wav"
        and len(server.requests_to("transcriptions")) == 2
    )


def test_ollama_cannot_transcribe_and_says_what_to_configure(server: LLMServer) -> None:
    with pytest.raises(LLMError) as err:
        make("ollama", server).transcribe(b"RIFF", "a.wav")
    assert err.value.reason == "unsupported" and "--speech-model" in str(err.value)
    assert server.requests == []


@BOTH
def test_requests_in_flight_never_exceed_the_concurrency_limit(
    kind: str, server: LLMServer
) -> None:
    server.latency = 0.1
    backend = make(kind, server, concurrency=3)

    async def many() -> list[tuple[BaseModel, object]]:
        try:
            return await asyncio.gather(
                *(backend.acomplete_json(ASK, Extraction) for _ in range(10))
            )
        finally:
            await backend.aclose()

    results = asyncio.run(many())
    assert len(results) == 10 and len(server.requests_to("chat")) == 10
    assert server.max_in_flight == 3 and backend.limiter.peak == 3


def test_sync_wrapper_also_works_inside_a_running_event_loop(server: LLMServer) -> None:
    backend = make("openai", server)

    async def from_async_code() -> Extraction:
        return backend.complete_json(ASK, Extraction)[0]

    assert isinstance(asyncio.run(from_async_code()), Extraction)
    assert isinstance(backend.complete_json(ASK, Extraction)[0], Extraction)  # and again, new loop
    assert len(server.requests_to("chat")) == 2


@pytest.mark.parametrize("mode", ["json_schema", "json_object", "plain"])
def test_openai_body_is_what_chat_completions_create_would_send(mode: str) -> None:
    """The backend posts its body as it is, skipping create()'s type-driven transform: that
    is only right while the transform leaves such a body unchanged."""
    from openai._utils._transform import async_maybe_transform
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    from omnireader.llm.images import attach_images
    from omnireader.llm.openai_backend import OpenAIChatBackend

    backend = OpenAIChatBackend("m", base_url="http://127.0.0.1:9/v1", api_key="x", temperature=0.2)
    png = base64.b64decode(
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
    )
    convo = attach_images(
        [
            {"role": "system", "content": "Read."},
            {"role": "user", "content": "<text>Berlin</text>", "name": "u"},
        ],
        [png],
    )
    body = backend._request(convo, Extraction, mode)
    assert asyncio.run(async_maybe_transform(body, CompletionCreateParamsNonStreaming)) == body


def test_openai_calls_on_a_cold_event_loop_start_no_worker_threads(server: LLMServer) -> None:
    """A new client used to look its platform up in a thread on its first requests, one
    thread per request already waiting: a CLI run's first 16 calls each waited on a thread
    start before their bytes went out. The value is now computed once per process."""
    import concurrent.futures

    class CountingPool(concurrent.futures.ThreadPoolExecutor):
        submitted = 0

        def submit(self, *args: object, **kwargs: object) -> concurrent.futures.Future:  # type: ignore[override]
            CountingPool.submitted += 1
            return super().submit(*args, **kwargs)  # type: ignore[arg-type]

    server.latency = 0.05
    backend = make("openai", server, concurrency=8)
    asyncio.run(backend.acomplete_json(ASK, Extraction))  # this process's first client

    async def cold() -> list[tuple[Extraction, object]]:
        asyncio.get_running_loop().set_default_executor(CountingPool())
        try:
            return await asyncio.gather(
                *(backend.acomplete_json(ASK, Extraction) for _ in range(8))
            )
        finally:
            await backend.aclose()

    results = asyncio.run(cold())
    assert len(results) == 8 and all(isinstance(r[0], Extraction) for r in results)
    assert CountingPool.submitted == 0
    sent = {k.lower(): v for k, v in server.requests_to("chat")[-1].headers.items()}
    assert sent.get("x-stainless-os")  # the header is still sent


@pytest.mark.parametrize(
    "body", [b"[1, 2]", b'{"choices": [{"message": {"content": 42}}]}', b"<html>"]
)
def test_openai_reply_that_is_not_a_chat_completion_is_a_value_error(body: bytes) -> None:
    """The reply is read from the raw body; what is not a chat completion raises ValueError,
    which the retry layer treats as an unreadable reply (``bad_response``)."""
    from omnireader.llm.openai_backend import _chat_reply

    with pytest.raises(ValueError):
        _chat_reply(body)
    reply = _chat_reply(
        b'{"choices": [{"message": {"content": "{}"}}], "usage": {"prompt_tokens": 7}}'
    )
    assert (reply.content, reply.prompt_tokens, reply.completion_tokens) == ("{}", 7, 0)
    assert _chat_reply(b'{"choices": []}').content is None


@BOTH
def test_max_tokens_bounds_each_reply(kind: str, server: LLMServer) -> None:
    make(kind, server, max_tokens=64).complete_json(ASK, Extraction)
    (req,) = server.requests_to("chat")
    if kind == "openai":
        assert req.json["max_tokens"] == 64
    else:
        assert req.json["options"]["num_predict"] == 64

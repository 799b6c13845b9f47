"""Replies that do not end: a small model looping inside a string until ``max_tokens``.

Two defences, both exercised over real HTTP against the scripted server (which cuts its reply
at the request's ``max_tokens`` and says ``finish_reason: length``, as real servers do):
the grammar schema bounds every string and list, so a server that compiles it (llama.cpp)
always closes the JSON; and a reply cut anyway is closed after its last complete part, so
what the model finished is kept and what it did not is dropped, never stored half.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from omnireader.errors import LLMError
from omnireader.llm import OllamaChatBackend, OpenAIChatBackend, RetryPolicy
from omnireader.llm.json_reply import close_truncated, grammar_json_schema, strict_json_schema
from omnireader.llm.schemas import ExtractedMemory, Extraction
from tests.support import ChatRequest, LLMServer

ASK = [{"role": "user", "content": "<text>\nAlice moved to Berlin. Bo stayed in Rome.\n</text>"}]
ONE_TRY = RetryPolicy(max_attempts=1)


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


def two_facts_then_a_loop(req: ChatRequest) -> str:
    """Two good memories, then a third whose text repeats until the server cuts it."""
    good = [
        ExtractedMemory(memory="Alice moved to Berlin.", persons=["Alice"]).model_dump(),
        ExtractedMemory(memory="Bo stayed in Rome.", persons=["Bo"]).model_dump(),
    ]
    head = json.dumps({"memories": good})[:-2]  # drop the closing "]}"
    return head + ', {"memory": "' + "Alice moved to Berlin and " * 400


def walk(node: object) -> Iterator[dict]:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def test_the_grammar_schema_bounds_every_string_and_list_and_the_strict_one_none() -> None:
    grammar = grammar_json_schema(Extraction)
    strings = [n for n in walk(grammar) if n.get("type") == "string" and "enum" not in n]
    lists = [n for n in walk(grammar) if n.get("type") == "array"]
    assert strings and lists
    assert all(isinstance(n.get("maxLength"), int) for n in strings)
    assert all(isinstance(n.get("maxItems"), int) for n in lists)
    # A field's own bound wins over the default: a memory may be longer than a tag.
    memory = grammar["$defs"]["ExtractedMemory"]["properties"]["memory"]
    tags = grammar["$defs"]["ExtractedMemory"]["properties"]["tags"]
    assert memory["maxLength"] > tags["items"]["maxLength"]
    # OpenAI's strict mode refuses these keywords: they never reach json_schema requests.
    assert not [n for n in walk(strict_json_schema(Extraction)) if "maxLength" in n]
    # Bounds are not validated on the way back: a good model's long memory still parses.
    assert Extraction.model_validate({"memories": [{"memory": "x" * 2000}]})


def test_a_cut_reply_is_closed_after_each_part_that_completed_longest_first() -> None:
    cut = '{"memories": [{"memory": "a", "tags": ["x"]}, {"memory": "b is [cut'
    assert close_truncated(cut) == [
        '{"memories": [{"memory": "a", "tags": ["x"]}]}',
    ]
    # Brackets and quotes inside strings are text, not structure.
    assert close_truncated('{"a": "x\\"}]", "b": [1, {"c": 2}, 3') == [
        '{"a": "x\\"}]", "b": [1, {"c": 2}]}'
    ]
    assert close_truncated('{"a": 1}') == ['{"a": 1}']
    assert close_truncated("no json here") == []


@pytest.mark.parametrize("kind", ["openai", "ollama"])
def test_a_reply_cut_at_max_tokens_keeps_the_memories_it_finished(
    server: LLMServer, kind: str
) -> None:
    server.responder = two_facts_then_a_loop
    opts = {"retry": ONE_TRY, "timeout": 5.0, "max_tokens": 300}
    backend = (
        OpenAIChatBackend("m", base_url=server.openai_base_url, **opts)
        if kind == "openai"
        else OllamaChatBackend("m", host=server.ollama_host, **opts)
    )
    result, usage = backend.complete_json(ASK, Extraction)
    assert [m.memory for m in result.memories] == ["Alice moved to Berlin.", "Bo stayed in Rome."]
    # Closed, not re-asked: asking again would only loop again.
    assert usage.repaired == 1 and usage.reasked == 0 and usage.calls == 1
    assert backend.usage.repaired == 1


def test_a_cut_reply_with_nothing_complete_is_re_asked_then_fails_as_bad_json(
    server: LLMServer,
) -> None:
    server.responder = lambda req: '{"memories": [{"memory": "' + "loop " * 900
    backend = OpenAIChatBackend(
        "m", base_url=server.openai_base_url, retry=ONE_TRY, timeout=5.0, max_tokens=200
    )
    with pytest.raises(LLMError) as err:
        backend.complete_json(ASK, Extraction)
    assert err.value.reason == "bad_json"
    assert backend.usage.reasked == 1 and backend.usage.repaired == 0
    assert backend.usage.calls == 2


def test_a_complete_reply_is_not_counted_as_repaired(server: LLMServer) -> None:
    backend = OpenAIChatBackend("m", base_url=server.openai_base_url, retry=ONE_TRY, timeout=5.0)
    _, usage = backend.complete_json(ASK, Extraction)
    assert usage.repaired == 0 and usage.reasked == 0 and usage.calls == 1

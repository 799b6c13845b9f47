"""Fine mode against a real llama.cpp server (llama-cpp-python serving SmolLM2-135M-Instruct
on 127.0.0.1): what only a real model shows. The server refuses ``json_schema`` with HTTP 500
and the backend steps down to ``json_object`` with the schema; every reply then parses; and
the guard keeps the small model's placeholders and invented people out of the items.

Few calls, short replies: a 135M model on one free core answers a fine-mode prompt (~1,500
tokens in, at most 320 out) in about half a minute; on cores shared many ways it may take
ten (measured here under a load of 25 on 2 cores: the fine read timed out).
Skipped, naming the install command, where llama-cpp-python or the model is not installed.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from omnireader.llm import OpenAIChatBackend, RetryPolicy
from omnireader.reading.reader import Reader
from tests.support import LLAMA_CPP_JSON_SCHEMA_ERROR

ASK = [
    {
        "role": "user",
        "content": "Extract the facts as JSON.\n<text>\nAlice moved to Berlin in May 2024.\n</text>",
    }
]
CHAT = [
    {
        "role": "user",
        "name": "Ana",
        "content": "I fly to Oslo tomorrow for the design fair.",
        "chat_time": "2025-11-15T14:30:00",
        "message_id": "m0",
    },
    {
        "role": "assistant",
        "content": "Have a good trip to the fair, Ana!",
        "chat_time": "2025-11-15T14:31:00",
        "message_id": "m1",
    },
]


def backend(srv: Any) -> OpenAIChatBackend:
    return OpenAIChatBackend(
        "smollm2",
        base_url=srv.openai_base_url,
        timeout=600.0,  # a shared CI core: slow, but it answers
        # A cut reply is closed after its last complete memory: a short bound is enough.
        max_tokens=320,
        temperature=0.0,
        concurrency=1,
        # One attempt: a retry of a call that timed out on a busy machine only doubles the wait.
        retry=RetryPolicy(max_attempts=1),
    )


def test_the_real_server_refuses_json_schema_as_the_test_server_replays_it(
    llama_server: Any,
) -> None:
    r = httpx.post(
        f"{llama_server.openai_base_url}/chat/completions",
        json={
            "model": "smollm2",
            "messages": ASK,
            "max_tokens": 8,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "x", "schema": {"type": "object"}},
            },
        },
        timeout=60,
    )
    status, message = LLAMA_CPP_JSON_SCHEMA_ERROR
    assert r.status_code == status
    got = r.json()["error"]["message"]
    # Word for word, up to the path of the installed server's source.
    assert got.split("\n\n  File")[0] == message.split("\n\n  File")[0]
    assert got.endswith(message.split('.py"')[1])


def test_a_fine_read_steps_down_parses_and_stores_no_placeholder_or_absent_person(
    llama_server: Any,
) -> None:
    llm = backend(llama_server)
    reader = Reader(llm=llm)
    report = reader.read_report(CHAT, info={"user_id": "u"}, mode="fine")
    assert llm.json_mode == "json_object"  # json_schema was refused (HTTP 500)
    assert llm.usage.prompt_tokens > 0 and llm.usage.completion_tokens > 0
    # JSON that parses after the step down: the grammar bounds every string, and a reply cut at
    # max_tokens is closed after its last complete memory. No item failed for its shape.
    assert not {"bad_json", "wrong_schema", "bad_request"} & set(report.refine_reasons)
    said = " ".join(m["content"] for m in CHAT) + " Ana user assistant"
    for item in report.items:
        if item.metadata.mode != "fine":
            assert item.metadata.refine_status in ("failed", "refined")
            continue
        assert not re.search(r"<[A-Za-z][^<>]*>|\$\{|^\W*$", item.memory), item.memory
        assert item.memory.strip(" .") not in ("", "...", "…")
        for person in item.metadata.persons:
            assert any(w.lower() in said.lower() for w in re.findall(r"\w+", person)), person
    # Nothing was lost: every message is in a fine item's sources or a fast item.
    assert report.items
    totals = reader.refiner.totals
    print("refined", totals.refined, "failed", totals.reasons, "rejected", totals.rejected)


pytestmark = pytest.mark.filterwarnings("ignore::omnireader.errors.OmniReaderWarning")

"""Fine mode through the service: an item the LLM could not refine is stored fast, and the
job record and the read response count it by reason (never a silent downgrade)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from omnireader.llm import LLMConfig, RetryPolicy, make_chat_backend
from tests.support import ChatRequest, LLMServer, default_responder

from .conftest import Running, wait_job


def bees_not_json(req: ChatRequest) -> str:
    """Anything about Bob gets prose instead of JSON; the rest a schema-valid answer."""
    return "Sure! Bob keeps bees." if "Bob" in req.data_text else default_responder(req)


@pytest.fixture
def fine_server(serve: Callable[..., Running]) -> Iterator[Running]:
    with LLMServer() as llm_server:
        llm_server.responder = bees_not_json
        llm = make_chat_backend(
            "openai:test-model",
            config=LLMConfig(
                openai_base_url=llm_server.openai_base_url, openai_api_key="k", timeout=5.0
            ),
        )
        assert llm is not None
        llm.retry = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.02)
        yield serve(insecure_no_auth=True, llm=llm)


def test_a_fine_job_records_the_items_left_fast_by_reason(fine_server: Running) -> None:
    with fine_server.client() as c:
        r = c.post(
            "/v1/ingest",
            files=[
                ("files", ("alice.md", b"Alice moved to Berlin in May 2024.", "text/plain")),
                ("files", ("bob.md", b"Bob keeps bees on the roof.", "text/plain")),
            ],
            data={"mode": "fine"},
        )
        assert r.status_code == 202, r.text
        job = wait_job(c, r.json()["job_id"], timeout=240)
    assert job["status"] == "done" and job["failures"] == []
    assert job["refine_failed"] == 1 and job["refine_reasons"] == {"bad_json": 1}


def test_a_fine_read_counts_the_items_left_fast(fine_server: Running) -> None:
    with fine_server.client() as c:
        body = c.post(
            "/v1/read",
            json={
                "inputs": ["Alice moved to Berlin in May 2024.", "Bob keeps bees on the roof."],
                "mode": "fine",
            },
        ).json()
    assert body["fine_items"] == 1
    assert body["refine_failed"] == 1 and body["refine_reasons"] == {"bad_json": 1}

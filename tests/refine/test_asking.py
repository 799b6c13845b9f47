"""A fine task's guard is built while its request is out, over real HTTP: the openai client
says when the request is written; a backend that cannot say it builds it after the reply;
an LLM error still wins over an error of the guard."""

from __future__ import annotations

import asyncio
import threading

import pytest

from omnireader.errors import LLMError
from omnireader.llm.schemas import Extraction
from omnireader.refine.asking import ask_while
from tests.support import Fault, LLMServer

from .conftest import build_backend, memories

MESSAGES = [{"role": "user", "content": "<text>\nAna moved to Oslo in May 2024.\n</text>"}]


def test_the_work_runs_while_the_request_is_out(server: LLMServer) -> None:
    ran = threading.Event()
    seen: list[bool] = []

    def respond(req: object) -> str:
        # The server answers only once the work ran (or after 10 s): run after the reply,
        # the work would find the reply already there and ``seen`` would say False.
        seen.append(ran.wait(10))
        return memories("Ana moved to Oslo in May 2024.")

    server.responder = respond
    backend = build_backend("openai", server, timeout=30)

    def work() -> int:
        ran.set()
        return len(server.requests_to("chat"))

    got, done = backend.run_sync(ask_while(backend, MESSAGES, Extraction, work))
    assert seen == [True]
    assert got.memories[0].memory == "Ana moved to Oslo in May 2024."
    assert done in (0, 1)  # the request was written; the server may not have logged it yet


def test_a_backend_that_cannot_say_runs_the_work_after_the_reply(server: LLMServer) -> None:
    server.responder = lambda req: memories("Ana moved to Oslo in May 2024.")
    backend = build_backend("ollama", server)
    got, done = backend.run_sync(
        ask_while(backend, MESSAGES, Extraction, lambda: len(server.requests_to("chat")))
    )
    assert done == 1 and got.memories[0].memory == "Ana moved to Oslo in May 2024."


def broken() -> None:
    raise ValueError("the guard's words could not be read")


@pytest.mark.parametrize("kind", ["openai", "ollama"])
def test_an_llm_error_wins_over_an_error_of_the_work(server: LLMServer, kind: str) -> None:
    server.inject("chat", Fault.status(400, message="bad request"))
    backend = build_backend(kind, server)
    with pytest.raises(LLMError) as err:
        backend.run_sync(ask_while(backend, MESSAGES, Extraction, broken))
    assert err.value.reason == "bad_request"


def test_the_works_error_is_raised_when_the_call_succeeds(server: LLMServer) -> None:
    server.responder = lambda req: memories("Ana moved to Oslo in May 2024.")
    backend = build_backend("openai", server)
    with pytest.raises(ValueError, match="guard's words"):
        backend.run_sync(ask_while(backend, MESSAGES, Extraction, broken))


def test_cancelling_the_task_cancels_its_request(server: LLMServer) -> None:
    server.latency = 5.0
    backend = build_backend("openai", server, timeout=30)

    async def cancel_soon() -> bool:
        task = asyncio.ensure_future(ask_while(backend, MESSAGES, Extraction, lambda: None))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # No request task is left running on the loop (a cancelled one may take a few turns
        # of the loop to unwind its connection).
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for _ in range(20):
            if all(t.done() for t in others):
                break
            await asyncio.sleep(0)
        return all(t.done() for t in others)

    assert backend.run_sync(cancel_soon())

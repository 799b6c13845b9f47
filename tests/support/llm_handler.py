"""The request handler behind :class:`tests.support.llm_server.LLMServer`: routing and wire formats.

Replies follow the OpenAI and Ollama wire formats closely enough that the real ``openai`` and
``ollama`` clients parse them, including ``usage`` token counts so benchmarks can report tokens.
"""

from __future__ import annotations

import base64
import json
import struct
import time
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .llm_replies import ChatRequest, hashed_embedding, message_text, parse_multipart, word_count

if TYPE_CHECKING:
    from .llm_server import Fault, LLMServer

__all__ = ["LLMRequestHandler", "kind_of_path"]

_KINDS = {
    "/v1/chat/completions": "chat",
    "/api/chat": "chat",
    "/v1/embeddings": "embeddings",
    "/api/embed": "embeddings",
    "/api/embeddings": "embeddings",
    "/v1/audio/transcriptions": "transcriptions",
    "/v1/models": "models",
    "/api/tags": "models",
}


def kind_of_path(path: str) -> str:
    return _KINDS.get(path.split("?")[0], "other")


class LLMRequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like real servers: clients reuse connections
    server_version = "omnireader-test-llm/1"
    # Headers and body go out in separate writes; without this, Nagle + delayed ACK add ~40 ms.
    disable_nagle_algorithm = True
    _in_flight = False  # this request is counted in the server's ``in_flight``

    @property
    def owner(self) -> LLMServer:
        return self.server.owner  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass  # quiet: pytest output stays readable

    # -- plumbing --------------------------------------------------------------------------
    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _send(
        self,
        status: int,
        body: bytes,
        ctype: str = "application/json",
        headers: dict[str, str] | None = None,
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self._leave()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout): nothing to answer

    def _json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(obj, ensure_ascii=False).encode(), headers=headers)

    def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        if self.path.startswith("/api/"):
            self._json(status, {"error": message}, headers)  # Ollama's error shape
        else:
            etype = {429: "rate_limit_error", 400: "invalid_request_error"}.get(
                status, "internal_server_error" if status == 500 else "server_error"
            )
            self._json(
                status,
                {"error": {"message": message, "type": etype, "param": None, "code": None}},
                headers,
            )

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    # -- dispatch --------------------------------------------------------------------------
    def _handle(self, method: str) -> None:
        from .llm_server import RecordedRequest

        path = self.path.split("?")[0]
        raw = self._read_body() if method == "POST" else b""
        ctype = self.headers.get("Content-Type", "")
        body: dict[str, Any] | None = None
        form: dict[str, str] = {}
        files: dict[str, tuple[str, bytes]] = {}
        if ctype.startswith("multipart/form-data"):
            form, files = parse_multipart(raw, ctype)
        elif raw:
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
        owner = self.owner
        fault = owner.record(
            RecordedRequest(
                method, path, kind_of_path(path), body, dict(self.headers.items()), form, files
            )
        )
        self._in_flight = True
        try:
            if owner.latency and owner.stopping.wait(owner.latency):
                return
            if fault is not None and self._apply_fault(fault):
                return
            self._route(method, path, body or {}, form, files, fault)
        finally:
            self._leave()

    def _leave(self) -> None:
        """The request is no longer in flight: once, at its answer's last bytes or its end.
        (Counted after the answer was sent, a client that sends its next request the moment
        it has the answer was seen with one request too many in flight.)"""
        if self._in_flight:
            self._in_flight = False
            self.owner.done()

    def _apply_fault(self, fault: Fault) -> bool:
        """Act out a transport-level fault; True when the request is fully handled."""
        if fault.kind in ("latency", "timeout"):
            if self.owner.stopping.wait(fault.seconds):
                return True
            return False  # answer normally; a timed-out client has hung up by now
        if fault.kind == "status":
            headers = (
                {"Retry-After": _fmt_seconds(fault.retry_after)}
                if fault.retry_after is not None
                else {}
            )
            self._error(fault.code, fault.content or f"injected HTTP {fault.code}", headers)
            return True
        if fault.kind == "broken_body":
            self._send(200, b"<html>502 Bad Gateway</html>", ctype="application/json")
            return True
        if fault.kind == "disconnect":
            self.close_connection = True
            self.connection.close()
            return True
        if kind_of_path(self.path) != "chat":
            # Content faults elsewhere (embeddings...) replace the whole body: a wrong-shape reply.
            self._send(200, fault.content.encode())
            return True
        return False  # content faults on chat become the assistant's message content

    def _route(
        self,
        method: str,
        path: str,
        body: dict[str, Any],
        form: dict[str, str],
        files: dict[str, tuple[str, bytes]],
        fault: Fault | None,
    ) -> None:
        if path == "/v1/chat/completions" and method == "POST":
            self._openai_chat(body, fault)
        elif path == "/api/chat" and method == "POST":
            self._ollama_chat(body, fault)
        elif path == "/v1/embeddings" and method == "POST":
            self._openai_embeddings(body)
        elif path in ("/api/embed", "/api/embeddings") and method == "POST":
            self._ollama_embed(path, body)
        elif path == "/v1/audio/transcriptions" and method == "POST":
            self._transcription(form, files)
        elif path == "/v1/models":
            self._json(
                200,
                {
                    "object": "list",
                    "data": [
                        {"id": m, "object": "model", "created": 0, "owned_by": "omnireader-tests"}
                        for m in self.owner.models
                    ],
                },
            )
        elif path == "/api/tags":
            self._json(
                200,
                {
                    "models": [
                        {
                            "name": m,
                            "model": m,
                            "modified_at": "2024-01-01T00:00:00Z",
                            "size": 1,
                            "digest": "0" * 64,
                            "details": {},
                        }
                        for m in self.owner.models
                    ]
                },
            )
        else:
            self._error(404, f"no route for {method} {path}")

    # -- chat --------------------------------------------------------------------------------
    def _chat_content(self, req: ChatRequest, fault: Fault | None) -> str:
        if fault is not None and fault.kind in ("non_json", "wrong_schema", "content"):
            return fault.content
        out = self.owner.responder(req)
        if isinstance(out, BaseModel):
            return out.model_dump_json()
        return out if isinstance(out, str) else json.dumps(out, ensure_ascii=False)

    def _openai_chat(self, body: dict[str, Any], fault: Fault | None) -> None:
        owner = self.owner
        rf = body.get("response_format") or {}
        mode = rf.get("type", "plain") if isinstance(rf, dict) else "plain"
        if mode == "json_schema" and owner.json_schema_rejection is not None:
            return self._error(*owner.json_schema_rejection)
        if mode == "json_schema" and not owner.json_schema_supported:
            return self._error(
                400, "response_format type 'json_schema' is not supported by this server"
            )
        if mode == "json_object" and not owner.json_object_supported:
            return self._error(
                400, "response_format type 'json_object' is not supported by this server"
            )
        messages = body.get("messages") or []
        images = [
            p["image_url"]["url"] if isinstance(p.get("image_url"), dict) else p.get("image_url")
            for m in messages
            if isinstance(m.get("content"), list)
            for p in m["content"]
            if isinstance(p, dict) and p.get("type") == "image_url"
        ]
        schema = (rf.get("json_schema") or {}).get("schema") if mode == "json_schema" else None
        if mode == "json_object" and isinstance(rf.get("schema"), dict):
            schema = rf["schema"]  # llama.cpp servers enforce it as a grammar
        req = ChatRequest(
            "openai",
            body.get("model", ""),
            messages,
            schema,
            "json_object" if mode == "json_object" else mode,
            images,
            body,
        )
        content, finish = cut_to_max_tokens(self._chat_content(req, fault), body.get("max_tokens"))
        prompt_tokens = sum(word_count(message_text(m)) for m in messages)
        completion_tokens = word_count(content)
        self._json(
            200,
            {
                "id": f"chatcmpl-{len(owner.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", ""),
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": finish,
                        "logprobs": None,
                        "message": {"role": "assistant", "content": content},
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            },
        )

    def _ollama_chat(self, body: dict[str, Any], fault: Fault | None) -> None:
        messages = body.get("messages") or []
        fmt = body.get("format")
        schema = fmt if isinstance(fmt, dict) else None
        mode = "ollama_schema" if schema else ("ollama_json" if fmt == "json" else "plain")
        images = [img for m in messages for img in (m.get("images") or [])]
        req = ChatRequest("ollama", body.get("model", ""), messages, schema, mode, images, body)
        limit = (body.get("options") or {}).get("num_predict")
        content, finish = cut_to_max_tokens(self._chat_content(req, fault), limit)
        prompt_tokens = sum(word_count(message_text(m)) for m in messages)
        reply = {
            "model": body.get("model", ""),
            "created_at": "2024-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": content},
            "done": True,
            "done_reason": finish,
            "total_duration": 1,
            "load_duration": 0,
            "prompt_eval_count": prompt_tokens,
            "prompt_eval_duration": 1,
            "eval_count": word_count(content),
            "eval_duration": 1,
        }
        if body.get("stream", True):
            # Streaming asked for: one content chunk, then the final "done" record (NDJSON).
            head = {**reply, "done": False, "done_reason": None}
            tail = {**reply, "message": {"role": "assistant", "content": ""}}
            lines = json.dumps(head) + "\n" + json.dumps(tail) + "\n"
            return self._send(200, lines.encode(), ctype="application/x-ndjson")
        self._json(200, reply)

    # -- embeddings / speech ---------------------------------------------------------------
    def _openai_embeddings(self, body: dict[str, Any]) -> None:
        inputs = body.get("input", "")
        texts = [inputs] if isinstance(inputs, str) else list(inputs)
        if not all(isinstance(t, str) for t in texts):
            return self._error(400, "input must be a string or a list of strings")
        dim = int(body.get("dimensions") or self.owner.embed_dim)
        tokens = sum(word_count(t) for t in texts)
        self._json(
            200,
            {
                "object": "list",
                "model": body.get("model", ""),
                "data": [
                    {
                        "object": "embedding",
                        "index": i,
                        "embedding": _encode(hashed_embedding(t, dim), body.get("encoding_format")),
                    }
                    for i, t in enumerate(texts)
                ],
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    def _ollama_embed(self, path: str, body: dict[str, Any]) -> None:
        dim = int(body.get("dimensions") or self.owner.embed_dim)
        if path == "/api/embeddings":  # the legacy single-prompt endpoint
            return self._json(
                200, {"embedding": hashed_embedding(str(body.get("prompt", "")), dim)}
            )
        inputs = body.get("input", "")
        texts = [inputs] if isinstance(inputs, str) else list(inputs)
        self._json(
            200,
            {
                "model": body.get("model", ""),
                "embeddings": [hashed_embedding(t, dim) for t in texts],
                "total_duration": 1,
                "load_duration": 0,
                "prompt_eval_count": sum(word_count(t) for t in texts),
            },
        )

    def _transcription(self, form: dict[str, str], files: dict[str, tuple[str, bytes]]) -> None:
        if "file" not in files:
            return self._error(400, "multipart field 'file' is required")
        filename, data = files["file"]
        tr = self.owner.transcript_for(filename, data)
        fmt = form.get("response_format", "json")
        if fmt == "text":
            return self._send(200, tr.text.encode(), ctype="text/plain; charset=utf-8")
        if fmt != "verbose_json":
            return self._json(200, {"text": tr.text})
        self._json(
            200,
            {
                "task": "transcribe",
                "language": tr.language,
                "duration": tr.segments[-1][1] if tr.segments else 0.0,
                "text": tr.text,
                "segments": [
                    {
                        "id": i,
                        "seek": 0,
                        "start": s,
                        "end": e,
                        "text": t,
                        "tokens": [],
                        "temperature": 0.0,
                        "avg_logprob": -0.1,
                        "compression_ratio": 1.0,
                        "no_speech_prob": 0.0,
                    }
                    for i, (s, e, t) in enumerate(tr.segments)
                ],
            },
        )


def _encode(vector: list[float], encoding_format: str | None) -> list[float] | str:
    """Floats, or — as the openai client asks by default — base64 of little-endian float32."""
    if encoding_format == "base64":
        return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
    return vector


def _fmt_seconds(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def cut_to_max_tokens(content: str, max_tokens: Any) -> tuple[str, str]:
    """``content`` as a real server sends it under ``max_tokens``: cut, with finish reason
    ``length``, when it is longer (tokens counted as in ``usage``)."""
    if not isinstance(max_tokens, int) or word_count(content) <= max_tokens:
        return content, "stop"
    lo, hi = 0, len(content)  # the longest prefix within the limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if word_count(content[:mid]) <= max_tokens else (lo, mid - 1)
    return content[:lo], "length"

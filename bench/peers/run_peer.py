"""One peer framework, run by bench/peers/.venv's python for bench/bench_ingest.py.

    bench/peers/.venv/bin/python bench/peers/run_peer.py NAME FILE_LIST_JSON

NAME is ``llamaindex`` or ``unstructured`` (MarkItDown is a dependency of omnireader
itself, so bench_ingest calls it in its own process, as before). The peer imports its library,
reads the first file once (warm-up: one-off imports and model loads are not a per-page
cost), prints ``{"ready": true, "version": …}`` (or ``{"error": …}``) as one JSON line, then
answers each ``run`` line on stdin with one timed pass over every file, end to end to text
chunks: ``{"seconds": s, "pages": n, "chunks": n, "chars": n}``. ``stop`` or EOF ends it.

The network is shut off in this process before the peer is imported (connections to
anything but 127.0.0.0/8 raise), as it is for omnireader: a peer that would download a
model or a tokenizer at run time fails here and says so, instead of timing a download.
This script imports nothing from omnireader and runs only under the peers' venv.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

for _k, _v in {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "SCARF_NO_ANALYTICS": "true",
    "DO_NOT_TRACK": "true",
    "ORT_DISABLE_TELEMETRY": "1",
    "TOKENIZERS_PARALLELISM": "false",
}.items():
    os.environ.setdefault(_k, _v)

CHUNK_TOKENS = 512  # the chunk size of every peer's splitter (omnireader's default too)


class NetworkDisabled(OSError):
    pass


def _no_network() -> None:
    """Refuse every connection that leaves the machine (why: see the module docstring)."""
    real_connect = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and (
            host.startswith("127.") or host in ("localhost", "::1") or self.family == socket.AF_UNIX
        ):
            return real_connect(self, address)
        raise NetworkDisabled(f"network disabled by the benchmark (connect to {host})")

    def getaddrinfo(host: Any, *a: Any, **k: Any) -> Any:
        if host in (None, "localhost") or str(host).startswith("127.") or host == "::1":
            return real_getaddrinfo(host, *a, **k)
        raise NetworkDisabled(f"network disabled by the benchmark (lookup of {host})")

    real_getaddrinfo = socket.getaddrinfo
    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]


Pass = Callable[[list[str]], dict[str, int]]


def llamaindex() -> tuple[str, Pass]:
    from importlib.metadata import version

    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.node_parser import SentenceSplitter

    # SentenceSplitter counts tokens with tiktoken by default, whose BPE file is downloaded
    # at first use; offline it cannot load, so tokens are counted as whitespace-split words
    # (str.split): a cheaper count than BPE, so this favours the peer.
    splitter = SentenceSplitter(chunk_size=CHUNK_TOKENS, chunk_overlap=0, tokenizer=str.split)

    def one_pass(files: list[str]) -> dict[str, int]:
        docs = SimpleDirectoryReader(input_files=files).load_data(show_progress=False)
        nodes = splitter.get_nodes_from_documents(docs)
        pages = sum(
            1 for d in docs if str(d.metadata.get("file_name", "")).lower().endswith(".pdf")
        )
        return {
            "pages": pages,
            "chunks": len(nodes),
            "chars": sum(len(n.get_content()) for n in nodes),
        }

    return f"llama-index-core {version('llama-index-core')}", one_pass


def unstructured() -> tuple[str, Pass]:
    from importlib.metadata import version

    import spacy.util
    from unstructured.chunking.basic import chunk_elements
    from unstructured.partition.auto import partition

    # Its text-type heuristics need spaCy's en_core_web_sm, which unstructured downloads
    # from GitHub at first use (the model is not on the package index). Offline the
    # download fails inside partition, which then returns no elements at all, silently.
    if not spacy.util.is_package("en_core_web_sm"):
        raise RuntimeError(
            "unstructured needs the spaCy model en_core_web_sm, which it downloads "
            "from GitHub at first use (it is not on the package index); offline, "
            "partition returns no elements"
        )

    def one_pass(files: list[str]) -> dict[str, int]:
        pages = chunks = chars = 0
        for f in files:
            elements = partition(filename=f, strategy="fast")
            if f.lower().endswith(".pdf"):
                pages += max((e.metadata.page_number or 0 for e in elements), default=0)
            # ~4 characters a token: chunks about as large as the other peers'.
            for c in chunk_elements(elements, max_characters=4 * CHUNK_TOKENS):
                chunks += 1
                chars += len(c.text)
        return {"pages": pages, "chunks": chunks, "chars": chars}

    return f"unstructured {version('unstructured')}", one_pass


PEERS: dict[str, Callable[[], tuple[str, Pass]]] = {
    "llamaindex": llamaindex,
    "unstructured": unstructured,
}


def _say(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _why(e: BaseException) -> str:
    last = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    where = f" (in {Path(last.filename).name}:{last.lineno})" if last else ""
    return f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}{where}"[
        :400
    ]


def main(argv: list[str]) -> int:
    name, listing = argv[0], argv[1]
    files = json.loads(Path(listing).read_text())
    _no_network()
    try:
        version, one_pass = PEERS[name]()
        if not one_pass(files[:1])["chars"]:
            raise RuntimeError(f"{name} read no text from {Path(files[0]).name}")
    except BaseException as e:  # a peer that cannot import or run offline: say why
        _say({"error": _why(e)})
        return 0
    _say({"ready": True, "version": version})
    for line in sys.stdin:
        if line.strip() != "run":
            break
        try:
            t0 = time.perf_counter()
            got = one_pass(files)
            _say({"seconds": time.perf_counter() - t0, **got})
        except BaseException as e:
            _say({"error": _why(e)})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The peers of bench_ingest: the frameworks users would pick instead, run beside it.

Each peer runs in its own process under ``bench/peers/.venv`` (made by
``python3 dev.py bench --peers``; the project's environment never holds them), on the same
files, end to end to text chunks (see ``bench/peers/run_peer.py``). A peer process stays up
for the whole benchmark, so its imports and first-call model loads are paid once, outside
the clock, and each round of bench_ingest asks it for one timed pass.

A peer that cannot install or run offline gives no figure: its row says why.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _util import ROOT

PEERS_DIR = ROOT / "bench" / "peers"
PEERS_PY = PEERS_DIR / ".venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
NOT_RUN = "not run: python3 dev.py bench --peers"

#: name -> what the benchmarks page calls it.
PEERS = {
    "llamaindex": "LlamaIndex `SimpleDirectoryReader` + `SentenceSplitter`",
    "unstructured": 'unstructured `partition(strategy="fast")` + `chunk_elements`',
}
#: How the peer was set up, for its row.
HOW = {
    "llamaindex": "tokens counted with `str.split` (tiktoken's BPE file is a download)",
    "unstructured": "",
}


class PeerFailed(RuntimeError):
    pass


class Peer:
    """One peer's process: warmed up on start, one timed pass over the files per :meth:`run`."""

    def __init__(self, name: str, files: list[Path], timeout: float = 600) -> None:
        self.name = name
        self.timeout = timeout
        self.version = ""
        self.error: str | None = None
        listing = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        json.dump([str(f) for f in files], listing)
        listing.close()
        self._listing = listing.name
        self._proc = subprocess.Popen(
            [str(PEERS_PY), str(PEERS_DIR / "run_peer.py"), name, listing.name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=tempfile.gettempdir(),
        )

    def ready(self) -> bool:
        """Wait for the warm-up; False (and ``error`` set) when the peer cannot run."""
        try:
            got = self._reply()
        except PeerFailed as e:
            self.error = str(e)
            return False
        if "error" in got:
            self.error = got["error"]
            return False
        self.version = got.get("version", "")
        return True

    def run(self) -> dict[str, Any]:
        """One timed pass: ``{"seconds", "pages", "chunks", "chars"}``."""
        assert self._proc.stdin is not None
        self._proc.stdin.write("run\n")
        self._proc.stdin.flush()
        got = self._reply()
        if "error" in got:
            raise PeerFailed(got["error"])
        return got

    def _reply(self) -> dict[str, Any]:
        out = self._proc.stdout
        assert out is not None
        ready, _, _ = select.select([out], [], [], self.timeout)
        line = out.readline() if ready else ""
        if not line:
            code = self._proc.poll()
            raise PeerFailed(
                f"no answer from the peer process (exit code {code})"
                if ready
                else f"no answer within {self.timeout:.0f} s"
            )
        return json.loads(line)

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                assert self._proc.stdin is not None
                self._proc.stdin.write("stop\n")
                self._proc.stdin.close()
                self._proc.wait(10)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
        Path(self._listing).unlink(missing_ok=True)


def start_peers(files: list[Path]) -> tuple[dict[str, Peer], dict[str, dict[str, Any]]]:
    """The peers that run, warmed up; and a result entry for each (error or version)."""
    results: dict[str, dict[str, Any]] = {}
    if not PEERS_PY.exists():
        return {}, {name: {"error": NOT_RUN} for name in PEERS}
    peers = {name: Peer(name, files) for name in PEERS}  # warm up side by side
    live = {}
    for name, peer in peers.items():
        if peer.ready():
            live[name] = peer
            results[name] = {"version": peer.version}
        else:
            results[name] = {"error": f"cannot run offline here: {peer.error}"}
            peer.close()
    return live, results


def measure(peer: Peer, record: list[dict[str, Any]]) -> Callable[[], float]:
    """An interleaved measure: the seconds of one pass (its counts kept in ``record``); NaN
    once the peer has failed (``peer.error`` then says how)."""

    def one() -> float:
        if peer.error is None:
            try:
                got = peer.run()
                record.append(got)
                return float(got["seconds"])
            except (PeerFailed, OSError, ValueError) as e:  # one peer must not stop the bench
                peer.error = f"failed during the run: {e}"
        return float("nan")

    return one

"""Load on `omnireader serve`: concurrent uploads while other clients search.

    python bench/bench_server.py [--quick]

A real server (``omnireader serve`` in its own process, on a free loopback port: the
clients' threads here must not share its interpreter lock) over a store prefilled with items;
``uploaders`` clients upload ``files`` small text files in total (one file a request,
retrying after 429) while ``searchers`` clients search in a loop. Reported: search p50 / p95
under that load, the same with one searcher alone and with all the searchers but no uploads
(baselines measured in this run), the loaded / idle ratio, the CPU the server and its ingest
child used (and the server's per search, with and without uploads), uploads accepted per
second and files ingested per second. Every file is checked to be stored exactly once (one
item per file, each name once).

``--prefilled DIR`` reuses a store an earlier prefill made; ``--profile FILE`` records the
server with py-spy during the loaded phase (docs/benchmarks.md, *Service latency*, has the
findings).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _util import at_most, row, table

QUICK = {"files": 40, "uploaders": 5, "searchers": 2, "prefill": 2_000}
FULL = {"files": 200, "uploaders": 20, "searchers": 5, "prefill": 100_000}
WORDS = (
    "heron otter maple quartz lantern harbor meadow cobalt ember willow falcon copper "
    "glacier saffron tundra velvet orchid basalt lagoon juniper"
).split()


def _prefill(db: Path, n: int) -> None:
    from omnireader import Reader
    from omnireader.store import Store

    store = Store.open(db, create=True)
    texts = [
        f"Note {i}: the {WORDS[i % 20]} report mentions {WORDS[(i * 7) % 20]} and "
        f"{WORDS[(i * 13) % 20]} in section {i % 97}."
        for i in range(n)
    ]
    reader = Reader()
    for start in range(0, n, 5000):
        items = reader.read(texts[start : start + 5000], info={"user_id": "prefill"})
        store.add(items, batch_size=5000, refresh=False)
    store.optimize()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _searcher(url: str, stop: threading.Event, out: list[float]) -> None:
    import httpx

    with httpx.Client(base_url=url, timeout=60) as c:
        n = 0
        while not stop.is_set():
            t = time.perf_counter()
            r = c.post("/v1/search", json={"query": f"{WORDS[n % 20]} report", "k": 10})
            out.append(time.perf_counter() - t)
            assert r.status_code == 200, r.text
            n += 1


def _search_phase(url: str, searchers: int, seconds: float) -> list[float]:
    """Latencies of ``searchers`` closed-loop clients searching for ``seconds``."""
    out: list[float] = []
    stop = threading.Event()
    threads = [threading.Thread(target=_searcher, args=(url, stop, out)) for _ in range(searchers)]
    for th in threads:
        th.start()
    time.sleep(seconds)
    stop.set()
    for th in threads:
        th.join()
    return out


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system, all threads) a live process has used (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = (task / "children").read_text().split()
            except OSError:
                continue
            for k in map(int, kids):
                if k not in found:
                    found.append(k)
                    todo.append(k)
    return found


def _profile(pid: int, out: str) -> Any:
    import shutil
    import subprocess

    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    return subprocess.Popen(
        [
            exe,
            "record",
            "-p",
            str(pid),
            "--subprocesses",
            "--idle",
            "--threads",
            "--nonblocking",
            "-f",
            "raw",
            "-o",
            out,
            "-r",
            "50",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _uploader(url: str, names: list[str], jobs: list[str], rejected: list[int]) -> None:
    import httpx

    with httpx.Client(base_url=url, timeout=120) as c:
        for name in names:
            body = f"Upload {name}: the unique token {name.replace('.', '_')} is here.".encode()
            while True:
                r = c.post("/v1/ingest", files=[("files", (name, body, "text/plain"))])
                if r.status_code == 429:
                    # Back off as a client should (Retry-After, at most 1 s here): retrying
                    # every 0.2 s made 20 clients send ~65 refused uploads a second, load
                    # that no real client adds.
                    rejected.append(1)
                    time.sleep(min(1.0, float(r.headers.get("retry-after", 1))))
                    continue
                assert r.status_code == 202, r.text
                jobs.append(r.json()["job_id"])
                break


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _Server:
    """``omnireader serve`` as a child process."""

    def __init__(self, db: Path, ingest_nice: int | None) -> None:
        import subprocess

        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = [
            sys.executable,
            "-m",
            "omnireader",
            "serve",
            "--db",
            str(db),
            "--port",
            str(self.port),
            "--quiet",
            "--max-jobs",
            "32",
            "--rate-per-minute",
            "1000000",
            "--max-files",
            "10",
        ]
        if ingest_nice is not None:
            args += ["--ingest-nice", str(ingest_nice)]
        # to a file, not a pipe nobody reads while the load runs (a full pipe blocks the
        # server); its tail is printed when an upload got an unexpected answer
        self.log = db.parent / "server.log"
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self.log.open("wb"))
        import httpx

        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server was not ready within 120 s")
            time.sleep(0.2)

    def cpu_seconds(self) -> dict[str, float]:
        """CPU used so far by the server process and by its children (the ingest writer
        and its parser processes; a child that already exited is not counted)."""
        return {
            "server": _cpu_of(self.proc.pid),
            "ingest": sum(_cpu_of(k) for k in _descendants(self.proc.pid)),
        }

    def stop(self) -> None:
        import signal

        self.proc.send_signal(signal.SIGTERM)  # a clean stop: the deferred optimize runs
        try:
            self.proc.wait(timeout=120)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def run(
    quick: bool = False,
    ingest_nice: int | None = None,
    *,
    params: dict[str, int] | None = None,
    prefilled: str | None = None,
    profile: str | None = None,
) -> dict[str, Any]:
    """``params`` overrides the load; ``prefilled`` copies a store made by an earlier run's
    prefill (same size) instead of making one; ``profile`` records the server and its
    children with py-spy during the loaded phase into that file (py-spy must be on PATH or
    beside the interpreter)."""
    import logging

    logging.getLogger("httpx").setLevel(logging.WARNING)
    p = {**(QUICK if quick else FULL), **(params or {})}
    with tempfile.TemporaryDirectory(prefix="omnireader-bench-server-") as tmp:
        db = Path(tmp) / "db.lance"
        if prefilled:
            import shutil

            shutil.copytree(prefilled, db)
        else:
            _prefill(db, p["prefill"])
        server = _Server(db, ingest_nice)
        try:
            import httpx

            # Baselines, same run: one searcher alone (idle), then all the searchers at once
            # with no uploads (what the searches cost each other on these cores).
            span = 3 if quick else 8
            idle = _search_phase(server.url, 1, span)
            cpu_alone = server.cpu_seconds()["server"]
            alone = _search_phase(server.url, p["searchers"], span)
            cpu_alone = server.cpu_seconds()["server"] - cpu_alone
            load_before = os.getloadavg()[0]
            cpu_before = server.cpu_seconds()

            loaded: list[float] = []
            stop = threading.Event()
            searchers = [
                threading.Thread(target=_searcher, args=(server.url, stop, loaded))
                for _ in range(p["searchers"])
            ]
            names = [f"file{n:04d}.txt" for n in range(p["files"])]
            jobs: list[str] = []
            rejected: list[int] = []
            uploaders = [
                threading.Thread(
                    target=_uploader, args=(server.url, names[i :: p["uploaders"]], jobs, rejected)
                )
                for i in range(p["uploaders"])
            ]
            started = time.perf_counter()
            spy = _profile(server.proc.pid, profile) if profile else None
            for th in searchers + uploaders:
                th.start()
            for th in uploaders:
                th.join()
            accepted_s = time.perf_counter() - started
            with httpx.Client(base_url=server.url, timeout=60) as c:
                for job_id in jobs:
                    while c.get(f"/v1/jobs/{job_id}").json()["status"] not in ("done", "failed"):
                        time.sleep(0.1)
            ingested_s = time.perf_counter() - started
            if spy is not None:
                import signal

                spy.send_signal(signal.SIGINT)  # py-spy writes its file on Ctrl-C
                spy.wait(timeout=60)
            stop.set()
            for th in searchers:
                th.join()
            load_after = os.getloadavg()[0]
            cpu_after = server.cpu_seconds()
            if len(jobs) != len(names):  # an uploader met an answer other than 202 or 429
                print(f"server log (tail):\n{server.log.read_text()[-4000:]}", file=sys.stderr)
        finally:
            server.stop()
        from omnireader.store import Store

        keys = [
            i.metadata.key
            for i in Store.open(db, create=False).iter_items()
            if i.metadata.user_id != "prefill"
        ]
    once = len(keys) == p["files"] and sorted(keys) == sorted(names)
    out = {
        "params": p,
        "ingest_nice": 10 if ingest_nice is None else ingest_nice,
        # the machine's 1-minute load (others' work too) before and after the loaded phase
        "load_average_before": load_before,
        "load_average_after": load_after,
        "search_idle_p50_ms": 1000 * statistics.median(idle),
        "search_idle_p95_ms": 1000 * _pct(idle, 0.95),
        "search_searchers_only_p50_ms": 1000 * statistics.median(alone),
        "search_searchers_only_p95_ms": 1000 * _pct(alone, 0.95),
        "search_loaded_p50_ms": 1000 * statistics.median(loaded),
        "search_loaded_p95_ms": 1000 * _pct(loaded, 0.95),
        "searches_loaded": len(loaded),
        "uploads_per_s": p["files"] / accepted_s,
        "files_ingested_per_s": p["files"] / ingested_s,
        "rejected_429": len(rejected),
        "stored_exactly_once": once,
        "items_from_uploads": len(keys),
    }
    # CPU seconds the server process and its ingest child(ren) used in the loaded phase
    out["server_cpu_s"] = cpu_after["server"] - cpu_before["server"]
    out["ingest_cpu_s"] = cpu_after["ingest"] - cpu_before["ingest"]
    out["loaded_phase_s"] = ingested_s
    # the server's CPU per search: searches only, then with the uploads' work on top
    out["server_cpu_ms_per_search_searchers_only"] = 1000 * cpu_alone / max(1, len(alone))
    out["server_cpu_ms_per_search_loaded"] = 1000 * out["server_cpu_s"] / max(1, len(loaded))
    out["p95_loaded_over_idle"] = out["search_loaded_p95_ms"] / out["search_idle_p95_ms"]
    print(table(["figure", "value"], [[k, v] for k, v in out.items() if k != "params"]))
    return out


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    p = result["params"]
    machine = ""
    if result.get("load_average_before") is not None:  # others' work on a shared machine
        machine = (
            f"; machine load average {result['load_average_before']:.1f}–"
            f"{result['load_average_after']:.1f} on {os.cpu_count()} cores"
        )
    load = (
        f"{p['uploaders']} clients uploading {p['files']} files, {p['searchers']} "
        f"searching, {p['prefill']} items stored{machine}"
    )
    return [
        row(
            "Service",
            "search p95 while uploads are ingested",
            result["search_loaded_p95_ms"],
            "≤ 100 ms",
            at_most(result["search_loaded_p95_ms"], 100),
            unit=" ms",
            digits=0,
            note=load,
        ),
        row(
            "Service",
            "search p50 while uploads are ingested",
            result["search_loaded_p50_ms"],
            unit=" ms",
            digits=0,
            note=load,
        ),
        row(
            "Service",
            f"search p95, {p['searchers']} searchers and no uploads (same run)",
            result["search_searchers_only_p95_ms"],
            unit=" ms",
            digits=0,
            note=f"information: the floor the loaded p95 can reach without cheaper searches "
            f"(the searchers queue behind each other on the cores); one searcher alone: "
            f"p95 {result['search_idle_p95_ms']:.0f} ms",
        ),
        row(
            "Service",
            "search p95 loaded / idle (same run)",
            result["p95_loaded_over_idle"],
            unit="×",
            note=f"information: idle is one searcher alone; loaded is "
            f"{p['searchers']} searchers at once plus the uploads",
        ),
        row(
            "Service",
            "server CPU per search: loaded / no uploads (same run)",
            result["server_cpu_ms_per_search_loaded"]
            / max(1e-9, result["server_cpu_ms_per_search_searchers_only"]),
            unit="×",
            note=f"information: the server process's CPU (HTTP, uploads and searches) per "
            f"search, {result['server_cpu_ms_per_search_loaded']:.0f} ms loaded vs "
            f"{result['server_cpu_ms_per_search_searchers_only']:.0f} ms with the "
            f"searchers alone; CPU time does not depend on others' load",
        ),
        row(
            "Service",
            "uploads accepted per second",
            result["uploads_per_s"],
            unit="/s",
            digits=1,
            note=f"one file a request; {result['rejected_429']} answered 429 and retried",
        ),
        row(
            "Service",
            "uploaded files ingested per second",
            result["files_ingested_per_s"],
            unit="/s",
            digits=1,
        ),
        row(
            "Service",
            "every uploaded file stored exactly once",
            "yes" if result["stored_exactly_once"] else "no",
            "yes",
            bool(result["stored_exactly_once"]),
            note=f"{result['items_from_uploads']} items for {p['files']} files",
        ),
    ]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument(
        "--ingest-nice",
        type=int,
        default=None,
        help="the server's ingest priority (default: the server's own; 0 = normal)",
    )
    ap.add_argument("--prefilled", help="copy this prefilled store instead of making one")
    ap.add_argument("--profile", help="py-spy the server during the loaded phase into FILE")
    ap.add_argument(
        "--set",
        nargs="*",
        default=[],
        metavar="KEY=N",
        help="override the load, e.g. files=100 uploaders=10",
    )
    a = ap.parse_args()
    run(
        a.quick,
        a.ingest_nice,
        prefilled=a.prefilled,
        profile=a.profile,
        params={k: int(v) for k, v in (x.split("=") for x in a.set)},
    )

"""Section 5: the loaded phase alone, second by second, and what each process spent.

    python bench/notes/server_latency/h5_loaded_tail.py PREFILLED_STORE [--no-search]

``PREFILLED_STORE``: a store an earlier ``bench_server.py`` prefill made (copied, not
changed). Starts the server, warms five searchers up, then runs the bench's load (20 clients
uploading 200 one-file requests while five search; ``--no-search``: the uploads alone) and
prints the searches' p50/p95 per second of the run and the CPU seconds of the server, its
ingest child and this client process.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/
import bench_server as B  # noqa: E402
import httpx  # noqa: E402


def main(prefilled: str, search: bool) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="h5-"))
    db = tmp / "db.lance"
    shutil.copytree(prefilled, db)
    server = B._Server(db, None)
    timed: list[tuple[float, float]] = []

    def searcher(stop: threading.Event) -> None:
        with httpx.Client(base_url=server.url, timeout=60) as c:
            n = 0
            while not stop.is_set():
                t = time.perf_counter()
                c.post("/v1/search", json={"query": f"{B.WORDS[n % 20]} report", "k": 10})
                timed.append((t, time.perf_counter() - t))
                n += 1

    try:
        if search:
            B._search_phase(server.url, 5, 4)
        stop = threading.Event()
        searchers = [threading.Thread(target=searcher, args=(stop,)) for _ in range(5 * search)]
        names = [f"file{n:04d}.txt" for n in range(200)]
        jobs: list[str] = []
        rejected: list[int] = []
        uploaders = [threading.Thread(target=B._uploader,
                                      args=(server.url, names[i::20], jobs, rejected))
                     for i in range(20)]
        t0, cpu0, own0 = time.perf_counter(), server.cpu_seconds(), time.process_time()
        for th in searchers + uploaders:
            th.start()
        for th in uploaders:
            th.join()
        with httpx.Client(base_url=server.url, timeout=60) as c:
            for job in jobs:
                while c.get(f"/v1/jobs/{job}").json()["status"] not in ("done", "failed"):
                    time.sleep(0.1)
        stop.set()
        for th in searchers:
            th.join()
        cpu = {k: round(v - cpu0[k], 2) for k, v in server.cpu_seconds().items()}
        print(f"{time.perf_counter() - t0:.1f} s, 429s {len(rejected)}, CPU s {cpu}, "
              f"client {time.process_time() - own0:.2f}")
        if timed:
            lat = [d for _, d in timed]
            print(f"searches {len(lat)}: p50 {1000 * statistics.median(lat):.1f} ms, "
                  f"p95 {1000 * B._pct(lat, 0.95):.1f} ms")
            seconds: dict[int, list[float]] = {}
            for t, d in timed:
                seconds.setdefault(int(t - t0), []).append(d)
            for s, v in sorted(seconds.items()):
                print(f"{s:3d} s: {len(v):3d} searches, p50 {1000 * statistics.median(v):6.1f} "
                      f"ms, max {1000 * max(v):6.1f} ms")
    finally:
        server.stop()
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main(sys.argv[1], "--no-search" not in sys.argv[2:])

"""Ingest on a real two-node Ray cluster stores exactly what local ingest stores, and keeps
its promises: re-ingest writes nothing, a killed worker is retried without duplicates, a
killed driver resumes with every file stored exactly once. One cluster for the module."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

# Not imported here: the cluster fixture sets Ray's settings (token auth) before the first
# import of ray, which reads them once.
if importlib.util.find_spec("ray") is None:
    pytest.skip("the [ray] extra is not installed", allow_module_level=True)

from omnireader import IngestOptions, Reader, Store, ingest  # noqa: E402
from tests.support.ray_cluster import LocalCluster  # noqa: E402

CLI = Path(sys.executable).with_name("omnireader")
# Text PDFs, an image-only one, a broken one and encrypted ones: items and typed failures.
SUBSET = [
    "crazyones.pdf",
    "hello-world.pdf",
    "metadata.pdf",
    "two-different-pages.pdf",
    "multilang.pdf",
    "jpeg.pdf",
    "issue-297.pdf",
    "outlines-with-invalid-destinations.pdf",
    "crazyones-encrypted-256.pdf",
    "attachment.pdf",
    "missing_info.pdf",
    "imagemagick-images.pdf",
]


def snapshot(db: Path) -> dict[str, tuple[str, tuple[str, ...], str | None]]:
    """id -> (text, every location it was seen at, source kind) of every stored item.

    The locations, not the first source: identical content in two files is one item, and
    which file's source comes first depends on which file finished first (on Ray as locally).
    """
    rows = {}
    for item in Store.open(db).iter_items():
        assert item.id not in rows, f"duplicate id {item.id}"
        src = item.source
        rows[item.id] = (
            item.memory,
            tuple(sorted(item.metadata.seen_at)),
            src.kind if src else None,
        )
    return rows


@pytest.fixture(scope="module")
def files(corpus: Path) -> list[Path]:
    return [corpus / "pypdf" / name for name in SUBSET]


@pytest.fixture(scope="module")
def cluster() -> Any:
    c = LocalCluster().start()
    yield c
    c.stop()


@pytest.fixture(scope="module")
def local(files: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = tmp_path_factory.mktemp("local") / "store.lance"
    report = ingest(
        files, Store.open(db), reader=Reader(ocr="off"), options=IngestOptions(workers=2)
    )
    return db, report, snapshot(db)


def test_on_a_two_node_cluster_ray_keeps_every_promise_of_local_ingest(
    cluster: LocalCluster, local: Any, files: list[Path], tmp_path: Path
) -> None:
    """One test for the three checks that share the cluster: under pytest-xdist a module's
    tests may go to several workers, and each would start a cluster of its own."""
    for name, check in (
        ("same-as-local", same_as_local),
        ("killed-worker", killed_worker),
        ("killed-driver", killed_driver),
        ("fine-mode", fine_mode),
        ("latin1-names", latin1_names),
    ):
        folder = tmp_path / name
        folder.mkdir()
        check(cluster, local, files, folder)


def same_as_local(cluster: LocalCluster, local: Any, files: list[Path], tmp_path: Path) -> None:
    """Identical ids, texts, sources and counts; indexes built; re-ingest writes nothing."""
    local_db, local_report, expected = local
    db = tmp_path / "ray.lance"
    store = Store.open(db)
    report = ingest(
        files,
        store,
        reader=Reader(ocr="off"),
        options=IngestOptions(engine="ray", ray_address=cluster.address),
    )
    assert len(expected) > 10
    assert snapshot(db) == expected
    assert report.items_inserted == local_report.items_inserted == len(expected)
    # jpeg.pdf's scanned page, OCR off: reported (its caption kept), as the local ingest does
    expected_failures = {"encrypted": 1, "needs_ocr": 1}
    assert report.failed_by_error == local_report.failed_by_error == expected_failures
    assert (report.files_read, report.files_failed) == (
        local_report.files_read,
        local_report.files_failed,
    )
    # The indexes were built at the end, as local ingest does: keyword search works.
    assert any(
        "crazyones.pdf" in (h.item.source.path or "")
        for h in store.search("Here's to the crazy ones", k=5, view="fts")
    )

    again = ingest(
        files,
        store,
        reader=Reader(ocr="off"),
        options=IngestOptions(engine="ray", ray_address=cluster.address),
    )
    assert (again.items_inserted, again.items_updated, again.items_deleted) == (0, 0, 0)
    assert again.files_skipped == len(files)
    assert snapshot(db) == expected


def fine_mode(cluster: LocalCluster, local: Any, files: list[Path], tmp_path: Path) -> None:
    """Fine mode on two Ray workers stores what local fine ingest stores, and the LLM
    concurrency limit holds for the whole cluster: 2 in flight, not 2 per worker."""
    from omnireader import make_chat_backend
    from omnireader.llm.config import LLMConfig
    from tests.support.llm_server import LLMServer

    notes = []
    for n in range(4):  # several chunks each: each worker alone could fill the limit
        path = tmp_path / f"notes_{n}.md"
        path.write_text(
            "\n\n".join(
                f"Meeting {n}.{p}: Maria Santos reviewed the budget for "
                f"project {n} with the supplier in section {p}." * 12
                for p in range(6)
            )
        )
        notes.append(path)
    with LLMServer() as srv:
        srv.latency = 0.05
        config = LLMConfig(
            openai_base_url=srv.openai_base_url, openai_api_key="k", concurrency=2, timeout=30
        )

        def fine(db: Path, **engine: Any) -> Any:
            llm = make_chat_backend("openai:test-model", config=config)
            return ingest(
                notes,
                Store.open(db),
                reader=Reader(llm=llm, chunk_tokens=128),
                mode="fine",
                options=IngestOptions(**engine),
            )

        expected_report = fine(tmp_path / "local.lance")
        expected = snapshot(tmp_path / "local.lance")
        srv.reset()
        report = fine(tmp_path / "ray.lance", engine="ray", ray_address=cluster.address)
        assert srv.max_in_flight == 2, srv.max_in_flight  # the limit was reached, not passed
    assert report.failures == [] and expected_report.failures == []
    assert report.items_inserted == expected_report.items_inserted > 8
    assert snapshot(tmp_path / "ray.lance") == expected


def latin1_names(cluster: LocalCluster, local: Any, files: list[Path], tmp_path: Path) -> None:
    """A file whose name is not UTF-8 goes to a Ray worker and back (its path a Ray row)
    and is stored as the local ingest stores it, under its shown name (``\\xNN``)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "ok.txt").write_text("The Lisbon release ships in May.")
    with open(os.fsencode(docs) + b"/caf\xe9.txt", "wb") as f:
        f.write(b"The cafe budget is ten thousand euros.")
    on_ray = IngestOptions(engine="ray", ray_address=cluster.address, sync=True)
    report = ingest(docs, Store.open(tmp_path / "ray.lance"), options=on_ray)
    ingest(docs, Store.open(tmp_path / "local.lance"), options=IngestOptions(workers=1))
    assert (report.files_read, report.failures) == (2, [])
    assert snapshot(tmp_path / "ray.lance") == snapshot(tmp_path / "local.lance")
    paths = {i.source.path for i in Store.open(tmp_path / "ray.lance").iter_items()}
    assert str(docs.resolve() / "caf\\xe9.txt") in paths
    again = ingest(docs, Store.open(tmp_path / "ray.lance"), options=on_ray)
    assert (again.files_skipped, again.items_deleted) == (2, 0)


def _ray_workers() -> list[int]:
    """PIDs of the processes running omnireader's Ray Data workers (ParseFiles)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if b"ParseFiles" in (entry / "cmdline").read_bytes():
                    pids.append(int(entry.name))
            except OSError:
                pass
    return pids


def killed_worker(cluster: LocalCluster, local: Any, files: list[Path], tmp_path: Path) -> None:
    """A Ray worker killed mid-ingest: Ray retries its task; nothing missing or doubled."""
    _, _, expected = local
    db = tmp_path / "ray.lance"
    killed: list[int] = []
    done = threading.Event()

    def kill_one_worker() -> None:
        while not done.is_set():
            pids = _ray_workers()
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
                return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_one_worker, daemon=True)
    killer.start()
    try:
        report = ingest(
            files,
            Store.open(db),
            reader=Reader(ocr="off"),
            options=IngestOptions(engine="ray", ray_address=cluster.address),
        )
    finally:
        done.set()
        killer.join()
    assert killed, "no Ray worker was running to be killed"
    assert report.files_to_retry == 0, report.failures
    assert snapshot(db) == expected


def _recorded(db: Path) -> int:
    """Files in the store's ledger (0 while it does not exist)."""
    import lancedb

    if not (db / "files.lance").exists():
        return 0
    try:
        return int(lancedb.connect(db).open_table("files").count_rows())
    except Exception:  # created but not yet committed
        return 0


def killed_driver(cluster: LocalCluster, local: Any, files: list[Path], tmp_path: Path) -> None:
    """The driver killed after its first commit, then run again: every file exactly once."""
    _, _, expected = local
    db = tmp_path / "ray.lance"
    cmd = [
        str(CLI),
        "ingest",
        *map(str, files),
        "--db",
        str(db),
        "--engine",
        "ray",
        "--ray-address",
        cluster.address,
        "--ocr",
        "off",
        "--batch-size",
        "1",
        "-q",
    ]
    with open(tmp_path / "driver.log", "wb") as log:
        first = subprocess.Popen(cmd, env=cluster.env, stdout=log, stderr=log)
    # Killed as soon as the first file is committed and recorded in the ledger.
    deadline = time.monotonic() + 120
    while not _recorded(db) and first.poll() is None:
        assert time.monotonic() < deadline, "the driver recorded no file in time"
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert first.returncode == -signal.SIGKILL, "the driver finished before it was killed"
    part = snapshot(db)
    assert 0 < len(part) < len(expected) and set(part) <= set(expected)

    # The re-run, from this process (a driver of the same cluster): only what is missing.
    report = ingest(
        files,
        Store.open(db),
        reader=Reader(ocr="off"),
        options=IngestOptions(engine="ray", ray_address=cluster.address, batch_size=1),
    )
    assert snapshot(db) == expected
    assert report.files_skipped >= 1  # what the killed run had recorded is not re-read
    assert report.files_skipped + report.files_read + report.files_failed == len(files)
    assert report.items_inserted + len(part) >= len(expected)


def _contacted(strace_log: str) -> Counter[str]:
    """Every IP address a traced process connected or sent to (Unix sockets aside)."""
    seen: Counter[str] = Counter()
    for line in strace_log.splitlines():
        if "AF_INET" in line:
            m = re.search(r'sin_addr=inet_addr\("([^"]+)"\)', line) or re.search(
                r'inet_pton\(AF_INET6, "([^"]+)"', line
            )
            seen[m.group(1) if m else line] += 1
    return seen


def _can_unshare_network() -> bool:
    try:
        return (
            subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=30).returncode
            == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(
    os.geteuid() != 0 or not _can_unshare_network(),
    reason="a network namespace needs root and unshare -n (util-linux)",
)
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is needed (.ci/run installs it)")
def test_a_cluster_omnireader_starts_contacts_nothing_but_loopback(
    files: list[Path], tmp_path: Path
) -> None:
    """In a network namespace with only loopback, every connect / sendto of the driver, the
    cluster it starts and its workers is traced: all go to loopback. Without omnireader's
    quiet settings Ray's dashboard asks the cloud metadata address 169.254.169.254."""
    log = tmp_path / "strace.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["HOME"] = str(tmp_path)  # Ray writes its auth token under ~/.ray
    ingest = [
        str(CLI),
        "ingest",
        *map(str, files[:2]),
        "--db",
        str(tmp_path / "db.lance"),
        "--engine",
        "ray",
        "--ocr",
        "off",
        "-q",
    ]
    traced = [
        "strace",
        "-f",
        "--seccomp-bpf",
        "-qq",
        "-e",
        "trace=connect,sendto,sendmsg",
        "-e",
        "signal=none",
        "-o",
        str(log),
        *ingest,
    ]
    script = 'ip link set lo up && exec "$@"'
    run = subprocess.run(
        ["unshare", "-n", "sh", "-c", script, "sh", *traced],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert Store.open(tmp_path / "db.lance").count() > 0
    seen = _contacted(log.read_text())
    loopback = {a for a in seen if a.startswith(("127.", "::ffff:127.")) or a == "::1"}
    assert loopback, "nothing was traced: the test would prove nothing"
    assert set(seen) == loopback, {a: n for a, n in seen.items() if a not in loopback}


def test_fine_mode_on_ray_needs_a_backend_it_can_rebuild_on_the_workers() -> None:
    from omnireader import EngineUnavailableError
    from omnireader.batch.ray_fine import recipe_of
    from omnireader.llm.openai_backend import OpenAIChatBackend

    by_hand = OpenAIChatBackend("m", base_url="http://127.0.0.1:9/v1", api_key="k")
    with pytest.raises(EngineUnavailableError, match="make_chat_backend"):
        recipe_of(by_hand)

"""Peak memory of every process of an ingest of one 500-page PDF (target ≤ 300 MB each).

    python bench/bench_memory.py [--quick] [--pages 500] [--repeat 3]

``omnireader ingest`` runs in a process group of its own; every 10 ms the whole group is
listed from /proc (so grandchildren count: the parser workers are forked by the
multiprocessing forkserver, not by the ingest process) and each process's peak resident
memory (``VmHWM``) is read. Processes are named by role:

- ``writer``: the ingest process itself (walks the folder, embeds, writes the store);
- ``forkserver``: the clean process the workers are forked from;
- ``worker N``: a parser worker (a child of the forkserver, or a spawned child);
- ``resource tracker``: multiprocessing's bookkeeping process.

The peak of each role is reported (``worker``: the highest of the workers), next to the
peak of a fresh interpreter that only imported the same libraries (the baseline). Rounds
alternate baseline and ingest; the median of the rounds and their range are reported.
``tests/benchmarks/test_memory_instrument.py`` plants ballast in the workers to prove the
worker's peak is the worker's.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _util import OUT, ROOT, at_most, interleaved, row, spread, table
from make_corpus import make_long_pdf

TARGET_MB = 300
POLL_S = 0.01
BASELINE = (
    "import time, lancedb, pypdfium2, pypdf, chonkie, omnireader.intake.router; time.sleep(0.3)"
)


def _status(pid: int) -> dict[str, int]:
    """VmHWM / VmRSS of ``pid`` in KiB (empty when it is gone)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(("VmHWM:", "VmRSS:")):
                    out[line[:5]] = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return out


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, process group) of ``pid``, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name may hold spaces and brackets
    return int(fields[1]), int(fields[2])


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def group_members(pgid: int) -> dict[int, int]:
    """Every live process of group ``pgid``: pid -> parent pid."""
    members = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            got = _stat(int(entry.name))
            if got is not None and got[1] == pgid:
                members[int(entry.name)] = got[0]
    return members


class TreeWatch:
    """The peak memory of each process of a process group, each named by its role."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.roles: dict[int, str] = {root: "writer"}
        self.peak_kib: dict[int, int] = {}
        self.tree_kib = 0  # the highest sum of the group's resident memory at one sample
        self._workers = 0

    def sample(self) -> None:
        members = group_members(self.root)
        for pid in sorted(members, key=lambda p: (p not in self.roles, p)):
            self._name(pid, members)
        total = 0
        for pid in members:
            st = _status(pid)
            if "VmHWM" in st:
                self.peak_kib[pid] = max(self.peak_kib.get(pid, 0), st["VmHWM"])
            total += st.get("VmRSS", 0)
        self.tree_kib = max(self.tree_kib, total)

    def _name(self, pid: int, members: dict[int, int]) -> None:
        # A child of the writer seen between its fork and its exec still has the writer's
        # command line: "fork of the writer" is named again until it shows what it became
        # (the forkserver, whose children are the workers).
        if self.roles.get(pid, "fork of the writer") != "fork of the writer":
            return
        parent, cmd = members[pid], _cmdline(pid)
        parent_role = self.roles.get(parent, "")
        if parent_role == "forkserver" or "multiprocessing.spawn" in cmd:
            self._workers += 1
            self.roles[pid] = f"worker {self._workers}"
        elif "forkserver" in cmd:
            self.roles[pid] = "forkserver"
        elif "resource_tracker" in cmd:
            self.roles[pid] = "resource tracker"
        elif parent == self.root:
            self.roles[pid] = "fork of the writer"
        else:
            self.roles[pid] = f"other ({cmd[:60]})"

    def peaks_mb(self) -> dict[str, float]:
        """Peak MB by role; ``worker`` is the highest worker's, ``tree`` the group's."""
        out: dict[str, float] = {}
        for pid, kib in self.peak_kib.items():
            role = self.roles.get(pid, "?")
            out[role] = max(out.get(role, 0.0), kib / 1024)
            if role.startswith("worker "):
                out["worker"] = max(out.get("worker", 0.0), kib / 1024)
        out["tree"] = self.tree_kib / 1024
        return out


def watch(cmd: list[str], env: dict[str, str] | None = None) -> dict[str, float]:
    """Run ``cmd`` in a process group of its own; the peak MB of each role in it."""
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    tree = TreeWatch(proc.pid)
    try:
        while proc.poll() is None:
            tree.sample()
            time.sleep(POLL_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {stderr[-2000:]}")
    return tree.peaks_mb()


def ingest_peaks(
    pdf: Path, workers: int = 1, env: dict[str, str] | None = None
) -> dict[str, float]:
    """The peak MB by role of ``omnireader ingest pdf`` into a fresh store."""
    with tempfile.TemporaryDirectory() as tmp:
        return watch(
            [
                sys.executable,
                "-m",
                "omnireader",
                "ingest",
                str(pdf),
                "--db",
                str(Path(tmp) / "s.lance"),
                "--workers",
                str(workers),
            ],
            env=env,
        )


def run(quick: bool = False, pages: int | None = None, repeat: int | None = None) -> dict[str, Any]:
    pages = pages or (100 if quick else 500)
    repeat = repeat or (2 if quick else 3)
    pdf = make_long_pdf(OUT / f"long_{pages}.pdf", pages=pages)
    rounds: list[dict[str, float]] = []

    def ingest() -> float:
        rounds.append(ingest_peaks(pdf))
        return rounds[-1]["writer"]

    got = interleaved(
        {"baseline": lambda: watch([sys.executable, "-c", BASELINE])["writer"], "ingest": ingest},
        repeat=repeat,
    )
    roles = sorted({r for peaks in rounds for r in peaks if not r.startswith("worker ")})
    by_role = {r: spread([p.get(r, 0.0) for p in rounds]) for r in roles}
    res = {
        "pages": pages,
        "repeat": repeat,
        "baseline_mb": spread(got["baseline"]),
        "peak_mb": by_role,
        "rounds": rounds,
    }
    print(
        table(
            ["process", "peak RSS MB (median, range)", "target"],
            [["baseline: interpreter + libraries", res["baseline_mb"], ""]]
            + [
                [r, by_role[r], f"≤ {TARGET_MB}" if r in ("writer", "worker") else ""]
                for r in roles
            ],
        )
    )
    return res


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    t, peaks = "Memory", result["peak_mb"]
    what = f"peak RSS ingesting a {result['pages']}-page PDF"
    out = [
        row(
            t,
            f"{what}: writer (the ingest process)",
            peaks["writer"],
            f"≤ {TARGET_MB} MB",
            at_most(peaks["writer"], TARGET_MB),
            unit=" MB",
            digits=0,
        )
    ]
    if "worker" in peaks:
        out.append(
            row(
                t,
                f"{what}: parser worker",
                peaks["worker"],
                f"≤ {TARGET_MB} MB",
                at_most(peaks["worker"], TARGET_MB),
                unit=" MB",
                digits=0,
            )
        )
    else:
        out.append(
            row(
                t,
                f"{what}: parser worker",
                "not seen",
                f"≤ {TARGET_MB} MB",
                False,
                note="no worker process was found: the instrument is broken",
            )
        )
    if "forkserver" in peaks:
        out.append(
            row(
                t,
                f"{what}: forkserver (the workers fork from it)",
                peaks["forkserver"],
                unit=" MB",
                digits=0,
                note="information",
            )
        )
    out.append(
        row(
            t,
            f"{what}: all its processes at one moment",
            peaks["tree"],
            unit=" MB",
            digits=0,
            note="information: the highest sum of their resident memory "
            "(pages they share counted in each)",
        )
    )
    out.append(
        row(
            t,
            "baseline: a fresh interpreter importing the same libraries",
            result["baseline_mb"],
            unit=" MB",
            digits=0,
            note="information",
        )
    )
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--pages", type=int)
    ap.add_argument("--repeat", type=int)
    a = ap.parse_args()
    run(a.quick, a.pages, a.repeat)

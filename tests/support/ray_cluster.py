"""A real two-node Ray cluster on this machine for tests: ``ray start --head`` plus one more
worker node, each a process group of our own (torn down by group, nothing else touched)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from omnireader.batch.ray_quiet import quiet_env

RAY = Path(sys.executable).with_name("ray")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalCluster:
    """Head and one worker node, 1 CPU each, bound to loopback, no dashboard."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="omni-ray-"))
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        # Token authentication, with a token of this cluster's own (not ~/.ray/auth_token).
        self.auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": uuid.uuid4().hex}
        self.env = {**quiet_env(), **self.auth}
        self._saved_env = dict(os.environ)
        self.procs: list[subprocess.Popen[bytes]] = []

    def _start(self, *args: str) -> None:
        cmd = [
            str(RAY),
            "start",
            "--block",
            "--num-cpus=1",
            "--node-ip-address=127.0.0.1",
            f"--temp-dir={self.tmp}",
            "--object-store-memory=100000000",
            "--disable-usage-stats",
            *args,
        ]
        log = open(self.tmp / f"node{len(self.procs)}.log", "wb")
        self.procs.append(
            subprocess.Popen(cmd, env=self.env, stdout=log, stderr=log, start_new_session=True)
        )

    def start(self, timeout: float = 120.0) -> LocalCluster:
        try:
            return self._up(timeout)
        except BaseException:
            self.stop()
            raise

    def _up(self, timeout: float) -> LocalCluster:
        # This process is a driver of the cluster too (restored by stop()); Ray reads its
        # settings once, when it is first imported.
        os.environ.update({k: v for k, v in self.env.items() if k.startswith("RAY_")})
        import ray

        self._start("--head", f"--port={self.port}", "--include-dashboard=false")
        deadline = time.monotonic() + timeout
        while not (self.tmp / "session_latest").exists():
            self._check(deadline)
            time.sleep(0.2)
        self._start(f"--address={self.address}")
        ray.init(address=self.address, log_to_driver=False, logging_level="WARNING")
        while len([n for n in ray.nodes() if n["Alive"]]) < 2:
            self._check(deadline)
            time.sleep(0.2)
        return self

    def _check(self, deadline: float) -> None:
        for p in self.procs:
            if p.poll() is not None:
                raise RuntimeError(f"ray start exited with {p.returncode}: see {self.tmp}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the Ray cluster did not come up: see {self.tmp}")

    def stop(self) -> None:
        import ray

        ray.shutdown()
        os.environ.clear()
        os.environ.update(self._saved_env)
        for p in reversed(self.procs):
            try:
                os.killpg(p.pid, signal.SIGKILL)  # the group we started, and only it
            except ProcessLookupError:
                pass
            p.wait(timeout=30)
        import shutil

        shutil.rmtree(self.tmp, ignore_errors=True)

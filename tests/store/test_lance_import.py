"""A store works without LanceDB's REST client having been loaded, and the client still
loads in full the first time something asks for it (``omnireader/store/lance_import.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys
from omnireader import Reader, Store

store = Store.open(sys.argv[1], create=True)
store.add(Reader().read("The heron nests by the quartz lagoon."))
hits = store.search("heron lagoon", k=3)
api = sorted(m for m in sys.modules if m.startswith("lance_namespace_urllib3_client.api"))

import lance_namespace_urllib3_client as client  # asked for by name: its __init__ runs now
print(json.dumps({"hits": [h.item.memory for h in hits], "api_before": api,
                  "table_api": client.TableApi.__module__, "version": client.__version__}))
"""


def test_a_store_opens_writes_and_searches_without_the_rest_client_which_loads_when_asked(
    tmp_path: Path,
) -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "db.lance")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    seen = json.loads(out.splitlines()[-1])
    assert seen["hits"] == ["The heron nests by the quartz lagoon."]
    assert seen["api_before"] == []
    assert seen["table_api"] == "lance_namespace_urllib3_client.api.table_api"
    assert seen["version"]

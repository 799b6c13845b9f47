"""A store works without LanceDB's REST client having been loaded, and the client still
loads in full the first time something asks for it; its models are built when first used,
and validate as always (``omnireader/store/lance_import.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.fresh_python import run_python

PROBE = """
import json, sys
from omnireader import Reader, Store

store = Store.open(sys.argv[1], create=True)
store.add(Reader().read("The heron nests by the quartz lagoon."))
hits = store.search("heron lagoon", k=3)
api = sorted(m for m in sys.modules if m.startswith("lance_namespace_urllib3_client.api"))

import lance_namespace_urllib3_client as client  # asked for by name: its __init__ runs now
from lance_namespace_urllib3_client.models.string_fts_query import StringFtsQuery
from pydantic import ValidationError

built = StringFtsQuery.__pydantic_complete__  # deferred: built when first used
try:
    StringFtsQuery(query=3)
    checked = False
except ValidationError:
    checked = True
import overrides, pydantic
print(json.dumps({"hits": [h.item.memory for h in hits], "api_before": api,
                  "table_api": client.TableApi.__module__, "version": client.__version__,
                  "model_built_before_use": built, "model_validates": checked,
                  "query": StringFtsQuery(query="heron").query,
                  "restored": [overrides.override.__module__, pydantic.ConfigDict.__module__]}))
"""


def test_a_store_opens_writes_and_searches_without_the_rest_client_which_loads_when_asked(
    tmp_path: Path,
) -> None:
    # The timeout is a hang guard: a loaded two-core machine took >120 s.
    out = run_python(PROBE, str(tmp_path / "db.lance"), timeout=300).stdout
    seen = json.loads(out.splitlines()[-1])
    assert seen["hits"] == ["The heron nests by the quartz lagoon."]
    assert seen["api_before"] == []
    assert seen["table_api"] == "lance_namespace_urllib3_client.api.table_api"
    assert seen["version"]
    assert seen["model_built_before_use"] is False
    assert seen["model_validates"] is True
    assert seen["query"] == "heron"
    assert seen["restored"] == ["overrides.overrides", "pydantic.config"]


PANDAS_PROBE = """
import json, sys
from omnireader import Reader, Store

store = Store.open(sys.argv[1], create=True)
store.add(Reader().read("The heron nests by the quartz lagoon."))
hits = store.search("heron lagoon", k=3)
before = "pandas" in sys.modules

import pandas as pd  # imported later, by anyone: pyarrow is told, and uses it as always
import pyarrow as pa

print(json.dumps({"hits": len(hits), "pandas_before": before,
                  "nulls": pa.array(pd.Series([1.0, None])).null_count,
                  "frame": type(pa.table({"a": [1, 2]}).to_pandas()).__name__,
                  "rows": pa.Table.from_pandas(pd.DataFrame({"a": [3]})).num_rows}))
"""


def test_a_store_works_without_pandas_which_pyarrow_uses_as_always_once_imported(
    tmp_path: Path,
) -> None:
    # The timeout is a hang guard: a loaded two-core machine took >120 s.
    out = run_python(PANDAS_PROBE, str(tmp_path / "db.lance"), timeout=300).stdout
    seen = json.loads(out.splitlines()[-1])
    assert seen == {"hits": 1, "pandas_before": False, "nulls": 1, "frame": "DataFrame", "rows": 1}

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
from lancedb.functions import FunctionArtifact  # LanceDB's remote-function wire models
fn_built = FunctionArtifact.__pydantic_complete__
try:
    FunctionArtifact(kind=3, digest="d", entrypoint="e")
    fn_checked = False
except ValidationError:
    fn_checked = True
import overrides, pydantic
print(json.dumps({"functions": [fn_built, fn_checked,
                                FunctionArtifact(kind="k", digest="d", entrypoint="e").kind],"hits": [h.item.memory for h in hits], "api_before": api,
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
    assert seen["functions"] == [False, True, "k"]


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


ROWS_PROBE = """
import json, sys
import pyarrow as pa
from omnireader import Reader
from omnireader.store.schema import items_schema, items_to_rows

# What a parser worker does with a big file: its items' Arrow rows, without LanceDB.
rows = items_to_rows(Reader().read("The heron nests by the quartz lagoon."), items_schema(8, "t"))
before = "pandas" in sys.modules

import pandas as pd

print(json.dumps({"rows": rows.num_rows, "lancedb": "lancedb" in sys.modules,
                  "pandas_before": before,
                  "nulls": pa.array(pd.Series([1.0, None])).null_count}))
"""


def test_rows_are_built_without_pandas_which_pyarrow_uses_as_always_once_imported() -> None:
    # The first pa.array of a list made pyarrow import pandas (~0.3 s), in every worker.
    seen = json.loads(run_python(ROWS_PROBE, timeout=300).stdout.splitlines()[-1])
    assert seen == {"rows": 1, "lancedb": False, "pandas_before": False, "nulls": 1}


def _names_lancedb_takes_from(package: str) -> set[str]:
    """The names the installed LanceDB's modules import ``from package import …``."""
    import ast
    import importlib.util

    spec = importlib.util.find_spec("lancedb")
    assert spec is not None and spec.submodule_search_locations
    names: set[str] = set()
    for root in spec.submodule_search_locations:
        for path in Path(root).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module == package:
                    names |= {alias.name for alias in node.names}
    return names


def test_the_stand_ins_are_the_names_lancedb_takes_from_lance_namespace() -> None:
    # Fails when a LanceDB upgrade imports other names: they then load the whole package at
    # start-up (correct, ~0.1 s slower); update NAMESPACE_NAMES in lance_import.py.
    import lance_namespace

    from omnireader.store.lance_import import NAMESPACE_NAMES

    taken = _names_lancedb_takes_from("lance_namespace")
    assert taken == NAMESPACE_NAMES, (
        f"LanceDB now takes {sorted(taken - NAMESPACE_NAMES)} and no longer "
        f"{sorted(NAMESPACE_NAMES - taken)} from lance_namespace: the stand-in no longer applies"
    )
    assert NAMESPACE_NAMES <= set(lance_namespace.__all__) | {"connect"}


NAMESPACE_PROBE = """
import json, sys, tempfile
from omnireader.store.deferred_packages import has_run
from omnireader.store.lance_import import import_lancedb

lancedb = import_lancedb()
models = lambda: sum(m.startswith("lance_namespace_urllib3_client.models.") for m in sys.modules)
at_import = {"namespace_ran": has_run("lance_namespace"), "models": models(),
             "client_ran": has_run("lance_namespace_urllib3_client")}

listed = lancedb.connect(tempfile.mkdtemp()).list_namespaces()  # a stand-in's first use

import lance_namespace
import lancedb.db, lancedb.namespace, lancedb.remote.db
from lance_namespace import LanceNamespace, ListNamespacesResponse, ListTablesResponse


class DictNamespace(LanceNamespace):  # a user's own namespace implementation
    def __init__(self, **properties):
        self.properties = properties

    def namespace_id(self):
        return "DictNamespace"

    def list_namespaces(self, request):
        return ListNamespacesResponse(namespaces=["herons"])

    def list_tables(self, request):
        return ListTablesResponse(tables=["nests"])


db = lancedb.connect_namespace("__main__.DictNamespace", {"root": "lagoon"})
print(json.dumps({
    **at_import,
    "listed": [type(listed).__module__, listed.namespaces],
    "same_class": lancedb.db.ListNamespacesResponse is ListNamespacesResponse,
    "same_connect": lancedb.namespace.namespace_connect is lance_namespace.connect,
    "annotation": lancedb.remote.db.RemoteDBConnection.list_namespaces.__annotations__["return"]
    is ListNamespacesResponse,
    "package_models": len(lance_namespace.__all__), "models_after": models(),
    "namespaces": db.list_namespaces().namespaces, "tables": db.list_tables().tables,
}))
"""


def test_lancedb_loads_without_lance_namespace_whose_namespaces_work_when_used() -> None:
    # The timeout is a hang guard for a loaded machine.
    seen = json.loads(run_python(NAMESPACE_PROBE, timeout=300).stdout.splitlines()[-1])
    # If these fail, LanceDB's import now uses lance_namespace itself: the stand-in no
    # longer saves anything (~0.1 s of every store command's start-up), though all works.
    assert seen["namespace_ran"] is False
    assert seen["client_ran"] is False
    assert seen["models"] < 30  # the few lancedb/namespace.py imports by module, of ~150
    # Used, it is the real package, everywhere LanceDB looks.
    assert seen["listed"] == [
        "lance_namespace_urllib3_client.models.list_namespaces_response",
        [],
    ]
    assert seen["same_class"] and seen["same_connect"] and seen["annotation"]
    assert seen["package_models"] > 100 and seen["models_after"] > 100
    assert seen["namespaces"] == ["herons"]
    assert seen["tables"] == ["nests"]

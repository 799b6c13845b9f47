"""Query-expansion lexicons are data: one JSON file per domain, replaceable and extendable."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from omnireader.errors import ConfigError
from omnireader.store.expansion import GROUPS, LEXICONS_DIR, expand, load_lexicons


def lexicon(path: Path, *groups: tuple[list[str], list[str]]) -> Path:
    data = {"domain": "test", "groups": [{"names": n, "adds": a} for n, a in groups]}
    path.write_text(json.dumps(data))
    return path


def test_the_bundled_finance_lexicon_is_what_every_search_expands_with() -> None:
    assert (LEXICONS_DIR / "finance.json").is_file()
    assert load_lexicons("default") == GROUPS
    assert "purchases" in expand("What was the capital expenditure in 2019?").split()


def test_a_users_lexicon_replaces_the_bundled_ones(tmp_path: Path) -> None:
    medical = lexicon(tmp_path / "medical.json", (["heart attack"], ["myocardial infarction"]))

    groups = load_lexicons(str(medical))

    assert expand("signs of a heart attack", groups).endswith("myocardial infarction")
    assert expand("capital expenditure", groups) == "capital expenditure"


def test_default_in_the_list_keeps_the_bundled_ones_beside_a_folder_of_lexicons(
    tmp_path: Path,
) -> None:
    lexicon(tmp_path / "a.json", (["heart attack"], ["myocardial infarction"]))
    lexicon(tmp_path / "b.json", (["flat", "apartment"], []))

    groups = load_lexicons(os.pathsep.join(["default", str(tmp_path)]))

    assert "apartment" in expand("a flat in Berlin", groups)
    assert "purchases" in expand("capital expenditure", groups)
    assert load_lexicons("") == ()


def test_a_file_that_is_not_a_lexicon_is_a_config_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"terms": []}')

    with pytest.raises(ConfigError, match="bad.json"):
        load_lexicons(str(bad))
    with pytest.raises(ConfigError, match="no such file"):
        load_lexicons(str(tmp_path / "missing.json"))

"""An XML file keeps its field names whatever its bytes' encoding, even when its
declaration names another one (a UTF-16 file that says encoding="UTF-8", as .NET writers
leave it; a UTF-8 copy that still says UTF-16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import Reader

DOC = '<?xml version="1.0" encoding="{declared}"?>\n<order><id>42</id><item>thé vert</item></order>'


@pytest.mark.parametrize(
    "declared,encoding",
    [("UTF-8", "utf-8"), ("UTF-8", "utf-16"), ("UTF-8", "utf-16-le"), ("UTF-16", "utf-8")],
)
def test_field_names_are_kept_in_any_encoding(tmp_path: Path, declared: str, encoding: str) -> None:
    path = tmp_path / "order.xml"
    path.write_bytes(DOC.format(declared=declared).encode(encoding))
    [item] = Reader().read(path)
    assert item.memory == "id: 42\nitem: thé vert"

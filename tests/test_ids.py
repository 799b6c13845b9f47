"""Item ids: the fast UUIDv5 is exactly ``uuid.uuid5`` (stored ids must never change)."""

from __future__ import annotations

import uuid

from omnireader.ids import _NAMESPACE, item_id


def test_item_id_is_uuid5_of_the_joined_key() -> None:
    cases = [
        ("", ()),
        ("abc", ("file", "fast", 3)),
        ("h" * 64, ("string", "fast", "", "s2", 0)),
        ("名前", ("chat", "fine", "é", 10**12)),
        ("x", ("a|b", None, 1.5)),
    ]
    for source_hash, position in cases:
        for scope in (None, "u1/s1", "ü"):
            key = "|".join([scope or "", source_hash, *(str(p) for p in position)])
            assert item_id(source_hash, *position, scope=scope) == str(uuid.uuid5(_NAMESPACE, key))
            assert uuid.UUID(item_id(source_hash, *position, scope=scope)).version == 5

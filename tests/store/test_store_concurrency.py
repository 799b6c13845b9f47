"""Two real processes writing one store at once: nothing lost, nothing duplicated."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from omnireader.store import Store

WRITER = textwrap.dedent("""
    import sys
    from omnireader.models import MemoryItem, MemoryMetadata
    from omnireader.store import Store

    path, tag = sys.argv[1], sys.argv[2]
    store = Store.open(path)
    items = [MemoryItem(id=f"{tag}-{i}", memory=f"note {i} from writer {tag}",
                        metadata=MemoryMetadata(user_id=tag)) for i in range(500)]
    for start in range(0, 500, 50):  # ten commits each, interleaving with the other writer
        store.add(items[start:start + 50])
""")


def test_two_processes_adding_distinct_items_store_all_of_them_once(tmp_path: Path) -> None:
    path = tmp_path / "shared.lance"  # both writers also race to create it
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), tag],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("a", "b")
    ]
    outcomes = [w.communicate(timeout=120) for w in writers]

    assert [w.returncode for w in writers] == [0, 0], outcomes
    store = Store.open(path)
    assert store.count() == 1000
    assert store.count({"user_id": "a"}) == store.count({"user_id": "b"}) == 500
    ids = [item.id for item in store.iter_items()]
    assert len(ids) == len(set(ids)) == 1000


def test_two_processes_upserting_the_same_items_store_each_once(tmp_path: Path) -> None:
    # Both writers insert the same new ids at the same time: without the store's write lock
    # two merge_inserts can each commit the row.
    path = tmp_path / "shared.lance"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), "same"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = [w.communicate(timeout=120) for w in writers]

    assert [w.returncode for w in writers] == [0, 0], outcomes
    ids = [item.id for item in Store.open(path).iter_items()]
    assert len(ids) == len(set(ids)) == 500

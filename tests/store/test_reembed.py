"""Stores made with the old default embedder keep working, and `reembed` moves them to another."""

from __future__ import annotations

from pathlib import Path

import pytest

from omnireader import reembed
from omnireader.cli.main import main
from omnireader.errors import EmbedderMismatchError, StoreError
from omnireader.store import Store

from .conftest import MakeItem

TEXTS = {
    "car": "Alice bought a new automobile last week.",
    "bike": "Bob repaired the chain of his bicycle.",
    "money": "Quarterly revenue rose by ten percent.",
}


def old_store(path: Path, item: MakeItem) -> Store:
    """A store as the old default made it: hashing vectors."""
    store = Store.open(path, embedder="hashing")
    store.add([item(k, t, path=f"/notes/{k}.txt", user_id="u1") for k, t in TEXTS.items()])
    return store


def test_a_store_made_by_the_old_default_is_searched_with_its_own_embedder(
    tmp_path: Path, item: MakeItem
) -> None:
    old_store(tmp_path / "db", item)

    reopened = Store.open(tmp_path / "db")

    assert reopened.embedder.name == "hashing-v1"
    assert reopened.search("bicycle chain", k=1)[0].item.id == "bike"
    assert reopened.search("revenue", k=1, view="vector")[0].item.id == "money"


def test_reembed_gives_the_store_the_new_embedder_and_keeps_every_item_and_column(
    tmp_path: Path, item: MakeItem
) -> None:
    before = old_store(tmp_path / "db", item)
    items_before = {i.id: i for i in before.iter_items()}
    seen: list[tuple[int, int]] = []

    report = reembed(tmp_path / "db", progress=lambda done, total: seen.append((done, total)))

    after = Store.open(tmp_path / "db")
    assert (report.before, report.after, report.items, report.changed) == (
        "hashing-v1",
        "static:potion-base-8m-letters",
        3,
        True,
    )
    assert after.embedder.name == "static:potion-base-8m-letters"
    assert {i.id: i for i in after.iter_items()} == items_before
    assert seen[-1] == (3, 3)
    # Meaning, not words: no word of the query is in the car's text.
    assert after.search("vehicle purchase", k=1, view="vector")[0].item.id == "car"
    # The filters' columns came along.
    assert {r.item.id for r in after.search("bicycle", filters={"path": "/notes/bike.txt"})} == {
        "bike"
    }
    assert after.count() == 3


@pytest.mark.parametrize(
    "earlier",
    [
        "static:minilm-l6-static-256",  # the distilled MiniLM, the default before POTION
        "static:potion-base-8m",  # POTION pooling every token, without headings
    ],
)
def test_a_store_made_by_an_earlier_static_default_keeps_it_until_reembedded(
    tmp_path: Path, item: MakeItem, earlier: str
) -> None:
    # Both stay bundled for the stores that recorded them.
    Store.open(tmp_path / "db", embedder=earlier).add([item(k, t) for k, t in TEXTS.items()])

    reopened = Store.open(tmp_path / "db")

    assert reopened.embedder.name == earlier
    assert reopened.search("vehicle purchase", k=1, view="vector")[0].item.id == "car"
    with pytest.raises(EmbedderMismatchError, match=f"embedder='{earlier}'"):
        Store.open(tmp_path / "db", embedder="static")
    assert reembed(tmp_path / "db").after == "static:potion-base-8m-letters"
    assert Store.open(tmp_path / "db").search("vehicle purchase", k=1)[0].item.id == "car"


def test_reembed_with_the_embedder_a_store_has_changes_nothing(
    tmp_path: Path, item: MakeItem
) -> None:
    old_store(tmp_path / "db", item)

    report = reembed(tmp_path / "db", "hashing")

    assert not report.changed and report.items == 3
    assert Store.open(tmp_path / "db").embedder.name == "hashing-v1"


def test_after_reembed_the_old_embedder_is_refused_naming_the_command(
    tmp_path: Path, item: MakeItem
) -> None:
    old_store(tmp_path / "db", item)
    reembed(tmp_path / "db", "hashing:64")

    with pytest.raises(EmbedderMismatchError, match="omnireader reembed"):
        Store.open(tmp_path / "db", embedder="hashing")
    assert Store.open(tmp_path / "db").embedder.dim == 64


def test_reembed_of_a_missing_store_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError):
        reembed(tmp_path / "nowhere")


def test_the_reembed_command_reports_what_it_did(
    tmp_path: Path, item: MakeItem, capsys: pytest.CaptureFixture[str]
) -> None:
    old_store(tmp_path / "db", item)

    code = main(["reembed", "--db", str(tmp_path / "db"), "--no-progress"])

    assert code == 0
    assert (
        "re-embedded 3 items: hashing-v1 -> static:potion-base-8m-letters"
        in capsys.readouterr().out
    )
    assert main(["reembed", "--db", str(tmp_path / "db")]) == 0
    assert "nothing to do" in capsys.readouterr().out

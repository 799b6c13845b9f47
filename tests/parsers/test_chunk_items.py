"""Items built in bulk (``Parser.make_chunk_items``, ``models.trusted``) are the items
``make_item`` validates one by one: same ids, texts, sources and metadata, nothing shared."""

from __future__ import annotations

from omnireader.models import MemoryMetadata, Source, trusted
from omnireader.parsers.base import ParseContext, chunk_source
from omnireader.parsers.file import FileParser
from omnireader.text.chunking import chunk_text


def _view(item) -> dict:
    d = item.model_dump()
    d["metadata"].pop("created_at")
    d["metadata"].pop("updated_at")
    return d


def test_bulk_items_equal_validated_ones() -> None:
    parser = FileParser()
    ctx = ParseContext(user_id="u1", session_id="s1")
    source = Source(kind="file", filename="a.txt", content_hash="abc", mime="text/plain")
    chunks = chunk_text("Première phrase. 東京の天気は晴れ。 " * 400 + "word " * 3000, 64)
    meta = dict(
        timestamp="2025-01-15T10:00:00",
        persons=["Ann"],
        key="a.txt",
        topic=None,
        tags=["text"],
        extra={"format": "text"},
    )
    bulk = parser.make_chunk_items(
        chunks, ctx, source=source, where=("", "s0"), source_update={"page": None}, **meta
    )
    one_by_one = [
        parser.make_item(
            c.text,
            ctx,
            sources=[chunk_source(source, c, page=None)],
            position=("", "s0", c.index),
            **{k: (v.copy() if isinstance(v, (list, dict)) else v) for k, v in meta.items()},
        )
        for c in chunks
    ]
    assert len(bulk) == len(chunks) > 10
    assert [_view(i) for i in bulk] == [_view(i) for i in one_by_one]
    assert [i.metadata.model_fields_set for i in bulk] == [
        i.metadata.model_fields_set for i in one_by_one
    ]
    # Lists and dicts are each item's own: changing one item changes no other.
    bulk[0].metadata.extra["unreadable_pages"] = [3]
    bulk[0].metadata.tags.append("x")
    bulk[0].metadata.flags.append("needs_ocr")
    assert all("unreadable_pages" not in i.metadata.extra for i in bulk[1:])
    assert all(i.metadata.tags == ["text"] and not i.metadata.flags for i in bulk[1:])


def test_trusted_fills_defaults_like_model_construct() -> None:
    a = trusted(MemoryMetadata, user_id="u", tags=["t"])
    b = MemoryMetadata.model_construct(user_id="u", tags=["t"])
    assert a.model_dump(exclude={"created_at", "updated_at"}) == b.model_dump(
        exclude={"created_at", "updated_at"}
    )
    assert a.model_fields_set == b.model_fields_set == {"user_id", "tags"}
    assert a.keywords is not trusted(MemoryMetadata).keywords  # a fresh list each time
    assert MemoryMetadata.model_validate(a.model_dump()) == MemoryMetadata(**a.model_dump())


def test_trusted_keeps_the_declaration_order_of_validation() -> None:
    a = trusted(Source, kind="chat", role="user", content="hi", chunk_index=None)
    b = Source(kind="chat", role="user", content="hi", chunk_index=None)
    assert list(a.__dict__) == list(b.__dict__) and repr(a) == repr(b)
    assert a.model_fields_set == b.model_fields_set
    assert (
        "kind" not in trusted(Source, role="user").__dict__
    )  # left out: unset, as model_construct

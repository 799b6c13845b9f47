"""The LlamaIndex adapters against the real llama-index-core: a folder with a PDF, a DOCX and
an e-mail read into Documents whose ids are omnireader's, and a retriever over a real LanceDB
store in tmp_path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("llama_index.core", reason="the llama-index extra is not installed")

from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline  # noqa: E402
from llama_index.core.readers.base import BaseReader  # noqa: E402
from llama_index.core.retrievers import BaseRetriever  # noqa: E402
from llama_index.core.schema import MetadataMode  # noqa: E402
from llama_index.core.storage.docstore import SimpleDocumentStore  # noqa: E402

from omnireader import Reader, Store, ingest  # noqa: E402
from omnireader.errors import (  # noqa: E402
    BlockedURLError,
    InvalidInputError,
    NeedsOcrError,
    ReadError,
    StoreError,
)
from omnireader.integrations.langchain import OmniReaderLoader  # noqa: E402
from omnireader.integrations.llama_index import (  # noqa: E402
    OmniReaderReader,
    OmniReaderRetriever,
)
from tests.integrations.conftest import DOCX_FACT, MAIL_FACT, PDF_FACT  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_documents_carry_omnireaders_ids_and_provenance(mixed_folder: Path) -> None:
    reader = OmniReaderReader()
    assert isinstance(reader, BaseReader)
    docs = reader.load_data(mixed_folder)
    items = Reader().read(mixed_folder)
    assert [d.id_ for d in docs] == [i.id for i in items]
    assert [d.text for d in docs] == [i.memory for i in items]

    by_name: dict[str, list] = {}
    for d in docs:
        by_name.setdefault(d.metadata["filename"], []).append(d)
    assert [d.metadata["page"] for d in by_name["logistics.pdf"]] == [1, 2]
    assert PDF_FACT in by_name["logistics.pdf"][1].text
    assert [d.metadata["heading"] for d in by_name["osprey.docx"]] == ["Osprey plan", "Timeline"]
    [mail] = by_name["board.eml"]
    assert MAIL_FACT in mail.text and mail.metadata["timestamp"].startswith("2025-05-06")
    assert {"Ann Lee", "Bo Chen"} <= set(mail.metadata["persons"])

    # The same metadata as the LangChain loader (one provenance for both frameworks).
    lc = OmniReaderLoader(mixed_folder).load()
    assert [d.metadata for d in docs] == [d.metadata for d in lc]
    # Bookkeeping stays out of what an embedder sees; the provenance that means something stays.
    shown = by_name["logistics.pdf"][1].get_content(metadata_mode=MetadataMode.EMBED)
    assert "page: 2" in shown and "item_id" not in shown and "chunk_index" not in shown


def test_reloading_is_idempotent(mixed_folder: Path) -> None:
    first = OmniReaderReader().load_data(mixed_folder)
    again = OmniReaderReader().load_data(file=mixed_folder)
    assert [(d.id_, d.hash) for d in first] == [(d.id_, d.hash) for d in again]

    docstore = SimpleDocumentStore()
    # Without a vector store, a docstore de-duplicates by document id and hash.
    pipeline = IngestionPipeline(
        transformations=[], docstore=docstore, docstore_strategy=DocstoreStrategy.DUPLICATES_ONLY
    )
    assert len(pipeline.run(documents=first)) == len(first)
    assert pipeline.run(documents=again) == []  # nothing new the second time
    assert set(docstore.docs) == {d.id_ for d in first}

    # A changed file changes only its own documents' ids.
    mail = mixed_folder / "board.eml"
    mail.write_bytes(mail.read_bytes().replace(b"Thursday", b"Friday"))
    changed = OmniReaderReader().load_data(mixed_folder)
    old = {d.metadata["filename"]: d.id_ for d in first}
    new = {d.metadata["filename"]: d.id_ for d in changed}
    assert new["board.eml"] != old["board.eml"]
    assert new["osprey.docx"] == old["osprey.docx"]
    assert len(pipeline.run(documents=changed)) == 1


def test_a_missing_path_raises_the_readers_error(mixed_folder: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.docx"
    with pytest.raises(ReadError) as direct:
        Reader().read(missing)
    with pytest.raises(ReadError) as raised:
        OmniReaderReader().load_data([mixed_folder, missing])
    assert type(raised.value) is type(direct.value) and str(raised.value) == str(direct.value)
    with pytest.raises(InvalidInputError):
        OmniReaderReader().load_data()
    extra = OmniReaderReader(on_error="skip").load_data(
        [missing, mixed_folder], extra_info={"collection": "ops"}
    )
    assert len(extra) == 5 and all(d.metadata["collection"] == "ops" for d in extra)


def test_urls_are_read_with_the_options_given(served_folder: str) -> None:
    url = f"{served_folder}/osprey.docx"
    with pytest.raises(BlockedURLError):
        OmniReaderReader().load_data(url)
    docs = OmniReaderReader(allow_private_urls=True).load_data(url)
    assert [d.metadata["heading"] for d in docs] == ["Osprey plan", "Timeline"]
    assert {d.metadata["source"] for d in docs} == {url}


def test_ocr_is_passed_to_the_reader(tmp_path: Path) -> None:
    from PIL import Image

    scan = tmp_path / "blank_scan.pdf"
    Image.new("RGB", (600, 300), "white").save(scan)
    with pytest.raises(NeedsOcrError, match="blank_scan.pdf: page 1 has no text layer"):
        OmniReaderReader(ocr="off").load_data(scan)


@pytest.fixture
def store(mixed_folder: Path, tmp_path: Path) -> Store:
    store = Store.open(tmp_path / "db.lance")
    assert ingest(mixed_folder, store).ok
    return store


def test_the_retriever_searches_the_store_with_its_filters(
    store: Store, mixed_folder: Path
) -> None:
    retriever = OmniReaderRetriever(store, k=3)
    assert isinstance(retriever, BaseRetriever)
    for fact, name in (
        (PDF_FACT, "logistics.pdf"),
        (DOCX_FACT, "osprey.docx"),
        (MAIL_FACT, "board.eml"),
    ):
        top = retriever.retrieve(fact)[0]
        assert top.node.metadata["filename"] == name and fact in top.node.get_content()
        assert top.node.node_id == top.node.metadata["item_id"] and top.score > 0

    docx = str(mixed_folder / "osprey.docx")
    scoped = OmniReaderRetriever(store, k=5, filters={"path": docx})
    expected = store.search("migration", k=5, filters={"path": docx})
    got = scoped.retrieve("migration")
    assert [n.node.node_id for n in got] == [r.item.id for r in expected]
    assert [n.score for n in got] == [r.score for r in expected]
    assert {n.node.metadata["filename"] for n in scoped.retrieve("board budget")} == {"osprey.docx"}
    # Stored ids are the reader's ids: what the retriever returns is what load_data gave.
    loaded = {d.id_ for d in OmniReaderReader().load_data(mixed_folder)}
    assert {n.node.node_id for n in retriever.retrieve("Oslo Lisbon Utrecht")} <= loaded

    everything = OmniReaderRetriever(store, k=10).retrieve("the")
    budget = len(everything[0].node.get_content()) + 1
    bounded = OmniReaderRetriever(store, k=10, max_chars=budget).retrieve("the")
    assert 1 <= len(bounded) < len(everything)
    assert sum(len(n.node.get_content()) for n in bounded) <= budget


def test_the_retriever_rejects_what_search_would(store: Store, tmp_path: Path) -> None:
    assert (
        OmniReaderRetriever(str(store.path)).retrieve(MAIL_FACT)[0].node.metadata["filename"]
        == "board.eml"
    )
    with pytest.raises(StoreError):
        OmniReaderRetriever(tmp_path / "none.lance")
    with pytest.raises(InvalidInputError, match="valid filters are"):
        OmniReaderRetriever(store, filters={"author": "x"})
    with pytest.raises(InvalidInputError):
        OmniReaderRetriever(store, k=0)
    with pytest.raises(InvalidInputError):
        OmniReaderRetriever(store, view="semantic")  # type: ignore[arg-type]


def test_without_llama_index_the_import_error_is_one_line_naming_the_extra() -> None:
    code = (
        "import sys; sys.modules['llama_index'] = None\n"
        "try:\n    import omnireader.integrations.llama_index\n"
        "except ImportError as e:\n"
        "    print(type(e).__name__); print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    lines = out.stdout.splitlines()
    assert lines[0] == "MissingExtraError", out.stderr
    assert len(lines) == 2 and "pip install 'omnireader[llama-index]'" in lines[1]

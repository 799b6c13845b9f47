"""The LangChain adapters against the real langchain-core: a folder with a PDF, a DOCX and an
e-mail loaded as Documents, and a retriever over a real LanceDB store in tmp_path."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("langchain_core", reason="the langchain extra is not installed")

from langchain_core.documents import Document  # noqa: E402
from langchain_core.retrievers import BaseRetriever  # noqa: E402

from omnireader import Reader, Store, ingest  # noqa: E402
from omnireader.errors import (  # noqa: E402
    BlockedURLError,
    FineModeUnavailableError,
    InvalidInputError,
    NeedsOcrError,
    ReadError,
    StoreError,
)
from omnireader.integrations.langchain import OmniReaderLoader, OmniReaderRetriever  # noqa: E402
from tests.integrations.conftest import DOCX_FACT, MAIL_FACT, PDF_FACT  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def by_file(docs: list[Document]) -> dict[str, list[Document]]:
    out: dict[str, list[Document]] = {}
    for d in docs:
        out.setdefault(Path(d.metadata["source"]).name, []).append(d)
    return out


def test_the_loader_yields_one_document_per_item_with_its_provenance(mixed_folder: Path) -> None:
    docs = OmniReaderLoader(mixed_folder).load()
    items = Reader().read(mixed_folder)
    # The same items as Reader.read, in the same order, ids kept as the documents' ids.
    assert [d.id for d in docs] == [i.id for i in items]
    assert [d.page_content for d in docs] == [i.memory for i in items]
    assert all(d.metadata["item_id"] == d.id for d in docs)

    files = by_file(docs)
    assert set(files) == {"logistics.pdf", "osprey.docx", "board.eml"}
    pdf = files["logistics.pdf"]
    assert [d.metadata["page"] for d in pdf] == [1, 2]
    assert PDF_FACT in pdf[1].page_content
    assert pdf[0].metadata["path"] == str(mixed_folder / "logistics.pdf")
    assert pdf[0].metadata["persons"] == ["Maria Santos"]
    assert pdf[0].metadata["timestamp"].startswith("2024-10-01T09:00")
    assert all(d.metadata["chunk_index"] == 0 for d in pdf)

    docx = files["osprey.docx"]
    assert [d.metadata["heading"] for d in docx] == ["Osprey plan", "Timeline"]
    assert DOCX_FACT in docx[1].page_content and "page" not in docx[1].metadata

    [mail] = files["board.eml"]
    assert MAIL_FACT in mail.page_content
    assert mail.metadata["timestamp"] == "2025-05-06T10:30:00+02:00"
    assert {"Ann Lee", "Bo Chen"} <= set(mail.metadata["persons"])
    # Metadata holds plain values only (LangChain serialises it, vector stores filter on it).
    for d in docs:
        for value in d.metadata.values():
            assert value is not None
            assert isinstance(value, (str, int, float, list)), value


def test_lazy_load_streams_and_a_missing_path_raises_the_readers_error(
    mixed_folder: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "gone" / "minutes.pdf"
    with pytest.raises(ReadError) as direct:
        Reader().read(missing)
    stream = OmniReaderLoader([mixed_folder, missing]).lazy_load()
    assert isinstance(stream, Iterator)
    got = [next(stream) for _ in range(5)]  # the folder's five items come before the failure
    assert {Path(d.metadata["source"]).name for d in got} == {
        "logistics.pdf",
        "osprey.docx",
        "board.eml",
    }
    with pytest.raises(ReadError) as raised:
        next(stream)
    assert type(raised.value) is type(direct.value)
    assert str(raised.value) == str(direct.value)

    # A string path is a path too, never text read as a memory (Reader.read's reading).
    with pytest.raises(ReadError, match="no such file"):
        OmniReaderLoader(str(missing)).load()

    skipping = OmniReaderLoader([missing, mixed_folder], on_error="skip")
    assert len(skipping.load()) == 5
    assert [f.input for f in skipping.failures] == [str(missing)]


def test_urls_are_read_with_the_options_given(served_folder: str, mixed_folder: Path) -> None:
    url = f"{served_folder}/logistics.pdf"
    # The loopback server is refused like any private address, unless the option says so.
    with pytest.raises(BlockedURLError):
        OmniReaderLoader(url).load()
    docs = OmniReaderLoader([url, f"{served_folder}/board.eml"], allow_private_urls=True).load()
    assert [d.metadata["source"] for d in docs] == [url, url, f"{served_folder}/board.eml"]
    assert [d.metadata["page"] for d in docs[:2]] == [1, 2]
    assert "path" not in docs[0].metadata and docs[0].metadata["url"] == url
    # The same bytes give the same items, read from disk or over HTTP.
    local = OmniReaderLoader(mixed_folder / "logistics.pdf").load()
    assert [d.id for d in docs[:2]] == [d.id for d in local]


def test_ocr_and_mode_reach_the_reader(tmp_path: Path) -> None:
    from PIL import Image, ImageDraw, ImageFont

    scan = tmp_path / "scan.pdf"
    img = Image.new("RGB", (1200, 400), "white")
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 48)
    ImageDraw.Draw(img).text((40, 150), "Scanned invoice 7731", fill="black", font=font)
    img.save(scan)
    # With OCR off the page is not recognised (the default, auto, would read its text): no
    # document, an error naming the page and what to do.
    with pytest.raises(NeedsOcrError, match="page 1 has no text layer and OCR was off"):
        OmniReaderLoader(scan, ocr="off").load()

    with pytest.raises(FineModeUnavailableError):
        OmniReaderLoader(scan, mode="fine")
    with pytest.raises(InvalidInputError, match="'auto', 'off' or 'always'"):
        OmniReaderLoader(scan, ocr="sometimes")  # type: ignore[arg-type]
    # Options given beside a reader are checked too, and laid over its own.
    with pytest.raises(InvalidInputError):
        OmniReaderLoader(scan, reader=Reader(), ocr="sometimes")  # type: ignore[arg-type]
    with pytest.raises(NeedsOcrError):
        OmniReaderLoader(scan, reader=Reader(chunk_tokens=128), ocr="off").load()


def test_fine_mode_runs_through_the_llm_given(mixed_folder: Path) -> None:
    from tests.refine.conftest import build_backend
    from tests.support.llm_server import LLMServer

    with LLMServer() as server:
        reader = Reader(llm=build_backend("openai", server))
        docs = OmniReaderLoader(mixed_folder / "osprey.docx", mode="fine", reader=reader).load()
        assert server.requests_to("chat"), "fine mode never called the LLM"
    modes = {d.metadata["mode"] for d in docs}
    assert "fine" in modes


@pytest.fixture
def store(mixed_folder: Path, tmp_path: Path) -> Store:
    store = Store.open(tmp_path / "db.lance")
    report = ingest(mixed_folder, store)
    assert report.ok
    return store


def test_the_retriever_finds_each_file_and_keeps_store_search_filters(
    store: Store, mixed_folder: Path
) -> None:
    retriever = OmniReaderRetriever(store=store, k=3)
    assert isinstance(retriever, BaseRetriever)
    for fact, name in (
        (PDF_FACT, "logistics.pdf"),
        (DOCX_FACT, "osprey.docx"),
        (MAIL_FACT, "board.eml"),
    ):
        top = retriever.invoke(fact)[0]
        assert Path(top.metadata["source"]).name == name
        assert fact in top.page_content
        assert top.id == top.metadata["item_id"] and top.metadata["score"] > 0
        assert top.metadata["item_ids"][0] == top.id

    # The same answers as Store.search with the same filters.
    pdf = str(mixed_folder / "logistics.pdf")
    scoped = OmniReaderRetriever(store=store, k=5, filters={"path": pdf})
    expected = store.search("warehouse crates", k=5, filters={"path": pdf})
    assert [d.id for d in scoped.invoke("warehouse crates")] == [r.item.id for r in expected]
    assert {Path(d.metadata["source"]).name for d in scoped.invoke("board budget")} == {
        "logistics.pdf"
    }
    # invoke(..., filters=) replaces them for one call.
    [page2] = retriever.invoke("crates", filters={"path": pdf, "page": 2})
    assert page2.metadata["page"] == 2
    assert (
        retriever.invoke("budget", filters={"since": "2025-01-01"})[0]
        .metadata["source"]
        .endswith("board.eml")
    )


def test_max_chars_bounds_what_the_retriever_returns(store: Store, tmp_path: Path) -> None:
    everything = OmniReaderRetriever(store=store, k=10).invoke("the")
    budget = len(everything[0].page_content) + 1
    bounded = OmniReaderRetriever(store=store, k=10, max_chars=budget).invoke("the")
    assert 1 <= len(bounded) < len(everything)
    assert sum(len(d.page_content) for d in bounded) <= budget


def test_the_retriever_opens_a_path_and_rejects_what_search_would(
    store: Store, tmp_path: Path
) -> None:
    by_path = OmniReaderRetriever(store=str(store.path), k=2)
    assert by_path.invoke(MAIL_FACT)[0].metadata["source"].endswith("board.eml")
    with pytest.raises(StoreError):
        OmniReaderRetriever(store=tmp_path / "none.lance")
    assert not (tmp_path / "none.lance").exists()  # a retriever never creates a store
    with pytest.raises(InvalidInputError, match="valid filters are"):
        OmniReaderRetriever(store=store, filters={"folder": "/x"})
    with pytest.raises(InvalidInputError, match="valid filters are"):
        OmniReaderRetriever(store=store).invoke("x", filters={"pages": 1})


def test_without_langchain_core_the_import_error_is_one_line_naming_the_extra() -> None:
    code = (
        "import sys; sys.modules['langchain_core'] = None\n"
        "try:\n    import omnireader.integrations.langchain\n"
        "except ImportError as e:\n"
        "    print(type(e).__name__); print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    lines = out.stdout.splitlines()
    assert lines[0] == "MissingExtraError", out.stderr
    assert len(lines) == 2 and "pip install 'omnireader[langchain]'" in lines[1]


def test_a_passage_a_page_break_cut_names_both_pages(tmp_path: Path) -> None:
    # Read whole on the page where it began, the passage says where it ends: a framework's
    # citation can then point at both pages.
    from tests.formats.layout_pdfs import build_pdf, paragraph
    from tests.formats.test_pdf_page_breaks import _NEXT, _REST, _TOP

    pdf = tmp_path / "risks.pdf"
    pdf.write_bytes(
        build_pdf(
            [paragraph(72, 90, _TOP), [*paragraph(72, 90, _REST), *paragraph(72, 140, _NEXT)]]
        )
    )
    docs = list(OmniReaderLoader(pdf).lazy_load())
    whole = next(d for d in docs if "and although they did not" in d.page_content)
    assert (whole.metadata["page"], whole.metadata["page_end"]) == (1, 2)
    later = next(d for d in docs if "intense competition" in d.page_content)
    assert later.metadata["page"] == 2 and "page_end" not in later.metadata

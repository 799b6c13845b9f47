"""Fine mode for media over real HTTP: images to the vision model, scanned pages rendered
and read, audio transcribed then extracted (and what happens when a server cannot)."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest

from omnireader.llm import ExtractedMemory, Extraction, ImageReading
from omnireader.reading.reader import Reader
from tests.support import ChatRequest, LLMServer

from .conftest import build_backend, by_task, data_block, user_text

PARIS_MESSAGE = "Our evening at the tower, first day of the trip!"


def _image_message(path: Path) -> list[dict]:
    url = "data:image/jpeg;base64," + base64.b64encode(path.read_bytes()).decode()
    return [
        {
            "role": "user",
            "chat_time": "2024-06-15T21:00:00",
            "message_id": "m1",
            "content": [
                {"type": "text", "text": PARIS_MESSAGE},
                {"type": "image_url", "image_url": {"url": url}},
            ],
        }
    ]


def see_tower(req: ChatRequest) -> ImageReading:
    assert req.images, "the vision call carries no image"
    return ImageReading(
        description="The Eiffel Tower lit up at dusk.",
        text_in_image="",
        memories=[ExtractedMemory(memory="Alice visited the Eiffel Tower on 2024-06-15.")],
    )


def _sent_image(req_json: dict, api: str) -> bytes:
    last = req_json["messages"][-1]
    if api == "ollama":
        [image] = last["images"]
        return base64.b64decode(image)
    [part] = [p for p in last["content"] if p.get("type") == "image_url"]
    url = part["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    return base64.b64decode(url.split(",", 1)[1])


def test_image_goes_to_the_vision_model_with_its_message_and_is_fused_with_it(
    server: LLMServer, make_reader, sample_files: Path, kind: str
) -> None:
    photo = sample_files / "eiffel_photo.jpg"
    server.responder = by_task({"context": see_tower})
    items = make_reader(kind).read(_image_message(photo), mode="fine")

    [vision] = [r for r in server.requests_to("chat") if "<context>" in user_text(r.json)]
    assert _sent_image(vision.json, kind) == photo.read_bytes()
    assert data_block(user_text(vision.json), "context") == PARIS_MESSAGE

    image_items = [i for i in items if i.source.kind == "image"]
    fused = image_items[0]
    assert fused.metadata.mode == "fine"
    assert "The Eiffel Tower lit up at dusk." in fused.memory and PARIS_MESSAGE in fused.memory
    assert fused.metadata.timestamp == "2024-06-15T18:42:07"  # EXIF time kept
    assert fused.metadata.location == "48.85837, 2.29448"  # EXIF place kept
    assert "vision" in fused.metadata.tags
    assert any(i.memory == "Alice visited the Eiffel Tower on 2024-06-15." for i in image_items)
    assert all(i.source.message_id == "m1" for i in image_items)


SCAN_TEXT = "CITY HOSPITAL - MEDICAL REPORT, page {page}\nPatient: Jane Roe\nDiagnosis: mild asthma"


def read_scan(req: ChatRequest) -> ImageReading:
    """A vision model reading the page it was sent (the prompt names the page)."""
    assert req.images and ("data:image/png;base64," in req.images[0] or req.api == "ollama")
    page = re.search(r"Image: page (\d+) of", req.last_user_text).group(1)  # type: ignore[union-attr]
    return ImageReading(
        description="A scanned page of a medical report.",
        text_in_image=SCAN_TEXT.format(page=page),
        memories=[ExtractedMemory(memory="Jane Roe was diagnosed with mild asthma.")],
    )


def _scanned_pdf(path: Path, pages: int = 2) -> Path:
    """A PDF of pictures only (no text layer), as a scanner makes them."""
    from PIL import Image, ImageDraw

    images = []
    for n in range(pages):
        img = Image.new("RGB", (400, 560), "white")
        ImageDraw.Draw(img).text((20, 20), f"Scanned page {n + 1}", fill="black")
        images.append(img)
    images[0].save(path, "PDF", save_all=True, append_images=images[1:])
    return path


def _check_scan(items: list, n_pages: int, server: LLMServer) -> None:
    ocr = [i for i in items if "ocr" in i.metadata.tags]
    assert {i.source.page for i in ocr} == set(range(1, n_pages + 1))
    for item in ocr:
        assert item.metadata.mode == "fine" and item.memory == SCAN_TEXT.format(
            page=item.source.page
        )
        assert "needs_ocr" not in item.metadata.flags
    assert (
        sum(i.memory == "Jane Roe was diagnosed with mild asthma." for i in items) == 1
    )  # deduped
    vision = [r for r in server.requests_to("chat") if r.json and _has_image(r.json)]
    assert len(vision) == n_pages


def _has_image(body: dict) -> bool:
    last = body["messages"][-1]
    return bool(last.get("images")) or any(
        isinstance(p, dict) and p.get("type") == "image_url"
        for p in last.get("content") or []
        if isinstance(last.get("content"), list)
    )


def test_scanned_pdf_pages_are_rendered_and_read_by_the_vision_model(
    server: LLMServer, make_reader, tmp_path: Path, kind: str
) -> None:
    server.responder = by_task({"context": read_scan})
    scan = _scanned_pdf(tmp_path / "scan.pdf")
    items = make_reader(kind).read(scan, mode="fine")
    _check_scan(items, 2, server)
    from PIL import Image

    png = _sent_png(server.requests_to("chat")[0].json, kind)
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_a_scanned_page_the_vision_model_read_leaves_no_placeholder_to_store(
    server: LLMServer, make_reader, tmp_path: Path
) -> None:
    # An ingest stores a fine read's fast items beside its fine ones (refined_fast); the
    # item that carried the page to the vision model says nothing of it and is not kept.
    server.responder = by_task({"context": read_scan})
    reader = make_reader(ocr="off")
    out = reader.read_one(_scanned_pdf(tmp_path / "scan.pdf"), reader.context(None, "fine"))
    assert out.failures == [] and {i.source.page for i in out.items} == {1, 2}
    assert not [i for i in out.refined_fast if "needs_ocr" in i.metadata.flags]
    assert all(i.memory.strip() for i in [*out.items, *out.refined_fast])


def _sent_png(body: dict, api: str) -> bytes:
    last = body["messages"][-1]
    if api == "ollama":
        return base64.b64decode(last["images"][0])
    url = next(p["image_url"]["url"] for p in last["content"] if p.get("type") == "image_url")
    return base64.b64decode(url.split(",", 1)[1])


def test_scanned_corpus_report_gets_its_text_in_fine_mode(
    server: LLMServer, make_reader, corpus: Path
) -> None:
    scan = corpus / "markitdown" / "MEDRPT-2024-PAT-3847_medical_report_scan.pdf"
    if not scan.is_file():
        pytest.skip("the scanned report is not in the corpus")
    server.responder = by_task({"context": read_scan})
    # OCR off: this is the vision path for pages with no text layer; local OCR of the same
    # scan is tested in fast mode (test_corpus_markitdown), and costs a minute here.
    items = make_reader(ocr="off").read(scan, mode="fine")
    _check_scan(items, 3, server)


SEGMENTS = [
    (0.0, 4.5, "Remind me to call Dana on Friday."),
    (4.5, 9.0, "The kitchen budget is 12,000 euros."),
]


def extract_budget(req: ChatRequest) -> Extraction:
    lines = data_block(req.last_user_text, "transcript")
    assert "[1] 4.5–9.0: The kitchen budget is 12,000 euros." in lines
    return Extraction(
        memories=[ExtractedMemory(memory="The kitchen budget is 12,000 EUR.", source_indexes=[1])]
    )


def test_audio_is_transcribed_then_extracted_and_items_keep_segment_times(
    server: LLMServer, make_reader, sample_files: Path
) -> None:
    wav = sample_files / "voice_note.wav"
    server.register_transcript(wav.read_bytes(), SEGMENTS)
    server.responder = by_task({"transcript": extract_budget})
    items = make_reader("openai").read(wav, mode="fine")

    assert len(server.requests_to("transcriptions")) == 1
    assert all(i.metadata.mode == "fine" for i in items)
    fact = next(i for i in items if i.memory == "The kitchen budget is 12,000 EUR.")
    assert [(s.segment_start, s.segment_end) for s in fact.metadata.sources] == [(4.5, 9.0)]
    [said] = [i for i in items if "transcript" in i.metadata.tags]
    assert "Remind me to call Dana on Friday. The kitchen budget is 12,000 euros." in said.memory
    assert [(s.segment_start, s.segment_end) for s in said.metadata.sources] == [
        (0.0, 4.5),
        (4.5, 9.0),
    ]


def test_audio_with_an_ollama_only_setup_stays_fast_marked_unsupported(
    server: LLMServer, sample_files: Path
) -> None:
    reader = Reader(llm=build_backend("ollama", server))
    [item] = reader.read(sample_files / "voice_note.wav", mode="fine")
    assert item.metadata.mode == "fast"
    assert item.metadata.refine_status == "failed" and item.metadata.refine_reason == "unsupported"
    assert item.memory.startswith("Audio recording voice_note.wav")
    assert not server.requests_to("transcriptions") and not server.requests_to("chat")
    assert reader.refiner.totals.failed == 1 and reader.refiner.totals.reasons == {"unsupported": 1}

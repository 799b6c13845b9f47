"""A document's text pages are chunked a few at a time (``FileParser._batch_items``): the
items come out in page order whatever stands between them, as when each page was
chunked on its own."""

from __future__ import annotations

from omnireader import Reader
from omnireader.payloads import Blob
from tests.formats.layout_pdfs import Text, build_pdf, paragraph


def page_text(n: int) -> list[Text]:
    lines = [
        f"Page {n} line {i} tells its own part of the story, in plain words." for i in range(8)
    ]
    return paragraph(72, 100, lines)


def test_items_keep_page_order_across_batches_and_blank_pages() -> None:
    # 40 pages (more than two batches), a blank page among them here and there: a blank
    # page makes no item, and must not pull the held pages' items after later ones.
    blank = {3, 17, 18, 33}
    pages = [[] if n in blank else page_text(n) for n in range(1, 41)]
    items = Reader(ocr="off").read(Blob(data=build_pdf(pages), filename="story.pdf"))
    pages_read = [i.metadata.sources[0].page for i in items]
    assert pages_read == [n for n in range(1, 41) if n not in blank]
    assert all(f"Page {p} line 0" in i.memory for p, i in zip(pages_read, items))
    assert all(i.metadata.sources[0].lang == "en" for i in items)

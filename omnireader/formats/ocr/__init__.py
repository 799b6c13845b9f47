"""OCR: a page or image bitmap in, positioned text out (lines, blocks, reading order).

A stage of ``formats/``: the PDF and image paths call it; it knows nothing of items or
the store. The engine (RapidOCR, PP-OCRv6 models inside its wheel) loads once per process
on first use; nothing is downloaded.

    from omnireader.formats.ocr import ocr_image
    page = ocr_image(pil_image)
    for block in page.blocks:
        for line in block.lines:
            print(line.bbox, round(line.confidence, 2), line.text)
"""

from omnireader.formats.ocr.base import LOW_CONFIDENCE, BBox, OcrBlock, OcrEngine, OcrLine, OcrPage
from omnireader.formats.ocr.bitmaps import MAX_OCR_PIXELS, Frame, image_frames
from omnireader.formats.ocr.engines import get_engine, set_threads
from omnireader.formats.ocr.read import ocr_image

__all__ = [
    "OCR_MODES",
    "OCR",
    "BBox",
    "OcrLine",
    "OcrBlock",
    "OcrPage",
    "OcrEngine",
    "LOW_CONFIDENCE",
    "MAX_OCR_PIXELS",
    "Frame",
    "image_frames",
    "ocr_image",
    "get_engine",
    "set_threads",
]

#: ``auto``: pages with no text layer, and images with text; ``always``: also the images
#: inside text PDFs and DOCX; ``off``: no OCR at all.
OCR_MODES = ("auto", "off", "always")
#: Flag on items whose text OCR read (fine mode may still upgrade them with a vision model).
OCR = "ocr"

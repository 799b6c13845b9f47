"""``ocr="always"``: the text in a DOCX's pictures (scanned inserts, screenshots, photos of
whiteboards), one section per picture that has text, after the document's own sections.

The pictures are read straight out of the package (``word/media/``), one at a time; the
package was already checked for bombs before extraction began.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import PurePosixPath

from omnireader.formats.document import Section
from omnireader.formats.ocr import OCR
from omnireader.payloads import Blob

__all__ = ["docx_picture_sections"]

_MEDIA = "word/media/"
_PICTURES = {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp"}
# A picture file larger than this is not a picture of text worth reading in a document.
_MAX_PICTURE_BYTES = 64 * 1024 * 1024


def docx_picture_sections(blob: Blob) -> Iterator[Section]:
    """Sections (``page`` None, flag ``ocr``) for the pictures of ``blob`` that hold text."""
    from omnireader.formats.ocr import image_frames, ocr_image

    source = io.BytesIO(blob.data) if blob.data is not None else blob.path
    try:
        package = zipfile.ZipFile(source or "")
    except (zipfile.BadZipFile, OSError):
        return
    with package:
        members = sorted(
            (
                info
                for info in package.infolist()
                if info.filename.startswith(_MEDIA)
                and PurePosixPath(info.filename).suffix.lower() in _PICTURES
                and info.file_size <= _MAX_PICTURE_BYTES
            ),
            key=lambda info: info.filename,
        )
        for number, info in enumerate(members, start=1):
            try:
                data = package.read(info)
                frame = next(iter(image_frames(data)), None)
                if frame is None or frame.image is None:
                    continue
                read = ocr_image(frame.image)
            except MemoryError:
                raise
            except Exception:  # noqa: BLE001 - a picture that will not decode: skip it
                continue
            if read.blocks:
                read.image = number
                name = PurePosixPath(info.filename).name
                yield Section(text=read.text, flags=[OCR], ocr=read, heading=f"picture {name}")

"""PPTX decks → one Markdown section per slide, read with python-pptx directly.

    with extract_pptx(Blob(path="deck.pptx")) as doc:
        for section in doc.sections:       # "# Quarterly plan\\n\\n- Hire\\n  - two engineers"
            print(section.page, section.part, section.heading)

Each slide is page N: its title is a ``#`` heading (and the section's ``heading``), then
its shapes in reading order (top to bottom, left to right; groups opened). Text keeps its
list structure (:mod:`.pptx_lists`): a paragraph is a bullet or a numbered item when its
own properties say so or when it sits in a body placeholder; its level is its indentation.
Tables are Markdown tables (first row the header), charts a table of their series
(:mod:`.pptx_tables`), boxes tiling a grid the table they draw (:mod:`.pptx_grids`: a
legacy deck's tables), and a picture its alt text. Speaker notes are a section of their
own, ``part="notes"``.

MarkItDown read PPTX before; python-pptx alone costs a fraction of its import, and
MarkItDown flattened every list to plain lines.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator
from typing import Any

from omnireader.errors import CorruptError, ReadError
from omnireader.formats.alt_text import picture
from omnireader.formats.archives.zip import zip_member
from omnireader.formats.document import Extraction, Section
from omnireader.formats.office.pptx_grids import box_grids
from omnireader.formats.office.pptx_lists import frame_markdown
from omnireader.formats.office.pptx_tables import chart_markdown, table_markdown
from omnireader.formats.office.properties import package_info
from omnireader.formats.registry import Format, Magic
from omnireader.options import ReadOptions
from omnireader.payloads import Blob

__all__ = ["extract_pptx"]

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_MAX_GROUP_DEPTH = 32  # groups inside groups: deeper than any deck, shallower than a stack
# Body-like placeholders inherit the master's bulleted body style (PP_PLACEHOLDER values:
# BODY 2, OBJECT 7, VERTICAL_BODY 6, VERTICAL_OBJECT 17).
_BULLETED_PLACEHOLDERS = {2, 6, 7, 17}
_TITLE_PLACEHOLDERS = {1, 3}  # TITLE, CENTER_TITLE
_TITLE_SIZE = 2400  # hundredths of a point: 24 pt, the smallest common title size
_TITLE_CHARS = 150


def extract_pptx(blob: Blob) -> Extraction:
    """Sections of a PPTX deck: one per slide (page N = slide N), speaker notes apart.

    Raises :class:`CorruptError` naming the input when the package is not a readable
    presentation. Slides are rendered as the sections are consumed.
    """
    import pptx

    label = blob.label
    try:
        data = blob.read_bytes()
    except (OSError, ValueError) as e:
        raise ReadError(label, f"cannot read the file ({type(e).__name__})") from None
    try:
        deck = pptx.Presentation(io.BytesIO(data))
        slides = list(deck.slides)
    except (ReadError, MemoryError):
        raise
    except (zipfile.BadZipFile, zlib.error, KeyError, ValueError, OSError, EOFError) as e:
        raise CorruptError(label, f"not a readable PPTX ({type(e).__name__})") from None
    except Exception as e:  # noqa: BLE001 - a third-party boundary: name the input instead
        raise CorruptError(label, f"not a readable PPTX ({type(e).__name__}: {e})"[:300]) from None
    info = package_info(data)
    info.page_count = len(slides)
    info.extra["extractor"] = "python-pptx"
    return Extraction(info=info, sections=_sections(slides, label))


def _sections(slides: list[Any], label: str) -> Iterator[Section]:
    for n, slide in enumerate(slides, 1):
        try:
            title, body = _slide_markdown(slide)
            notes = _notes(slide)
        except (ReadError, MemoryError):
            raise
        except Exception as e:  # noqa: BLE001 - a damaged slide part deep in the package
            raise CorruptError(
                label, f"slide {n} cannot be read ({type(e).__name__}: {e})"[:300]
            ) from None
        if body:
            yield Section(text=body, page=n, heading=title or None)
        if notes:
            yield Section(text=notes, page=n, part="notes", heading="Notes")


def _slide_markdown(slide: Any) -> tuple[str, str]:
    """The slide's title and its Markdown (title heading first, then shapes in order)."""
    title_shape = _title_shape(slide)
    title = " ".join(title_shape.text_frame.text.split()) if title_shape is not None else ""
    blocks = [f"# {title}"] if title else []
    title_id = title_shape.shape_id if title_shape is not None else None
    blocks.extend(_blocks(slide.shapes, 0, title_id))
    return title, "\n\n".join(b for b in blocks if b.strip())


def _blocks(shapes: Any, depth: int, skip: int | None = None) -> list[str]:
    """The blocks of a slide's or a group's shapes in reading order (``skip``: the title's
    shape id); boxes drawing a table are that table (:mod:`.pptx_grids`)."""
    ordered = [s for s in _ordered(shapes) if s.shape_id != skip]
    grids, taken = box_grids(ordered)
    blocks: list[str] = []
    for shape in ordered:
        if shape.shape_id in grids:
            blocks.append(grids[shape.shape_id])
        elif shape.shape_id not in taken:
            blocks.extend(_shape_blocks(shape, depth))
    return blocks


def _title_shape(slide: Any) -> Any | None:
    for shape in slide.shapes:
        if shape.is_placeholder and shape.has_text_frame:
            try:
                kind = int(shape.placeholder_format.type)
            except (ValueError, TypeError, AttributeError):
                continue
            if kind in _TITLE_PLACEHOLDERS and shape.text_frame.text.strip():
                return shape
    return _largest_line(slide)


def _largest_line(slide: Any) -> Any | None:
    """A slide with no title placeholder (a converted .ppt, a deck drawn in text boxes):
    its title is the one-line text whose type is larger than every other text on the
    slide, and at least title-sized."""
    sizes: list[tuple[int, Any]] = []
    for shape in slide.shapes:
        if not shape.has_text_frame or not shape.text_frame.text.strip():
            continue
        runs = [
            int(r.get("sz"))
            for r in shape._element.iter(f"{_A}rPr", f"{_A}defRPr")
            if (r.get("sz") or "").isdigit()
        ]
        sizes.append((max(runs, default=0), shape))
    if len(sizes) < 2:
        return None
    sizes.sort(key=lambda pair: pair[0], reverse=True)
    (size, shape), runner_up = sizes[0], sizes[1][0]
    lines = [p for p in shape.text_frame.paragraphs if p.text.strip()]
    if (
        size >= _TITLE_SIZE
        and size > runner_up
        and len(lines) == 1
        and len(lines[0].text) <= _TITLE_CHARS
    ):
        return shape
    return None


def _ordered(shapes: Any) -> list[Any]:
    def key(shape: Any) -> tuple[float, float]:
        top, left = shape.top, shape.left
        return (float("-inf") if top is None else top, float("-inf") if left is None else left)

    return sorted(shapes, key=key)


def _shape_blocks(shape: Any, depth: int) -> list[str]:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
        if depth >= _MAX_GROUP_DEPTH:
            return []
        return _blocks(shape.shapes, depth + 1)
    if getattr(shape, "has_table", False) and shape.has_table:
        return [table_markdown(shape.table)]
    if getattr(shape, "has_chart", False) and shape.has_chart:
        return [chart_markdown(shape.chart)]
    blocks = []
    if mark := picture(_alt_text(shape)):
        blocks.append(mark)
    if shape.has_text_frame:
        blocks.append(frame_markdown(shape.text_frame, _bulleted(shape)))
    return blocks


def _bulleted(shape: Any) -> bool:
    if not shape.is_placeholder:
        return False
    try:
        return int(shape.placeholder_format.type) in _BULLETED_PLACEHOLDERS
    except (ValueError, TypeError, AttributeError):
        return False


def _alt_text(shape: Any) -> str:
    """A picture's description (its alt text); never its generated name ("Picture 4")."""
    element = shape._element
    if not element.tag.endswith("}pic") and not element.findall(f".//{_A}blip"):
        return ""
    for cnv in element.iter():
        if cnv.tag.endswith("}cNvPr"):
            return cnv.get("descr") or ""
    return ""


def _notes(slide: Any) -> str:
    # PowerPoint adds a notes slide when the notes pane is merely opened: only text counts.
    if not slide.has_notes_slide:
        return ""
    frame = slide.notes_slide.notes_text_frame
    return frame_markdown(frame, False) if frame is not None else ""


def _read_pptx(blob: Blob, options: ReadOptions) -> Extraction:
    return extract_pptx(blob)


FORMATS = (
    Format(
        name="pptx",
        rank=3,
        display="PPTX",
        extensions=(".pptx", ".pptm"),
        mimes=("application/vnd.openxmlformats-officedocument.presentationml.presentation",),
        magic=(Magic(21, lambda p: p.zip_has("ppt/presentation.xml"), "zip"),),
        extract=_read_pptx,
        zip_package=True,
        find_member=zip_member,
        readme="python-pptx: one section per slide, its title a heading, bullet levels and "
        "numbering as nested lists, tables as Markdown tables, speaker notes as `notes`",
    ),
)

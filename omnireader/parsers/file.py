"""Documents: one item per chunk of each page or section, each tracing back to its span.

    >>> from omnireader.parsers.base import ParseContext
    >>> from omnireader.payloads import Blob
    >>> note = Blob(data=b"# Plan\\n\\nShip in May.", filename="plan.md")
    >>> [item] = FileParser().parse_fast(note, ParseContext())
    >>> item.memory, item.source.kind, item.metadata.key
    ('# Plan\\n\\nShip in May.', 'file', 'Plan')

A page with no text layer (a scan) is read by OCR (items flagged ``ocr``, see
``ocr_items.py``) unless ``ReadOptions.ocr`` is ``off``. When it is off, or OCR finds no
text on the page, the page's item is flagged ``needs_ocr`` and holds only what text the
page has (a caption, a stamp), none when it has none; ``extra.not_read`` says why. Fine
mode's vision model reads the page from it; the reading layer takes out such an item with
no text and reports the page instead (``omnireader/reading/unread_pages.py``): a status
sentence is never a memory. A file that was only referenced (a ``file_id`` and no content)
becomes an item flagged ``unresolved_reference``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from omnireader.errors import CorruptError, EmptyInputError
from omnireader.formats.document import (
    EMPTY,
    GARBLED,
    ITEM_FIELDS,
    LAYOUT_FAILED,
    NEEDS_OCR,
    UNREADABLE,
    DocInfo,
    Section,
)
from omnireader.formats.extract import extract
from omnireader.formats.ocr import OCR
from omnireader.formats.ocr.scripts import UNREAD_SCRIPT
from omnireader.ids import content_hash
from omnireader.models import MemoryItem, Source
from omnireader.parsers.attachments import member_key, parent_extra
from omnireader.parsers.base import ParseContext, Parser, register
from omnireader.parsers.blob_common import rebuild_blob
from omnireader.parsers.doc_chunks import Chunked, link_chunks, section_chunks
from omnireader.parsers.doc_languages import guess_languages, inherit_languages
from omnireader.parsers.doc_pieces import Piece, in_pieces, section_pieces
from omnireader.parsers.doc_titles import (
    doc_title,
    retitle,
    untitled,
    wants_more,
    without_placeholder_title,
)
from omnireader.parsers.file_content import file_source, hash_file, load_file
from omnireader.parsers.layout_items import layout_blocks
from omnireader.parsers.ocr_items import not_read, ocr_items
from omnireader.payloads import Blob
from omnireader.text.language import language_tag

__all__ = ["FileParser"]

UNRESOLVED = "unresolved_reference"
#: Text sections (pages) chunked together: a few, so memory stays bounded on a long file.
_BATCH = 16


class _Reading(NamedTuple):
    """What every item of one file shares."""

    blob: Blob
    source: Source  # provenance without page / chunk
    info: DocInfo
    kind: str
    ctx: ParseContext


@register
class FileParser(Parser[Blob]):
    """Files of every document format :func:`omnireader.formats.extract.extract` reads."""

    name = "file"
    payload = Blob

    def parse_fast(self, input: Blob, ctx: ParseContext) -> list[MemoryItem]:
        return [item for piece in self.parse_pieces(input, ctx) for item in piece.items]

    def parse_pieces(
        self, input: Blob, ctx: ParseContext, size: int | None = None
    ) -> Iterator[Piece]:
        """:meth:`parse_fast`'s items, in one piece; with ``size``, a document whose text is
        one section without structure (a plain text file) and more than ``size`` chunks
        comes ``size`` items at a time instead, each final when given
        (:mod:`.doc_pieces`): the first is written while the rest are made."""
        if input.data is None and input.path is None and input.url is None:
            yield Piece([self._reference_item(input, ctx)], last=True)
            return
        blob, digest, sniffed = load_file(input, ctx.options)
        # What the bytes are decides, not a MIME type a server or caller claimed.
        blob = blob.model_copy(update={"mime": sniffed.mime})
        items: list[MemoryItem] = []
        unguessed: list[MemoryItem] = []  # chunks whose language is guessed at the end
        unreadable: list[int | None] = []
        with extract(blob, sniffed.kind, ctx.options) as doc:
            info, dropped = without_placeholder_title(doc.info, blob, ctx.options)
            # What the content is once opened (a decrypted DOCX), else what was sniffed.
            kind = str(info.extra.get("read_as") or sniffed.kind)
            reading = _Reading(blob, file_source(blob, digest), info, kind, ctx)
            # No title at all: a heading of the body may give one (not a first line).
            wanted = dropped or untitled(info, kind)
            top: list[Section] = []  # the first body sections: where a real title is
            held: list[tuple[int, Section]] = []  # text sections whose chunks wait their batch
            for n, section in enumerate(doc.sections):
                if wanted and section.part is None and section.text.strip() and wants_more(top):
                    top.append(section)
                flags = section.flags
                # What the branches below do not take: the text sections, chunked.
                text = not (
                    UNREADABLE in flags
                    or (OCR in flags and section.ocr is not None)
                    or NEEDS_OCR in flags
                    or EMPTY in flags
                )
                if text:
                    held.append((n, section))
                if held and (not text or len(held) >= _BATCH):  # in order: the held ones first
                    unguessed.extend(self._batch_items(reading, held, items))
                if text:
                    continue
                if UNREADABLE in section.flags:
                    unreadable.append(section.page)
                elif OCR in section.flags and section.ocr is not None:
                    items.extend(self._ocr_text_items(reading, section, n))
                elif NEEDS_OCR in section.flags:
                    items.append(self._ocr_item(reading, section, n))
            chunked = None
            if size and len(held) == 1 and not items and not unreadable:
                chunked = section_chunks(held[0][1], ctx.options.chunk_tokens)
                if in_pieces(held[0][1], chunked, size):
                    title = doc_title(top, blob, ctx.options, dropped) if top else None
                    lang = language_tag(info.extra.get("lang"))
                    yield from section_pieces(self, reading, held[0], chunked[0], size, title, lang)
                    return
            unguessed.extend(self._batch_items(reading, held, items, chunked))
        guess_languages(unguessed)
        if not items:
            if unreadable:
                raise CorruptError(blob.label, "no page of the document could be decoded")
            raise EmptyInputError(blob.label, f"the {sniffed.kind.upper()} file holds no text")
        for item in items if unreadable else []:
            item.metadata.extra["unreadable_pages"] = unreadable
        if top:
            retitle(items, top, blob, ctx.options, first_line=dropped)
        if not language_tag(info.extra.get("lang")):  # a declared language stands
            inherit_languages(items)
        yield Piece(items, last=True)

    # -- items

    def _meta(self, r: _Reading, section: Section) -> dict[str, Any]:
        extra: dict[str, Any] = {"format": r.kind}
        if r.info.title:
            extra["title"] = r.info.title
        if r.info.page_count is not None:
            extra["page_count"] = r.info.page_count
        if section.heading:
            extra["heading"] = section.heading
        if section.part:
            extra["section"] = section.part
        if section.heading_path:
            extra["heading_path"] = list(section.heading_path)
        if section.page_label:
            extra["page_label"] = section.page_label
        extra.update((k, r.info.extra[k]) for k in ITEM_FIELDS if r.info.extra.get(k))
        if r.info.extra.get("link"):  # where the document is on the web (a feed's post)
            extra["link"] = r.info.extra["link"]
        if r.blob.context:
            extra["context"] = r.blob.context
        extra.update(parent_extra(r.blob))  # an attachment: the message it came in
        return dict(
            timestamp=r.info.time or r.blob.chat_time,
            persons=list(r.info.authors),
            # Keywords the document gives as a list (a post's categories); a string of
            # them (office properties) stays in its extra, written as it was.
            keywords=list(kw) if isinstance(kw := r.info.extra.get("keywords"), list) else [],
            key=r.info.title or member_key(r.blob),
            topic=r.info.title,
            tags=[r.kind, section.part] if section.part else [r.kind],
            extra=extra,
        )

    def _position(self, r: _Reading, section: Section, n: int) -> tuple[object, ...]:
        # Pages are numbered by the document; parts without pages (DOCX) by their order.
        # A PDF's running header or footer is found on a page, beside that page's body.
        if section.page is not None and section.part in ("header", "footer"):
            return r.blob.member or "", section.page, section.part
        return r.blob.member or "", section.page if section.page is not None else f"s{n}"

    def _batch_items(
        self,
        r: _Reading,
        held: list[tuple[int, Section]],
        items: list[MemoryItem],
        chunked: Chunked | None = None,
    ) -> list[MemoryItem]:
        """The held sections' chunk items, appended to ``items`` and returned; ``held``
        emptied. Made a batch of sections at a time, not each between two pages' layouts:
        the chunker's tables and code stay in the CPU's caches from one to the next.
        ``chunked``: the one held section's chunks, made already."""
        made = [item for n, section in held for item in self._chunk_items(r, section, n, chunked)]
        items.extend(made)
        held.clear()
        return made

    def _chunk_items(
        self, r: _Reading, section: Section, n: int, chunked: Chunked | None = None
    ) -> list[MemoryItem]:
        # Chunks follow the section's headings and tables (doc_chunks.py); the same
        # metadata for every chunk of the section: built once (a long text has thousands of
        # chunks), copied per item. ``chunked``: the section's chunks (or some), made already.
        chunks, structs = chunked or section_chunks(section, r.ctx.options.chunk_tokens)
        where = self._position(r, section, n)
        meta = self._meta(r, section)
        if LAYOUT_FAILED in section.flags:  # a PDF page's plain text layer, as OCR items say
            meta["flags"] = [LAYOUT_FAILED]
        items = self.make_chunk_items(
            chunks,
            r.ctx,
            source=r.source,
            where=where,
            # A language the document declares (an HTML lang) wins over each chunk's guess,
            # which parse_fast makes for all the chunks at once.
            source_update={"page": section.page, "lang": language_tag(r.info.extra.get("lang"))},
            guess=False,
            **meta,
        )
        page = f":p{section.page}" if section.page is not None else f":{where[1]}"
        link_chunks(items, structs, f"{r.source.content_hash or ''}:{where[0]}{page}")
        if section.blocks:
            layout_blocks(items, section.blocks)
        return items

    def _ocr_text_items(self, r: _Reading, section: Section, n: int) -> list[MemoryItem]:
        assert section.ocr is not None
        source = r.source.model_copy(update=dict(page=section.page))
        picture = section.ocr.image or 0
        return ocr_items(
            self,
            r.ctx,
            section.ocr,
            source=source,
            position=(*self._position(r, section, n), "ocr", picture),
            **self._meta(r, section),
        )

    def _ocr_item(self, r: _Reading, section: Section, n: int) -> MemoryItem:
        # The page's own text only (a caption, a stamp), or none: why it was not read goes
        # in extra.not_read, for the report (reading/unread_pages.py), not in its memory.
        text = section.text.strip()
        source = r.source.model_copy(update=dict(page=section.page, chunk_index=0, chunk_total=1))
        meta = self._meta(r, section)
        meta["extra"]["not_read"] = not_read(section)
        if section.ocr is not None:
            meta["extra"]["ocr_engine"] = section.ocr.engine
            meta["extra"]["ocr_note"] = section.ocr.note
            if section.ocr.unread:
                meta["extra"]["ocr_unread_lines"] = section.ocr.unread
        return self.make_item(
            text,
            r.ctx,
            sources=[source],
            position=(*self._position(r, section, n), "ocr"),
            flags=[
                NEEDS_OCR,
                *(f for f in section.flags if f == GARBLED),
                *([UNREAD_SCRIPT] if section.ocr is not None and section.ocr.unread else []),
            ],
            **meta,
        )

    def _reference_item(self, blob: Blob, ctx: ParseContext) -> MemoryItem:
        if not (blob.filename or blob.file_id):
            raise EmptyInputError(blob.label, "no content, path, URL, file name or file id")
        ids = f" (file_id {blob.file_id})" if blob.file_id and blob.filename else ""
        name = blob.filename or blob.file_id
        text = f"A file was referenced: {name}{ids} — its content was not provided."
        source = file_source(blob, content_hash(f"reference:{blob.file_id}:{blob.filename}"))
        extra = {"context": blob.context} if blob.context else {}
        return self.make_item(
            text,
            ctx,
            sources=[source],
            position=("reference",),
            flags=[UNRESOLVED],
            key=blob.filename or blob.file_id,
            timestamp=blob.chat_time,
            tags=["file"],
            extra=extra,
        )

    # -- provenance

    def create_source(self, input: Blob) -> Source:
        digest = None
        if input.data is not None:
            digest = content_hash(input.data)
        elif input.path and not input.member and Path(input.path).is_file():
            digest = hash_file(input.path)
        return file_source(input, digest)

    def rebuild_from_source(self, source: Source) -> Blob:
        return rebuild_blob(source)

"""Settings for reading: chunk and window sizes, limits, passwords, OCR, network policy."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ReadOptions", "IngestOptions"]


class ReadOptions(BaseModel):
    """How inputs are read. Every field has a sane default; all are keyword-settable."""

    model_config = ConfigDict(extra="forbid")

    chunk_tokens: int = Field(512, ge=16, description="document chunk size in tokens")
    chat_window_tokens_fast: int = Field(256, ge=16, description="chat window size, fast mode")
    chat_window_tokens_fine: int = Field(1024, ge=16, description="chat window size, fine mode")
    chat_overlap_messages: int = Field(1, ge=0, description="messages repeated between windows")
    chat_units: Literal["message", "window"] = Field(
        "message",
        description="fast chat items: one per message (search returns its neighbours as "
        "context) or one per token window; fine mode always reads windows",
    )
    password: str | None = Field(
        None,
        description="password for encrypted PDFs and password-protected Office files "
        "(DOCX, XLSX, PPTX, DOC, PPT)",
    )
    ocr: Literal["auto", "off", "always"] = Field(
        "auto",
        description="OCR in fast mode: auto (pages with no text layer, images with text), "
        "always (also pictures inside text PDFs and DOCX), off",
    )
    layout: bool = Field(
        True,
        description="page layout in fast mode, for PDFs and OCR'd scans and images: headings, "
        "columns, tables and running headers/footers as Markdown; off gives each page's plain "
        "text layer (OCR: its lines row by row)",
    )
    allow_private_urls: bool = Field(
        False, description="let URLs reach loopback / private / link-local addresses"
    )
    allow_addresses: list[str] = Field(
        default_factory=list, description="private IP addresses URLs may reach (trusted hosts)"
    )
    allow_path_parts: bool = Field(
        True,
        description="let file parts (and plain strings) name local paths; turn off for "
        "untrusted messages",
    )
    strings_as_text: bool = Field(
        False,
        description="read every string as text; by default a string that is an existing "
        "path, a file:// URL or an http(s):// URL is read as that file",
    )
    fetch_timeout: float = Field(15.0, gt=0, description="seconds for one URL fetch")
    max_fetch_bytes: int = Field(50 * 1024 * 1024, gt=0, description="size cap for one URL")
    max_file_bytes: int = Field(512 * 1024 * 1024, gt=0, description="size cap for one file")
    max_archive_members: int = Field(10_000, gt=0, description="members read from one archive")
    max_archive_bytes: int = Field(
        1024 * 1024 * 1024, gt=0, description="total uncompressed bytes read from one archive"
    )
    max_archive_depth: int = Field(2, ge=0, description="archives inside archives")
    placeholder_titles: str | None = Field(
        None,
        description="a text file of titles that name nothing ('Slide 1', 'Untitled "
        "document'), one a line, 're:' for a pattern; replaces the bundled list "
        "(omnireader/formats/data/placeholder_titles.txt)",
    )


class IngestOptions(BaseModel):
    """How a batch ingest runs (:func:`omnireader.ingest`): workers, limits, re-reads."""

    model_config = ConfigDict(extra="forbid")

    workers: int | None = Field(
        None, ge=1, description="parsing worker processes (default: what keeps the cores busy)"
    )
    timeout: float | None = Field(300.0, gt=0, description="seconds one file may take")
    memory_mb: int | None = Field(2048, ge=64, description="memory one worker may use")
    force: bool = Field(False, description="re-read files that are unchanged")
    batch_size: int = Field(2048, ge=1, description="items written to the store at once")
    progress: bool = Field(False, description="show a progress bar on standard error")
    sync: bool = Field(
        False, description="also remove the items of files gone from under the given folders"
    )
    keep_history: bool = Field(
        False,
        description="a changed file's old items are archived (update_type source_changed: "
        "search(include_archived=True) and history still find them) instead of deleted",
    )
    consolidate: bool = Field(
        False,
        description="fine mode: compare each new memory with the most similar current ones "
        "of its user and session, and let the LLM merge duplicates and archive what a newer "
        "memory updates or contradicts (see omnireader.batch.consolidate)",
    )
    link_near_duplicates: bool = Field(
        False,
        description="a chunk that repeats a stored one up to whitespace, case, hyphenation "
        "and small edits (never a different number or name) is linked to it: one memory, "
        "every source kept (see omnireader.store.near_duplicates)",
    )
    engine: str = Field("local", description="'local' worker processes or 'ray'")
    ray_address: str | None = Field(None, description="the Ray cluster (default: a local one)")
    verbose: bool = Field(False, description="show the engine's own logs")

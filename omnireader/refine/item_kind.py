"""Which fine task a fast item needs: its text, a chat window, a document chunk, a tool
trajectory, a scanned page, an image or a recording; none for an item already fine or a
file that was only referenced."""

from __future__ import annotations

from omnireader.models import MemoryItem
from omnireader.units import THREAD

__all__ = ["refine_kind"]


def refine_kind(item: MemoryItem) -> str | None:
    """Which fine task an item needs, or None when there is nothing to refine."""
    m = item.metadata
    if m.mode == "fine" or "unresolved_reference" in m.flags:
        return None
    if m.memory_type == "ToolTrajectoryMemory":
        return "tool"
    s = item.source
    if s is None or s.kind == "string":
        return "text"
    if s.kind == "file":
        if "needs_ocr" in m.flags:
            return "scan"
        if "ocr" in m.flags and m.extra.get("ocr_image") is None:
            # A page read by OCR: the vision model reads the page once, for its first chunk.
            return None if s.chunk_index else "scan"
        return "document"
    if s.kind == "image" and "ocr" in m.flags:
        return None  # the image's own item sends it to the vision model, which reads its text
    if s.kind == "chat":
        # Windows or messages of a conversation; a lone text part (or a system prompt) is
        # plain text.
        conversation = "window_index" in m.extra or THREAD in m.extra
        return "chat" if conversation and m.memory_type != "WorkingMemory" else "text"
    if s.kind == "tool":
        return "tool"
    return s.kind  # image, audio

"""Images for vision calls: bytes or URLs in, OpenAI ``image_url`` parts out (and back to bytes).

Messages travel in the OpenAI shape inside omnireader; the Ollama backend turns the parts back
into the base64 ``images`` list its API wants.
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Sequence
from typing import Any

from omnireader.errors import InvalidInputError

__all__ = ["ImageInput", "image_url", "attach_images", "image_bytes"]

ImageInput = bytes | str  # raw image bytes, a data: URL, or an http(s) URL

_MAGIC = [
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF8", "image/gif"),
    (b"BM", "image/bmp"),
]


def _mime(data: bytes) -> str:
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return next((mime for magic, mime in _MAGIC if data.startswith(magic)), "image/png")


def image_url(image: ImageInput) -> str:
    """A URL a vision model accepts: bytes become a base64 ``data:`` URL; URLs pass through."""
    if isinstance(image, (bytes, bytearray, memoryview)):
        data = bytes(image)
        return f"data:{_mime(data)};base64,{base64.b64encode(data).decode()}"
    if image.startswith(("data:", "http://", "https://")):
        return image
    raise InvalidInputError(
        f"an image must be bytes, a data: URL or an http(s) URL, not {image[:40]!r}"
    )


def attach_images(
    messages: Sequence[dict[str, Any]], images: Sequence[ImageInput]
) -> list[dict[str, Any]]:
    """A copy of ``messages`` whose last user message also carries ``images`` as image parts."""
    out = [copy.copy(m) for m in messages]
    if not images:
        return out
    idx = next((i for i in range(len(out) - 1, -1, -1) if out[i].get("role") == "user"), None)
    if idx is None:
        out.append({"role": "user", "content": []})
        idx = len(out) - 1
    content = out[idx].get("content")
    parts: list[dict[str, Any]] = (
        [{"type": "text", "text": content}]
        if isinstance(content, str) and content
        else list(content or [])
    )
    parts += [{"type": "image_url", "image_url": {"url": image_url(img)}} for img in images]
    out[idx]["content"] = parts
    return out


def image_bytes(url: str) -> bytes:
    """The bytes of a ``data:`` URL (Ollama takes bytes; it cannot fetch URLs)."""
    if not url.startswith("data:"):
        raise InvalidInputError(
            f"this backend needs image bytes or a data: URL, not a link ({url[:60]!r})"
        )
    from omnireader.net.dataurl import decode_data_url

    return decode_data_url(url, "image")[0]

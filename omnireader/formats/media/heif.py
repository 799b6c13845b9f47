"""HEIC / HEIF photos (what phones take) for Pillow, through pillow-heif.

Pillow reads AVIF itself; HEIC needs pillow-heif's opener, registered the first time an
image says it is HEIF (its ``ftyp`` brand), so other images never import it:

    if is_heif(head):
        register_heif()        # False when pillow-heif is not installed

pillow-heif is a core dependency, imported only when a HEIF image is met; an install
without it reports such photos as unsupported, naming what to install.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["is_heif", "register_heif", "HEIF_HINT"]

HEIF_HINT = "HEIC / HEIF images need pillow-heif: pip install pillow-heif"
_BRANDS = (b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1")


def is_heif(head: bytes) -> bool:
    """True for the head of a HEIF / HEIC file (its ISO box names a HEIF brand)."""
    return head[4:8] == b"ftyp" and head[8:12] in _BRANDS


@lru_cache(maxsize=1)
def register_heif() -> bool:
    """Register pillow-heif's opener with Pillow (once); False when it is not installed."""
    try:
        from pillow_heif import register_heif_opener
    except ImportError:
        return False
    register_heif_opener()
    return True

"""HEIC / AVIF photos: size, EXIF time and GPS like any JPEG."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from omnireader import Reader


def photo(fmt: str) -> bytes:
    from PIL import Image

    if fmt == "HEIF":
        pytest.importorskip("pillow_heif").register_heif_opener()
    exif = Image.Exif()
    exif[0x0132] = "2024:05:06 07:08:09"
    exif[0x8825] = {1: "N", 2: (35.0, 40.0, 0.0), 3: "E", 4: (139.0, 45.0, 0.0)}
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), "red").save(buf, format=fmt, exif=exif.tobytes())
    return buf.getvalue()


@pytest.mark.parametrize("fmt, name", [("HEIF", "IMG_0001.HEIC"), ("AVIF", "photo.avif")])
def test_a_phone_photo_gives_its_size_time_and_place(tmp_path: Path, fmt: str, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(photo(fmt))
    [item] = Reader().read(path)
    assert item.source.kind == "image"
    assert "64×48" in item.memory
    assert item.metadata.timestamp == "2024-05-06T07:08:09"
    assert item.metadata.location == "35.66667, 139.75000"

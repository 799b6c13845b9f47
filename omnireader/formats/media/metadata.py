"""Image and audio metadata, read from headers only: size, format, EXIF time and place, duration.

Pixels and samples are never decoded, so a huge or broken file costs little: Pillow's
``Image.open`` reads the header and EXIF (:mod:`.image_metadata`), mutagen reads the stream
headers and tags (:mod:`.audio_metadata`). This module names both.

    >>> info = image_info(Path("photo.jpg"))          # doctest: +SKIP
    >>> info.width, info.taken_at, info.gps
    (640, '2024-05-01T10:30:00', (48.85837, 2.29448))
"""

from __future__ import annotations

from omnireader.formats.media.audio_metadata import AudioInfo, audio_info
from omnireader.formats.media.image_metadata import MAX_IMAGE_PIXELS, ImageInfo, image_info

__all__ = ["ImageInfo", "AudioInfo", "image_info", "audio_info", "MAX_IMAGE_PIXELS"]

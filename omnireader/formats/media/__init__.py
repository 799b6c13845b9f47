"""Image and audio files: metadata from headers, HEIF decoding."""

__all__: list[str] = []

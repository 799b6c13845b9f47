"""Image and audio files: metadata from headers, HEIF decoding."""

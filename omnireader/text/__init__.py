"""Text tools: token counting, token scans, chunk splitting and chunking."""

__all__: list[str] = []

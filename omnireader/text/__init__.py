"""Text tools: token counting, token scans, chunk splitting and chunking."""

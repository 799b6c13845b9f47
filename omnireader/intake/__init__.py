"""What a caller passed, turned into routable inputs: the router, message shapes (OpenAI,
Responses, Claude), chat exports, part blobs, data URLs, path and URL strings, fetch and walk."""

__all__: list[str] = []

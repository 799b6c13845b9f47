"""Archives: ZIP and TAR, the limits they share, and how members are named."""

__all__: list[str] = []

"""The ``omnireader`` command line: argument parsing, commands, settings and output."""

__all__: list[str] = []

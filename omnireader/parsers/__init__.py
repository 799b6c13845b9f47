"""One parser per input kind (``base.py`` holds the surface they share and the registry).

Each parser registers itself when its module is imported; :func:`get_parser` imports them
all on first use.
"""

from omnireader.parsers.base import ParseContext, Parser, get_parser, parser_names, register

__all__ = ["Parser", "ParseContext", "register", "get_parser", "parser_names"]

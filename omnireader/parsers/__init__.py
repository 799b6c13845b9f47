"""One parser per input kind (``base.py`` holds the surface they share and the registry).

The parsers register themselves when :mod:`omnireader.intake.router` imports them.
"""

from omnireader.parsers.base import ParseContext, Parser, get_parser, parser_names, register

__all__ = ["Parser", "ParseContext", "register", "get_parser", "parser_names"]

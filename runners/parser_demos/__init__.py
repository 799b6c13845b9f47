"""One demo per parser: python -m runners.parser_demos.demo_file (or the file path)."""

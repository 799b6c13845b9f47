"""The ``omnireader`` command line: argument parsing, commands, settings and output."""

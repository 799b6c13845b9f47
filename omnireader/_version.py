"""The package's version, in one place: read by pyproject.toml (``dynamic = ["version"]``),
``omnireader --version``, the HTTP service's ``/healthz`` and OpenAPI page, and the MCP
server's info. Nothing else here: the build reads this file without importing the package."""

__all__ = ["__version__"]

__version__ = "0.1.0"

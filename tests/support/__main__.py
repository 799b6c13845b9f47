"""Run the test LLM server on its own: ``python -m tests.support [--port N] [--latency S]``."""

from .llm_server import main

__all__: list[str] = []

main()

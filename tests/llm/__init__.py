"""LLM layer: chat backends over real HTTP, prompts, configuration, retries."""

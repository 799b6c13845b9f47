"""Which LLMs to use: ``--llm``, ``--vision-llm``, ``--speech-model``, env vars and a config file.

Precedence: explicit arguments (the CLI), then environment variables, then the config file
(``$OMNIREADER_CONFIG``, else ``./omnireader.toml``, else ``~/.config/omnireader/config.toml``),
then defaults. Model specs are ``openai:MODEL`` (any OpenAI-compatible server: ``OPENAI_BASE_URL``,
``OPENAI_API_KEY``) or ``ollama:MODEL`` (``OLLAMA_HOST``). The config file::

    llm = "ollama:qwen2.5:7b"
    vision_llm = "ollama:llava:13b"
    speech_model = "openai:whisper-1"
    concurrency = 8
    [openai]
    base_url = "http://127.0.0.1:8000/v1"
    [ollama]
    host = "http://127.0.0.1:11434"

    >>> parse_spec("ollama:qwen2.5:7b")
    ('ollama', 'qwen2.5:7b')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from omnireader.errors import ConfigError
from omnireader.llm.base import ChatBackend
from omnireader.llm.limits import Limiter
from omnireader.llm.retry import RetryPolicy

__all__ = ["LLMConfig", "parse_spec", "find_config_file", "make_chat_backend", "VALID_FORMS"]

VALID_FORMS = "openai:MODEL (e.g. openai:gpt-4o-mini) or ollama:MODEL (e.g. ollama:qwen2.5:7b)"
_PROVIDERS = ("openai", "ollama")

# Environment variable -> LLMConfig field.
_ENV = {
    "OMNIREADER_LLM": "llm",
    "OMNIREADER_VISION_LLM": "vision_llm",
    "OMNIREADER_SPEECH_MODEL": "speech_model",
    "OPENAI_BASE_URL": "openai_base_url",
    "OPENAI_API_KEY": "openai_api_key",
    "OLLAMA_HOST": "ollama_host",
    "OMNIREADER_CONCURRENCY": "concurrency",
    "OMNIREADER_LLM_TIMEOUT": "timeout",
    "OMNIREADER_LLM_MAX_TOKENS": "max_tokens",
}


class LLMConfig(BaseModel):
    """Every LLM setting in one place; :meth:`load` fills it from args, env and file."""

    model_config = ConfigDict(extra="forbid")

    llm: str | None = Field(None, description="chat model, openai:MODEL or ollama:MODEL")
    vision_llm: str | None = Field(None, description="vision model (default: llm)")
    speech_model: str | None = Field(None, description="speech-to-text model, OpenAI-compatible")
    openai_base_url: str | None = None
    openai_api_key: str | None = None
    ollama_host: str | None = None
    concurrency: int = Field(8, ge=1, description="LLM requests in flight at once")
    timeout: float = Field(120.0, gt=0, description="seconds for one LLM request")
    max_attempts: int = Field(4, ge=1, description="tries per request, retries included")
    temperature: float | None = Field(
        None, description="sampling temperature (server default if unset)"
    )
    max_tokens: int | None = Field(
        None, ge=16, description="most tokens one reply may have (server default if unset)"
    )

    @classmethod
    def load(
        cls,
        *,
        env: Mapping[str, str] | None = None,
        config_file: str | Path | None = None,
        cwd: Path | None = None,
        **overrides: Any,
    ) -> LLMConfig:
        """Settings from ``overrides`` (None values ignored) > ``env`` > config file > defaults."""
        env = os.environ if env is None else env
        path = Path(config_file) if config_file else find_config_file(env, cwd)
        values: dict[str, Any] = _read_file(path) if path else {}
        # Where each value came from, so an error can say which setting to fix.
        origin = {k: f"{_file_key(k)} in config file {path}" for k in values}
        for var, field in _ENV.items():
            if env.get(var):
                values[field], origin[field] = env[var], f"environment variable {var}"
        for k, v in overrides.items():
            if v is not None:
                values[k], origin[k] = v, f"--{k.replace('_', '-')}"
        try:
            return cls(**values)
        except ValidationError as e:
            err = e.errors()[0]
            field = str(err["loc"][0]) if err["loc"] else ""
            raise ConfigError(
                f"{origin.get(field, field)}: invalid value {values.get(field)!r}: {_plain(err)}"
            ) from None


def find_config_file(env: Mapping[str, str], cwd: Path | None = None) -> Path | None:
    """The config file in use, if any: ``$OMNIREADER_CONFIG``, ./omnireader.toml, then the user's."""
    if env.get("OMNIREADER_CONFIG"):
        path = Path(env["OMNIREADER_CONFIG"]).expanduser()
        if not path.is_file():
            raise ConfigError(f"OMNIREADER_CONFIG points at {path}, which is not a file")
        return path
    local = (cwd or Path.cwd()) / "omnireader.toml"
    if local.is_file():
        return local
    base = (
        Path(env["XDG_CONFIG_HOME"])
        if env.get("XDG_CONFIG_HOME")
        else (Path(env["HOME"]) / ".config" if env.get("HOME") else None)
    )
    user = base / "omnireader" / "config.toml" if base else None
    return user if user is not None and user.is_file() else None


_FILE_KEYS = (
    "llm",
    "vision_llm",
    "speech_model",
    "concurrency",
    "timeout",
    "max_attempts",
    "temperature",
    "max_tokens",
)
_FILE_TABLES = {"openai": ("base_url", "api_key"), "ollama": ("host",)}


def _file_key(field: str) -> str:
    """The config file's name for an LLMConfig field (``ollama_host`` -> ``[ollama] host``)."""
    for table, keys in _FILE_TABLES.items():
        if field.startswith(table + "_") and field[len(table) + 1 :] in keys:
            return f"[{table}] {field[len(table) + 1 :]}"
    return field


def _plain(err: Any) -> str:
    """A pydantic error in words a user reads: what is expected."""
    ctx = err.get("ctx") or {}
    kind = err["type"]
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return "expected a whole number"
    if kind in ("float_parsing", "float_type"):
        return "expected a number"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}"
    if kind == "greater_than":
        return f"must be more than {ctx.get('gt')}"
    if kind in ("string_type",):
        return "expected a string"
    return str(err["msg"]).lower()


def _unknown(path: Path, name: str, valid: list[str]) -> ConfigError:
    import difflib

    close = difflib.get_close_matches(name, valid, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return ConfigError(
        f"config file {path}: unknown setting {name!r}{hint}; valid settings: {', '.join(valid)}"
    )


def _read_file(path: Path) -> dict[str, Any]:
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read config file {path}: {e}") from None
    valid = [*_FILE_KEYS, *(f"[{t}]" for t in _FILE_TABLES)]
    for name in data:
        if name not in _FILE_KEYS and name not in _FILE_TABLES:
            raise _unknown(path, name, valid)  # a typo ("lm", "concurency") is never ignored
    values = {k: data[k] for k in _FILE_KEYS if k in data}
    for table, keys in _FILE_TABLES.items():
        section = data.get(table, {})
        if not isinstance(section, dict):
            raise ConfigError(f"config file {path}: [{table}] must be a table")
        for name in section:
            if name not in keys:
                raise _unknown(path, f"[{table}] {name}", [f"[{table}] {k}" for k in keys])
        values |= {f"{table}_{k}": section[k] for k in keys if k in section}
    return values


def parse_spec(spec: str, what: str = "--llm") -> tuple[str, str]:
    """``"ollama:qwen2.5:7b"`` -> ``("ollama", "qwen2.5:7b")``; anything else is a ConfigError."""
    provider, sep, model = spec.strip().partition(":")
    if not sep or provider not in _PROVIDERS or not model.strip():
        raise ConfigError(f"{what} {spec!r} is not a model spec; valid forms: {VALID_FORMS}")
    return provider, model.strip()


def _build(provider: str, model: str, cfg: LLMConfig, limiter: Limiter) -> ChatBackend:
    common: dict[str, Any] = {
        "timeout": cfg.timeout,
        "limiter": limiter,
        "temperature": cfg.temperature,
        "max_tokens": cfg.max_tokens,
        "retry": RetryPolicy(max_attempts=cfg.max_attempts),
    }
    if provider == "openai":
        if not cfg.openai_api_key and not cfg.openai_base_url:
            raise ConfigError(
                f"openai:{model} needs OPENAI_API_KEY (for api.openai.com) or OPENAI_BASE_URL "
                "(for a local OpenAI-compatible server such as vLLM, llama.cpp or LM Studio)"
            )
        from omnireader.llm.openai_backend import OpenAIChatBackend

        return OpenAIChatBackend(
            model, base_url=cfg.openai_base_url, api_key=cfg.openai_api_key, **common
        )
    from omnireader.llm.ollama_backend import OllamaChatBackend

    return OllamaChatBackend(model, host=cfg.ollama_host, **common)


def make_chat_backend(
    spec: str | None = None,
    *,
    vision: str | None = None,
    speech: str | None = None,
    concurrency: int | None = None,
    config: LLMConfig | None = None,
) -> ChatBackend | None:
    """The chat backend for ``spec`` with its vision and speech backends attached.

    None when no LLM is configured anywhere (fast mode only). ``vision`` falls back to the
    chat model; ``speech`` falls back to ``openai:whisper-1`` on the same server when the chat
    model is OpenAI-compatible, and to nothing for Ollama (audio fine mode then fails with
    ``LLMError(reason="unsupported")``). All three share one concurrency limit.

    >>> make_chat_backend("ollama:qwen2.5:7b", config=LLMConfig())
    OllamaChatBackend('ollama:qwen2.5:7b')
    """
    cfg = config or LLMConfig.load()
    if concurrency is not None:
        cfg = cfg.model_copy(update={"concurrency": concurrency})
    spec = spec or cfg.llm
    if not spec:
        return None
    provider, model = parse_spec(spec)
    limiter = Limiter(cfg.concurrency)
    main = _build(provider, model, cfg, limiter)

    vision_spec = vision or cfg.vision_llm
    if vision_spec and parse_spec(vision_spec, "--vision-llm") != (provider, model):
        main.vision = _build(*parse_spec(vision_spec, "--vision-llm"), cfg, limiter)

    speech_spec = speech or cfg.speech_model
    if speech_spec:
        s_provider, s_model = (
            parse_spec(speech_spec, "--speech-model")
            if speech_spec.split(":", 1)[0] in _PROVIDERS
            else ("openai", speech_spec.strip())
        )
        if s_provider != "openai":
            raise ConfigError(
                f"--speech-model {speech_spec!r}: speech-to-text needs an OpenAI-compatible server "
                "(/audio/transcriptions); use openai:MODEL, e.g. openai:whisper-1"
            )
        main.speech = _build("openai", s_model, cfg, limiter)
    elif provider == "openai":
        main.speech = _build("openai", "whisper-1", cfg, limiter)
    # How to build this backend again in another process (a Ray worker in fine mode).
    main.recipe = {"spec": spec, "vision": vision, "speech": speech, "config": cfg.model_dump()}
    return main

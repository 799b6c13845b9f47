"""Choosing LLMs: model specs, env vars, the config file, and vision / speech fallbacks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from omnireader.errors import ConfigError, LLMError
from omnireader.llm import (
    Extraction,
    LLMConfig,
    OllamaChatBackend,
    OpenAIChatBackend,
    make_chat_backend,
    parse_spec,
)
from tests.support import LLMServer

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 8
ASK = [{"role": "user", "content": "Bob likes tea."}]


@pytest.fixture
def server() -> Iterator[LLMServer]:
    with LLMServer() as srv:
        yield srv


def test_specs_split_on_the_first_colon_so_ollama_tags_survive() -> None:
    assert parse_spec("ollama:qwen2.5:7b") == ("ollama", "qwen2.5:7b")
    assert parse_spec("openai:gpt-4o-mini") == ("openai", "gpt-4o-mini")


@pytest.mark.parametrize("bad", ["gpt-4o", "anthropic:claude", "openai:", " :x"])
def test_an_unknown_spec_is_a_config_error_listing_the_valid_forms(bad: str) -> None:
    with pytest.raises(ConfigError, match=r"openai:MODEL .* ollama:MODEL"):
        make_chat_backend(bad, config=LLMConfig(openai_api_key="k"))


def test_nothing_configured_means_no_backend(tmp_path: Path) -> None:
    cfg = LLMConfig.load(env={"HOME": str(tmp_path)}, cwd=tmp_path)
    assert make_chat_backend(config=cfg) is None


def test_env_beats_the_config_file_and_arguments_beat_env(tmp_path: Path) -> None:
    (tmp_path / "omnireader.toml").write_text(
        'llm = "ollama:from-file"\nconcurrency = 3\n[ollama]\nhost = "http://file-host:1"\n',
        encoding="utf-8",
    )
    env = {"OMNIREADER_LLM": "ollama:from-env", "HOME": str(tmp_path)}
    cfg = LLMConfig.load(env=env, cwd=tmp_path)
    assert (cfg.llm, cfg.concurrency, cfg.ollama_host) == (
        "ollama:from-env",
        3,
        "http://file-host:1",
    )
    cfg = LLMConfig.load(env=env, cwd=tmp_path, llm="openai:from-cli", concurrency=None)
    assert cfg.llm == "openai:from-cli" and cfg.concurrency == 3


def test_the_user_config_file_is_found_under_xdg_config_home(tmp_path: Path) -> None:
    user = tmp_path / "xdg" / "omnireader"
    user.mkdir(parents=True)
    (user / "config.toml").write_text('vision_llm = "ollama:llava"\n', encoding="utf-8")
    cfg = LLMConfig.load(env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")}, cwd=tmp_path)
    assert cfg.vision_llm == "ollama:llava"


@pytest.mark.parametrize(
    "text, problem", [("concurrency = 'lots'\n", "concurrency"), ("llm = [\n", "cannot read")]
)
def test_a_bad_config_file_is_a_config_error_naming_the_file(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "omnireader.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=problem) as err:
        LLMConfig.load(env={}, cwd=tmp_path)
    assert str(path) in str(err.value)


def test_openai_without_key_or_base_url_says_which_to_set() -> None:
    with pytest.raises(ConfigError, match="OPENAI_API_KEY .* OPENAI_BASE_URL"):
        make_chat_backend("openai:gpt-4o-mini", config=LLMConfig())


def test_openai_chat_model_gets_whisper_on_the_same_server_for_speech(server: LLMServer) -> None:
    cfg = LLMConfig.load(
        env={"OPENAI_BASE_URL": server.openai_base_url, "OMNIREADER_LLM": "openai:chat-m"},
        cwd=Path("/nonexistent"),
    )
    backend = make_chat_backend(config=cfg)
    assert isinstance(backend, OpenAIChatBackend) and backend.vision is None
    assert backend.speech is not None and backend.speech.name == "openai:whisper-1"
    backend.transcribe(b"RIFF....", "note.wav")
    assert server.requests_to("transcriptions")[0].form["model"] == "whisper-1"
    # One limit for chat, vision and speech: they all hit the same servers.
    assert backend.speech.limiter is backend.limiter


def test_ollama_chat_model_has_no_speech_unless_one_is_configured(server: LLMServer) -> None:
    backend = make_chat_backend(
        "ollama:qwen2.5:7b", config=LLMConfig(ollama_host=server.ollama_host)
    )
    assert isinstance(backend, OllamaChatBackend) and backend.speech is None
    with pytest.raises(LLMError) as err:
        backend.transcribe(b"RIFF", "a.wav")
    assert err.value.reason == "unsupported"

    cfg = LLMConfig(ollama_host=server.ollama_host, openai_base_url=server.openai_base_url)
    backend = make_chat_backend("ollama:qwen2.5:7b", speech="whisper-large-v3", config=cfg)
    assert backend is not None and backend.transcribe(b"RIFF", "a.wav").segments
    assert server.requests_to("transcriptions")[0].form["model"] == "whisper-large-v3"


def test_speech_on_ollama_is_refused_at_configuration_time(server: LLMServer) -> None:
    with pytest.raises(ConfigError, match="OpenAI-compatible"):
        make_chat_backend(
            "ollama:q", speech="ollama:whisper", config=LLMConfig(ollama_host=server.ollama_host)
        )


def test_vision_falls_back_to_the_chat_model_or_uses_its_own(server: LLMServer) -> None:
    cfg = LLMConfig(ollama_host=server.ollama_host, openai_base_url=server.openai_base_url)
    same = make_chat_backend("ollama:qwen2.5vl", vision="ollama:qwen2.5vl", config=cfg)
    assert same is not None and same.vision is None
    split = make_chat_backend(
        "ollama:qwen2.5:7b", vision="openai:gpt-4o", concurrency=2, config=cfg
    )
    assert split is not None and split.vision is not None
    split.complete_json(ASK, Extraction, images=[PNG])
    req = server.requests_to("chat")[0]
    assert req.path == "/v1/chat/completions" and req.json["model"] == "gpt-4o"
    assert split.vision.limiter is split.limiter and split.limiter.limit == 2


def test_an_unknown_setting_in_the_config_file_is_an_error_with_a_suggestion(
    tmp_path: Path,
) -> None:
    for text, bad, near in (
        ('lm = "ollama:x"\n', "'lm'", "'llm'"),
        ("concurency = 4\n", "'concurency'", "'concurrency'"),
        ('[ollama]\nhots = "x"\n', "'[ollama] hots'", "'[ollama] host'"),
    ):
        (tmp_path / "omnireader.toml").write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError) as e:
            LLMConfig.load(env={}, cwd=tmp_path)
        assert f"unknown setting {bad} (did you mean {near}?)" in str(e.value)
        assert "omnireader.toml" in str(e.value)


def test_a_bad_value_names_the_setting_it_came_from(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as e:
        LLMConfig.load(env={"OMNIREADER_CONCURRENCY": "abc"}, cwd=tmp_path)
    assert str(e.value) == (
        "environment variable OMNIREADER_CONCURRENCY: invalid value 'abc': expected a whole number"
    )
    (tmp_path / "omnireader.toml").write_text("concurrency = 0\n", encoding="utf-8")
    with pytest.raises(
        ConfigError, match=r"concurrency in config file .*: invalid value 0: must be at least 1"
    ):
        LLMConfig.load(env={}, cwd=tmp_path)

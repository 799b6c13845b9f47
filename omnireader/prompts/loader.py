"""Load prompt templates by task and language, and render them into chat messages.

Templates are text files ``templates/<task>.<lang>.txt`` with a ``=== system ===`` and a
``=== user ===`` section and ``${name}`` placeholders (:class:`string.Template`: values are
inserted verbatim and never re-read, so ``{braces}`` or ``$dollars`` in a document cannot break a
prompt). The input's data sits between tags such as ``<document>…</document>``; rendering
neutralises those tags inside values, so a document cannot close its own block and smuggle
instructions outside it.

    >>> p = load_prompt("general_text", "en")
    >>> msgs = p.render(text="Alice moved to Berlin on 2024-05-03.", reference_time="2024-05-04")
    >>> [m["role"] for m in msgs]
    ['system', 'user']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from string import Template
from typing import TYPE_CHECKING

from omnireader.errors import ConfigError, InvalidInputError
from omnireader.normalize import guess_lang

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["TASKS", "LANGS", "PromptTemplate", "load_prompt", "detect_lang", "DATA_TAGS"]

TASKS = (
    "chat_window",
    "document_chunk",
    "general_text",
    "image",
    "tool_trajectory",
    "audio_transcript",
)
LANGS = ("en", "zh")
#: Tags that delimit data in the templates; values may not contain them.
DATA_TAGS = ("messages", "document", "text", "context", "trajectory", "transcript")
#: Used when a caller leaves these out: they are optional context, not data.
DEFAULTS = {
    "earlier_memories": "(none)",
    "reference_time": "unknown",
    "source": "unknown",
    "image_name": "unnamed image",
    "audio_name": "unnamed recording",
    "context": "(none)",
}

_SECTION = re.compile(r"^=== (system|user) ===\n", re.M)
_TAG_IN_VALUE = re.compile(rf"<(/?)\s*({'|'.join(DATA_TAGS)})\s*>", re.I)


def _neutralise(value: str) -> str:
    # "</document>" inside a document would end the data block early; "&lt;/document&gt;" cannot.
    return _TAG_IN_VALUE.sub(lambda m: f"&lt;{m.group(1)}{m.group(2)}&gt;", value)


def _as_text(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return "\n".join(f"- {v}" for v in value) if value else "(none)"
    return str(value)


@dataclass(frozen=True)
class PromptTemplate:
    """One task's prompt in one language: render it with the task's variables."""

    task: str
    lang: str
    system: Template
    user: Template

    @cached_property
    def variables(self) -> frozenset[str]:
        """The ``${names}`` this template needs (those in ``DEFAULTS`` may be omitted).

        Cached: every render asks three times, and each ask re-scanned both templates."""
        return frozenset(self.system.get_identifiers()) | frozenset(self.user.get_identifiers())

    @property
    def schema(self) -> type[BaseModel]:
        """The pydantic model the reply must validate against."""
        from omnireader.llm.schemas import SCHEMA_FOR_TASK

        return SCHEMA_FOR_TASK[self.task]

    def render(self, **values: object) -> list[dict[str, str]]:
        """``[system, user]`` chat messages. Lists become ``- item`` lines; empty lists ``(none)``.

        Raises ``InvalidInputError`` naming any missing or unknown variable, so a typo in a
        caller cannot silently send an empty field to the model.
        """
        unknown = set(values) - self.variables
        if unknown:
            raise InvalidInputError(
                f"prompt {self.task}.{self.lang} has no variable(s) {sorted(unknown)}; "
                f"it takes {sorted(self.variables)}"
            )
        merged = {k: v for k, v in DEFAULTS.items() if k in self.variables} | values
        missing = self.variables - set(merged)
        if missing:
            raise InvalidInputError(f"prompt {self.task}.{self.lang} needs {sorted(missing)}")
        text = {k: _neutralise(_as_text(v)) for k, v in merged.items()}
        return [
            {"role": "system", "content": self.system.substitute(text).strip()},
            {"role": "user", "content": self.user.substitute(text).strip()},
        ]


@cache
def load_prompt(task: str, lang: str = "en") -> PromptTemplate:
    """The template for ``task`` in ``lang`` (``zh-CN`` → ``zh``; other languages use English,
    whose rules already say to answer in the input's language)."""
    if task not in TASKS:
        raise InvalidInputError(f"no prompt for task {task!r}; tasks: {', '.join(TASKS)}")
    base = lang.lower().split("-")[0].split("_")[0]
    base = base if base in LANGS else "en"
    path = resources.files(__package__).joinpath("templates", f"{task}.{base}.txt")
    raw = path.read_text(encoding="utf-8")
    parts = _SECTION.split(raw)
    # parts: ["", "system", <text>, "user", <text>]
    sections = dict(zip(parts[1::2], parts[2::2]))
    if set(sections) != {"system", "user"}:
        raise ConfigError(
            f"prompt file {task}.{base}.txt needs '=== system ===' and '=== user ===' sections"
        )
    return PromptTemplate(task, base, Template(sections["system"]), Template(sections["user"]))


def detect_lang(text: str) -> str:
    """The prompt language for ``text``: ``"zh"`` for Chinese, else ``"en"`` (whose rules
    say to answer in the input's language), by :func:`omnireader.normalize.guess_lang`
    (the rule the parsers use) over the opening 4000 characters, which are enough."""
    return "zh" if guess_lang(text[:4000]) == "zh" else "en"

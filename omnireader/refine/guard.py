"""Checks on what an LLM wrote before it becomes a memory.

Error text is never stored as a memory, and a reply that obeys instructions planted in a
document or tool result (instead of recording them as data) is rejected whole: the fast
item stays and the run counts it as failed to refine.
"""

from __future__ import annotations

import re

__all__ = ["is_error_text", "is_injection_echo"]

_ERROR_START = re.compile(
    r"^\s*(error\b|exception\b|traceback \(most recent call last\)|i'?m sorry|sorry, i|"
    r"as an ai\b|i cannot\b|i can'?t\b|unable to (process|read|extract)|"
    r"(llm|api|request) (error|failed))",
    re.I,
)

# What an obeyed injection looks like in the output: an instruction to an AI, or a claim
# that its rules changed. Recording that a document *contains* such text is fine.
_INJECTION = re.compile(
    r"(ignore|disregard|forget) (all |any |the )?(previous|prior|above|earlier|your) "
    r"(instructions|rules|prompts?)|you are now\b|new instructions?:|system prompt|"
    r"jailbreak|developer mode|忽略(之前|以上|所有)的?(指令|说明|规则)",
    re.I,
)
_REPORTED = re.compile(
    r"\b(document|message|text|file|page|tool result|email|note|user)\b.{0,60}"
    r"\b(contains?|says?|asks?|asked|requests?|instructs?|tells?|tries|tried|includes?)\b|"
    r"(文档|消息|文件|内容).{0,20}(包含|要求|试图)",
    re.I,
)


def is_error_text(text: str) -> bool:
    """True for text that is an error message or a refusal, not a fact."""
    return not text.strip() or bool(_ERROR_START.match(text))


def is_injection_echo(text: str) -> bool:
    """True when ``text`` carries an injected instruction as if it were a memory."""
    return bool(_INJECTION.search(text)) and not _REPORTED.search(text)

"""Prompt templates for fine mode, one per task and language, and their loader.

>>> from omnireader.prompts import load_prompt, detect_lang
>>> load_prompt("chat_window", detect_lang("明天下午三点开会")).lang
'zh'
"""

from omnireader.prompts.loader import (
    DATA_TAGS,
    LANGS,
    TASKS,
    PromptTemplate,
    detect_lang,
    load_prompt,
)

__all__ = ["DATA_TAGS", "LANGS", "TASKS", "PromptTemplate", "detect_lang", "load_prompt"]

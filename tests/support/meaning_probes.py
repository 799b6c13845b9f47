"""Probes of meaning for embedders: (query, a text meaning the same with no word in common,
a text sharing the query's words but not its meaning). A semantic embedder puts the second
closer to the query than the third."""

from __future__ import annotations

__all__ = ["MEANING_PAIRS", "HARDER_PAIRS"]

MEANING_PAIRS = [
    ("she bought a house", "he purchased a home last year", "the house of commons voted"),
    ("feeling sad today", "I am so unhappy and down", "today's weather is sunny"),
    ("my doctor said I need surgery", "the physician recommended an operation", "I said so"),
]
#: Ones the static default gets wrong ("she books a table" first for the books question).
HARDER_PAIRS = [
    ("what books does she read", "she loves fantasy novels", "she books a table"),
    ("favourite desserts", "I baked a chocolate cake for the party", "my favourite car"),
]

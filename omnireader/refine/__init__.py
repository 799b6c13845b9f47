"""Fine mode: LLM, vision and speech turn fast items into validated memories."""

from omnireader.refine.build import NO_MEMORIES
from omnireader.refine.chat_overlaps import chat_overlaps
from omnireader.refine.engine import Refiner
from omnireader.refine.item_kind import refine_kind
from omnireader.refine.results import RefineResult, RefineTotals

__all__ = ["Refiner", "RefineResult", "RefineTotals", "refine_kind", "chat_overlaps", "NO_MEMORIES"]

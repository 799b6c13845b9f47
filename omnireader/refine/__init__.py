"""Fine mode: LLM, vision and speech turn fast items into validated memories."""

from omnireader.refine.build import NO_MEMORIES
from omnireader.refine.engine import Refiner, RefineResult, RefineTotals, chat_overlaps, refine_kind

__all__ = ["Refiner", "RefineResult", "RefineTotals", "refine_kind", "chat_overlaps", "NO_MEMORIES"]

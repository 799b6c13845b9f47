"""Fine mode: LLM, vision and speech turn fast items into validated memories."""

from .engine import RefineResult, Refiner, refine_kind

__all__ = ["Refiner", "RefineResult", "refine_kind"]

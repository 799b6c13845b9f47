"""RapidOCR: PaddleOCR's PP-OCRv6 models on ONNX Runtime, shipped inside the ``rapidocr`` wheel.

Why this engine: its detection, line-direction and recognition models (about 32 MB,
Apache-2.0 like the code) install with the package, it runs on the ONNX Runtime that
MarkItDown already brings, and one recognition model reads Chinese, English, Japanese and
the Latin-script languages. The model files are named explicitly here, so RapidOCR never
takes its download path (it would fetch any model that is not on disk): a missing file is
an error that says to reinstall, never a network call.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from omnireader.errors import ConfigError
from omnireader.formats.ocr.base import OcrEngine, Spans

if TYPE_CHECKING:
    import numpy as np

__all__ = ["RapidOcrEngine", "word_spans"]

_MODELS = {
    "Det": "PP-OCRv6_det_small.onnx",
    "Rec": "PP-OCRv6_rec_small.onnx",
    "Cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx",
}


class RapidOcrEngine(OcrEngine):
    """PP-OCRv6 (small) detection and recognition, PP-OCR's mobile line classifier."""

    def __init__(self, threads: int | None = None) -> None:
        # onnxruntime queues telemetry unless this is set before it loads: reading a file
        # never reaches the network.
        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
        try:
            import rapidocr
            from rapidocr import RapidOCR
            from rapidocr.utils.process_img import get_rotate_crop_image
        except ImportError as e:  # pragma: no cover - a core dependency
            raise ConfigError(
                f"OCR needs the rapidocr package ({e}); reinstall omnireader "
                "(pip install omnireader) or read with ocr='off'"
            ) from None
        models = Path(rapidocr.__file__).parent / "models"
        params: dict[str, Any] = {
            "Global.log_level": "critical",
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        }
        if threads:
            params["EngineConfig.onnxruntime.intra_op_num_threads"] = threads
        for stage, file in _MODELS.items():
            path = models / file
            if not path.is_file():
                raise ConfigError(
                    f"the OCR model {file} is missing from {models}; reinstall rapidocr "
                    "(pip install --force-reinstall rapidocr) or read with ocr='off'"
                )
            params[f"{stage}.model_path"] = str(path)
        self._ocr = RapidOCR(params=params)
        self._crop = get_rotate_crop_image
        from rapidocr._version import version

        self.name = f"rapidocr {version} PP-OCRv6"
        # Loaded now, not on the first page: a worker pays once, before its time limit runs.
        self._det = self._ocr._load_det_model()
        self._cls = self._ocr._load_cls_model()
        self._rec = self._ocr._load_rec_model()

    @property
    def bare(self) -> Any:
        """The RapidOCR object itself (the benchmark calls it as users of RapidOCR would)."""
        return self._ocr

    def detect(self, image: np.ndarray) -> list[np.ndarray]:
        found = self._det(image)
        if found.boxes is None:
            return []
        return [box.astype("float32") for box in found.boxes]

    def crop(self, image: np.ndarray, quad: np.ndarray) -> np.ndarray:
        return self._crop(image, quad.copy())

    def classify(self, crops: list[np.ndarray]) -> list[tuple[bool, float]]:
        if not crops:
            return []
        out = self._cls(crops)
        return [("180" in label, float(score)) for label, score in out.cls_res or []]

    def recognize(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        if not crops:
            return []
        from rapidocr.ch_ppocr_rec import TextRecInput

        out = self._rec(TextRecInput(img=crops))
        return [(str(text), float(score)) for text, score in zip(out.txts or (), out.scores)]

    def recognize_words(self, crops: list[np.ndarray]) -> list[tuple[str, float, Spans]]:
        if not crops:
            return []
        from rapidocr.ch_ppocr_rec import TextRecInput

        # The same decoding as recognize(), also keeping the CTC column of each character
        # (a few list operations a line: the text and scores are unchanged).
        out = self._rec(TextRecInput(img=crops, return_word_box=True))
        infos = out.word_results or [None] * len(crops)
        return [
            (str(text), float(score), word_spans(str(text), info))
            for text, score, info in zip(out.txts or (), out.scores, infos)
        ]


# Measured on drawn lines (known word boxes): the CTC peak of a character comes about one
# column after its left edge, and its right edge about 1.5 columns after its own peak.
_LEAD_COLS = 1.0
_TAIL_COLS = 1.5
_NUMBER_CHARS = frozenset("0123456789.,%")


def word_spans(text: str, info: Any) -> Spans:
    """Each word of ``text`` with its (start, end) fractions of the crop's width, from the
    recogniser's column of each character (RapidOCR's ``WordInfo``).

    ``WordInfo`` also cuts a word where its characters' columns lie far apart (more than
    five): that cut is taken beside a number character only ("400.013" read across a cell
    gap is "400.01" and "3", "North450" is "North" and "450"), since between two letters
    it would break real words."""
    groups = getattr(info, "word_cols", None) or ()
    cols = [c for word in groups for c in word]
    cuts = set()
    at = 0
    for word in groups[:-1]:
        at += len(word)
        cuts.add(at)  # a WordInfo word ends before the character at this index
    length = float(getattr(info, "line_txt_len", 0.0) or 0.0)
    tokens = text.split()
    if length <= 0 or len(cols) != sum(len(t) for t in tokens):
        return None  # the decoder's characters do not line up with the text: no positions
    spans: list[tuple[str, float, float]] = []
    at = 0
    for token in tokens:
        start = 0
        for k in range(1, len(token) + 1):
            if k < len(token) and not (
                at + k in cuts and (token[k - 1] in _NUMBER_CHARS or token[k] in _NUMBER_CHARS)
            ):
                continue
            first, last = cols[at + start], cols[at + k - 1]
            lo = max(0.0, (first - _LEAD_COLS) / length)
            spans.append((token[start:k], lo, max(lo, min(1.0, (last + _TAIL_COLS) / length))))
            start = k
        at += len(token)
    return spans

"""Generate benchmark corpora: many text PDFs, or one very long one (not committed)."""

from __future__ import annotations

import random
from pathlib import Path

from _util import ROOT  # noqa: F401  (sys.path)

from samples.make_samples import write_text_pdf

WORDS = (
    "revenue quarter budget contract supplier warehouse migration platform customer "
    "invoice schedule review decision delivery analysis forecast growth risk team "
    "office shipment audit policy product market service report project milestone"
).split()
NAMES = ["Maria Santos", "Daniel Okafor", "Ines Moreau", "Tom Becker", "Li Wei", "Ana Silva"]


def _page(rng: random.Random, file_no: int, page_no: int, lines: int = 40) -> list[str]:
    out = [f"Document {file_no} - page {page_no}"]
    for _ in range(lines):
        words = rng.choices(WORDS, k=rng.randint(8, 13))
        if rng.random() < 0.2:
            words.insert(rng.randint(0, len(words)), rng.choice(NAMES))
        out.append(" ".join(words).capitalize() + f" ({rng.randint(1, 9999)}).")
    return out


def make_pdf_folder(folder: Path, files: int = 200, pages: int = 20, seed: int = 7) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    paths = []
    for f in range(files):
        path = folder / f"doc_{f:04d}.pdf"
        if not path.exists():
            write_text_pdf(
                path,
                [_page(rng, f, p + 1) for p in range(pages)],
                title=f"Benchmark document {f}",
                author=rng.choice(NAMES),
            )
        paths.append(path)
    return paths


def make_long_pdf(path: Path, pages: int = 500, seed: int = 11) -> Path:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        rng = random.Random(seed)
        write_text_pdf(path, [_page(rng, 0, p + 1) for p in range(pages)], title="Long document")
    return path

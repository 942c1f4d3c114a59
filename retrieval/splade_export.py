"""Export a SPLADE masked-LM checkpoint to ONNX with the SPLADE pooling inside the graph.

A masked LM outputs a logit per token per vocabulary entry: (batch x sequence x 30,522) floats, gigabytes at
large batches, which fastembed's stock SPLADE post-processing then reduces in numpy. Putting the reduction in
the graph makes the model return one vector per text. The order of operations matters for speed, not for the
result: ReLU and log1p are monotone, so ``log1p(relu(max_seq(logits + padding_mask)))`` equals SPLADE's
``max_seq(log1p(relu(logits)) * mask)`` while running the two elementwise functions on (batch x vocab) values
instead of (batch x sequence x vocab) (measured: 40 -> 68 texts/s at 180 tokens on 2 cores).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

#: Outputs of the exported graph and the inputs it takes, in fastembed's naming.
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT_NAME = "sparse_vector"
_PADDING_PENALTY = -1.0e4


def export_splade_onnx(checkpoint: Path, target: Path) -> None:
    """Write ``target`` (an ONNX file) from the Hugging Face checkpoint folder ``checkpoint``.

    torch and transformers are imported here, not at module level: they are needed once, at provisioning.
    """
    import torch  # noqa: PLC0415 - needed once, at provisioning; keeps torch out of every CLI start
    from transformers import AutoModelForMaskedLM  # noqa: PLC0415 - as above

    # Eager attention traces the padding mask as a graph input; SDPA's fast path would bake in "no padding".
    mlm = AutoModelForMaskedLM.from_pretrained(str(checkpoint), attn_implementation="eager")

    class SpladePooling(torch.nn.Module):
        def __init__(self, masked_lm: torch.nn.Module) -> None:
            super().__init__()
            self.masked_lm = masked_lm

        def forward(
            self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
        ) -> torch.Tensor:
            logits = self.masked_lm(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).logits
            padding = (1 - attention_mask.unsqueeze(-1).to(logits.dtype)) * _PADDING_PENALTY
            return torch.log1p(torch.relu((logits + padding).amax(dim=1)))

    model = SpladePooling(mlm).eval()  # eval: dropout off, or every export differs
    ids = torch.ones(2, 8, dtype=torch.long)
    mask = torch.ones_like(ids)
    mask[1, 5:] = 0  # a padded row, so the trace keeps the masking path
    dynamic = {"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "sequence"}}
    dynamic["token_type_ids"] = {0: "batch", 1: "sequence"}
    dynamic[OUTPUT_NAME] = {0: "batch"}
    with torch.no_grad():
        torch.onnx.export(
            model,
            (ids, mask, torch.zeros_like(ids)),
            str(target),
            input_names=list(INPUT_NAMES),
            output_names=[OUTPUT_NAME],
            dynamic_axes=dynamic,
            opset_version=17,
            dynamo=False,
        )
        expected = model(ids, mask, torch.zeros_like(ids)).numpy()
    _check_export(target, ids.numpy(), mask.numpy(), expected)


def _check_export(target: Path, ids: np.ndarray, mask: np.ndarray, expected: np.ndarray) -> None:
    """Run the exported graph once and compare with torch: an export that drifts is an error, not a model."""
    import onnxruntime  # type: ignore[import-untyped]  # noqa: PLC0415 - as above

    session = onnxruntime.InferenceSession(str(target), providers=["CPUExecutionProvider"])
    feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    (got,) = session.run([OUTPUT_NAME], feeds)
    drift = float(np.abs(got - expected).max())
    if drift > 1e-3:
        raise RuntimeError(f"exported SPLADE graph differs from torch by {drift:.2e}")

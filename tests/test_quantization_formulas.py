"""Methods transformers cannot prepare here, checked against figures derived by hand from their sources.

AWQ and GPTQ: transformers 5.24.0 prepares them through gptqmodel (integrations/awq.py replace_with_awq_linear,
quantizer_gptq.py), which needs another torch than the pinned one; the figures follow gptqmodel's
AwqGEMMQuantLinear and TorchQuantLinear buffers.  ModelOpt: modelopt/torch/export/unified_export_hf.py.
MLX: mlx/nn/layers/quantized.py.  mxfp4 beyond gpt-oss-20b: Mxfp4GptOssExperts (integrations/mxfp4.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from paramledger import inventory, load
from paramledger.hf_config import architecture_from_config
from paramledger.memory import weight_bytes

MODELS = Path(__file__).parent.parent / "src" / "paramledger" / "models"
LLAMA = {"model_type": "llama", "vocab_size": 1000, "hidden_size": 256, "intermediate_size": 512,
         "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "tie_word_embeddings": False,
         "torch_dtype": "float16"}
# (out, in) of one layer's Linear modules
LINEARS = [(256, 256), (128, 256), (128, 256), (256, 256), (512, 256), (512, 256), (256, 512)]
PLAIN = 2 * (1000 * 256 + 2 * 2 * 256 + 256 + 1000 * 256)  # tables, norms and head in fp16


def stored(section: dict, base: dict = LLAMA) -> int:
    # what the files hold (the checkpoint: no RoPE buffers)
    return weight_bytes(architecture_from_config({**base, "quantization_config": section}), None).checkpoint


def test_awq_gemm():
    per_layer = sum(i * o * 4 // 32 * 4 + (i // 128) * (o * 4 // 32) * 4 + (i // 128) * o * 2 for o, i in LINEARS)
    assert stored({"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True,
                   "version": "gemm"}) == PLAIN + 2 * per_layer


def test_gptq_with_g_idx():
    def per_layer(group: int) -> int:
        return sum(i * 4 // 32 * o * 4 + -(-i // group) * (o * 4 // 32) * 4 + -(-i // group) * o * 2 + i * 4
                   for o, i in LINEARS)
    assert stored({"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": True}) == PLAIN + 2 * per_layer(128)
    assert stored({"quant_method": "gptq", "bits": 4, "group_size": -1}) == PLAIN + 2 * per_layer(10**9)


def test_modelopt_nvfp4():
    per_layer = sum(o * i // 2 + o * i // 16 + 4 + 4 for o, i in LINEARS)
    section = {"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16, "exclude_modules": ["lm_head"]}
    assert stored(section) == PLAIN + 2 * per_layer


def test_mlx_quantizes_embeddings_and_head():
    def quantized(o: int, i: int) -> int:
        return o * (i * 4 // 32) * 4 + 2 * 2 * o * (i // 64)  # packed uint32 values, fp16 scales and biases
    per_layer = sum(quantized(o, i) for o, i in LINEARS)
    expected = 2 * quantized(1000, 256) + 2 * 2 * 256 * 2 + 256 * 2 + 2 * per_layer  # tables, norms, layers
    arch = architecture_from_config({**LLAMA, "quantization": {"group_size": 64, "bits": 4}})
    assert weight_bytes(arch, None).checkpoint == expected
    assert arch.stored.description.startswith("mlx affine 4-bit, a scale and a bias per 64 values")


def test_gpt_oss_120b_mxfp4():
    config = json.loads((MODELS / "gpt-oss-120b.json").read_text())["config"]
    inv = inventory(load("gpt-oss-120b"))
    experts = sum(t.count for t in inv.tensors if t.component == "experts" and not t.name.endswith("bias"))
    others = inv.total - experts
    assert experts % 32 == 0 and config["quantization_config"]["quant_method"] == "mxfp4"
    assert weight_bytes(inv, None).checkpoint == 2 * others + experts // 2 + experts // 32

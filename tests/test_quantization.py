"""The stored format against transformers 5.24.0's own quantizers (issue #18).

The reference: the model built on the meta device at the config's dtype, the method's quantizer's
``preprocess_model`` run on it, and every parameter and buffer read tensor by tensor: name, shape, dtype.
The rotary ``inv_freq`` buffers are non-persistent (computed when the model is built, in no checkpoint):
memory holds them (weights_bytes), the checkpoint does not (checkpoint_bytes).
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pytest
from _family_configs import CONFIGS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paramledger import inventory, load
from paramledger._exceptions import ArchitectureError
from paramledger.hf_config import architecture_from_config
from paramledger.memory import memory_report, weight_bytes
from paramledger.memory_text import report_json
from paramledger.quantization import ASSUMED, stored_format
from paramledger.buffers import every_buffer
from paramledger.quantization._base import OUR_NAMES
from paramledger.quantization.pricing import stored_tensors

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from transformers.quantizers import AutoHfQuantizer  # noqa: E402

MODELS = Path(__file__).parent.parent / "src" / "paramledger" / "models"
FP8_BLOCK = {"quant_method": "fp8", "fmt": "e4m3", "activation_scheme": "dynamic", "weight_block_size": [128, 128]}
DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}


def bundled(name: str) -> dict:
    return json.loads((MODELS / f"{name}.json").read_text())["config"]


def reference(config: dict) -> dict[str, tuple[tuple[int, ...], str]]:
    """name -> (shape, dtype) of what transformers' quantizer prepares for ``config`` on the meta device."""
    from paramledger.reference import hf_config

    transformers.logging.set_verbosity_error()
    values = copy.deepcopy(config)
    section = values.pop("quantization_config")
    cfg = hf_config(values)
    dtype = DTYPES[config.get("dtype") or config.get("torch_dtype") or "bfloat16"]
    quantizer = AutoHfQuantizer.from_config(copy.deepcopy(section), pre_quantized=True)
    try:  # on a machine without a GPU, fp8 and mxfp4 turn to dequantizing here: the stored layout is wanted
        quantizer.validate_environment(dtype=dtype, device_map=None, weights_only=True)
    except Exception:  # noqa: BLE001 (an environment check, not the layout)
        pass
    if getattr(quantizer.quantization_config, "dequantize", False):
        quantizer.quantization_config.dequantize = False
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(cfg, dtype=dtype)
    quantizer.preprocess_model(model, dtype=dtype)
    unique = {name for name, _ in model.named_parameters()}  # a tied head is its table, stored once
    every = {name for name, _ in model.named_parameters(remove_duplicate=False)}
    out = {name: (tuple(t.shape), str(t.dtype).removeprefix("torch.")) for name, t in model.state_dict().items()
           if name in unique or name not in every}
    # every buffer, persistent or not (DeepSeek-V3's e_score_correction_bias, RoPE's inv_freq)
    return out | {name: (tuple(b.shape), str(b.dtype).removeprefix("torch.")) for name, b in model.named_buffers()}


def ours(config: dict) -> dict[str, tuple[tuple[int, ...], str]]:
    inv = inventory(architecture_from_config(config))
    stored = inv.architecture.stored
    plain = next(name for name, ours in OUR_NAMES.items() if ours == stored.dtype)  # the buffers' model dtype
    return ({piece.name: (piece.shape, piece.dtype) for _, piece in stored_tensors(inv, stored)}
            | {b.name: (b.shape, b.dtype or plain) for b in every_buffer(inv)})


def reference_bytes(tensors: dict[str, tuple[tuple[int, ...], str]]) -> int:
    from paramledger.quantization._base import StoredTensor, stored_bytes

    return sum(stored_bytes(StoredTensor(name, shape, dtype)) for name, (shape, dtype) in tensors.items())


def check(config: dict) -> None:
    held, mine = reference(config), ours(config)
    plain = mine and next(iter(mine.values()))[1]  # the token table: the config's dtype
    stored = dict(held)
    for name, (shape, dtype) in held.items():
        # transformers upcasts a few modules as it loads (_keep_in_fp32_modules: DeepSeek-V3's router); the
        # checkpoint holds them at the config's dtype
        if dtype == "float32" and mine.get(name) == (shape, plain):
            stored[name] = (shape, plain)
    assert mine == stored
    weights = memory_report(inventory(architecture_from_config(config))).weights
    # in the files; in memory, with what _keep_in_fp32_modules upcasts (tests/test_memory_float32.py)
    assert weights.checkpoint + weights.unstored == reference_bytes(stored)
    assert weights.total == reference_bytes(stored) + weights.upcast // 2
    assert {t.name: (t.shape, t.bytes) for t in weights.tensors}.keys() == stored.keys()


def test_qwen3_32b_fp8_is_the_quantizers_figure():
    config = {**bundled("Qwen3-32B"), "quantization_config": FP8_BLOCK}
    report = report_json(memory_report(inventory(architecture_from_config(config))))
    # the quantizer's 34,326,243,840 bytes hold the two rotary buffers (2 × 64 fp32), which no checkpoint stores
    assert report["weights_bytes"] == 34_326_243_840
    assert report["checkpoint_bytes"] == 34_326_243_840 - 512 and report["buffers_bytes"] == 512
    assert report["weights_as"] == "stored"
    assert "fp8 e4m3, 128×128 block scales (quantization_config)" in report["weights_assumed"]
    assert "bf16 (torch_dtype)" in report["weights_assumed"]


def test_gpt_oss_20b_is_the_hub_index_total_size():
    # transformers dequantizes mxfp4 on CPU: the hub's model.safetensors.index.json total_size is the reference
    weights = weight_bytes(load("gpt-oss-20b"), None)
    assert weights.checkpoint == 13_761_264_768
    assert weights.total == 13_761_264_768 + 2 * 4 * 32  # and RoPE's two tables (head_dim 64), built at load


@pytest.mark.parametrize("section", [
    FP8_BLOCK,
    {"quant_method": "fp8", "activation_scheme": "static", "weight_block_size": None},
    {"quant_method": "fp8", "weight_block_size": [64, 32], "modules_to_not_convert": ["model.layers.0.mlp"]},
    {"quant_method": "fp8", "weight_block_size": [128, 128], "scale_fmt": "ue8m0"},
], ids=["block", "per-tensor-static", "skips", "ue8m0"])
@pytest.mark.parametrize("model", ["Qwen3-0.6B", "Llama-3.2-1B", "Qwen3-30B-A3B", "DeepSeek-V3", "phi-4", "gpt2"])
def test_fp8_matches_the_quantizer_on_releases(model, section):
    if "modules_to_not_convert" in section and inventory(load(model)).tied:
        pytest.skip("a tied head outside the list: FP8Linear unties it on the meta device; the checkpoint holds the "
                    "one table, which transformers ties back when it loads")
    check({**bundled(model), "quantization_config": section})


# falcon: FalconLinear subclasses nn.Linear, which FP8Linear does not swap (and the head is skipped by default)
FAMILIES = sorted({"llama", "qwen3", "mixtral", "qwen3_moe", "deepseek_v3", "gpt2", "phimoe", "gemma3_text",
                   "mamba", "olmoe", "granitemoe", "phi3", "falcon"} & set(CONFIGS))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fp8_matches_the_quantizer_on_random_configs(data):
    family = data.draw(st.sampled_from(FAMILIES))
    config = data.draw(CONFIGS[family])
    block = data.draw(st.sampled_from([None, [128, 128], [16, 8], [3, 5]]))
    static = data.draw(st.booleans())
    check({**config, "quantization_config": {"quant_method": "fp8", "weight_block_size": block,
                                             "activation_scheme": "static" if static else "dynamic"}})


def compressed(fmt: str, weights: dict, inputs: dict | None = None) -> dict:
    return {"quant_method": "compressed-tensors", "format": fmt, "quantization_status": "compressed",
            "config_groups": {"group_0": {"targets": ["Linear"], "weights": weights, "input_activations": inputs}},
            "ignore": ["lm_head"]}


COMPRESSED = {
    "w4a16": compressed("pack-quantized", {"num_bits": 4, "type": "int", "symmetric": True, "strategy": "group",
                                           "group_size": 32}),
    "w4a16-asym": compressed("pack-quantized", {"num_bits": 4, "type": "int", "symmetric": False,
                                                "strategy": "group", "group_size": 16}),
    "w8a8": compressed("int-quantized", {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "channel"},
                       {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "token", "dynamic": True}),
    "fp8": compressed("float-quantized", {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "tensor"},
                      {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "tensor", "dynamic": False}),
    "fp8-block": compressed("float-quantized", {"num_bits": 8, "type": "float", "symmetric": True,
                                                "strategy": "block", "block_structure": [32, 32]}),
    "nvfp4": compressed("nvfp4-pack-quantized", {"num_bits": 4, "type": "float", "symmetric": True,
                                                 "strategy": "tensor_group", "group_size": 16},
                        {"num_bits": 4, "type": "float", "symmetric": True, "strategy": "tensor_group",
                         "group_size": 16, "dynamic": "local"}),
}


# The quantizer prepares an asymmetric pack-quantized zero point unpacked (one int8 a group); the files
# compressed-tensors writes pack it into int32s (tests/test_quantization_libs.py), and those are what is shipped.
@pytest.mark.parametrize("scheme", sorted(set(COMPRESSED) - {"w4a16-asym"}))
@pytest.mark.parametrize("model", ["Qwen3-0.6B", "SmolLM2-135M", "Qwen1.5-MoE-A2.7B-Chat"])
def test_compressed_tensors_matches_the_quantizer(model, scheme):
    pytest.importorskip("compressed_tensors")
    config = bundled(model)
    if model != "SmolLM2-135M":  # a smaller copy: compressed-tensors walks every module in Python
        config = {**config, "num_hidden_layers": 2}
    check({**config, "quantization_config": COMPRESSED[scheme]})


def test_no_dtype_is_bf16_said_so():
    fmt = inventory(load("gpt2")).architecture.stored
    assert fmt is ASSUMED and fmt.dtype == "bf16"
    assert "bf16 assumed (the config names no torch_dtype or dtype" in fmt.description


def test_fp16_config_is_sized_at_fp16():
    config = {**bundled("Qwen3-0.6B"), "torch_dtype": "float16"}
    arch = architecture_from_config(config)
    assert weight_bytes(arch, None).by_dtype == {"fp16": 2 * inventory(arch).total, "fp32": 2 * 4 * 64}  # RoPE's


def test_an_unknown_method_is_one_line_with_the_assumption():
    config = {**bundled("Qwen3-0.6B"), "quantization_config": {"quant_method": "eetq"}}
    report = report_json(memory_report(inventory(architecture_from_config(config))))
    assert report["weights_assumed"].startswith("quantization_config: quant_method 'eetq' is not one paramledger")
    assert report["weights_assumed"].endswith("every weight sized at bf16 (torch_dtype), as if unquantized")
    assert "\n" not in report["weights_assumed"]


@pytest.mark.parametrize(("section", "message"), [
    ({"quant_method": "fp8", "weight_block_size": [128, -1]}, r"quantization_config\.weight_block_size: must be"),
    ({"quant_method": "awq", "bits": 64}, r"quantization_config\.bits: must be a whole number from 2 to 8"),
    ({"quant_method": "gptq", "group_size": 0}, r"quantization_config\.group_size: must be a whole number"),
    ({"quant_method": "gptq", "desc_act": "yes"}, r"quantization_config\.desc_act: must be true or false"),
    ({"quant_method": "fp8", "modules_to_not_convert": "lm_head"}, r"modules_to_not_convert: must be a list"),
    ({"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "nf5"}, r"nf5.*not one of"),
    ({"quant_method": "hqq", "nbits": 5}, r"quantization_config\.nbits: 5 is not one HQQ packs"),
])
def test_bad_values_name_their_key(section, message):
    with pytest.raises(ArchitectureError, match=message):
        architecture_from_config({**bundled("Qwen3-0.6B"), "quantization_config": section}, "config.json")


def test_bad_values_exit_2(tmp_path, capsys):
    from paramledger.cli import main

    path = tmp_path / "config.json"
    path.write_text(json.dumps({**bundled("Qwen3-0.6B"), "quantization_config": {"quant_method": "awq", "bits": -4}}))
    assert main(["memory", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "quantization_config.bits" in err and "\n" not in err


def test_dtype_still_overrides():
    arch = load("DeepSeek-V3")
    weights = weight_bytes(arch, "bf16")  # every weight at bf16 but the routers, which transformers holds in fp32
    routers = 58 * 256 * 7168
    assert weights.upcast == 4 * routers and weights.parameters == 2 * inventory(arch).total + 2 * routers
    assert memory_report(arch, dtype="bf16").weights.stored is None


def test_count_names_the_format_and_counts_parameters(capsys):
    from paramledger.cli import main

    assert main(["count", "DeepSeek-V3"]) == 0
    out = capsys.readouterr().out
    assert "stored as: fp8 e4m3, 128×128 block scales (quantization_config)" in out
    assert "671,026,404,352" in out  # the learned parameters, no scale among them
    assert main(["count", "DeepSeek-V3", "--manifest"]) == 0
    assert "model.layers.0.self_attn.q_b_proj.weight_scale_inv  192 × 12  float32" in capsys.readouterr().out


def test_plain_config_costs_a_lookup():
    config = bundled("Llama-3.1-8B")
    start = time.perf_counter()
    for _ in range(10_000):
        stored_format(config, config, "x")
    # well under a microsecond per call on any machine this runs on (0.1-0.2 µs here)
    assert (time.perf_counter() - start) / 10_000 < 2e-6


def test_import_is_cheap():
    import subprocess
    import sys

    code = "import sys, paramledger.quantization; print('torch' in sys.modules, 'paramledger.quantization.methods' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_a_dtype_that_is_no_dtype_names_its_key():
    for value in ([], {"a": 1}, 16):
        with pytest.raises(ArchitectureError, match=r"config.json: torch_dtype: .* is not a dtype a checkpoint"):
            architecture_from_config({**bundled("Qwen3-0.6B"), "torch_dtype": value}, "config.json")
    # a name that is a dtype, but not one a whole checkpoint is read at: said, sized at bf16
    fmt = architecture_from_config({**bundled("Qwen3-0.6B"), "torch_dtype": "float8_e4m3fn"}).stored
    assert fmt.description == ("torch_dtype 'float8_e4m3fn' is not a dtype paramledger reads (bfloat16, float16, "
                               "float32): every weight sized at bf16 assumed, as if unquantized")


def test_a_quantization_config_in_text_config_is_read():
    """Kimi K2.5 ships its quantization_config inside text_config: transformers' get_hf_quantizer reads the decoder's
    config's when the top holds none (quantizers/auto.py), so the stored format is that method, not bf16."""
    stored = architecture_from_config(bundled("Kimi-K2.5")).stored
    assert stored.method is not None and stored.method.quant_method == "compressed-tensors"

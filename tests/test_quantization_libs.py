"""The stored formats against the files the methods' own libraries write (issue #18).

bitsandbytes: a small Llama quantized on the CPU by transformers 5.24.0 with bitsandbytes 0.50.2 and
written with save_pretrained; its config.json (with the quantization_config transformers wrote) is read
back by paramledger, and every tensor of the safetensors header is compared with ours.  HQQ: each
HQQLinear's encoded state dict (hqq 0.2.8.post1) against the layout of one Linear.  compressed-tensors: a small
Llama quantized by compressed-tensors 0.20.1 (apply_quantization_config, then ModelCompressor.compress_model) and
written with save_pretrained and update_config, its header against ours.
"""

from __future__ import annotations

import json
import struct
import warnings

import pytest

from paramledger import inventory
from paramledger.hf_config import architecture_from_config
from paramledger.memory import weight_bytes
from paramledger.quantization import StoredFormat
from paramledger.quantization.packed import read_hqq
from paramledger.quantization._base import Reader, StoredTensor, stored_bytes
from paramledger.quantization.pricing import stored_tensors

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SAFETENSORS_DTYPES = {"BF16": "bfloat16", "F16": "float16", "F32": "float32", "U8": "uint8", "I8": "int8",
                      "I32": "int32", "I64": "int64", "F8_E4M3": "float8_e4m3fn"}


def header(path) -> dict[str, tuple[tuple[int, ...], str]]:
    raw = path.read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    entries = json.loads(raw[8:8 + size])
    entries.pop("__metadata__", None)
    return {name: (tuple(e["shape"]), SAFETENSORS_DTYPES[e["dtype"]]) for name, e in entries.items()}


@pytest.fixture(scope="module")
def base_model(tmp_path_factory):
    config = transformers.AutoConfig.for_model(
        "llama", vocab_size=128, hidden_size=64, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, tie_word_embeddings=False)
    path = tmp_path_factory.mktemp("base")
    transformers.AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16).save_pretrained(path)
    return path


@pytest.mark.parametrize("options", [
    dict(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True),
    dict(load_in_4bit=True, bnb_4bit_quant_type="nf4"),
    dict(load_in_4bit=True, bnb_4bit_quant_type="fp4"),
    dict(load_in_8bit=True),
], ids=["nf4-double", "nf4", "fp4", "int8"])
def test_bitsandbytes_matches_the_files_it_writes(base_model, tmp_path, options):
    pytest.importorskip("bitsandbytes")
    transformers.logging.set_verbosity_error()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = transformers.AutoModelForCausalLM.from_pretrained(
            base_model, quantization_config=transformers.BitsAndBytesConfig(**options), device_map="cpu",
            dtype=torch.bfloat16)
        model.save_pretrained(tmp_path)
    theirs = header(tmp_path / "model.safetensors")
    config = json.loads((tmp_path / "config.json").read_text())
    arch = architecture_from_config(config)
    mine = {p.name: (p.shape, p.dtype) for _, p in stored_tensors(inventory(arch), arch.stored)}
    assert mine.keys() == theirs.keys()
    slack = 0
    for name, (shape, dtype) in theirs.items():
        if name.endswith("quant_state.bitsandbytes__nf4") and options.get("bnb_4bit_use_double_quant"):
            # the JSON holds nested_offset, a float whose digits vary with the data
            assert abs(mine[name][0][0] - shape[0]) <= 8 and mine[name][1] == dtype
            slack += mine[name][0][0] - shape[0]
            continue
        assert mine[name] == (shape, dtype), name
    total = sum(stored_bytes(StoredTensor(n, s, d)) for n, (s, d) in theirs.items())
    assert weight_bytes(arch, None).checkpoint - total == slack


@pytest.mark.parametrize(("nbits", "group", "axis"), [(4, 64, 1), (2, 32, 1), (8, 64, 0), (3, 64, 1), (1, 16, 1)])
def test_hqq_matches_its_state_dict(nbits, group, axis):
    pytest.importorskip("hqq")
    from hqq.core.quantize import BaseQuantizeConfig, HQQLinear

    linear = torch.nn.Linear(256, 96, bias=False).to(torch.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quantized = HQQLinear(linear, BaseQuantizeConfig(nbits=nbits, group_size=group, axis=axis),
                              compute_dtype=torch.float16, device="cpu", initialize=True)
    theirs = {f"m.{k}": (tuple(v.shape), str(v.dtype).removeprefix("torch."))
              for k, v in quantized.state_dict().items() if v is not None}
    section = {"quant_method": "hqq", "quant_config": {"weight_quant_params": {
        "nbits": nbits, "group_size": group, "axis": axis}}, "skip_modules": ["lm_head"]}
    method = read_hqq(section, Reader(section, "config.json"))
    mine = {t.name: (t.shape, t.dtype) for t in method.layout("m.weight", (96, 256), "linear", "float16")}
    assert mine == theirs


def test_hqq_reads_as_transformers_writes_it():
    config = {"model_type": "llama", "vocab_size": 64, "hidden_size": 64, "intermediate_size": 128,
              "num_hidden_layers": 1, "num_attention_heads": 4, "torch_dtype": "float16",
              "quantization_config": {"quant_method": "hqq", "skip_modules": ["lm_head"], "quant_config": {
                  "weight_quant_params": {"nbits": 4, "group_size": 64, "axis": 1}, "scale_quant_params": None,
                  "zero_quant_params": None, "offload_meta": False}}}
    arch = architecture_from_config(config)
    assert isinstance(arch.stored, StoredFormat)
    assert arch.stored.description.startswith("hqq 4-bit, a scale and a zero per 64 values (quantization_config), "
                                              "lm_head kept unquantized (skip_modules)")


CT_WEIGHTS = {
    "w4a16": ("pack-quantized", {"num_bits": 4, "type": "int", "symmetric": True, "strategy": "group",
                                 "group_size": 32}),
    "w4a16-asym": ("pack-quantized", {"num_bits": 4, "type": "int", "symmetric": False, "strategy": "group",
                                      "group_size": 16}),
    "w3-asym-channel": ("pack-quantized", {"num_bits": 3, "type": "int", "symmetric": False,
                                           "strategy": "channel"}),
    "w8a16": ("pack-quantized", {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "channel"}),
    "int8": ("int-quantized", {"num_bits": 8, "type": "int", "symmetric": True, "strategy": "channel"}),
    "fp8": ("float-quantized", {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "tensor"}),
}


@pytest.mark.parametrize("scheme", sorted(CT_WEIGHTS))
def test_compressed_tensors_matches_the_files_it_writes(tmp_path, scheme):
    pytest.importorskip("compressed_tensors")
    from compressed_tensors.compressors import ModelCompressor
    from compressed_tensors.quantization import QuantizationConfig, apply_quantization_config

    fmt, weights = CT_WEIGHTS[scheme]
    config = transformers.AutoConfig.for_model(
        "llama", vocab_size=128, hidden_size=96, intermediate_size=160, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, tie_word_embeddings=False)
    transformers.logging.set_verbosity_error()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = transformers.AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
        apply_quantization_config(model, QuantizationConfig.model_validate(
            {"config_groups": {"group_0": {"targets": ["Linear"], "weights": weights}}, "ignore": ["lm_head"],
             "format": fmt}))
        for module in model.modules():  # any scale will do: only shapes and dtypes are compared
            if hasattr(module, "weight_scale"):
                with torch.no_grad():
                    module.weight_scale.fill_(0.01)
        compressor = ModelCompressor.from_pretrained_model(model, quantization_format=fmt)
        compressor.compress_model(model)
        model.save_pretrained(tmp_path)
        compressor.update_config(tmp_path)
    theirs = header(tmp_path / "model.safetensors")
    arch = architecture_from_config(json.loads((tmp_path / "config.json").read_text()))
    mine = {p.name: (p.shape, p.dtype) for _, p in stored_tensors(inventory(arch), arch.stored)}
    assert mine == theirs
    files = sum(stored_bytes(StoredTensor(n, s, d)) for n, (s, d) in theirs.items())
    assert weight_bytes(arch, None).checkpoint == files

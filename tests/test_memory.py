"""Weight bytes: the seed's GPT-2 figure, real models' nbytes, quantization overheads, units, refusals."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

import paramledger
from paramledger import families
from paramledger._exceptions import OptionError
from paramledger.dtypes import DTYPES, get_dtype, tensor_bytes
from paramledger.memory import format_bytes, in_unit, is_vector, memory_report, weight_bytes
from paramledger.memory_text import report_json
from strategies import architectures
from test_kvcache import TINY_CONFIGS

# A real GPT-2 small config.json (openai-community/gpt2), as the hub serves it.
GPT2_CONFIG = {
    "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
    "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
    "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
    "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1, "summary_activation": None,
    "summary_first_dropout": 0.1, "summary_proj_to_labels": True, "summary_type": "cls_index",
    "summary_use_proj": True, "task_specific_params": {"text-generation": {"do_sample": True, "max_length": 50}},
    "vocab_size": 50257,
}


@pytest.fixture
def gpt2_config_file(tmp_path):
    if families.get("gpt2") is None:
        pytest.skip("family gpt2 not supported by paramledger yet")
    path = tmp_path / "config.json"
    path.write_text(json.dumps(GPT2_CONFIG))
    return path


# ----------------------------------------------------------------- seed 003's next lesson
def test_gpt2_weights_at_bf16(gpt2_config_file):
    inv = paramledger.inventory(paramledger.load(str(gpt2_config_file)))
    assert inv.total == 124_439_808
    assert weight_bytes(inv, "bf16").total == 248_879_616
    assert weight_bytes(inv, "fp32").total == 497_759_232


def test_gpt2_weights_at_bf16_through_the_cli(cli, gpt2_config_file):
    status, out, err = cli("memory", str(gpt2_config_file), "--dtype", "bf16", "--json")
    assert status == 0, err
    assert json.loads(out)["weights_bytes"] == 248_879_616
    status, out, _ = cli("memory", str(gpt2_config_file), "--dtype", "bf16")
    assert "weights at bf16: 248,879,616 bytes (248.88 MB, 237.35 MiB)" in out


# ----------------------------------------------------------------- against real tensors
@pytest.mark.parametrize("name", sorted(TINY_CONFIGS))
@pytest.mark.parametrize("dtype", ["fp32", "bf16", "fp16"])
def test_weight_bytes_equal_real_nbytes(name, dtype):
    torch = pytest.importorskip("torch")
    from transformers import AutoConfig, AutoModelForCausalLM

    config = dict(TINY_CONFIGS[name])
    if families.get(config["model_type"]) is None:
        pytest.skip(f"family {config['model_type']} not supported by paramledger yet")
    arch = paramledger.load(config)
    model_type = config.pop("model_type")
    torch.manual_seed(0)
    torch_dtype = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[dtype]
    built = AutoModelForCausalLM.from_config(AutoConfig.for_model(model_type, **config), dtype=torch_dtype)
    # parameters() yields a shared (tied) tensor once, each cast to dtype: what a checkpoint at it holds (the
    # tensors transformers upcasts as it loads, _keep_in_fp32_modules, are tests/test_memory_float32.py's); the
    # buffers as built at that dtype (inv_freq in fp32)
    model = AutoModelForCausalLM.from_config(AutoConfig.for_model(model_type, **config)).to(torch_dtype)
    weights = weight_bytes(paramledger.inventory(arch), dtype)
    real = sum(p.nbytes for p in model.parameters()) + sum(b.nbytes for b in built.buffers())
    assert weights.total - weights.upcast // 2 == real


# ----------------------------------------------------------------- formats
SQUARE = (4096, 4096)  # 16,777,216 values


@pytest.mark.parametrize(("dtype", "group_size", "expected"), [
    ("fp32", None, 67_108_864),
    ("bf16", None, 33_554_432),
    ("fp8_e4m3", None, 16_777_216),
    ("int8", None, 16_777_216),  # values only
    ("int8", 128, 16_777_216 + 131_072 * 2),  # + an fp16 scale per 128
    ("int4", None, 8_388_608 + 131_072 * 2),  # 4 bits + fp16 scale per 128
    ("int4", 64, 8_388_608 + 262_144 * 2),
    ("int4_asym", None, 8_388_608 + 131_072 * 2 + 131_072 // 2),  # + a 4-bit zero point per group
    ("nf4", None, 8_388_608 + 262_144 * 4),  # fp32 absmax per 64: 0.5 bits per value (QLoRA §3)
    ("nf4_dq", None, 8_388_608 + 262_144 + 1_024 * 4 + 4),  # 8-bit absmax, fp32 per 256 blocks, an offset
    ("mxfp4", None, 8_388_608 + 524_288),  # one E8M0 byte per 32: gpt-oss's *_blocks and *_scales
    ("mxfp6_e2m3", None, 12_582_912 + 524_288),
])
def test_format_bytes_for_a_square_matrix(dtype, group_size, expected):
    assert tensor_bytes(get_dtype(dtype), SQUARE, group_size) == expected


def test_bits_round_up_per_tensor():
    assert tensor_bytes(get_dtype("mxfp4"), (32, 3, 32)) == 3 * 32 * (16 + 1)
    assert tensor_bytes(get_dtype("nf4"), (3,)) == 6  # 12 bits of values + one 32-bit absmax = 44 bits -> 6 bytes
    assert tensor_bytes(get_dtype("fp4"), (129,)) == 65 + 3 * 4  # a partial last block still has its absmax


def test_bitsandbytes_blocks_accept_any_size():
    assert tensor_bytes(get_dtype("nf4"), (50_257, 768)) == (50_257 * 768) // 2 + -(-50_257 * 768 // 64) * 4


def test_mxfp4_experts_of_gpt_oss_20b_match_its_checkpoint_layout():
    # openai/gpt-oss-20b stores mlp.experts.gate_up_proj_blocks as uint8 (32, 5760, 90, 16) and
    # gate_up_proj_scales as uint8 (32, 5760, 90): 32 values in 16 bytes plus one scale byte.
    blocks, scales = 32 * 5760 * 90 * 16, 32 * 5760 * 90
    assert tensor_bytes(get_dtype("mxfp4"), (32, 5760, 2880)) == blocks + scales


def test_keep_components_at_another_precision():
    inv = paramledger.inventory("seed-1.1b")
    plain = weight_bytes(inv, "int4")
    kept = weight_bytes(inv, "int4", keep=["norm=fp32", "embedding=bf16"])
    norms = inv.component("norm")
    assert kept.by_component["norm"] == 4 * norms
    assert kept.by_component["embedding"] == 2 * inv.embedding
    assert kept.by_component["ffn"] == plain.by_component["ffn"]
    rotary = kept.by_component["buffers"]  # RoPE's inv_freq and original_inv_freq: float32 whatever --dtype says
    assert rotary == 2 * 4 * 64
    assert kept.by_dtype == {"bf16": 2 * inv.embedding, "int4": plain.by_component["attention"]
                             + plain.by_component["ffn"], "fp32": 4 * norms + rotary}
    # rules apply in order, a later one overriding an earlier one
    assert weight_bytes(inv, "int4", keep=["vectors=bf16", "norm=fp32"]).by_component["norm"] == 4 * norms
    assert weight_bytes(inv, "int4", keep=["norm=fp32", "vectors=bf16"]).by_component["norm"] == 2 * norms


def test_vectors_include_two_dimensional_norms_and_biases():
    """Cohere's per-head q/k norms are (heads, head_dim) and ERNIE 4.5's routing correction
    (1, experts): scales and offsets, kept with the other vectors, never quantized as matrices."""
    cohere = paramledger.inventory({"model_type": "cohere", "use_qk_norm": True, "num_hidden_layers": 1})
    assert cohere["model.layers.0.self_attn.q_norm.weight"].shape == (64, 128)
    kept = weight_bytes(cohere, "int4", keep=["vectors=bf16"])
    assert kept.by_component["norm"] == 2 * cohere.component("norm")
    ernie = paramledger.inventory({"model_type": "ernie4_5_moe", "num_hidden_layers": 2})
    bias = next(t for t in ernie.tensors if t.name.endswith("e_score_correction_bias"))
    assert bias.shape == (1, 64)
    row = next(t for t in weight_bytes(ernie, "int4", keep=["vectors=fp32"]).tensors if t.name == bias.name)
    assert (row.dtype, row.bytes) == ("fp32", 4 * 64)


def test_flattened_expert_matrices_are_matrices_not_vectors():
    """DBRX stores its experts 2-D, flattened on the first axis ((experts × ffn, hidden) w1, v1 and
    w2): matrices, quantized with the other matrices; only its bias-free norms are vectors."""
    inv = paramledger.inventory({"model_type": "dbrx", "n_layers": 1})
    w1 = inv["transformer.blocks.0.ffn.experts.mlp.w1"]
    assert (w1.shape, w1.experts) == ((4 * 3584, 2048), 4)
    experts = [t for t in inv.tensors if t.component == "experts"]
    assert len(experts) == 3 and not any(is_vector(t) for t in experts)
    assert is_vector(inv["transformer.blocks.0.norm_attn_norm.norm_1.weight"])
    kept = weight_bytes(inv, "int4", keep=["vectors=bf16"])
    assert kept.by_component["experts"] == weight_bytes(inv, "int4").by_component["experts"]
    assert kept.by_component["norm"] == 2 * inv.component("norm")


def test_gpt_oss_checkpoint_layout():
    """openai/gpt-oss-20b: expert matrices in MXFP4, everything else (expert biases too) in bf16."""
    if families.get("gpt_oss") is None:
        pytest.skip("family gpt_oss not supported by paramledger yet")
    inv = paramledger.inventory("gpt-oss-20b")
    kept = weight_bytes(inv, "bf16", keep=["experts=mxfp4", "vectors=bf16"])
    expert_matrices = [t for t in inv.tensors if t.component == "experts" and len(t.shape) == 3]
    expert_biases = [t for t in inv.tensors if t.component == "experts" and len(t.shape) == 2]
    assert len(expert_matrices) == len(expert_biases) == 48
    mxfp4 = sum(t.count // 32 * 17 for t in expert_matrices)  # 16 bytes of values + 1 scale byte per 32
    rotary = 2 * 4 * 32  # inv_freq and original_inv_freq (head_dim 64), float32, in no checkpoint
    assert kept.by_dtype == {"bf16": 2 * (inv.total - sum(t.count for t in expert_matrices)), "mxfp4": mxfp4,
                             "fp32": rotary}
    # the hub's model.safetensors.index.json for openai/gpt-oss-20b: {"metadata": {"total_size": 13761264768}}
    assert kept.checkpoint == 13_761_264_768 == kept.total - rotary


def test_gpt_oss_checkpoint_size_through_the_cli(cli):
    if families.get("gpt_oss") is None:
        pytest.skip("family gpt_oss not supported by paramledger yet")
    status, out, err = cli("memory", "gpt-oss-20b", "--dtype", "bf16", "--keep", "experts=mxfp4",
                           "--keep", "vectors=bf16", "--json")
    assert status == 0, err
    out = json.loads(out)
    assert out["checkpoint_bytes"] == 13_761_264_768 == out["weights_bytes"] - out["buffers_bytes"]


def test_vectors_are_every_one_dimensional_tensor(gpt2_config_file):
    inv = paramledger.inventory(paramledger.load(str(gpt2_config_file)))
    kept = weight_bytes(inv, "int8", keep={"vectors": "fp32"})
    vectors = sum(t.count for t in inv.tensors if len(t.shape) == 1)
    assert kept.by_dtype["fp32"] == 4 * vectors
    assert kept.by_dtype["int8"] == inv.total - vectors


@given(arch=architectures())
def test_float_bytes_are_bits_times_the_total(arch):
    inv = paramledger.inventory(arch)
    assert weight_bytes(inv, "fp32").parameters == 4 * inv.total
    assert weight_bytes(inv, "bf16").parameters == 2 * inv.total
    assert weight_bytes(inv, "fp8_e5m2").parameters == inv.total
    fp16 = weight_bytes(inv, "fp16").by_component
    assert sum(fp16.values()) - fp16.get("buffers", 0) == 2 * inv.total


# ----------------------------------------------------------------- units
def test_units_are_labelled_by_their_divisor():
    assert format_bytes(1_610_612_736) == "1,610,612,736 bytes (1.61 GB, 1.50 GiB)"
    assert format_bytes(196_608) == "196,608 bytes (196.61 kB, 192.00 KiB)"
    assert format_bytes(10**9) == "1,000,000,000 bytes (1.00 GB, 953.67 MiB)"
    assert in_unit(2**30, "GiB") == 1 and in_unit(10**9, "GB") == 1
    with pytest.raises(OptionError, match=r"unit: unknown unit 'Gib' \(did you mean 'GiB'\?\)"):
        in_unit(1, "Gib")


def test_the_json_has_the_promised_keys():
    data = report_json(memory_report("seed-1.1b", context=4096, batch=2))
    for key in ("weights_bytes", "kv_values_per_token", "kv_bytes_per_token", "kv_cache_bytes", "total_bytes",
                "active_parameters", "active_definition", "flops_per_token"):
        assert key in data
    assert data["total_bytes"] == data["weights_bytes"] + data["kv_cache_bytes"]
    assert data["kv_cache_bytes"] == 2 * 4096 * data["kv_bytes_per_token"]
    assert set(data["flops_per_token"]) >= {"weights", "attention", "total", "definition"}


def test_the_api_takes_an_architecture_an_inventory_or_a_name():
    from paramledger.compute import forward_flops_per_token
    from paramledger.kvcache import kv_cache
    from paramledger.training import training_memory

    arch = paramledger.load("seed-1.1b")
    inv = paramledger.inventory(arch)
    assert weight_bytes(arch).total == weight_bytes(inv).total == 2 * 1_128_892_416 + 2 * 4 * 64  # and RoPE's
    assert kv_cache(arch, 8).bytes == kv_cache(inv, 8).bytes
    assert forward_flops_per_token(arch, 8) == forward_flops_per_token(inv, 8)
    assert training_memory(arch) == training_memory(inv)
    assert memory_report("seed-1.1b").total_bytes == memory_report(arch).total_bytes == memory_report(inv).total_bytes


def test_kv_dtype_defaults_to_the_weight_dtype_or_bf16():
    assert memory_report("seed-1.1b", dtype="fp32", context=8).kv.dtype.name == "fp32"
    assert memory_report("seed-1.1b", dtype="int4", context=8).kv.dtype.name == "bf16"


def test_text_report(cli):
    status, out, _ = cli("memory", "seed-1.1b", "--context", "8192", "--kv-dtype", "fp16")
    assert status == 0
    assert "KV cache at fp16: 24,576 values per token = 49,152 bytes per token" in out
    assert "active parameters per token: 1,128,892,416 (dense: every parameter)" in out


def test_text_report_of_an_moe_prints_the_definition(cli):
    if families.get("mixtral") is None:
        pytest.skip("family mixtral not supported by paramledger yet")
    status, out, _ = cli("memory", "Mixtral-8x7B-v0.1", "--context", "4096")
    assert status == 0
    active = paramledger.inventory("Mixtral-8x7B-v0.1").active
    assert f"active parameters per token: {active:,}\n  (parameters a single token's forward pass reads" in out


# ----------------------------------------------------------------- refusals (API and CLI)
REFUSALS = [
    (dict(dtype="bf61"), ["--dtype", "bf61"], r"dtype: unknown dtype 'bf61' \(did you mean 'bf16'\?\)"),
    (dict(kv_dtype="fp8e4m3"), ["--kv-dtype", "fp8e4m3"],
     r"kv-dtype: unknown dtype 'fp8e4m3' \(did you mean 'fp8_e4m3'\?\)"),
    (dict(context=0), ["--context", "0"], r"context: must be a whole number of at least 1, got 0"),
    (dict(context=-1), ["--context", "-1"], r"context: must be a whole number of at least 1, got -1"),
    (dict(batch=0), ["--batch", "0"], r"batch: must be a whole number of at least 1, got 0"),
    (dict(dtype="int4", group_size=96), ["--dtype", "int4", "--group-size", "96"],
     r"group-size: 96 does not divide the last dimension \(2048\) of model.embed_tokens.weight "
     r"\(32000, 2048\) at int4"),
    # --dtype given: with no --dtype the weights are as stored, and a group size asks for --dtype (issue #18)
    (dict(dtype="bf16", group_size=128), ["--dtype", "bf16", "--group-size", "128"], r"group-size: bf16 has no groups"),
    (dict(dtype="int4", group_size=0), ["--dtype", "int4", "--group-size", "0"],
     r"group-size: must be a positive whole number, got 0"),
    (dict(keep=["nrom=fp32"]), ["--keep", "nrom=fp32"], r"keep: unknown component 'nrom' \(did you mean 'norm'\?\)"),
    (dict(keep=["norm"]), ["--keep", "norm"], r"keep: expected COMPONENT=DTYPE, got 'norm'"),
    (dict(keep=["norm=fp23"]), ["--keep", "norm=fp23"], r"keep: unknown dtype 'fp23'"),
    (dict(training="adam"), ["--training", "adam"], r"training: unknown recipe 'adam'"),
    (dict(training="bf16-mixed", zero_stage=2), ["--training", "bf16-mixed", "--zero", "2"],
     r"zero: stage 2 shards over devices: give --devices N"),
    (dict(training="bf16-mixed", devices=8), ["--training", "bf16-mixed", "--devices", "8"],
     r"devices: needs --zero STAGE"),
    (dict(zero_stage=1, devices=8), ["--zero", "1", "--devices", "8"], r"zero: needs --training RECIPE"),
    (dict(training="fp32", zero_stage=4, devices=2), ["--training", "fp32", "--zero", "4", "--devices", "2"],
     r"zero: ZeRO stage must be 0, 1, 2 or 3, got 4"),
    (dict(training="fp32", zero_stage=1, devices=0), ["--training", "fp32", "--zero", "1", "--devices", "0"],
     r"devices: must be a whole number of at least 1, got 0"),
    (dict(tokens=0), ["--tokens", "0"], r"tokens: must be a whole number of at least 1, got 0"),
]


@pytest.mark.parametrize(("kwargs", "argv", "message"), REFUSALS)
def test_refusals_through_the_api(kwargs, argv, message):
    with pytest.raises(OptionError, match=message):
        memory_report("seed-1.1b", **kwargs)


@pytest.mark.parametrize(("kwargs", "argv", "message"), REFUSALS)
def test_refusals_through_the_cli(cli, kwargs, argv, message):
    status, out, err = cli("memory", "seed-1.1b", *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("paramledger: error: ")
    import re

    assert re.search(message, err)


def test_every_dtype_has_a_source():
    assert all(d.source for d in DTYPES.values())


def test_flops_parts_add_up_to_the_total_with_altup(cli, tmp_path):
    """Gemma 3n's AltUp mixes its streams with a matmul that has no weights: its own line and JSON key,
    so weights + attention + altup is the printed total."""
    config = tmp_path / "config.json"
    config.write_text('{"model_type": "gemma3n_text"}')
    status, out, _ = cli("memory", str(config), "--json")
    flops = json.loads(out)["flops_per_token"]
    assert status == 0 and flops["altup"] > 0
    assert flops["weights"] + flops["attention"] + flops["altup"] == flops["total"]
    _, text, _ = cli("memory", str(config), "--flops")
    assert f"mixing of 4 streams: {flops['altup']:,}" in text


def test_weight_bytes_of_ten_million_layers_never_list_them():
    """A typo of 10,000,000 layers is priced at once: bytes by component and dtype are summed per
    layer kind (a layer's bytes do not depend on its index), and the rows wait until read."""
    inv = paramledger.inventory(paramledger.load("seed-baseline", num_hidden_layers=10_000_000))
    weights = weight_bytes(inv, "int4", keep=["vectors=bf16"])
    vectors = sum(t.count for t in inv.tensors.head + inv.tensors.tail if is_vector(t))
    vectors += 10_000_000 * sum(t.count for t in inv.tensors.blocks[0] if is_vector(t))
    assert weights.by_dtype == {"int4": weights.total - 2 * vectors, "bf16": 2 * vectors}
    assert weights.by_component["attention"] == 10_000_000 * 4 * tensor_bytes(get_dtype("int4"), (256, 256))
    assert inv.tensors._flat is None


def test_weight_bytes_rows_equal_the_sums():
    inv = paramledger.inventory("gpt-oss-20b")
    weights = weight_bytes(inv, "bf16", keep=["experts=mxfp4", "vectors=bf16"])
    assert len(weights.tensors) == len(inv.tensors) + 2  # and the two rotary buffers
    assert sum(t.bytes for t in weights.tensors) == weights.total
    by_dtype: dict[str, int] = {}
    for row in weights.tensors:
        by_dtype[row.dtype] = by_dtype.get(row.dtype, 0) + row.bytes
    assert by_dtype == weights.by_dtype


def test_a_hybrid_models_linear_attention_state_is_in_the_total():
    """Qwen3-Next's 36 Gated DeltaNet layers hold a fixed state, not keys and values: memory shows it on its own
    line and adds it to the total, which says so."""
    report = memory_report(paramledger.load({"model_type": "qwen3_next"}), context=4096)
    kv = report.kv
    assert kv.linear_attention_layers == 36
    assert kv.state_bytes == 2 * 36 * (8192 * 4 + 32 * 128 * 128)  # conv (q, k, v channels x kernel) + recurrent
    assert report.total_bytes == report.weights.total + kv.bytes + kv.state_bytes
    out = report_json(report)
    assert out["linear_attention_state_bytes"] == kv.state_bytes and out["total_bytes"] == report.total_bytes


def test_memory_text_is_concise_and_within_100_columns(cli):
    """FLOPs only with --flops (the JSON always holds them); every line within 100 characters."""
    code, out, _ = cli("memory", "DeepSeek-V3", "--context", "4k")
    assert code == 0 and "FLOPs" not in out
    assert max(map(len, out.splitlines())) <= 100
    code, out, _ = cli("memory", "Qwen3.5-9B", "--context", "4k", "--flops", "--tokens", "1T")
    assert code == 0 and "forward FLOPs per token at context 4,000" in out
    assert max(map(len, out.splitlines())) <= 100
    code, out, _ = cli("memory", "gpt2")
    assert "layers, fixed whatever the context" not in out  # no recurrent-state line for a model that holds none

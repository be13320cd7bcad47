"""The structure added for Falcon, Cohere's and StableLM's per-head q/k norms, ERNIE 4.5 MoE's
routing correction bias, Gemma 3n, Gemma 4 and Qwen3-Next's Gated DeltaNet: as spec-file axes, their refusals,
and the views that read them."""

from __future__ import annotations

import pytest

import paramledger
from paramledger import Architecture, ArchitectureError
from paramledger.compute import forward_flops_per_token, matmul_parameters
from paramledger.kvcache import kv_cache
from paramledger.towers import text_only

BASE = {"vocab_size": 100, "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4}


def _shapes(arch: Architecture) -> dict[str, tuple[int, ...]]:
    return {t.name: t.shape for t in paramledger.inventory(arch).tensors}


# ----------------------------------------------------------------- the axes, on a design of our own
def test_parallel_split_puts_one_norm_on_each_branch():
    split = Architecture.from_mapping({**BASE, "norm_placement": "parallel_split", "norm_type": "layernorm"})
    shapes = _shapes(split)
    assert shapes["model.layers.0.ln_attn.weight"] == shapes["model.layers.0.ln_mlp.bias"] == (64,)
    assert not any("input_layernorm" in name or "post_attention" in name for name in shapes)
    # two norms per block, as pre-norm: only the names (and the data flow) differ
    pre = paramledger.inventory(split.replace(norm_placement="pre"))
    assert paramledger.inventory(split).total == pre.total


def test_per_head_qk_norm_is_one_row_per_head():
    arch = Architecture.from_mapping({**BASE, "num_key_value_heads": 2, "qk_norm": "per_head",
                                      "norm_type": "layernorm_nobias"})
    shapes = _shapes(arch)
    assert shapes["model.layers.0.self_attn.q_norm.weight"] == (4, 16)  # (heads, head_dim)
    assert shapes["model.layers.0.self_attn.k_norm.weight"] == (2, 16)  # (kv_heads, head_dim)
    # a norm scales elementwise: no matmul, whatever its rank
    full = arch.replace(qk_norm="full")
    assert paramledger.inventory(arch).total == paramledger.inventory(full).total
    assert matmul_parameters(paramledger.inventory(arch)) == matmul_parameters(paramledger.inventory(full))


def test_qk_norm_bias_false_drops_the_layernorm_offset_of_qk_norms_only():
    arch = Architecture.from_mapping({**BASE, "qk_norm": "head", "norm_type": "layernorm"})
    without = arch.replace(qk_norm_bias=False)
    names = set(_shapes(without))
    assert "model.layers.0.self_attn.q_norm.bias" in _shapes(arch)
    assert "model.layers.0.self_attn.q_norm.bias" not in names
    assert "model.layers.0.input_layernorm.bias" in names
    assert paramledger.inventory(arch).total - paramledger.inventory(without).total == 2 * 2 * 16


def test_router_correction_bias_is_one_row_of_experts_and_no_matmul():
    arch = Architecture.from_mapping({**BASE, "num_experts": 4, "num_experts_per_tok": 2,
                                      "router_correction_bias": True})
    plain = arch.replace(router_correction_bias=False)
    assert _shapes(arch)["model.layers.0.mlp.gate.moe_statics.e_score_correction_bias"] == (1, 4)
    assert paramledger.inventory(arch).total == paramledger.inventory(plain).total + 2 * 4
    assert matmul_parameters(paramledger.inventory(arch)) == matmul_parameters(paramledger.inventory(plain))


def test_new_axes_read_from_a_spec_file(tmp_path):
    spec = tmp_path / "design.toml"
    spec.write_text('vocab_size = 100\nhidden_size = 64\nnum_hidden_layers = 2\nnum_attention_heads = 4\n'
                    'norm_placement = "parallel_split"\nqk_norm = "per_head"\nqk_norm_bias = false\n'
                    'num_experts = 2\nnum_experts_per_tok = 1\nrouter_correction_bias = true\n', encoding="utf-8")
    arch = paramledger.load(str(spec))
    assert (arch.norm_placement, arch.qk_norm, arch.qk_norm_bias, arch.router_correction_bias) == (
        "parallel_split", "per_head", False, True)


@pytest.mark.parametrize("changes,match", [
    ({"router_correction_bias": True}, r"router_correction_bias: set without num_experts"),
    ({"qk_norm": "per_heads"}, r"qk_norm: 'per_heads' is not one of none, head, full, per_head, per_head_layernorm \(did you mean "
                               r"'per_head'\?\)"),
    ({"norm_placement": "parallel-split"}, r"norm_placement: 'parallel-split' is not one of .*parallel_split"),
    ({"qk_norm_bias": "sometimes"}, r"qk_norm_bias: must be true or false, got 'sometimes'"),
])
def test_bad_values_of_the_new_axes_are_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        Architecture.from_mapping({**BASE, **changes})


# ----------------------------------------------------------------- Falcon
FALCON = {"model_type": "falcon", "vocab_size": 16, "hidden_size": 16, "num_hidden_layers": 1,
          "num_attention_heads": 4}


@pytest.mark.parametrize("changes,kv_heads,placement,qkv_rows", [
    ({}, 1, "parallel", 16 + 2 * 4),  # Falcon-7B: multi-query, one shared norm
    ({"multi_query": False, "parallel_attn": False}, 4, "pre", 3 * 16),  # RW: sequential, every head
    ({"new_decoder_architecture": True, "num_kv_heads": 2}, 2, "parallel_split", 16 + 2 * 2 * 4),  # 40B
    ({"new_decoder_architecture": True, "num_kv_heads": 2, "num_ln_in_parallel_attn": 1}, 2, "parallel",
     16 + 2 * 2 * 4),  # Falcon2-11B: the new decoder with one norm
])
def test_falcon_layouts(changes, kv_heads, placement, qkv_rows):
    arch = paramledger.load({**FALCON, **changes})
    assert (arch.kv_heads, arch.norm_placement) == (kv_heads, placement)
    assert _shapes(arch)["transformer.h.0.self_attention.query_key_value.weight"] == (qkv_rows, 16)


def test_falcon_alibi_holds_no_parameters():
    rotary, alibi = paramledger.load(FALCON), paramledger.load({**FALCON, "alibi": True})
    assert alibi.position_embedding_type == "alibi"
    assert paramledger.inventory(alibi).total == paramledger.inventory(rotary).total


def test_falcon_new_decoder_kv_cache_needs_the_groups_and_says_what_transformers_holds():
    arch = paramledger.load({**FALCON, "new_decoder_architecture": True, "num_kv_heads": 2})
    cache = kv_cache(arch, 10, 1, "fp32")
    assert cache.values_per_token == 2 * 2 * 4  # keys and values of 2 groups of head_dim 4
    assert "broadcasts each key/value group to its query heads" in cache.definition
    assert "broadcasts" not in kv_cache(paramledger.load({**FALCON, "multi_query": False}), 10).definition


# ----------------------------------------------------------------- Cohere, StableLM, ERNIE 4.5 MoE
def test_cohere_qk_norm_is_two_dimensional():
    arch = paramledger.load({"model_type": "cohere", **BASE, "num_key_value_heads": 2, "use_qk_norm": True})
    shapes = _shapes(arch)
    assert shapes["model.layers.0.self_attn.q_norm.weight"] == (4, 16)
    assert shapes["model.layers.0.self_attn.k_norm.weight"] == (2, 16)
    flops = forward_flops_per_token(paramledger.inventory(arch), 8)
    plain = forward_flops_per_token(paramledger.inventory(arch.replace(qk_norm="none")), 8)
    assert flops == plain  # norms are not matmuls


def test_stablelm_qk_layernorm_is_one_bias_free_norm_per_head():
    arch = paramledger.load({"model_type": "stablelm", **BASE, "num_key_value_heads": 2, "qk_layernorm": True})
    shapes = _shapes(arch)
    q = [name for name in shapes if ".q_layernorm." in name and name.startswith("model.layers.0.")]
    k = [name for name in shapes if ".k_layernorm." in name and name.startswith("model.layers.0.")]
    assert q == [f"model.layers.0.self_attn.q_layernorm.norms.{h}.weight" for h in range(4)]
    assert k == [f"model.layers.0.self_attn.k_layernorm.norms.{h}.weight" for h in range(2)]
    assert shapes["model.layers.0.input_layernorm.bias"] == (64,)  # the block norms keep theirs


def test_stablelm_per_head_modules_have_no_closed_form():
    from paramledger._exceptions import OptionError
    from paramledger.formula import closed_form

    arch = paramledger.load({"model_type": "stablelm", **BASE, "num_key_value_heads": 4, "qk_layernorm": True})
    with pytest.raises(OptionError, match=r"formula: the builder cannot be traced symbolically for config: it names "
                                          r"one q/k norm module per head"):
        closed_form(arch)


def test_ernie4_5_moe_layers_and_biases():
    config = {"model_type": "ernie4_5_moe", **BASE, "num_hidden_layers": 6, "moe_num_experts": 4, "moe_k": 2,
              "moe_layer_start_index": 1, "moe_layer_end_index": 4, "moe_layer_interval": 2, "use_bias": True}
    arch = paramledger.load(config)
    assert arch.mlp_only_layers == (0, 2, 4, 5)  # sparse: (i + 1) % 2 == 0 within 1..4
    assert (arch.attention_output_bias, arch.mlp_bias, arch.lm_head_bias, arch.router_correction_bias) == (
        True, True, True, True)
    shapes = _shapes(arch)
    assert shapes["model.layers.1.mlp.gate.moe_statics.e_score_correction_bias"] == (1, 4)
    assert "model.layers.0.mlp.gate.moe_statics.e_score_correction_bias" not in shapes
    assert shapes["lm_head.bias"] == (100,)


def test_ernie4_5_moe_without_experts_is_refused():
    with pytest.raises(ArchitectureError, match=r"moe_num_experts: must be positive"):
        paramledger.load({"model_type": "ernie4_5_moe", "moe_num_experts": 0})


# ----------------------------------------------------------------- Cohere 2 MoE, A.X-K1, MiMo-V2-Flash
def test_cohere2_moe_dense_prefix_has_its_own_width():
    arch = paramledger.load({"model_type": "cohere2_moe", **BASE, "num_key_value_heads": 4, "head_dim": 16,
                             "intermediate_size": 8, "prefix_dense_intermediate_size": 24, "num_experts": 2,
                             "num_shared_experts": 2, "first_k_dense_replace": 1})
    shapes = _shapes(arch)
    assert arch.mlp_only_layers == (0,)
    assert shapes["model.layers.0.mlp.gate_proj.weight"] == (24, 64)  # the dense prefix
    assert shapes["model.layers.1.mlp.experts.gate_up_proj"] == (2, 16, 64)  # experts intermediate_size wide
    assert shapes["model.layers.1.mlp.shared_experts.gate_proj.weight"] == (16, 64)  # 2 shared × 8


def test_moe_output_norm_sits_in_moe_layers_only():
    arch = Architecture.from_mapping({**BASE, "num_experts": 2, "num_experts_per_tok": 1, "mlp_only_layers": [0],
                                      "moe_output_norm": True})
    shapes = _shapes(arch)
    assert shapes["model.layers.1.mlp.post_mlp_layernorm.weight"] == (64,)
    assert "model.layers.0.mlp.post_mlp_layernorm.weight" not in shapes
    with pytest.raises(ArchitectureError, match=r"moe_output_norm: set without num_experts"):
        Architecture.from_mapping({**BASE, "moe_output_norm": True})


def test_axk1_needs_a_q_lora_rank():
    with pytest.raises(ArchitectureError, match=r"q_lora_rank: missing \(required: transformers 5.24.0 cannot build"):
        paramledger.load({"model_type": "axk1", "q_lora_rank": None})


def test_value_heads_narrower_than_query_heads_without_mla():
    arch = Architecture.from_mapping({**BASE, "num_key_value_heads": 2, "head_dim": 16, "v_head_dim": 8})
    shapes = _shapes(arch)
    assert shapes["model.layers.0.self_attn.k_proj.weight"] == (32, 64)
    assert shapes["model.layers.0.self_attn.v_proj.weight"] == (16, 64)
    assert shapes["model.layers.0.self_attn.o_proj.weight"] == (64, 32)
    assert kv_cache(arch, 1).values_per_token == 2 * 2 * (16 + 8)
    # QKᵀ over head_dim, AV over v_head_dim: 2 × heads × (16 + 8) per key and layer
    assert forward_flops_per_token(paramledger.inventory(arch), 5).attention_flops == 2 * 2 * 4 * (16 + 8) * 5


def test_sliding_layers_with_their_own_kv_heads_and_sinks():
    arch = Architecture.from_mapping({**BASE, "num_key_value_heads": 1, "sliding_num_key_value_heads": 2,
                                      "sliding_attention_sinks": True, "sliding_window": 4,
                                      "layer_types": ["full_attention", "sliding_attention"]})
    shapes = _shapes(arch)
    assert shapes["model.layers.0.self_attn.k_proj.weight"] == (16, 64)
    assert shapes["model.layers.1.self_attn.k_proj.weight"] == (32, 64)
    assert "model.layers.0.self_attn.sinks" not in shapes
    assert shapes["model.layers.1.self_attn.sinks"] == (4,)
    cache = kv_cache(arch, 10)
    assert [layer.values_per_token for layer in cache.layers] == [2 * 16, 2 * 2 * 16]
    with pytest.raises(ArchitectureError, match=r"sliding_num_key_value_heads: 3 does not divide "
                                                r"num_attention_heads=4"):
        arch.replace(sliding_num_key_value_heads=3)


def test_mimo_v2_flash_defaults():
    arch = paramledger.load({"model_type": "mimo_v2_flash"})
    assert (arch.sliding_num_key_value_heads, arch.v_head_dim, arch.sliding_window) == (8, 128, 129)
    assert arch.layer_types[:6] == ("full_attention",) + ("sliding_attention",) * 4 + ("full_attention",)
    assert paramledger.load({"model_type": "mimo_v2_flash", "sliding_window_size": 127}).sliding_window == 128


# ----------------------------------------------------------------- DeepSeek Sparse Attention's lightning indexer
MLA = {**BASE, "kv_lora_rank": 8, "q_lora_rank": 12, "qk_nope_head_dim": 6, "qk_rope_head_dim": 4, "v_head_dim": 5}
DSA = {**MLA, "index_n_heads": 3, "index_head_dim": 8}


def test_indexer_tensors_read_the_q_latent_and_the_hidden_state():
    arch = Architecture.from_mapping(DSA)
    shapes = _shapes(arch)
    assert shapes["model.layers.0.self_attn.indexer.wq_b.weight"] == (3 * 8, 12)  # from the q LoRA latent
    assert shapes["model.layers.0.self_attn.indexer.wk.weight"] == (8, 64)  # one key shared by the heads
    # the key's norm is a LayerNorm with its offset, while the block norms are RMSNorm
    assert shapes["model.layers.0.self_attn.indexer.k_norm.bias"] == (8,)
    assert shapes["model.layers.0.self_attn.indexer.weights_proj.weight"] == (3, 64)
    plain = paramledger.inventory(Architecture.from_mapping(MLA))
    per_layer = 3 * 8 * 12 + 8 * 64 + 2 * 8 + 3 * 64
    assert paramledger.inventory(arch).total == plain.total + 2 * per_layer
    assert matmul_parameters(paramledger.inventory(arch)) == matmul_parameters(plain) + 2 * (per_layer - 2 * 8)


def test_shared_indexer_layers_build_none_and_cache_no_index_keys():
    arch = Architecture.from_mapping({**DSA, "num_hidden_layers": 3, "indexer_types": ["full", "shared", "full"]})
    shapes = _shapes(arch)
    assert "model.layers.1.self_attn.indexer.wk.weight" not in shapes
    assert shapes["model.layers.2.self_attn.indexer.wk.weight"] == (8, 64)
    # latent: kv_lora_rank + qk_rope_head_dim, plus index_head_dim where the layer runs an indexer
    assert [layer.values_per_token for layer in kv_cache(arch, 4).layers] == [8 + 4 + 8, 8 + 4, 8 + 4 + 8]
    decompressed = kv_cache(arch, 4, mla_layout="decompressed").layers[1].values_per_token
    assert decompressed == 4 * (6 + 4) + 4 * 5


def test_dsa_attention_reads_index_topk_keys_and_the_indexer_scores_them_all():
    arch = Architecture.from_mapping({**DSA, "num_hidden_layers": 1, "index_topk": 16})
    heads, qk, v = 4, 6 + 4, 5
    indexer = 2 * 3 * (8 + 1)  # q·k per indexer head and the weighted sum over heads, per key
    assert forward_flops_per_token(arch, 10).attention_flops == (indexer + 2 * heads * (qk + v)) * 10
    assert forward_flops_per_token(arch, 100).attention_flops == indexer * 100 + 2 * heads * (qk + v) * 16


def test_glm_moe_dsa_indexer_pattern():
    assert paramledger.load({"model_type": "glm_moe_dsa"}).indexer_types == ()  # every layer runs its own
    config = {"model_type": "glm_moe_dsa", "num_hidden_layers": 6}
    assert paramledger.load({**config, "index_topk_freq": 2}).indexer_types == (
        "full", "full", "shared", "full", "shared", "full")
    assert paramledger.load({**config, "index_topk_pattern": "FSSFFS"}).indexer_types == (
        "full", "shared", "shared", "full", "full", "shared")


@pytest.mark.parametrize("changes,match", [
    ({**DSA, "q_lora_rank": None}, r"index_n_heads: needs kv_lora_rank and q_lora_rank"),
    ({**BASE, "index_n_heads": 2, "index_head_dim": 8}, r"index_n_heads: needs kv_lora_rank and q_lora_rank"),
    ({**DSA, "index_head_dim": None}, r"index_head_dim: required with index_n_heads"),
    ({**DSA, "index_head_dim": 2}, r"index_head_dim: 2 is narrower than qk_rope_head_dim=4"),
    ({**MLA, "index_topk": 8}, r"index_topk: set without index_n_heads"),
    ({**DSA, "indexer_types": ["full"]}, r"indexer_types: has 1 entries for num_hidden_layers=2"),
    ({**DSA, "indexer_types": ["full", "skip"]}, r"indexer_types: 'skip' is not one of full, shared"),
    ({**DSA, "indexer_types": ["shared", "full"]}, r"indexer_types: layer 0 is shared"),
])
def test_bad_indexers_are_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        Architecture.from_mapping(changes)


def test_dsa_has_a_closed_form():
    from paramledger.formula import closed_form

    arch = paramledger.load({"model_type": "deepseek_v32"})
    assert closed_form(arch).evaluate() == paramledger.inventory(arch).total == 671_877_929_216


def _run_dsa(config: dict, tokens: int):
    import torch
    from transformers import AutoModelForCausalLM

    from paramledger.reference import hf_config

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(hf_config(config), experts_implementation="eager").eval()
    with torch.no_grad():
        return model(torch.randint(0, config["vocab_size"], (2, tokens)), use_cache=True).cache


@pytest.mark.parametrize("model_type,extra", [("deepseek_v32", {}), ("glm_moe_dsa", {"index_topk_freq": 2})])
def test_dsa_kv_cache_holds_the_indexer_keys_transformers_holds(model_type, extra):
    config = {"model_type": model_type, "vocab_size": 32, "hidden_size": 32, "intermediate_size": 16,
              "moe_intermediate_size": 8, "num_hidden_layers": 4, "num_attention_heads": 2, "num_key_value_heads": 2,
              "n_routed_experts": 2, "num_experts_per_tok": 1, "n_group": 1, "topk_group": 1,
              "first_k_dense_replace": 1, "kv_lora_rank": 8, "q_lora_rank": 12, "qk_nope_head_dim": 4,
              "qk_rope_head_dim": 4, "v_head_dim": 4, "index_n_heads": 2, "index_head_dim": 6, "index_topk": 3, **extra}
    cache = _run_dsa(config, 7)
    held = sum(layer.keys.nbytes + layer.values.nbytes
               + (0 if layer.indexer_keys is None else layer.indexer_keys.nbytes) for layer in cache.layers)
    assert kv_cache(paramledger.load(config), 7, 2, "fp32").bytes == held


# ----------------------------------------------------------------- Apertus, BitNet, AFMoE, Laguna, GPT-NeoX-Japanese
def test_xielu_holds_two_scalars_in_every_ffn():
    arch = Architecture.from_mapping({**BASE, "hidden_act": "xielu"})
    shapes = _shapes(arch)
    assert shapes["model.layers.1.mlp.act_fn.alpha_p"] == shapes["model.layers.1.mlp.act_fn.alpha_n"] == (1,)
    assert paramledger.inventory(arch).total == paramledger.inventory(arch.replace(hidden_act="gelu")).total + 2 * 2
    with pytest.raises(ArchitectureError, match=r"hidden_act: xielu's learned alpha_p and alpha_n is built for "
                                                r"dense FFNs only"):
        arch.replace(num_experts=2, num_experts_per_tok=1)


def test_sub_norms_sit_inside_the_sublayers():
    arch = Architecture.from_mapping({**BASE, "intermediate_size": 96, "attn_sub_norm": True, "ffn_sub_norm": True})
    shapes = _shapes(arch)
    assert shapes["model.layers.0.self_attn.attn_sub_norm.weight"] == (64,)  # heads × head_dim
    assert shapes["model.layers.0.mlp.ffn_sub_norm.weight"] == (96,)  # intermediate_size
    assert matmul_parameters(arch) == matmul_parameters(arch.replace(attn_sub_norm=False, ffn_sub_norm=False))
    with pytest.raises(ArchitectureError, match=r"attn_sub_norm: is built for multi-head attention's output"):
        Architecture.from_mapping({**MLA, "attn_sub_norm": True})


def test_bitnet_attn_sub_norm_needs_heads_to_fill_the_width():
    with pytest.raises(ArchitectureError, match=r"head_dim: 16 × 4 heads != hidden_size=32; BitNet's attn_sub_norm"):
        paramledger.load({"model_type": "bitnet", "hidden_size": 32, "num_attention_heads": 4,
                          "num_key_value_heads": 2, "head_dim": 16})


@pytest.mark.parametrize("gate,rows", [("per_channel", 4 * 16), ("per_head", 4)])
def test_attention_output_gate_is_a_matmul_from_the_block_input(gate, rows):
    arch = Architecture.from_mapping({**BASE, "attention_output_gate": gate})
    assert _shapes(arch)["model.layers.0.self_attn.gate_proj.weight"] == (rows, 64)
    assert matmul_parameters(arch) == matmul_parameters(arch.replace(attention_output_gate="none")) + 2 * rows * 64


def test_routing_correction_stored_as_one_vector():
    arch = paramledger.load({"model_type": "afmoe", **BASE, "num_experts": 4, "num_experts_per_tok": 2,
                             "num_dense_layers": 1})
    shapes = _shapes(arch)
    assert shapes["model.layers.1.mlp.expert_bias"] == (4,)
    assert "model.layers.0.mlp.expert_bias" not in shapes


def test_query_heads_per_layer():
    arch = Architecture.from_mapping({**BASE, "num_hidden_layers": 3, "num_key_value_heads": 2, "head_dim": 8,
                                      "num_attention_heads_per_layer": [4, 2, 6], "attention_output_gate": "per_head"})
    shapes = _shapes(arch)
    assert [shapes[f"model.layers.{i}.self_attn.q_proj.weight"] for i in range(3)] == [(32, 64), (16, 64), (48, 64)]
    assert shapes["model.layers.2.self_attn.gate_proj.weight"] == (6, 64)
    assert shapes["model.layers.1.self_attn.k_proj.weight"] == (16, 64)  # the KV heads stay
    assert forward_flops_per_token(arch, 5).attention_flops == 2 * (4 + 2 + 6) * (8 + 8) * 5
    for per_layer, match in (([4, 2], r"has 2 entries for num_hidden_layers=3"),
                             ([4, 3, 2], r"layer 1: 3 heads is not a positive multiple of the 2 key/value heads")):
        with pytest.raises(ArchitectureError, match=f"num_attention_heads_per_layer: {match}"):
            arch.replace(num_attention_heads_per_layer=per_layer)


def test_output_bias_on_chosen_layers_only():
    arch = paramledger.load({"model_type": "gpt_neox_japanese", **BASE, "num_hidden_layers": 3})
    shapes = _shapes(arch)
    assert shapes["gpt_neox_japanese.layers.2.attention.dense_bias"] == (64,)
    assert [name for name in shapes if ".attention." in name and name.endswith("bias")] == [
        "gpt_neox_japanese.layers.2.attention.dense_bias"]
    with pytest.raises(ArchitectureError, match=r"attention_output_bias_layers: set with attention_output_bias"):
        Architecture.from_mapping({**BASE, "attention_output_bias": True, "attention_output_bias_layers": [1]})
    with pytest.raises(ArchitectureError, match=r"attention_output_bias_layers: layer 2 is outside 0..1"):
        Architecture.from_mapping({**BASE, "attention_output_bias_layers": [2]})


def test_pruned_output_head():
    arch = Architecture.from_mapping({**BASE, "tie_word_embeddings": False, "output_vocab_size": 60})
    assert _shapes(arch)["lm_head.weight"] == (60, 64)
    from paramledger.formula import closed_form

    assert closed_form(arch).evaluate() == paramledger.inventory(arch).total
    with pytest.raises(ArchitectureError, match=r"output_vocab_size: a pruned head cannot be tied"):
        Architecture.from_mapping({**BASE, "output_vocab_size": 60})
    with pytest.raises(ArchitectureError, match=r"output_vocab_size: 120 is more than vocab_size=100"):
        Architecture.from_mapping({**BASE, "tie_word_embeddings": False, "output_vocab_size": 120})
    # transformers ties a pruned head to the table when asked: the table it is
    tied = paramledger.load({"model_type": "apertus1p5_text", "output_vocab_size": 1000, "tie_word_embeddings": True})
    assert tied.output_vocab_size is None


def test_structural_axes_read_from_a_spec_file(tmp_path):
    spec = tmp_path / "design.toml"
    spec.write_text('vocab_size = 100\nhidden_size = 64\nnum_hidden_layers = 2\nnum_attention_heads = 4\n'
                    'hidden_act = "xielu"\nattn_sub_norm = true\nffn_sub_norm = true\n'
                    'attention_output_gate = "per_head"\nnum_key_value_heads = 2\n'
                    'num_attention_heads_per_layer = [4, 2]\nattention_output_bias_layers = [1]\n'
                    'tie_word_embeddings = false\noutput_vocab_size = 50\n', encoding="utf-8")
    arch = paramledger.load(str(spec))
    assert (arch.learned_activation, arch.attn_sub_norm, arch.attention_output_gate, arch.num_attention_heads_per_layer,
            arch.attention_output_bias_layers, arch.lm_head_rows) == (True, True, "per_head", (4, 2), (1,), 50)


# ----------------------------------------------------------------- JetMoE's mixture of attention heads
MOA = {**BASE, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8, "num_experts": 3,
       "num_experts_per_tok": 2, "attention_experts": True, "experts_output_bias": True}


def test_attention_experts_route_query_and_output_projections():
    arch = Architecture.from_mapping(MOA)
    shapes = _shapes(arch)
    assert shapes["model.layers.0.self_attention.experts.input_linear.weight"] == (3, 16, 64)  # KV heads × head_dim
    assert shapes["model.layers.0.self_attention.experts.output_linear.weight"] == (3, 64, 16)
    assert shapes["model.layers.0.self_attention.experts.router.layer.weight"] == (3, 64)
    assert shapes["model.layers.0.self_attention.experts.bias"] == shapes["model.layers.0.mlp.bias"] == (64,)
    assert not any(".q_proj." in name or ".o_proj." in name for name in shapes)
    inv = paramledger.inventory(arch)
    # a token reads 2 of the 3 query/output pairs, as 2 of the 3 FFN experts (up and down, 4 × 64 wide): one of each
    # unread per layer
    assert inv.total - inv.active == 2 * (2 * 16 * 64 + 2 * 256 * 64)
    with pytest.raises(ArchitectureError, match=r"attention_experts: num_attention_heads=8 is not num_experts_per_tok "
                                                r"× num_key_value_heads = 2 × 2"):
        arch.replace(num_attention_heads=8)
    with pytest.raises(ArchitectureError, match=r"attention_experts: set without num_experts"):
        Architecture.from_mapping({**BASE, "attention_experts": True})


# ----------------------------------------------------------------- Gemma 3n
GEMMA3N = {**BASE, "num_hidden_layers": 4, "num_key_value_heads": 2, "qk_norm": "head", "norm_placement": "sandwich",
           "mlp_gated": True, "intermediate_size": 32, "sliding_window": 8,
           "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]}


def test_ffn_width_per_layer():
    arch = Architecture.from_mapping({**BASE, "mlp_gated": True, "intermediate_size_per_layer": [8, 24]})
    shapes = _shapes(arch)
    assert shapes["model.layers.0.mlp.up_proj.weight"] == (8, 64)
    assert shapes["model.layers.1.mlp.down_proj.weight"] == (64, 24)
    assert paramledger.inventory(arch).component("ffn") == 3 * 64 * (8 + 24)


def test_kv_shared_layers_hold_queries_only_and_cache_nothing():
    arch = Architecture.from_mapping({**GEMMA3N, "num_kv_shared_layers": 2})
    shapes = _shapes(arch)
    for i in (2, 3):
        assert not any(f"layers.{i}.self_attn.{name}" in key for key in shapes for name in ("k_proj", "v_proj",
                                                                                            "k_norm"))
        assert shapes[f"model.layers.{i}.self_attn.q_norm.weight"] == (16,)
    assert shapes["model.layers.1.self_attn.k_proj.weight"] == (32, 64)
    plain = arch.replace(num_kv_shared_layers=0)
    assert paramledger.inventory(plain).total - paramledger.inventory(arch).total == 2 * (2 * 32 * 64 + 16)
    cache = kv_cache(arch, 20, 1, "fp32")
    assert [layer.values_per_token for layer in cache.layers] == [64, 64, 0, 0]
    assert cache.values == 7 * 64 + 20 * 64  # the sliding layer holds window - 1 tokens, the full one all
    assert "2 layers reuse an earlier layer's keys and values and cache none" in cache.definition


def test_gemma3n_residual_extras():
    arch = Architecture.from_mapping({**GEMMA3N, "hidden_size_per_layer_input": 6, "vocab_size_per_layer_input": 40,
                                      "altup_num_inputs": 3, "laurel_rank": 5})
    shapes = _shapes(arch)
    assert shapes["model.embed_tokens_per_layer.weight"] == (40, 4 * 6)  # every layer's input in one row
    assert shapes["model.per_layer_model_projection.weight"] == (24, 64)
    assert shapes["model.per_layer_projection_norm.weight"] == (6,)
    assert shapes["model.altup_projections.1.weight"] == shapes["model.altup_unembed_projections.1.weight"] == (64, 64)
    assert "model.altup_projections.2.weight" not in shapes  # one per extra stream
    prefix = "model.layers.3."
    layer = {name[len(prefix):]: shape for name, shape in shapes.items() if name.startswith(prefix)}
    assert layer["altup.correct_output_scale"] == layer["altup.router_norm.weight"] == (64,)
    assert layer["altup.correction_coefs.weight"] == (3, 3)
    assert layer["altup.prediction_coefs.weight"] == (9, 3)
    assert layer["altup.modality_router.weight"] == (3, 64)
    assert layer["laurel.linear_left.weight"] == (5, 64) and layer["laurel.linear_right.weight"] == (64, 5)
    assert layer["per_layer_input_gate.weight"] == (6, 64) and layer["per_layer_projection.weight"] == (64, 6)
    assert layer["post_per_layer_input_norm.weight"] == layer["laurel.post_laurel_norm.weight"] == (64,)
    inv = paramledger.inventory(arch)
    assert inv.component("embedding") == 100 * 64 + 40 * 24


def test_altup_router_runs_twice_and_mixes_the_streams():
    arch = Architecture.from_mapping({**GEMMA3N, "altup_num_inputs": 4})
    plain = arch.replace(altup_num_inputs=0)
    with_altup, without = forward_flops_per_token(arch, 10), forward_flops_per_token(plain, 10)
    assert with_altup.altup_flops == 4 * (2 * 4 * 64 + 2 * 64 * 4 * 4)
    assert without.altup_flops == 0
    weights = 3 * 2 * 64 * 64 + 4 * (16 + 64 + 4 * 64)  # projections in and out; coefficients and router per layer
    assert matmul_parameters(paramledger.inventory(arch)) - matmul_parameters(paramledger.inventory(plain)) == weights
    assert with_altup.total == with_altup.weight_flops + with_altup.attention_flops + with_altup.altup_flops


@pytest.mark.parametrize("changes,match", [
    ({"intermediate_size_per_layer": [8]}, r"intermediate_size_per_layer: has 1 entries for num_hidden_layers=4"),
    ({"intermediate_size_per_layer": [8, 8, 0, 8]}, r"intermediate_size_per_layer: every width must be positive"),
    ({"num_kv_shared_layers": 5}, r"num_kv_shared_layers: 5 is more than the 4 layers"),
    ({"num_kv_shared_layers": 3}, r"num_kv_shared_layers: a shared layer's attention type has no earlier layer of "
                                  r"that type"),
    ({"num_kv_shared_layers": -1}, r"num_kv_shared_layers: must be zero or more, got -1"),
    ({"vocab_size_per_layer_input": 10}, r"vocab_size_per_layer_input: set without hidden_size_per_layer_input"),
    ({"altup_num_inputs": -2}, r"altup_num_inputs: must be zero or more, got -2"),
])
def test_bad_gemma3n_axes_are_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        Architecture.from_mapping({**GEMMA3N, **changes})


def test_ffn_width_per_layer_is_for_dense_ffns_and_sharing_for_plain_attention():
    with pytest.raises(ArchitectureError, match=r"intermediate_size_per_layer: is built for dense FFNs, not with "
                                                r"num_experts"):
        Architecture.from_mapping({**BASE, "num_experts": 2, "num_experts_per_tok": 1,
                                   "intermediate_size_per_layer": [8, 8]})
    with pytest.raises(ArchitectureError, match=r"num_kv_shared_layers: is built for plain multi-head attention"):
        Architecture.from_mapping({**BASE, "num_kv_shared_layers": 1, "kv_lora_rank": 8, "qk_nope_head_dim": 4,
                                   "qk_rope_head_dim": 4, "v_head_dim": 4})


def test_gemma3n_axes_read_from_a_spec_file(tmp_path):
    spec = tmp_path / "design.toml"
    spec.write_text('vocab_size = 100\nhidden_size = 64\nnum_hidden_layers = 2\nnum_attention_heads = 4\n'
                    'intermediate_size_per_layer = [8, 16]\nnum_kv_shared_layers = 1\n'
                    'hidden_size_per_layer_input = 4\nvocab_size_per_layer_input = 50\naltup_num_inputs = 2\n'
                    'laurel_rank = 3\n', encoding="utf-8")
    arch = paramledger.load(str(spec))
    assert (arch.intermediate_size_per_layer, arch.num_kv_shared_layers, arch.hidden_size_per_layer_input,
            arch.vocab_size_per_layer_input, arch.altup_num_inputs, arch.laurel_rank) == ((8, 16), 1, 4, 50, 2, 3)


def test_gemma3n_config_defaults_and_per_layer_widths():
    arch = paramledger.load({"model_type": "gemma3n_text"})  # Gemma3nTextConfig: the E4B layout
    assert (arch.num_kv_shared_layers, arch.altup_num_inputs, arch.laurel_rank, arch.hidden_size_per_layer_input,
            arch.vocab_size_per_layer_input, arch.intermediate_size, arch.intermediate_size_per_layer) == (
        15, 4, 64, 256, 262_144, 16_384, ())
    assert paramledger.inventory(arch).total == 6_835_235_568
    widths = [8192] * 10 + [4096] * 25
    arch = paramledger.load({"model_type": "gemma3n", "text_config": {"intermediate_size": widths}})
    assert arch.intermediate_size_per_layer == tuple(widths) and arch.intermediate_size is None
    with pytest.raises(ArchitectureError, match=r"config: intermediate_size: has 2 widths for num_hidden_layers=35 "
                                                r"\(one per layer, or one number for all\)"):
        paramledger.load({"model_type": "gemma3n_text", "intermediate_size": [1, 2]})


@pytest.mark.parametrize("config", [{"model_type": "gemma3n_text"},
                                    {"model_type": "gemma3n_text", "intermediate_size": [8192] * 20 + [4096] * 15}])
def test_gemma3n_has_a_closed_form(config):
    from paramledger.formula import closed_form

    arch = paramledger.load(config)
    assert closed_form(arch).evaluate() == paramledger.inventory(arch).total


def test_gemma3n_kv_cache_equals_transformers_with_shared_layers():
    """The shared layers' DummyLayer holds no tensors (keys None); the others hold what we say."""
    import torch
    from transformers import AutoModelForCausalLM

    from paramledger.reference import hf_config

    config = {"model_type": "gemma3n_text", "vocab_size": 32, "hidden_size": 16, "intermediate_size": [8, 12, 8, 12],
              "num_hidden_layers": 4, "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 8,
              "sliding_window": 4, "layer_types": ["sliding_attention", "full_attention"] * 2,
              "num_kv_shared_layers": 2, "hidden_size_per_layer_input": 4, "vocab_size_per_layer_input": 20,
              "altup_num_inputs": 2, "laurel_rank": 3, "pad_token_id": 0}
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(hf_config(config)).eval()
    with torch.no_grad():
        cache = model(torch.randint(0, 32, (2, 7)), use_cache=True).cache
    held = sum(0 if layer.keys is None else layer.keys.nbytes + layer.values.nbytes for layer in cache.layers)
    assert [layer.keys is None for layer in cache.layers] == [False, False, True, True]
    assert kv_cache(paramledger.load(config), 7, 2, "fp32").bytes == held


# ----------------------------------------------------------------- Gemma 4
def test_head_dim_and_kv_heads_per_layer_shape_each_layer_and_its_cache():
    arch = Architecture.from_mapping({**GEMMA3N, "head_dim_per_layer": [16, 32, 16, 32],
                                      "num_key_value_heads_per_layer": [2, 4, 2, 4]})
    shapes = _shapes(arch)
    assert shapes["model.layers.0.self_attn.q_proj.weight"] == (64, 64)
    assert shapes["model.layers.1.self_attn.q_proj.weight"] == (128, 64)
    assert shapes["model.layers.1.self_attn.k_proj.weight"] == shapes["model.layers.1.self_attn.v_proj.weight"] == (
        128, 64)
    assert shapes["model.layers.1.self_attn.o_proj.weight"] == (64, 128)
    assert shapes["model.layers.1.self_attn.q_norm.weight"] == shapes["model.layers.1.self_attn.k_norm.weight"] == (32,)
    assert shapes["model.layers.2.self_attn.k_proj.weight"] == (32, 64)
    cache = kv_cache(arch, 20, 1, "fp32")
    assert [layer.values_per_token for layer in cache.layers] == [64, 256, 64, 256]
    assert cache.values == 2 * 64 * 7 + 2 * 256 * 20  # sliding layers hold window - 1 tokens
    # QKᵀ and AV: 2 × heads × (head_dim + head_dim) × keys, each layer at its own width
    assert forward_flops_per_token(arch, 20).attention_flops == 2 * (2 * 4 * 32 * 8 + 2 * 4 * 64 * 20)


def test_keys_serve_as_values_on_full_layers_only():
    arch = Architecture.from_mapping({**GEMMA3N, "attention_k_eq_v": True})
    shapes = _shapes(arch)
    assert "model.layers.0.self_attn.v_proj.weight" in shapes
    assert "model.layers.1.self_attn.v_proj.weight" not in shapes
    plain = arch.replace(attention_k_eq_v=False)
    assert paramledger.inventory(plain).total - paramledger.inventory(arch).total == 2 * 32 * 64
    # the values (the keys' projection, normed apart and not rotated) are cached all the same
    assert kv_cache(arch, 20, 1, "fp32").bytes == kv_cache(plain, 20, 1, "fp32").bytes


GEMMA4 = {"model_type": "gemma4_text", "vocab_size": 100, "hidden_size": 64, "num_hidden_layers": 2,
          "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "global_head_dim": 32,
          "intermediate_size": 32, "sliding_window": 8, "hidden_size_per_layer_input": 0}


def test_gemma4_moe_block_runs_the_dense_ffn_beside_the_experts():
    config = {**GEMMA4, "enable_moe_block": True, "num_experts": 4, "top_k_experts": 2, "moe_intermediate_size": 8}
    arch = paramledger.load(config)
    assert (arch.num_experts, arch.num_experts_per_tok, arch.moe_beside_dense_mlp, arch.router_scales) == (4, 2, True,
                                                                                                          True)
    layer = {name[len("model.layers.1."):]: shape for name, shape in _shapes(arch).items()
             if name.startswith("model.layers.1.")}
    assert layer["mlp.gate_proj.weight"] == layer["mlp.up_proj.weight"] == (32, 64)
    assert layer["router.proj.weight"] == (4, 64)
    assert layer["router.scale"] == (64,) and layer["router.per_expert_scale"] == (4,)
    assert layer["experts.gate_up_proj"] == (4, 16, 64) and layer["experts.down_proj"] == (4, 64, 8)
    for norm in ("post_feedforward_layernorm_1", "pre_feedforward_layernorm_2", "post_feedforward_layernorm_2",
                 "pre_feedforward_layernorm", "post_feedforward_layernorm"):
        assert layer[norm + ".weight"] == (64,)
    dense = paramledger.load(GEMMA4)  # the same dense FFNs, no experts
    moe_matmuls = 4 * 64 + 2 * (16 * 64 + 64 * 8)  # the router's projection, two of the four experts
    assert matmul_parameters(paramledger.inventory(arch)) - matmul_parameters(paramledger.inventory(dense)) == (
        2 * moe_matmuls)


def test_gemma4_double_wide_ffn_on_the_kv_sharing_layers():
    config = {**GEMMA4, "num_hidden_layers": 4, "layer_types": ["sliding_attention", "full_attention"] * 2,
              "num_kv_shared_layers": 2, "hidden_size_per_layer_input": 4, "use_double_wide_mlp": True}
    arch = paramledger.load(config)
    assert arch.intermediate_size_per_layer == (32, 32, 64, 64)
    assert "model.layers.3.self_attn.k_proj.weight" not in _shapes(arch)
    assert paramledger.load({**config, "use_double_wide_mlp": False}).intermediate_size_per_layer == ()


def test_gemma4_config_defaults():
    arch = paramledger.load({"model_type": "gemma4_text"})  # Gemma4TextConfig
    full = [i for i, kind in enumerate(arch.layer_types) if kind == "full_attention"]
    assert full == [5, 11, 17, 23, 29]
    assert arch.head_dim_per_layer == tuple(512 if i in full else 256 for i in range(30))
    assert (arch.head_dim, arch.num_key_value_heads, arch.num_key_value_heads_per_layer, arch.attention_k_eq_v,
            arch.num_experts, arch.hidden_size_per_layer_input, arch.vocab_size_per_layer_input) == (
        256, 4, (), False, 0, 256, 262_144)
    assert paramledger.inventory(arch).total == 5_077_177_856
    # a config saved by transformers spells the same overrides out, layer by layer
    saved = {"model_type": "gemma4_text", "per_layer_config": {f"{i:02d}": {"head_dim": 512} for i in full}}
    assert paramledger.load(saved) == arch
    # a new depth repeats the per-layer shapes with the layer pattern: each layer keeps its type's shape
    shallower = arch.replace(num_hidden_layers=12)
    assert shallower.head_dim_per_layer == tuple(512 if kind == "full_attention" else 256
                                                 for kind in shallower.layer_types)
    assert shallower.layer_types[5] == shallower.layer_types[11] == "full_attention"
    # per_layer_config null: no overrides, head_dim on every layer
    assert paramledger.load({"model_type": "gemma4_text", "per_layer_config": None}).head_dim_per_layer == ()


def test_gemma4_global_kv_heads_follow_attention_k_eq_v():
    config = {**GEMMA4, "num_global_key_value_heads": 1}
    assert paramledger.load(config).num_key_value_heads_per_layer == ()  # read only with attention_k_eq_v
    arch = paramledger.load({**config, "attention_k_eq_v": True})
    assert arch.num_key_value_heads_per_layer == (2, 1) and arch.head_dim_per_layer == (16, 32)
    assert _shapes(arch)["model.layers.1.self_attn.k_proj.weight"] == (32, 64)
    assert "model.layers.1.self_attn.v_proj.weight" not in _shapes(arch)
    assert kv_cache(arch, 4, 1, "fp32").values_per_token == 2 * (16 + 16) + 1 * (32 + 32)


def test_gemma4_bidirectional_attention_narrows_the_window():
    assert paramledger.load({"model_type": "gemma4_text", "use_bidirectional_attention": "all"}).sliding_window == 257
    vision = paramledger.load({"model_type": "gemma4_text", "use_bidirectional_attention": "vision"})
    assert vision.sliding_window == 512


@pytest.mark.parametrize("config", [{"model_type": "gemma4_text"},
                                    {**GEMMA4, "attention_k_eq_v": True, "num_global_key_value_heads": 1},
                                    {**GEMMA4, "enable_moe_block": True, "num_experts": 4, "top_k_experts": 2,
                                     "moe_intermediate_size": 8}])
def test_gemma4_has_a_closed_form(config):
    from paramledger.formula import closed_form

    arch = paramledger.load(config)
    assert closed_form(arch).evaluate() == paramledger.inventory(arch).total


@pytest.mark.parametrize("changes,match", [
    ({"head_dim_per_layer": [16]}, r"head_dim_per_layer: has 1 entries for num_hidden_layers=4"),
    ({"head_dim_per_layer": [16, 0, 16, 16]}, r"head_dim_per_layer: every entry must be positive"),
    ({"num_key_value_heads_per_layer": [2, 3, 2, 2]}, r"num_key_value_heads_per_layer: layer 1: 3 does not divide "
                                                      r"its 4 query heads"),
    ({"head_dim_per_layer": [16] * 4, "v_head_dim": 8}, r"head_dim_per_layer: is built for plain multi-head attention"),
    ({"attention_k_eq_v": True, "v_head_dim": 8}, r"attention_k_eq_v: is built for plain multi-head attention"),
    ({"head_dim_per_layer": [16, 32, 16, 16], "num_kv_shared_layers": 2, "hidden_size_per_layer_input": 4},
     r"num_kv_shared_layers: layer 3 reuses layer 1's keys and values but its head_dim or KV heads differ"),
    ({"moe_beside_dense_mlp": True}, r"moe_beside_dense_mlp: set without num_experts"),
    ({"router_scales": True}, r"router_scales: set without num_experts"),
    ({"moe_beside_dense_mlp": True, "num_experts": 2, "num_experts_per_tok": 1, "mlp_only_layers": [0]},
     r"moe_beside_dense_mlp: set with mlp_only_layers"),
])
def test_bad_gemma4_axes_are_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        Architecture.from_mapping({**GEMMA3N, **changes})


@pytest.mark.parametrize("changes,match", [
    ({"per_layer_config": {"1": {"intermediate_size": 64}}},
     r"config: per_layer_config: layer 1 overrides intermediate_size; Gemma 4 reads only head_dim and "
     r"num_key_value_heads per layer"),
    ({"per_layer_config": {"2": {"head_dim": 32}}}, r"config: per_layer_config: layer 2 is outside 0..1"),
    ({"num_hidden_layers": 3, "layer_types": ["full_attention"] * 3, "per_layer_config": {"0": {"head_dim": 32}}},
     r"config: per_layer_config: the full_attention layers differ \(transformers 5.24.0 builds one rotary "
     r"embedding per attention type"),
    ({"global_head_dim": None}, r"config: global_head_dim: must be a positive whole number, got None"),
    ({"enable_moe_block": True, "num_experts": 4, "moe_intermediate_size": 8},
     r"config: top_k_experts: missing \(required with enable_moe_block"),
    ({"num_hidden_layers": 4, "layer_types": ["sliding_attention", "full_attention"] * 2, "num_kv_shared_layers": 2},
     r"config: num_kv_shared_layers: needs per-layer inputs \(hidden_size_per_layer_input\)"),
])
def test_gemma4_configs_transformers_cannot_build_or_run_are_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        paramledger.load({**GEMMA4, **changes})


def test_gemma4_axes_read_from_a_spec_file(tmp_path):
    spec = tmp_path / "design.toml"
    spec.write_text('vocab_size = 100\nhidden_size = 64\nnum_hidden_layers = 2\nnum_attention_heads = 4\n'
                    'head_dim_per_layer = [16, 32]\nnum_key_value_heads_per_layer = [2, 1]\nattention_k_eq_v = true\n'
                    'num_experts = 2\nnum_experts_per_tok = 1\nmoe_beside_dense_mlp = true\nrouter_scales = true\n',
                    encoding="utf-8")
    arch = paramledger.load(str(spec))
    assert (arch.head_dim_per_layer, arch.num_key_value_heads_per_layer, arch.attention_k_eq_v,
            arch.moe_beside_dense_mlp, arch.router_scales) == ((16, 32), (2, 1), True, True, True)


# ----------------------------------------------------------------- DBRX
def test_dbrx_experts_are_flattened_with_gate_and_up_apart():
    """DbrxExpertGLU: w1 (gate) and v1 (up) (experts × ffn, hidden), w2 (down) stored the same way;
    each marked with its experts, so the active count reads top_k of them."""
    inv = paramledger.inventory({"model_type": "dbrx", "n_layers": 1, "d_model": 64, "n_heads": 4,
                                 "attn_config": {"kv_n_heads": 2},
                                 "ffn_config": {"ffn_hidden_size": 24, "moe_num_experts": 3, "moe_top_k": 2}})
    block = "transformer.blocks.0."
    for name in ("w1", "v1", "w2"):
        assert inv[block + "ffn.experts.mlp." + name].shape == (3 * 24, 64)
        assert inv[block + "ffn.experts.mlp." + name].experts == 3
    assert inv[block + "norm_attn_norm.attn.Wqkv.weight"].shape == (64 + 2 * 2 * 16, 64)
    assert inv.total - inv.active == (3 - 2) * 3 * 24 * 64
    # the same count as stacked (experts, out, in) tensors with a fused gate_up: only the layout differs
    stacked = paramledger.inventory(inv.architecture.replace(model_type="paramledger"))
    assert (stacked.total, stacked.active) == (inv.total, inv.active)


@pytest.mark.parametrize("changes, match", [
    ({"tie_word_embeddings": True}, "tie_word_embeddings: DBRX's LM head is never tied"),
    ({"ffn_config": {"moe_num_experts": 0}}, "ffn_config.moe_num_experts: must be a positive whole number, got 0"),
    ({"attn_config": {"kv_n_heads": None}}, "attn_config.kv_n_heads: must be a positive whole number, got None"),
    ({"attn_config": [8]}, "attn_config: must be a JSON object, got \\[8\\]"),
    ({"ffn_config": {"ffn_act_fn": "silu"}}, "ffn_config.ffn_act_fn: must be a JSON object"),
    ({"hidden_size": 64}, "hidden_size: 64 differs from d_model=2048: transformers 5.24.0 sizes DBRX's experts"),
    ({"hidden_size": 64, "d_model": 128}, "hidden_size: 64 differs from d_model=128"),
])
def test_bad_dbrx_configs_are_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        paramledger.load({"model_type": "dbrx", **changes})


# ----------------------------------------------------------------- Gated DeltaNet (Qwen3-Next, Qwen3.5)
DELTANET = {**BASE, "num_hidden_layers": 4, "linear_attention_layers": [0, 1, 2], "linear_num_key_heads": 2,
            "linear_num_value_heads": 4, "linear_key_head_dim": 8, "linear_value_head_dim": 12,
            "linear_conv_kernel_dim": 3}


def test_linear_attention_layers_hold_a_gated_deltanet_instead_of_self_attention():
    arch = Architecture.from_mapping(DELTANET)
    shapes = _shapes(arch)
    conv_dim = 2 * 2 * 8 + 4 * 12  # q and k (key heads × key head), v (value heads × value head)
    assert shapes["model.layers.0.linear_attn.in_proj_qkv.weight"] == (conv_dim, 64)
    assert shapes["model.layers.0.linear_attn.in_proj_z.weight"] == (48, 64)
    in_proj = "model.layers.0.linear_attn.in_proj_"
    assert shapes[in_proj + "b.weight"] == shapes[in_proj + "a.weight"] == (4, 64)
    assert shapes["model.layers.0.linear_attn.conv1d.weight"] == (conv_dim, 1, 3)
    assert shapes["model.layers.0.linear_attn.dt_bias"] == shapes["model.layers.0.linear_attn.A_log"] == (4,)
    assert shapes["model.layers.0.linear_attn.norm.weight"] == (12,)
    assert shapes["model.layers.0.linear_attn.out_proj.weight"] == (64, 48)
    assert not any(name.startswith("model.layers.2.self_attn") for name in shapes)
    assert not any(name.startswith("model.layers.3.linear_attn") for name in shapes)
    assert shapes["model.layers.3.self_attn.q_proj.weight"] == (64, 64)
    # the layer kinds are built once each: 3 DeltaNet layers, 1 attention layer
    plain = paramledger.inventory(arch.replace(linear_attention_layers=(), **dict.fromkeys(
        ("linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
         "linear_conv_kernel_dim"))))
    # qkv, z, b and a; the conv; dt_bias and A_log; the gated norm; out_proj
    deltanet = conv_dim * 64 + 48 * 64 + 2 * 4 * 64 + conv_dim * 3 + 2 * 4 + 12 + 64 * 48
    attention = 3 * 64 * 64 + 64 * 64  # q, k, v, o
    assert paramledger.inventory(arch).total == plain.total + 3 * (deltanet - attention)


def test_qwen3_next_fuses_the_deltanet_projections_and_gates_attention_in_q_proj():
    config = {"model_type": "qwen3_next", "vocab_size": 100, "hidden_size": 64, "num_hidden_layers": 4,
              "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "num_experts": 4,
              "num_experts_per_tok": 2, "moe_intermediate_size": 8, "shared_expert_intermediate_size": 8,
              "linear_num_key_heads": 2, "linear_num_value_heads": 4, "linear_key_head_dim": 8,
              "linear_value_head_dim": 12, "linear_conv_kernel_dim": 3}
    arch = paramledger.load(config)
    assert arch.linear_attention_layers == (0, 1, 2) and arch.layer_types == () and arch.sliding_window is None
    shapes = _shapes(arch)
    assert shapes["model.layers.0.linear_attn.in_proj_qkvz.weight"] == (2 * 2 * 8 + 2 * 4 * 12, 64)
    assert shapes["model.layers.0.linear_attn.in_proj_ba.weight"] == (8, 64)
    assert shapes["model.layers.3.self_attn.q_proj.weight"] == (2 * 4 * 16, 64)  # queries, then the gate
    assert shapes["model.layers.3.mlp.shared_expert_gate.weight"] == (1, 64)
    every_other = paramledger.load({**config, "full_attention_interval": 2})
    assert every_other.linear_attention_layers == (0, 2)
    all_full = paramledger.load({**config, "layer_types": ["full_attention"] * 4})
    assert all_full.linear_attention_layers == () and all_full.linear_num_key_heads is None


def test_qwen3_next_and_qwen3_5_config_defaults():
    next_ = paramledger.load({"model_type": "qwen3_next"})  # Qwen3NextConfig
    assert next_.linear_attention_layers == tuple(i for i in range(48) if (i + 1) % 4)
    assert paramledger.inventory(next_).total == 79_674_391_296
    assert paramledger.inventory(paramledger.load({"model_type": "qwen3_5_text"})).total == 8_953_803_264
    moe = paramledger.load({"model_type": "qwen3_5_moe"})  # the whole model: its tower adds 453,650,672
    assert paramledger.inventory(moe).total == 35_114_261_360
    assert paramledger.inventory(text_only(moe)).total == 34_660_610_688


def test_gated_deltanet_has_a_closed_form():
    from paramledger.formula import closed_form

    for arch in (Architecture.from_mapping(DELTANET), paramledger.load({"model_type": "qwen3_next"})):
        assert closed_form(arch).evaluate() == paramledger.inventory(arch).total


@pytest.mark.parametrize("changes,match", [
    ({"linear_attention_layers": [0, 4]}, r"linear_attention_layers: layer 4 is outside 0..3"),
    ({"linear_conv_kernel_dim": None}, r"linear_conv_kernel_dim: required with linear_attention_layers"),
    ({"linear_attention_layers": []}, r"linear_num_value_heads: set without linear_attention_layers"),
    ({"linear_num_value_heads": 3}, r"linear_num_value_heads: 3 is not a multiple of linear_num_key_heads=2"),
    ({"linear_key_head_dim": 0}, r"linear_key_head_dim: must be positive, got 0"),
    ({"kv_lora_rank": 8, "qk_nope_head_dim": 8, "qk_rope_head_dim": 8, "v_head_dim": 8},
     r"kv_lora_rank: is not built with linear_attention_layers"),
    ({"num_kv_shared_layers": 1}, r"num_kv_shared_layers: is not built with linear_attention_layers"),
])
def test_bad_gated_deltanet_axes_are_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        Architecture.from_mapping({**DELTANET, **changes})


@pytest.mark.parametrize("changes,match", [
    ({"layer_types": ["linear_attention", "sliding_attention"]},
     r"config: layer_types: 'sliding_attention' is not linear_attention or full_attention"),
    ({"layer_types": ["linear_attention"]}, r"config: layer_types: has 1 entries for num_hidden_layers=2"),
    ({"linear_num_value_heads": 0}, r"config: linear_num_value_heads: must be positive"),
    ({"full_attention_interval": 0}, r"config: full_attention_interval: must be positive, got 0"),
])
def test_bad_qwen3_next_configs_are_refused(changes, match):
    with pytest.raises(ArchitectureError, match=match):
        paramledger.load({"model_type": "qwen3_5_text", "num_hidden_layers": 2, **changes})


def test_gated_deltanet_axes_read_from_a_spec_file(tmp_path):
    spec = tmp_path / "design.toml"
    spec.write_text('vocab_size = 100\nhidden_size = 64\nnum_hidden_layers = 4\nnum_attention_heads = 4\n'
                    'linear_attention_layers = [0, 1, 2]\nlinear_num_key_heads = 2\nlinear_num_value_heads = 4\n'
                    'linear_key_head_dim = 8\nlinear_value_head_dim = 12\nlinear_conv_kernel_dim = 3\n',
                    encoding="utf-8")
    assert paramledger.load(str(spec)) == Architecture.from_mapping(DELTANET)


@pytest.mark.parametrize("layers", [4, 7, 100])
def test_a_new_depth_keeps_the_linear_attention_pattern(layers):
    """--set num_hidden_layers on Qwen3-Next repeats its three-linear-one-full pattern, as a config of that depth
    builds it (full_attention_interval 4)."""
    changed = paramledger.inventory({"model_type": "qwen3_next"}, num_hidden_layers=layers)
    assert changed.total == paramledger.inventory({"model_type": "qwen3_next", "num_hidden_layers": layers}).total

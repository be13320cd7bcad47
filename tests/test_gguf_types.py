"""GGUF block types and llama-quantize's mixtures (paramledger.quantization.gguf).

The table is checked against the gguf package; each mixture's tensors are written to a real .gguf with
gguf.GGUFWriter and read back with gguf.GGUFReader and paramledger's reader; the rules are checked by
hand against llama.cpp 007dbbf3fd17eefe9b47fee45f48f7ba5e62b714 src/llama-quant.cpp (each test quotes
the line it checks, in ``llama_tensor_get_type_impl`` unless said otherwise).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from _gguf_mixture_files import write_mixture

import paramledger as pl
from paramledger._exceptions import OptionError
from paramledger.quantization import gguf as q

gguf = pytest.importorskip("gguf")

LAYERS_32 = range(32)
# use_more_bits(i, 32): i < 4 || i >= 28 || (i - 4) % 3 == 2
MORE_BITS_32 = [i for i in LAYERS_32 if i < 4 or i >= 28 or (i - 4) % 3 == 2]


def bundled(name):
    """A bundled model's inventory from its config.json without its quantization_config: the mixture sizes
    the logical tensors, whatever the release stores them in."""
    import json

    from paramledger.sources import bundled_models

    config = json.loads(bundled_models()[name].read_text())["config"]
    config.pop("quantization_config", None)
    return pl.inventory(pl.load(config))


def tiny(model_type="llama", **changes):
    config = {"model_type": model_type, "vocab_size": 1000, "hidden_size": 256, "intermediate_size": 320,
              "num_hidden_layers": 16, "num_attention_heads": 4, "num_key_value_heads": 1,
              "tie_word_embeddings": False, **changes}
    return pl.inventory(pl.load(config))


def tiny_mixtral():
    return tiny("mixtral", intermediate_size=512, num_hidden_layers=8, num_key_value_heads=2, num_local_experts=8,
                num_experts_per_tok=2)


def tiny_deepseek():
    return tiny("deepseek_v3", intermediate_size=512, moe_intermediate_size=256, num_hidden_layers=4,
                first_k_dense_replace=1, num_key_value_heads=4, n_routed_experts=4, num_experts_per_tok=2,
                n_shared_experts=1, kv_lora_rank=64, q_lora_rank=96, qk_nope_head_dim=32, qk_rope_head_dim=16,
                v_head_dim=32, n_group=1, topk_group=1)


def types_of(mixture_bytes, role):
    """layer -> type of the GGUF tensors named blk.<layer>.<role>.weight."""
    return {int(t.name.split(".")[1]): t.type for t in mixture_bytes.tensors
            if t.name.startswith("blk.") and t.name.split(".")[2] == role}


# ---------------------------------------------------------------- the table


def test_bundled_table_equals_the_gguf_package():
    assert q.bundled_types() == q.package_types()


def test_table_is_the_package_s_when_installed():
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    assert q.GGML_TYPES == q.package_types()
    for qtype, (values, size) in GGML_QUANT_SIZES.items():
        t = q.GGML_TYPE_IDS[int(qtype)]
        assert (t.name, t.block_values, t.block_bytes) == (GGMLQuantizationType(qtype).name, values, size)
    assert (q.GGML_TYPES["Q4_K"].block_values, q.GGML_TYPES["Q4_K"].block_bytes) == (256, 144)
    assert q.GGML_TYPES["Q6_K"].tensor_bytes((4096, 14336)) == 4096 * 14336 // 256 * 210


def test_checkpoint_reader_table_agrees():
    from paramledger.checkpoints.gguf import GGML_TYPES as READER_TYPES

    ours = {t.type_id: (t.name, t.block_values, t.block_bytes) for t in q.bundled_types().values()}
    assert ours == READER_TYPES


def test_import_does_not_import_gguf():
    code = "import sys, paramledger.quantization.gguf; print('gguf' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


def test_row_not_a_multiple_of_the_block_is_one_line():
    with pytest.raises(OptionError, match=r"^gguf type: w: a row of 100 values is not a multiple of the Q4_K block "
                                          r"\(256 values\)$"):
        q.GGML_TYPES["Q4_K"].tensor_bytes((8, 100), "w")


# ---------------------------------------------------------------- against files the gguf package writes

MODELS = {"llama": tiny, "tied": lambda: tiny(tie_word_embeddings=True), "mixtral": tiny_mixtral,
          "deepseek": tiny_deepseek}


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("mixture", ["Q4_K_M", "Q5_K_S", "Q3_K_L", "Q2_K", "IQ4_XS", "IQ2_XXS", "Q4_0", "Q8_0",
                                     "MXFP4_MOE", "TQ1_0", "BF16"])
def test_mixture_bytes_agree_with_a_written_gguf(tmp_path, model, mixture):
    from paramledger.checkpoints.gguf import read_gguf

    mix = q.mixture_bytes(MODELS[model](), mixture)
    path = write_mixture(tmp_path / "m.gguf", mix.tensors)
    reference = {t.name: t for t in gguf.GGUFReader(path).tensors}
    ours = {t.name: t for t in read_gguf(path).tensors}
    assert list(reference) == [t.name for t in mix.tensors]
    for t in mix.tensors:
        ref = reference[t.name]
        assert (ref.tensor_type.name, int(ref.n_bytes), tuple(int(d) for d in ref.shape[::-1])) \
            == (t.type, t.bytes, t.shape), t.name
        assert (ours[t.name].dtype, ours[t.name].nbytes, ours[t.name].shape) == (t.type, t.bytes, t.shape)
    assert mix.total == sum(int(t.n_bytes) for t in reference.values())
    assert mix.total == sum(mix.by_type.values()) == sum(mix.by_source().values())


# ---------------------------------------------------------------- names, against gguf-py's TensorNameMap

ARCHS = {"Meta-Llama-3-8B": "LLAMA", "Mixtral-8x7B-v0.1": "LLAMA", "Qwen3-30B-A3B": "QWEN3MOE",
         "DeepSeek-V3": "DEEPSEEK2", "Phi-3-mini-4k-instruct": "PHI3", "gpt2": "GPT2", "falcon-7b": "FALCON",
         "gemma-2-2b": "GEMMA2", "Qwen2.5-0.5B": "QWEN2", "gpt-oss-20b": "GPT_OSS"}
# Where the converter writes other tensors than the Hugging Face ones (modify_tensors): fused experts
# are stacked per projection, MLA's kv_b is split; gpt-oss's pre-FFN norm is named post_attention_norm.
CONVERTER_SPLITS = ("mlp.experts.gate_up_proj", "kv_b_proj", "post_attention_layernorm")


@pytest.mark.parametrize("model", sorted(ARCHS))
def test_names_follow_gguf_tensor_name_map(model):
    inventory = bundled(model)
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH[ARCHS[model]], inventory.architecture.num_hidden_layers)
    for t in q.gguf_tensors(inventory):
        reference = names.get_name(t.source, try_suffixes=(".weight", ".bias"))
        if any(split in t.source for split in CONVERTER_SPLITS):
            continue
        if reference is None:  # tensors gguf-py has no name for: only vectors, whose type is F32 anyway
            assert len(t.shape) == 1 or "experts" in t.source, t.source
            continue
        suffix = t.source.rpartition(".")[2]
        assert t.name in (reference, f"{reference}.{suffix}", f"{reference}.weight"), t.source


def test_fused_experts_become_two_stacked_tensors():
    (gate, up), = [[g for g in q.gguf_tensors(bundled("Mixtral-8x7B-v0.1")) if g.source == name]
                   for name in ["model.layers.0.mlp.experts.gate_up_proj"]]
    assert (gate.name, gate.shape, up.name, up.shape) == (
        "blk.0.ffn_gate_exps.weight", (8, 14336, 4096), "blk.0.ffn_up_exps.weight", (8, 14336, 4096))


def test_mla_kv_b_is_split_as_the_converter_does():
    # DeepseekV2Model.modify_tensors: kv_b.view(heads, nope + v, rank), k_b transposed
    split = {g.name: g.shape for g in q.gguf_tensors(bundled("DeepSeek-V3"))
             if g.source == "model.layers.0.self_attn.kv_b_proj.weight"}
    assert split == {"blk.0.attn_k_b.weight": (128, 512, 128), "blk.0.attn_v_b.weight": (128, 128, 512)}


# ---------------------------------------------------------------- the rules, by hand


def test_q4_k_m_llama_3_8b():
    mix = q.mixture_bytes(bundled("Meta-Llama-3-8B"), "Q4_K_M")
    # attn_v: "(ftype == LLAMA_FTYPE_MOSTLY_Q4_K_M || ...Q5_K_M) && use_more_bits(qs.i_attention_wv, ...)"
    # ffn_down: "if (use_more_bits(i_layer, n_layer)) new_type = GGML_TYPE_Q6_K;"
    for role in ("attn_v", "ffn_down"):
        assert types_of(mix, role) == {i: "Q6_K" if i in MORE_BITS_32 else "Q4_K" for i in LAYERS_32}
    assert MORE_BITS_32 == [0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31]
    for role in ("attn_q", "attn_k", "attn_output", "ffn_gate", "ffn_up"):
        assert set(types_of(mix, role).values()) == {"Q4_K"}
    assert set(types_of(mix, "attn_norm").values()) == {"F32"}  # "if (ggml_n_dims(tensor) < 2) return false;"
    by_name = {t.name: t for t in mix.tensors}
    assert by_name["output.weight"].type == "Q6_K"  # "else if (new_type != GGML_TYPE_Q8_0) new_type = Q6_K"
    assert by_name["token_embd.weight"].type == "Q4_K"  # untied: the TOKEN_EMBD branch keeps the default
    assert mix.total == 4_912_898_048
    assert mix.by_type == {"Q6_K": 1_256_693_760, "Q4_K": 3_655_139_328, "F32": 1_064_960}


def test_q4_k_s_and_q3_k_m_first_layers():
    inventory = bundled("Meta-Llama-3-8B")
    small = q.mixture_bytes(inventory, "Q4_K_S")
    # "else if (ftype == LLAMA_FTYPE_MOSTLY_Q4_K_S && qs.i_attention_wv < 4) new_type = GGML_TYPE_Q5_K;"
    assert types_of(small, "attn_v") == {i: "Q5_K" if i < 4 else "Q4_K" for i in LAYERS_32}
    # "...Q4_K_S && arch != LLM_ARCH_FALCON && i_layer < n_layer/8) new_type = GGML_TYPE_Q5_K"
    assert types_of(small, "ffn_down") == {i: "Q5_K" if i < 4 else "Q4_K" for i in LAYERS_32}
    medium = q.mixture_bytes(inventory, "Q3_K")  # quantize.cpp: "Q3_K" is an alias for Q3_K_M
    assert medium.mixture == "Q3_K_M"
    # "new_type = qs.i_attention_wv < 2 ? GGML_TYPE_Q5_K : GGML_TYPE_Q4_K;"
    assert types_of(medium, "attn_v") == {i: "Q5_K" if i < 2 else "Q4_K" for i in LAYERS_32}
    # "new_type = i_layer < n_layer/16 ? GGML_TYPE_Q5_K : arch != LLM_ARCH_FALCON || use_more_bits(...) ? Q4_K"
    assert types_of(medium, "ffn_down") == {i: "Q5_K" if i < 2 else "Q4_K" for i in LAYERS_32}
    assert set(types_of(medium, "attn_output").values()) == {"Q4_K"}  # "...Q3_K_M ) new_type = GGML_TYPE_Q4_K;"
    assert set(types_of(medium, "attn_q").values()) == {"Q3_K"}


def test_q2_k_with_gqa():
    mix = q.mixture_bytes(bundled("Meta-Llama-3-8B"), "Q2_K")  # 32 heads over 8: n_gqa() = 4
    # "new_type = qs.model.hparams.n_gqa() >= 4 ? GGML_TYPE_Q4_K : GGML_TYPE_Q3_K;"
    assert set(types_of(mix, "attn_v").values()) == {"Q4_K"}
    assert set(types_of(mix, "ffn_down").values()) == {"Q3_K"}  # "...Q2_K) new_type = GGML_TYPE_Q3_K;"
    assert set(types_of(mix, "attn_output").values()) == {"Q3_K"}
    mha = q.mixture_bytes(bundled("Llama-2-7b-hf"), "Q2_K")  # MHA: n_gqa() = 1
    assert set(types_of(mha, "attn_v").values()) == {"Q3_K"}


def test_eight_experts_mixtral():
    mix = q.mixture_bytes(bundled("Mixtral-8x7B-v0.1"), "Q4_K_M")
    # "if (qs.model.hparams.n_expert == 8) { ... new_type = GGML_TYPE_Q8_0; }" for attn_v and attn_k
    assert set(types_of(mix, "attn_v").values()) == set(types_of(mix, "attn_k").values()) == {"Q8_0"}
    assert set(types_of(mix, "attn_output").values()) == {"Q5_K"}  # n_expert == 8: Q4_K_M among the bumped
    # layer_info: with experts the layer is read from the name, "blk.%d."
    assert types_of(mix, "ffn_down_exps") == {i: "Q6_K" if i in MORE_BITS_32 else "Q4_K" for i in LAYERS_32}
    assert set(types_of(mix, "ffn_gate_inp").values()) == {"F32"}  # "ffn_gate_inp.weight": not quantized


def test_fallback_when_the_block_does_not_divide_the_row():
    mix = q.mixture_bytes(bundled("gpt-oss-20b"), "Q4_K_M")  # hidden 2880 = 11.25 × 256
    by_name = {t.name: t.type for t in mix.tensors}
    # output: "else if (arch == LLM_ARCH_FALCON || nx % qk_k != 0) new_type = GGML_TYPE_Q8_0;"
    assert by_name["output.weight"] == "Q8_0"
    # tensor_type_fallback: "case GGML_TYPE_Q4_K: return_type = GGML_TYPE_Q5_0;", "Q6_K -> Q8_0"
    assert set(types_of(mix, "attn_q").values()) == {"Q5_0"}
    assert types_of(mix, "ffn_down_exps") == {i: "Q8_0" if i < 3 or i >= 21 or (i - 3) % 3 == 2 else "Q5_0"
                                              for i in range(24)}
    # "if (ncols % ggml_blck_size(return_type) != 0) ... return_type = GGML_TYPE_F16;"
    assert q.tensor_type("blk.0.attn_q.weight", (64, 100), "Q4_K_M", q.QuantContext(layers=1)) == "F16"


def test_no_fallback_is_one_line():
    # tensor_type_fallback: "no tensor type fallback is defined for type %s"
    with pytest.raises(OptionError, match=r"^mixture: blk\.0\.attn_q\.weight: a row of 100 values does not fit "
                                          r"Q8_0 blocks of 32 and llama-quantize has no fallback for it$"):
        q.tensor_type("blk.0.attn_q.weight", (64, 100), "Q8_0", q.QuantContext(layers=1))


def test_tied_embeddings_take_the_output_rule():
    # "if (category == OUTPUT || (qs.has_tied_embeddings && category == TOKEN_EMBD))": hidden 896 % 256 != 0
    mix = q.mixture_bytes(bundled("Qwen2.5-0.5B"), "Q4_K_M")
    assert mix.context.tied and {t.name: t.type for t in mix.tensors}["token_embd.weight"] == "Q8_0"
    mix = q.mixture_bytes(bundled("gemma-2-2b"), "Q4_K_M")  # hidden 2304 = 9 × 256
    assert {t.name: t.type for t in mix.tensors}["token_embd.weight"] == "Q6_K"


def test_mxfp4_moe():
    # "if (tensor->ne[2] > 1 ...) new_type = GGML_TYPE_MXFP4; else new_type = GGML_TYPE_Q8_0;"
    mix = q.mixture_bytes(bundled("gpt-oss-20b"), "MXFP4_MOE")
    assert {t.type for t in mix.tensors if t.name.endswith("_exps.weight")} == {"MXFP4"}
    assert {t.type for t in mix.tensors if t.name.endswith(("attn_q.weight", "output.weight"))} == {"Q8_0"}
    assert {t.type for t in mix.tensors if t.name.endswith(".bias")} == {"F32"}


def test_deepseek_mla_and_shared_experts():
    mix = q.mixture_bytes(bundled("DeepSeek-V3"), "Q4_K_M")
    assert mix.context.attention_v == 0  # attn_k_b / attn_v_b match no attn_v-like category
    assert set(types_of(mix, "attn_k_b").values()) == {"Q5_0"}  # a row of qk_nope_head_dim = 128: Q4_K falls back
    assert set(types_of(mix, "attn_v_b").values()) == {"Q4_K"}  # a row of kv_lora_rank = 512
    more = [i for i in range(61) if i < 7 or i >= 53 or (i - 7) % 3 == 2]  # use_more_bits(i, 61)
    assert types_of(mix, "ffn_down_exps") == {i: "Q6_K" if i in more else "Q4_K" for i in range(3, 61)}
    assert types_of(mix, "ffn_down_shexp") == {i: "Q6_K" if i in more else "Q4_K" for i in range(3, 61)}


def test_iq2_ffn_down_counts_tensors_not_layers():
    # "if (qs.i_ffn_down < qs.n_ffn_down/8)": the raw counter, not layer_info
    context = q.QuantContext(layers=16, experts=8, counters={"blk.5.ffn_down_exps.weight": 1})
    assert q.tensor_type("blk.5.ffn_down_exps.weight", (8, 256, 512), "IQ2_XXS", context) == "Q2_K"
    context = q.QuantContext(layers=16, experts=8, counters={"blk.1.ffn_down_exps.weight": 2})
    assert q.tensor_type("blk.1.ffn_down_exps.weight", (8, 256, 512), "IQ2_XXS", context) == "IQ2_XXS"


def test_70b_attn_v_gets_q5_k():
    mix = q.mixture_bytes(bundled("Llama-3.1-70B"), "Q3_K_S")
    # "if (qs.model.type == LLM_TYPE_70B) { if (new_type == Q3_K || new_type == Q4_K) new_type = Q5_K; }"
    assert mix.context.is_70b and set(types_of(mix, "attn_v").values()) == {"Q5_K"}


def test_unquantized_mixture_keeps_every_weight():
    mix = q.mixture_bytes(tiny(), "f16")
    assert {t.type for t in mix.tensors} == {"F16", "F32"}


def test_unknown_mixture_is_one_line():
    with pytest.raises(OptionError, match=r"^mixture: unknown GGUF mixture 'Q4_KM' \(did you mean 'Q4_K_M'\?\); one "
                                          r"of Q1_0, .*, F32, Q3_K, Q4_K, Q5_K$"):
        q.mixture_bytes(tiny(), "Q4_KM")

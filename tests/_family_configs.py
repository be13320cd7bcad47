"""Hypothesis strategies: random small configs for every supported model_type.

Each strategy spells the keys the way the family's transformers config class does and
draws every switch the family has (biases, tying, GQA/MQA, head_dim != hidden/heads,
experts, shared experts, dense layers, MLA ranks, sliding windows).  The keys are written
out here, not read from paramledger's family tables, so a key a table forgets fails.
"""

from __future__ import annotations

from _hybrid_configs_a import CONFIGS_A
from _hybrid_configs_b import CONFIGS_B
from _family_configs_au import CONFIGS_AU
from _family_configs_c import CONFIGS_C
from _family_configs_d import CONFIGS_D
from _family_configs_e import CONFIGS_E
from _family_configs_f import CONFIGS_F
from _family_configs_fu import CONFIGS_FU
from _family_configs_rf import CONFIGS_RF
from _family_configs_ed import CONFIGS_ED
from _family_configs_g import CONFIGS_G
from _family_configs_h import CONFIGS_H
from _family_configs_hr import CONFIGS_HR
from _family_configs_hv import CONFIGS_HV
from _family_configs_i import CONFIGS_I
from _family_configs_j import CONFIGS_J
from _family_configs_k import CONFIGS_K
from _family_configs_ko import CONFIGS_KO
from _family_configs_l import CONFIGS_L
from _family_configs_ma import CONFIGS_MA
from _family_configs_s3 import CONFIGS_S3
from _family_configs_mb import CONFIGS_MB
from _family_configs_n import CONFIGS_N
from _family_configs_nh import CONFIGS_NH
from _family_configs_ns import CONFIGS_NS
from _family_configs_mg import CONFIGS_MG
from _family_configs_k25 import CONFIGS_K25
from _family_configs_o import CONFIGS_O
from _family_configs_p import CONFIGS_P
from _family_configs_q import CONFIGS_Q
from _family_configs_r import CONFIGS_R
from _family_configs_s import CONFIGS_S
from _family_configs_t import CONFIGS_T
from _family_configs_tg import CONFIGS_TG
from _family_configs_u import CONFIGS_U
from _family_configs_v import CONFIGS_BLIP, CONFIGS_V
from _family_configs_w import CONFIGS_W
from _family_configs_x import CONFIGS_X
from _family_configs_vl import CONFIGS_VL
from _family_configs_y import CONFIGS_Y
from _family_configs_qx import CONFIGS_QX
from _family_configs_blt import CONFIGS_BLT
from _family_configs_z import CONFIGS_Z
from _family_configs_dv4 import CONFIGS_DV4
from _family_configs_ph4 import CONFIGS_PH4
from _family_configs_sm import CONFIGS_SM
from _family_configs_ink import CONFIGS_INK
from _family_configs_ms import CONFIGS_MS
from _family_configs_mllama import CONFIGS_MLLAMA
from _family_configs_gemma4 import CONFIGS_GEMMA4, full_layer_shapes
from _family_configs_udop import CONFIGS_UDOP
from _family_configs_omni import CONFIGS_OMNI
from _family_configs_idefics import CONFIGS_IDEFICS
from _family_configs_ved import CONFIGS_VED
from _family_configs_trio import CONFIGS_TRIO
from _family_configs_unb import CONFIGS_UNB
from _family_configs_q3omni import CONFIGS_Q3OMNI
from _family_configs_evolla import CONFIGS_EVOLLA
from _family_configs_dgemma import CONFIGS_DGEMMA
from _family_configs_glm5 import CONFIGS_GLM5
from hypothesis import assume
from hypothesis import strategies as st

booleans = st.booleans()
window = st.one_of(st.none(), st.integers(1, 64))


@st.composite
def core(draw, *, kv: bool = True, head_dim: bool = True, names: dict | None = None,
         inner: str | None = "intermediate_size") -> dict:
    """vocab, width, depth, heads (and KV heads, head_dim) and the FFN width."""
    n = {"vocab_size": "vocab_size", "hidden_size": "hidden_size", "num_hidden_layers": "num_hidden_layers",
         "num_attention_heads": "num_attention_heads", **(names or {})}
    heads = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))
    config = {
        n["vocab_size"]: draw(st.integers(4, 300)),
        n["num_hidden_layers"]: draw(st.integers(1, 4)),
        n["num_attention_heads"]: heads,
    }
    # Some config classes insist that heads divide the width even when head_dim is explicit.
    config[n["hidden_size"]] = heads * draw(st.sampled_from([2, 4, 6, 8, 16]))
    if head_dim and draw(booleans):
        config["head_dim"] = draw(st.sampled_from([2, 4, 10, 16]))  # often != hidden / heads
    if kv:
        config["num_key_value_heads"] = draw(st.sampled_from([k for k in (1, 2, 3, 4, 6, 8) if heads % k == 0]))
    if inner:
        config[inner] = draw(st.integers(1, 96))
    config["tie_word_embeddings"] = draw(booleans)
    return config


def with_keys(base: st.SearchStrategy, **extra: st.SearchStrategy) -> st.SearchStrategy:
    """``base`` plus independently drawn keys."""
    return st.tuples(base, st.fixed_dictionaries(extra)).map(lambda pair: {**pair[0], **pair[1]})


def _typed(model_type: str, strategy: st.SearchStrategy) -> st.SearchStrategy:
    # pad_token_id 0: some defaults (Phi-3's 32000) do not fit a small vocabulary.
    return strategy.map(lambda config: {"model_type": model_type, "pad_token_id": 0, **config})


@st.composite
def qwen2_moe_extra(draw, config: dict) -> dict:
    layers = config["num_hidden_layers"]
    experts = draw(st.integers(1, 8))
    return {**config,
            "num_experts": experts, "num_experts_per_tok": draw(st.integers(1, experts)),
            "moe_intermediate_size": draw(st.integers(1, 32)),
            "decoder_sparse_step": draw(st.integers(1, 3)),
            "mlp_only_layers": draw(st.lists(st.integers(0, layers - 1), unique=True, max_size=layers))}


@st.composite
def deepseek_v3(draw) -> dict:
    config = draw(core(head_dim=False))
    layers = config["num_hidden_layers"]
    experts = draw(st.integers(1, 8))
    groups = draw(st.sampled_from([g for g in (1, 2) if experts % g == 0]))
    config.update({
        "n_routed_experts": experts, "num_experts_per_tok": draw(st.integers(1, experts)),
        "n_group": groups, "topk_group": 1,
        "moe_intermediate_size": draw(st.integers(1, 32)),
        "n_shared_experts": draw(st.integers(1, 2)),
        "first_k_dense_replace": draw(st.integers(0, layers)),
        "q_lora_rank": draw(st.one_of(st.none(), st.integers(1, 24))),
        "kv_lora_rank": draw(st.integers(1, 24)),
        "qk_nope_head_dim": draw(st.integers(1, 16)),
        "qk_rope_head_dim": draw(st.sampled_from([2, 4, 8])),
        "v_head_dim": draw(st.integers(1, 16)),
        "attention_bias": draw(booleans),
    })
    return config


def _experts(key: str = "num_local_experts") -> st.SearchStrategy:
    return st.integers(1, 8).flatmap(
        lambda e: st.fixed_dictionaries({key: st.just(e), "num_experts_per_tok": st.integers(1, e)}))


def _merge(*parts: st.SearchStrategy) -> st.SearchStrategy:
    return st.tuples(*parts).map(lambda ds: {k: v for d in ds for k, v in d.items()})


GPT2_NAMES = {"vocab_size": "vocab_size", "hidden_size": "n_embd", "num_hidden_layers": "n_layer",
              "num_attention_heads": "n_head"}
QWEN_WINDOW = {"use_sliding_window": booleans, "sliding_window": st.integers(1, 64),
               "max_window_layers": st.integers(0, 4)}
GEMMA3 = with_keys(core(), attention_bias=booleans, sliding_window=window,
                   sliding_window_pattern=st.integers(1, 4))

@st.composite
def siglip(draw) -> dict:
    """A small SiglipVisionConfig (a multimodal model's vision tower): heads dividing the width, an image a
    whole number of patches, the pooling head or not."""
    heads, patch = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    return {"model_type": "siglip_vision_model", "hidden_size": heads * draw(st.integers(1, 8)),
            "num_attention_heads": heads, "intermediate_size": draw(st.integers(1, 48)),
            "num_hidden_layers": draw(st.integers(1, 3)), "num_channels": draw(st.integers(1, 3)),
            "patch_size": patch, "image_size": patch * draw(st.integers(3, 5)), "vision_use_head": draw(booleans)}


SIGLIP = siglip()


CONFIGS: dict[str, st.SearchStrategy] = {
    "llama": with_keys(core(), attention_bias=booleans, mlp_bias=booleans),
    "diffllama": with_keys(core(), attention_bias=booleans).filter(  # DiffLlama refuses odd KV heads
        lambda config: config.get("num_key_value_heads", config["num_attention_heads"]) % 2 == 0),
    "mistral": with_keys(core(), sliding_window=window),
    "doge": with_keys(core(), attention_bias=booleans, mlp_bias=booleans, sliding_window=window,
                      is_moe=booleans, num_experts=st.integers(1, 40), num_experts_per_tok=st.integers(1, 4)).filter(
        lambda config: config["num_experts_per_tok"] <= config["num_experts"]),
    "qwen2": with_keys(core(head_dim=False), **QWEN_WINDOW),
    "qwen3": with_keys(core(), attention_bias=booleans, **QWEN_WINDOW),
    "gemma": with_keys(core(), attention_bias=booleans),
    "gemma2": with_keys(core(), attention_bias=booleans, sliding_window=window),
    "gemma3_text": GEMMA3,
    "gemma3": st.tuples(GEMMA3, SIGLIP, booleans, st.integers(1, 3)).map(lambda drawn: {
        "text_config": {"model_type": "gemma3_text", **drawn[0]}, "vision_config": drawn[1],
        "tie_word_embeddings": drawn[2], "mm_tokens_per_image": drawn[3] ** 2}),
    "phi3": with_keys(core(), sliding_window=window),
    "olmo": with_keys(core(), attention_bias=booleans),
    "olmo2": with_keys(core(), attention_bias=booleans),
    "gpt2": with_keys(core(kv=False, head_dim=False, names=GPT2_NAMES, inner="n_inner"),
                      n_positions=st.integers(1, 64)),
    "gpt_neox": with_keys(core(kv=False, head_dim=False), attention_bias=booleans,
                          use_parallel_residual=booleans, max_position_embeddings=st.integers(1, 64)),
    "mixtral": _merge(core(), _experts(), st.fixed_dictionaries({"sliding_window": window})),
    "qwen2_moe": with_keys(core(head_dim=False), qkv_bias=booleans,
                           shared_expert_intermediate_size=st.integers(1, 32), **QWEN_WINDOW
                           ).flatmap(qwen2_moe_extra),
    "qwen3_moe": with_keys(core(), attention_bias=booleans, **QWEN_WINDOW).flatmap(qwen2_moe_extra),
    "gpt_oss": _merge(core(), _experts(), st.fixed_dictionaries({"attention_bias": booleans,
                                                                  "sliding_window": window})),
    "deepseek_v3": deepseek_v3(),
}
LLAMA = with_keys(core(), attention_bias=booleans, mlp_bias=booleans)
CONFIGS.update({
    "arcee": LLAMA, "granite": LLAMA, "iquestcoder": LLAMA,
    "exaone": with_keys(core(), attention_bias=booleans, mlp_bias=booleans),
    # InternLM3Config.attribute_map spells them qkv_bias and bias; its validator wants them equal.
    "internlm3": with_keys(core(), qkv_bias=booleans).map(lambda c: {**c, "bias": c["qkv_bias"]}),
    "smollm3": with_keys(core(), attention_bias=booleans, mlp_bias=booleans, use_sliding_window=booleans,
                         sliding_window=window, no_rope_layer_interval=st.integers(1, 4)),
    "seed_oss": with_keys(core(), attention_bias=booleans, attention_out_bias=booleans, mlp_bias=booleans),
    "ernie4_5": with_keys(core(), use_bias=booleans),
    "cwm": with_keys(core(), mlp_bias=booleans, sliding_window=st.integers(1, 64)),
    "ministral3": with_keys(core(), sliding_window=window),
    # Helium's o_proj is hidden × hidden: only head_dim × heads = hidden builds a working model.
    "helium": with_keys(core(head_dim=False), attention_bias=booleans, mlp_bias=booleans).map(
        lambda c: {**c, "head_dim": c["hidden_size"] // c["num_attention_heads"]}),
})


@st.composite
def deepseek_v2(draw) -> dict:
    config = draw(deepseek_v3())
    config["mlp_bias"] = draw(booleans)
    for key in ("n_group", "topk_group"):
        config.pop(key)
    if draw(booleans):  # DeepseekV2Config's default leaves it None
        config["num_experts_per_tok"] = None
    return config


def _heads_fill_hidden(config: dict) -> dict:
    return {**config, "head_dim": config["hidden_size"] // config["num_attention_heads"]}


CONFIGS.update({
    "olmo3": with_keys(core(), attention_bias=booleans, sliding_window=window),
    "olmoe": _merge(core(head_dim=False), _experts("num_experts"),
                    st.fixed_dictionaries({"attention_bias": booleans})).map(_heads_fill_hidden),
    "flex_olmo": _merge(core(), _experts("num_experts"), st.fixed_dictionaries({"attention_bias": booleans})),
    "exaone4": with_keys(core(), sliding_window=st.integers(1, 64), sliding_window_pattern=st.integers(1, 4)),
    "starcoder2": with_keys(core(), use_bias=booleans, sliding_window=window),
    "granitemoe": _merge(core(), _experts(), st.fixed_dictionaries({"attention_bias": booleans})),
    "granitemoeshared": _merge(core(), _experts(), st.fixed_dictionaries(
        {"attention_bias": booleans, "shared_intermediate_size": st.integers(0, 24)})),
    "deepseek_v2": deepseek_v2(),
})


@st.composite
def gpt_neo(draw) -> dict:
    config = draw(core(kv=False, head_dim=False, names={"num_attention_heads": "num_heads",
                                                       "num_hidden_layers": "num_layers"}))
    kinds = draw(st.lists(st.sampled_from(["global", "local"]), min_size=config["num_layers"],
                          max_size=config["num_layers"]))
    config.update({"attention_types": [[kinds, 1]], "window_size": draw(st.integers(1, 64)),
                   "max_position_embeddings": draw(st.integers(1, 64))})
    if draw(booleans):
        config["intermediate_size"] = None  # 4 × hidden_size
    return config


def _no_head_dim_with_qk_layernorm(config: dict) -> dict:
    # Phi's q/k LayerNorms are hidden / heads wide whatever head_dim is.
    return {k: v for k, v in config.items() if k != "head_dim"} if config["qk_layernorm"] else config


GPTJ = with_keys(core(kv=False, head_dim=False, names=GPT2_NAMES, inner="n_inner"), rotary_dim=st.just(2))
CONFIGS.update({
    "gptj": GPTJ,
    "codegen": GPTJ,
    "gpt_bigcode": with_keys(core(kv=False, head_dim=False, names=GPT2_NAMES, inner="n_inner"),
                             multi_query=booleans, n_positions=st.integers(1, 64)),
    "gpt_neo": gpt_neo(),
    "openai-gpt": with_keys(core(kv=False, head_dim=False, names=GPT2_NAMES, inner=None),
                            n_positions=st.integers(1, 64)),
    "phi": with_keys(core(), qk_layernorm=booleans).map(_no_head_dim_with_qk_layernorm),
    "persimmon": with_keys(core(kv=False, head_dim=False), qk_layernorm=booleans),
    "glm": with_keys(core(), attention_bias=booleans),
    "glm4": with_keys(core(), attention_bias=booleans),
    "vaultgemma": with_keys(core(), attention_bias=booleans, sliding_window=window),
})
CONFIGS.update({
    "cohere": with_keys(core(), attention_bias=booleans, use_qk_norm=booleans),  # use_qk_norm: Command R+
    "cohere2": with_keys(core(head_dim=False), attention_bias=booleans, sliding_window=window,
                         sliding_window_pattern=st.integers(1, 4)),
    # qk_layernorm (StableLM 2 12B): one LayerNorm per head in a ModuleList
    "stablelm": with_keys(core(head_dim=False), use_qkv_bias=booleans, use_parallel_residual=booleans,
                          qk_layernorm=booleans),
    "jais2": LLAMA,
    "nanochat": with_keys(core(), attention_bias=booleans),
    "phimoe": _merge(core(), _experts(), st.fixed_dictionaries(
        {"attention_bias": booleans, "lm_head_bias": booleans, "sliding_window": window})),
})


@st.composite
def mla(draw) -> dict:
    return {"q_lora_rank": draw(st.one_of(st.none(), st.integers(1, 24))), "kv_lora_rank": draw(st.integers(1, 24)),
            "qk_nope_head_dim": draw(st.integers(1, 16)), "qk_rope_head_dim": draw(st.sampled_from([2, 4, 8])),
            "v_head_dim": draw(st.integers(1, 16)), "attention_bias": draw(booleans)}


@st.composite
def routed(draw, experts_key: str, *, shared_key: str | None = None, groups: bool = False) -> dict:
    experts = draw(st.integers(1, 8))
    config = {experts_key: experts, "num_experts_per_tok": draw(st.integers(1, experts)),
              "moe_intermediate_size": draw(st.integers(1, 32))}
    if shared_key:
        config[shared_key] = draw(st.integers(1, 2))
    if groups:
        config.update({"n_group": 1, "topk_group": 1})
    return config


@st.composite
def dense_layers(draw, config: dict, *, key: str | None = "first_k_dense_replace") -> dict:
    """Which layers are dense: a first_k count, or an explicit mlp_layer_types list."""
    layers = config["num_hidden_layers"]
    if key is None:  # either spelling
        key = draw(st.sampled_from(["first_k_dense_replace", "mlp_layer_types"]))
    if key == "mlp_layer_types":
        kinds = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers, max_size=layers))
        return {**config, "mlp_layer_types": kinds}
    return {**config, key: draw(st.integers(0, layers))}


CONFIGS.update({
    "youtu": _merge(core(head_dim=False), mla()),
    "glm4_moe_lite": _merge(core(head_dim=False), mla(), routed("n_routed_experts", shared_key="n_shared_experts",
                                                               groups=True)).flatmap(
        lambda c: dense_layers(c, key="mlp_layer_types")),
    "glm4_moe": _merge(core(), routed("n_routed_experts", shared_key="n_shared_experts", groups=True),
                       st.fixed_dictionaries({"attention_bias": booleans, "use_qk_norm": booleans})).flatmap(
        dense_layers),
    "minimax_m2": _merge(core(), _experts()),
    "exaone_moe": _merge(core(), routed("num_experts", shared_key="num_shared_experts"), st.fixed_dictionaries(
        {"sliding_window": st.integers(1, 64), "sliding_window_pattern": st.integers(1, 4)})).flatmap(
        lambda c: dense_layers(c, key=None)),
    "hyperclovax": with_keys(core(), attention_bias=booleans, mlp_bias=booleans, use_post_norm=booleans),
})


@st.composite
def opt(draw) -> dict:
    config = draw(core(kv=False, head_dim=False, inner="ffn_dim"))
    config.update({"max_position_embeddings": draw(st.integers(1, 64)), "enable_bias": draw(booleans),
                   "do_layer_norm_before": draw(booleans), "layer_norm_elementwise_affine": draw(booleans)})
    # null or hidden_size: no projections; another width: project_in/project_out (OPT-350m)
    config["word_embed_proj_dim"] = draw(st.sampled_from([None, config["hidden_size"], draw(st.integers(1, 40))]))
    return config


CONFIGS.update({
    "bloom": core(kv=False, head_dim=False, names={"num_hidden_layers": "n_layer", "num_attention_heads": "n_head"},
                  inner=None),
    "opt": opt(),
    "solar_open": _merge(core(), routed("n_routed_experts", shared_key="n_shared_experts"),
                         st.fixed_dictionaries({"attention_bias": booleans})),
    "mellum": _merge(core(), routed("num_experts"), st.fixed_dictionaries(
        {"attention_bias": booleans, "sliding_window": st.integers(1, 64)})).flatmap(
        lambda c: dense_layers(c, key="mlp_layer_types")),
    "kolibri1": _merge(core(), routed("num_experts"), st.fixed_dictionaries(
        {"shared_expert_intermediate_size": st.integers(1, 24), "sliding_window": st.integers(1, 64)})),
})


@st.composite
def flint(draw) -> dict:
    config = draw(_merge(core(), routed("num_experts"), st.fixed_dictionaries(
        {"attention_bias": booleans, "shared_expert_intermediate_size": st.integers(1, 24),
         "sliding_window": st.integers(1, 64), "decoder_sparse_step": st.integers(1, 2)})))
    layers = config["num_hidden_layers"]
    config["mlp_only_layers"] = draw(st.one_of(st.none(), st.lists(st.integers(0, layers - 1), unique=True)))
    return config


@st.composite
def minicpm3(draw) -> dict:
    config = draw(_merge(core(head_dim=False), mla(), st.fixed_dictionaries({"mlp_bias": booleans})))
    if draw(booleans):
        config["v_head_dim"] = None  # hidden_size / heads
    return config


CONFIGS.update({
    "gpt-sw3": CONFIGS["gpt2"],
    "granite_swa": with_keys(core(), attention_bias=booleans, mlp_bias=booleans, sliding_window=window),
    "granitemoe_swa": _merge(core(), _experts(), st.fixed_dictionaries(
        {"attention_bias": booleans, "shared_intermediate_size": st.integers(0, 24), "sliding_window": window})),
    "flint": flint(),
    "hy_v3": _merge(core(), routed("num_experts", shared_key="num_shared_experts"), st.fixed_dictionaries(
        {"attention_bias": booleans, "mlp_bias": booleans})).flatmap(lambda c: dense_layers(c, key="mlp_layer_types")),
    "sarvam_moe": _merge(core(), routed("n_routed_experts", shared_key="n_shared_experts", groups=True),
                         st.fixed_dictionaries({"use_qkv_bias": booleans, "use_qk_norm": booleans})).flatmap(
        dense_layers),
    "sarvam_mla": deepseek_v3(),
    "minicpm3": minicpm3(),
})
CONFIGS.update({
    "xglm": with_keys(core(kv=False, head_dim=False, names={"hidden_size": "d_model", "num_hidden_layers": "num_layers",
                                                           "num_attention_heads": "attention_heads"}, inner="ffn_dim")
                      ).filter(lambda c: c["d_model"] >= 4),  # its sinusoid divides by d_model / 2 - 1
    "biogpt": with_keys(core(kv=False, head_dim=False), max_position_embeddings=st.integers(1, 64)),
    "ctrl": with_keys(core(kv=False, head_dim=False, names=GPT2_NAMES, inner="dff"), n_positions=st.integers(1, 64)),
})


@st.composite
def llama4_text(draw) -> dict:
    config = draw(_merge(core(inner="intermediate_size_mlp"), _experts(), st.fixed_dictionaries(
        {"intermediate_size": st.integers(1, 32), "attention_bias": booleans,
         "attention_chunk_size": st.integers(1, 64), "no_rope_layer_interval": st.integers(1, 4)})))
    layers = config["num_hidden_layers"]
    if draw(booleans):
        config["moe_layers"] = draw(st.lists(st.integers(0, layers - 1), unique=True))
    else:
        config["interleave_moe_layer_step"] = draw(st.integers(1, 3))
    return config


CONFIGS["aria_text"] = _merge(core(), st.integers(1, 8).flatmap(lambda e: st.fixed_dictionaries(
    {"moe_num_experts": st.just(e), "moe_topk": st.integers(1, e), "moe_num_shared_experts": st.integers(1, 2),
     "attention_bias": booleans, "mlp_bias": booleans})))
CONFIGS["mpt"] = with_keys(core(kv=False, head_dim=False, inner=None, names={
    "hidden_size": "d_model", "num_attention_heads": "n_heads", "num_hidden_layers": "n_layers"}),
    expansion_ratio=st.integers(1, 4), no_bias=booleans)  # both ignored by MptForCausalLM
CONFIGS.update({
    # head_dim / num_key_value_heads always given: transformers 5.24.0 cannot build these without them.
    "ministral": with_keys(core(head_dim=False), sliding_window=window, head_dim=st.sampled_from([2, 4, 10])),
    "hunyuan_v1_dense": with_keys(core(head_dim=False), attention_bias=booleans, head_dim=st.sampled_from([2, 4, 10])),
    "nemotron": with_keys(core(), attention_bias=booleans, mlp_bias=booleans),
    "hunyuan_v1_moe": _merge(core(head_dim=False), st.integers(1, 8).flatmap(lambda e: st.fixed_dictionaries(
        {"num_experts": st.just(e), "moe_topk": st.integers(1, e), "attention_bias": booleans,
         "head_dim": st.sampled_from([2, 4, 10])}))),
})
CONFIGS["llama4_text"] = llama4_text()
CONFIGS["llama4"] = llama4_text().map(lambda text: {"text_config": {"model_type": "llama4_text", **text}})


# Families that needed new architecture structure (Falcon, per-head q/k norms, ERNIE, DSA, ...).
def layer_types(layers: int) -> st.SearchStrategy:
    """Which layers attend in full and which within the window, one entry per layer."""
    return st.lists(st.sampled_from(["full_attention", "sliding_attention"]), min_size=layers, max_size=layers)


def mlp_layer_types(layers: int) -> st.SearchStrategy:
    """Which layers are dense and which routed, one entry per layer (A.X-K1, MiMo, Cohere 2 MoE, DSA)."""
    return st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers, max_size=layers)


@st.composite
def falcon(draw) -> dict:
    """Every layout FalconConfig allows and transformers 5.24.0 runs: the old decoder (multi-query
    or not; one shared norm or the sequential block) and the new (num_kv_heads groups, one or two
    branch norms).  The combinations it builds but cannot run are refused (tests/test_structure.py)."""
    config = draw(core(kv=False, head_dim=False, inner="ffn_hidden_size"))
    heads = config["num_attention_heads"]
    new = draw(booleans)
    config.update({"new_decoder_architecture": new, "alibi": draw(booleans), "bias": draw(booleans),
                   "multi_query": draw(booleans)})  # ignored by the new decoder
    if new:
        config["num_kv_heads"] = draw(st.sampled_from([k for k in (1, 2, 3, 4, 6, 8) if heads % k == 0]))
        config["parallel_attn"] = True
        config["num_ln_in_parallel_attn"] = draw(st.sampled_from([None, 1, 2]))
    else:
        config["parallel_attn"] = parallel = draw(booleans)
        # a sequential block ignores num_ln_in_parallel_attn; a parallel one runs only with one norm
        config["num_ln_in_parallel_attn"] = draw(st.sampled_from([None, 1, 3] if parallel else [None, 1, 2]))
        if not config["multi_query"] and draw(booleans):
            config["num_kv_heads"] = heads
    if draw(booleans):
        config["ffn_hidden_size"] = None  # 4 × hidden_size
    return config


CONFIGS["falcon"] = falcon()


@st.composite
def ernie4_5_moe(draw) -> dict:
    """Sparse layers by start/end/interval, shared experts (or none), use_bias everywhere but the experts."""
    config = draw(core())
    layers = config["num_hidden_layers"]
    experts = draw(st.integers(1, 8))
    config.update({"moe_num_experts": experts, "moe_k": draw(st.integers(1, experts)),
                   "moe_intermediate_size": draw(st.integers(1, 32)),
                   "moe_num_shared_experts": draw(st.integers(0, 2)), "use_bias": draw(booleans),
                   "moe_layer_start_index": draw(st.integers(0, layers)),
                   "moe_layer_end_index": draw(st.sampled_from([-1, *range(layers)])),
                   "moe_layer_interval": draw(st.integers(1, 3))})
    return config


CONFIGS["ernie4_5_moe"] = ernie4_5_moe()


@st.composite
def cohere2_moe(draw) -> dict:
    """A dense prefix (first_k_dense_replace or mlp_layer_types) of its own width, routed and shared
    experts, the sliding pattern of the prefix and of the rest, RMSNorm or LayerNorm."""
    config = draw(core())
    layers = config["num_hidden_layers"]
    experts = draw(st.integers(1, 8))
    config.update({"num_experts": experts, "num_experts_per_tok": draw(st.integers(1, experts)),
                   "num_shared_experts": draw(st.integers(0, 2)), "attention_bias": draw(booleans),
                   "first_k_dense_replace": draw(st.integers(0, layers)),
                   "prefix_dense_intermediate_size": draw(st.one_of(st.none(), st.integers(1, 32))),
                   "sliding_window": draw(window), "sliding_window_pattern": draw(st.integers(1, 4)),
                   "prefix_dense_sliding_window_pattern": draw(st.integers(1, 3)),
                   "rms_norm_eps": draw(st.sampled_from([None, 1e-6]))})
    if draw(booleans):
        config["mlp_layer_types"] = draw(mlp_layer_types(layers))
    return config


CONFIGS["cohere2_moe"] = cohere2_moe()


@st.composite
def axk1(draw) -> dict:
    """DeepSeek-V3's latent attention (q_lora_rank always set) and experts, dense layers by
    mlp_layer_types or by the legacy first_k_dense_replace / moe_layer_freq."""
    config = {**draw(core(head_dim=False)), **draw(mla()), **draw(routed("n_routed_experts",
                                                                       shared_key="n_shared_experts", groups=True))}
    layers = config["num_hidden_layers"]
    config["q_lora_rank"] = draw(st.integers(1, 24))
    if draw(booleans):
        config["mlp_layer_types"] = draw(mlp_layer_types(layers))
    else:
        config.update({"first_k_dense_replace": draw(st.integers(0, layers)),
                       "moe_layer_freq": draw(st.integers(1, 3))})
    return config


CONFIGS["axk1"] = axk1()


@st.composite
def mimo_v2_flash(draw) -> dict:
    """Narrow value heads, sliding layers with twice the KV heads (which must still divide the heads)
    and sinks, a dense/sparse pattern; layer_types and mlp_layer_types given or left to the class."""
    config = draw(core())
    layers, heads = config["num_hidden_layers"], config["num_attention_heads"]
    pairs = [k for k in (1, 2, 3, 4) if heads % (2 * k) == 0]
    assume(pairs)
    experts = draw(st.integers(1, 8))
    config.update({"num_key_value_heads": draw(st.sampled_from(pairs)), "v_head_dim": draw(st.integers(1, 16)),
                   "n_routed_experts": experts, "num_experts_per_tok": draw(st.integers(1, experts)),
                   "moe_intermediate_size": draw(st.integers(1, 32)), "attention_bias": draw(booleans),
                   "n_group": 1, "topk_group": 1})
    if draw(booleans):
        config["sliding_window"] = draw(st.integers(1, 64))
    else:
        config["sliding_window_size"] = draw(st.integers(1, 64))
    if draw(booleans):
        config["layer_types"] = draw(layer_types(layers))
    if draw(booleans):
        config["mlp_layer_types"] = draw(mlp_layer_types(layers))
    return config


CONFIGS["mimo_v2_flash"] = mimo_v2_flash()


@st.composite
def dsa(draw, glm: bool = False) -> dict:
    """DeepSeek-V3's latent attention (q LoRA always) and experts, dense layers by first_k_dense_replace or
    mlp_layer_types, and the lightning indexer: its heads and width (at least qk_rope_head_dim, which it
    ropes); index_topk at least the 24 tokens the slow checks run, because transformers' eager attention
    computes every key and masks the unselected ones.  GLM-5: which layers share an earlier selection."""
    config = {**draw(core(head_dim=False)), **draw(mla()), **draw(routed("n_routed_experts",
                                                                       shared_key="n_shared_experts", groups=True))}
    config = draw(dense_layers(config, key=None))
    config.update({"q_lora_rank": draw(st.integers(1, 24)), "index_n_heads": draw(st.integers(1, 4)),
                   "index_head_dim": draw(st.integers(config["qk_rope_head_dim"], 16)),
                   "index_topk": draw(st.integers(24, 64))})
    if glm:
        layers = config["num_hidden_layers"]
        how = draw(st.sampled_from(["default", "freq", "pattern", "types"]))
        if how == "freq":
            config.update({"index_topk_freq": draw(st.integers(1, 3)),
                           "index_skip_topk_offset": draw(st.integers(1, 3))})
        elif how in ("pattern", "types"):
            kinds = ["F"] + draw(st.lists(st.sampled_from("FS"), min_size=layers - 1, max_size=layers - 1))
            if how == "pattern":
                config["index_topk_pattern"] = "".join(kinds)
            else:
                config["indexer_types"] = ["full" if kind == "F" else "shared" for kind in kinds]
    return config


CONFIGS["deepseek_v32"] = dsa()
CONFIGS["glm_moe_dsa"] = dsa(glm=True)

# xIELU (learned alpha_p, alpha_n per FFN) or a parameter-free activation; Apertus 1.5 may prune its head
# (output_vocab_size: at most vocab_size; a tied head stays the table).
APERTUS_ACT = st.sampled_from(["xielu", "xielu", "gelu", "relu"])
CONFIGS["apertus"] = with_keys(core(), attention_bias=booleans, hidden_act=APERTUS_ACT)
CONFIGS["apertus1p5_text"] = with_keys(core(), attention_bias=booleans, hidden_act=APERTUS_ACT).flatmap(
    lambda c: with_keys(st.just(c), output_vocab_size=st.one_of(st.none(), st.integers(1, c["vocab_size"]))))
# BitNet's attn_sub_norm is hidden_size wide: only head_dim × heads = hidden_size runs (no head_dim drawn).
CONFIGS["bitnet"] = with_keys(core(head_dim=False), attention_bias=booleans)


@st.composite
def afmoe(draw) -> dict:
    """Dense prefix (num_dense_layers), routed experts with a learned expert_bias and at least one shared
    expert (none builds (0, hidden) tensors the builder does not list), the gated attention, the sliding
    pattern by global_attn_every_n_layers."""
    config = {**draw(core()), **draw(routed("num_experts"))}
    config.update({"num_shared_experts": draw(st.integers(1, 2)), "attention_bias": draw(booleans),
                   "num_dense_layers": draw(st.integers(0, config["num_hidden_layers"])),
                   "sliding_window": draw(window), "global_attn_every_n_layers": draw(st.integers(1, 4))})
    return config


CONFIGS["afmoe"] = afmoe()


@st.composite
def laguna(draw) -> dict:
    """Query heads per layer (multiples of the KV heads), a gate per head or per channel, a learned routing
    correction, dense/sparse and full/sliding patterns given or left to the class, a shared expert (at least
    one channel wide: zero builds (0, hidden) tensors the builder does not list)."""
    config = {**draw(core()), **draw(routed("num_experts"))}
    layers, kv = config["num_hidden_layers"], config["num_key_value_heads"]
    config.update({"shared_expert_intermediate_size": draw(st.integers(1, 32)), "attention_bias": draw(booleans),
                   "gating": draw(st.sampled_from([True, False, "per-head", "per-element"])),
                   "sliding_window": draw(st.integers(1, 64))})
    if draw(booleans):
        config["num_attention_heads_per_layer"] = draw(st.lists(st.sampled_from([kv, 2 * kv, 3 * kv]),
                                                                min_size=layers, max_size=layers))
    if draw(booleans):
        config["layer_types"] = draw(layer_types(layers))
    if draw(booleans):
        config["mlp_layer_types"] = draw(mlp_layer_types(layers))
    return config


CONFIGS["laguna"] = laguna()
# GPT-NeoX-Japanese: the FFN is hidden_size × intermediate_multiple_size; only the last layer's attention has a bias.
CONFIGS["gpt_neox_japanese"] = with_keys(core(kv=False, head_dim=False, inner=None),
                                         intermediate_multiple_size=st.integers(1, 4))


@st.composite
def jetmoe(draw) -> dict:
    """Attention and FFN experts (one count, one top-k for both), KV heads of kv_channels; the query heads
    follow from them (JetMoeConfig: num_key_value_heads × num_experts_per_tok)."""
    experts = draw(st.integers(1, 8))
    return {"vocab_size": draw(st.integers(4, 300)), "hidden_size": draw(st.sampled_from([4, 8, 12, 16, 32])),
            "num_hidden_layers": draw(st.integers(1, 4)), "num_key_value_heads": draw(st.integers(1, 4)),
            "kv_channels": draw(st.sampled_from([2, 4, 6, 8, 16])), "intermediate_size": draw(st.integers(1, 32)),
            "num_local_experts": experts, "num_experts_per_tok": draw(st.integers(1, experts)),
            "tie_word_embeddings": draw(booleans)}


CONFIGS["jetmoe"] = jetmoe()


# Families that are data only over the existing builder.
ROPE = {"rope_type": "default", "rope_theta": 10000.0}


@st.composite
def cohere_compass_text(draw) -> dict:
    config = draw(with_keys(core(head_dim=False), attention_bias=booleans, sliding_window=window))
    if draw(booleans):  # else the class fills full attention everywhere
        layers = config["num_hidden_layers"]
        config["layer_types"] = draw(st.lists(st.sampled_from(["sliding_attention", "full_attention"]),
                                              min_size=layers, max_size=layers))
    # transformers 5.24.0 builds its rotary embedding from one rope_parameters entry per layer
    # type (a flat default raises KeyError 'full_attention'): count-neutral, but needed to build.
    config["rope_parameters"] = {"full_attention": dict(ROPE), "sliding_attention": dict(ROPE)}
    return config


@st.composite
def dots1(draw) -> dict:
    config = draw(_merge(core(), routed("n_routed_experts", shared_key="n_shared_experts", groups=True),
                         st.fixed_dictionaries({"attention_bias": booleans, "sliding_window": window,
                                                "max_window_layers": st.integers(0, 4)})).flatmap(dense_layers))
    if draw(booleans) and draw(booleans):  # Dots1Config's default: cannot route, counts the same
        config["num_experts_per_tok"] = None
    return config


@st.composite
def gemma3n_text(draw) -> dict:
    """Per-layer FFN widths (or one), the layer pattern given or by default, as many KV-sharing
    last layers as the pattern allows, per-layer inputs with their own vocabulary, AltUp's
    streams (and the active one), LAuReL's rank, attention biases, activation sparsity."""
    config = draw(core())
    layers = config["num_hidden_layers"]
    if draw(booleans):
        config["intermediate_size"] = draw(st.lists(st.integers(1, 96), min_size=layers, max_size=layers))
    types = None
    if draw(booleans):
        types = draw(layer_types(layers))
        config["layer_types"] = types
    types = types or ["full_attention" if (i + 1) % 5 == 0 else "sliding_attention" for i in range(layers)]
    # transformers refuses a shared layer whose attention type no earlier layer computes
    most = max(s for s in range(layers) if set(types[:layers - s]) == set(types))
    streams = draw(st.integers(1, 4))
    config.update({
        "sliding_window": draw(st.integers(1, 64)), "attention_bias": draw(booleans),
        "num_kv_shared_layers": draw(st.integers(0, most)),
        "hidden_size_per_layer_input": draw(st.integers(1, 16)),
        "vocab_size_per_layer_input": draw(st.integers(1, 300)),
        "altup_num_inputs": streams, "altup_active_idx": draw(st.integers(0, streams - 1)),
        "altup_correct_scale": draw(booleans), "laurel_rank": draw(st.integers(1, 16)),
        "activation_sparsity_pattern": draw(st.lists(st.sampled_from([0.0, 0.95]), min_size=layers,
                                                     max_size=layers)),
    })
    return config


CONFIGS.update({
    "gemma3n_text": gemma3n_text(),
    "gemma3n": gemma3n_text().map(lambda text: {"text_config": {"model_type": "gemma3n_text", **text}}),
})


@st.composite
def gemma4_text(draw) -> dict:
    """The layer pattern given or by default (the last layer full either way), per-layer attention
    shapes by the class default (global_head_dim, num_global_key_value_heads), given per attention
    type in per_layer_config, or none; keys as values on full layers, as many KV-sharing last layers
    as the pattern allows with or without the double-width FFN, per-layer inputs (or none), the MoE
    block beside the dense FFN, attention biases, bidirectional attention, logit softcapping."""
    config = draw(core())
    layers, heads = config["num_hidden_layers"], config["num_attention_heads"]
    types = None
    if draw(booleans):
        types = draw(layer_types(layers))
        config["layer_types"] = types
    types = list(types or ["full_attention" if (i + 1) % 6 == 0 else "sliding_attention" for i in range(layers)])
    types[-1] = "full_attention"  # Gemma4TextConfig forces it
    most = max(s for s in range(layers) if set(types[:layers - s]) == set(types))
    kv_heads = st.sampled_from([k for k in (1, 2, 3, 4, 6, 8) if heads % k == 0])
    head_dims = st.sampled_from([2, 4, 8, 16])
    # transformers 5.24.0 runs shared KV layers only with per-layer inputs (refused without them), and
    # looks up every token id in the per-layer table: often as many rows as the vocabulary, so the slow
    # checks can run a prompt
    per_layer_input = draw(st.sampled_from([0, 1, 4, 16]))
    config.update({
        "sliding_window": draw(st.integers(1, 64)), "attention_bias": draw(booleans),
        "attention_k_eq_v": draw(booleans),
        "num_kv_shared_layers": draw(st.integers(0, most if per_layer_input else 0)),
        "use_double_wide_mlp": draw(booleans), "hidden_size_per_layer_input": per_layer_input,
        "vocab_size_per_layer_input": draw(st.one_of(st.just(config["vocab_size"]), st.integers(1, 300))),
        "use_bidirectional_attention": draw(st.sampled_from([None, "vision", "all"])),
        "final_logit_softcapping": draw(st.sampled_from([None, 30.0])),
    })
    full_layer_shapes(draw, config, types, head_dims, kv_heads, ["default", "given", "null"], True)
    if draw(booleans):
        experts = draw(st.integers(1, 8))
        config.update({"enable_moe_block": True, "num_experts": experts, "top_k_experts": draw(st.integers(1, experts)),
                       "moe_intermediate_size": draw(st.integers(1, 32))})
    return config


CONFIGS.update({
    "gemma4_text": gemma4_text(),
    "gemma4": gemma4_text().map(lambda text: {"text_config": {"model_type": "gemma4_text", **text}}),
})
CONFIGS.update({
    "cohere_compass_text": cohere_compass_text(),
    "dots1": dots1(),
    # Emu3TextConfig's pad_token_id (151643) does not fit a small vocabulary.
    "emu3": with_keys(core(), attention_bias=booleans, mlp_bias=booleans).map(
        lambda text: {"text_config": {**text, "pad_token_id": 0}}),
})


@st.composite
def dbrx(draw) -> dict:
    """DBRX's own key names and its sizes nested in attn_config and ffn_config: GQA/MQA (kv_n_heads,
    or its default 1), the experts, their top-k (or its default 1), width and activation, clip_qkv;
    the head is never tied (DbrxConfig refuses it)."""
    heads = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))
    experts = draw(st.integers(1, 8))
    # transformers 5.24.0's DbrxAttention reads attn_config.rope_theta, which DbrxAttentionConfig does
    # not declare: count-neutral, but needed to build.  It clamps q, k, v to clip_qkv, and torch refuses
    # a clamp with no bound: without clip_qkv (its default) the model builds but cannot run, so the
    # slow forward-pass checks need it most of the time.
    attn = {"rope_theta": 10000.0, "clip_qkv": draw(st.sampled_from([0.5, 8.0, 100.0, None])),
            **draw(st.fixed_dictionaries({}, optional={
                "kv_n_heads": st.sampled_from([k for k in (1, 2, 3, 4, 6, 8) if heads % k == 0]),
                "attn_pdrop": st.just(0.0)}))}
    ffn = {"moe_num_experts": experts, "ffn_hidden_size": draw(st.integers(1, 96)), **draw(st.fixed_dictionaries(
        {}, optional={"moe_top_k": st.integers(1, experts),
                      "ffn_act_fn": st.sampled_from([None, {"name": "silu"}, {"name": "gelu"}, {}]),
                      "moe_jitter_eps": st.sampled_from([None, 0.01]),
                      "moe_normalize_expert_weights": st.sampled_from([None, 1.0])}))}
    config = {"vocab_size": draw(st.integers(4, 300)), "n_layers": draw(st.integers(1, 4)), "n_heads": heads,
              "d_model": heads * draw(st.sampled_from([2, 4, 6, 8, 16])), "attn_config": attn, "ffn_config": ffn}
    config.update(draw(st.fixed_dictionaries({}, optional={"max_seq_len": st.integers(1, 64),
                                                           "tie_word_embeddings": st.just(False)})))
    if draw(booleans):  # DbrxConfig.attribute_map: the Hugging Face names stand for DBRX's own
        names = {"n_heads": "num_attention_heads", "n_layers": "num_hidden_layers",
                 "max_seq_len": "max_position_embeddings"}
        config = {names.get(key, key): value for key, value in config.items()}
        config["hidden_size"] = config["d_model"]  # another hidden_size is refused (the experts read d_model)
    return config


CONFIGS["dbrx"] = dbrx()


@st.composite
def gated_deltanet(draw, *, experts: str) -> dict:
    """Qwen3-Next and Qwen3.5: Gated DeltaNet layers beside full-attention ones, by layer_types given, by
    full_attention_interval or by default (all linear or all full possible); the DeltaNet's sizes (value
    heads a multiple of key heads), attention biases; experts on every layer ("all": Qwen3.5-MoE), on the
    decoder_sparse_step grid outside mlp_only_layers ("sparse": Qwen3-Next), or none ("none": Qwen3.5)."""
    config = draw(core(inner=None if experts == "all" else "intermediate_size"))
    layers = config["num_hidden_layers"]
    style = draw(st.sampled_from(["given", "interval", "default"]))
    if style == "given":
        config["layer_types"] = draw(st.lists(st.sampled_from(["linear_attention", "full_attention"]),
                                              min_size=layers, max_size=layers))
    elif style == "interval":
        config["full_attention_interval"] = draw(st.integers(1, 4))
    key_heads = draw(st.sampled_from([1, 2, 3]))
    config.update({
        "attention_bias": draw(booleans),
        "linear_num_key_heads": key_heads,
        "linear_num_value_heads": key_heads * draw(st.sampled_from([1, 2])),
        "linear_key_head_dim": draw(st.sampled_from([2, 4, 8])),
        "linear_value_head_dim": draw(st.sampled_from([2, 4, 8])),
        "linear_conv_kernel_dim": draw(st.integers(1, 4)),
    })
    if experts == "none":
        return config
    count = draw(st.integers(1, 8))
    config.update({"num_experts": count, "num_experts_per_tok": draw(st.integers(1, count)),
                   "moe_intermediate_size": draw(st.integers(1, 32)),
                   "shared_expert_intermediate_size": draw(st.integers(1, 32))})
    if experts == "sparse":
        config.update({"decoder_sparse_step": draw(st.integers(1, 3)),
                       "mlp_only_layers": draw(st.lists(st.integers(0, layers - 1), unique=True, max_size=layers))})
    return config


CONFIGS.update({
    "qwen3_next": gated_deltanet(experts="sparse"),
    "qwen3_5_text": gated_deltanet(experts="none"),
    "qwen3_5": gated_deltanet(experts="none").map(
        lambda text: {"text_config": {"model_type": "qwen3_5_text", **text}}),
    "qwen3_5_moe_text": gated_deltanet(experts="all"),
    "qwen3_5_moe": gated_deltanet(experts="all").map(
        lambda text: {"text_config": {"model_type": "qwen3_5_moe_text", **text}}),
})
CONFIGS = {model_type: _typed(model_type, strategy) for model_type, strategy in CONFIGS.items()}
# The state-space and hybrid families' strategies live beside this file (typed there already).
CONFIGS.update(CONFIGS_A)
CONFIGS.update(CONFIGS_B)
CONFIGS.update(CONFIGS_C)
CONFIGS.update(CONFIGS_D)
CONFIGS.update(CONFIGS_E)
CONFIGS.update(CONFIGS_F)
CONFIGS.update(CONFIGS_G)
CONFIGS.update(CONFIGS_H)
for _set in (CONFIGS_I, CONFIGS_J, CONFIGS_K, CONFIGS_L, CONFIGS_N, CONFIGS_O, CONFIGS_P, CONFIGS_Q, CONFIGS_R,
             CONFIGS_S, CONFIGS_T, CONFIGS_U, CONFIGS_V, CONFIGS_W, CONFIGS_X, CONFIGS_Y, CONFIGS_Z,
             CONFIGS_MA, CONFIGS_BLIP, CONFIGS_MB, CONFIGS_HR, CONFIGS_NH, CONFIGS_FU, CONFIGS_KO, CONFIGS_QX, CONFIGS_HV, CONFIGS_NS, CONFIGS_DV4, CONFIGS_PH4, CONFIGS_TG, CONFIGS_SM, CONFIGS_AU, CONFIGS_BLT, CONFIGS_VL, CONFIGS_MG, CONFIGS_INK, CONFIGS_K25, CONFIGS_RF, CONFIGS_MS, CONFIGS_ED, CONFIGS_S3, CONFIGS_MLLAMA, CONFIGS_GEMMA4, CONFIGS_UDOP, CONFIGS_OMNI, CONFIGS_IDEFICS, CONFIGS_VED, CONFIGS_TRIO, CONFIGS_UNB, CONFIGS_Q3OMNI, CONFIGS_EVOLLA, CONFIGS_DGEMMA, CONFIGS_GLM5):
    CONFIGS.update(_set)


def _lfm2_width(config: dict) -> int:
    """Lfm2MLP's adjusted width (paramledger refuses 0, an FFN no checkpoint holds)."""
    width = config.get("intermediate_size", config.get("block_ff_dim", 12288))
    if not config.get("block_auto_adjust_ff_dim", True):
        return width
    step = config.get("block_multiple_of", 256)
    return step * -(-int(config.get("block_ffn_dim_multiplier", 1.0) * int(2 * width / 3)) // step)


CONFIGS["lfm2"] = CONFIGS["lfm2"].filter(lambda config: _lfm2_width(config) > 0)


def draw_runnable_model(model_type: str, data, **model_kwargs):
    """A random small config of ``model_type`` built by transformers with real weights on the
    CPU, for the slow forward-pass checks: (architecture, model, longest context to run)."""
    import pytest
    import torch
    from hypothesis import assume

    import paramledger
    from paramledger import families
    from paramledger.reference import auto_class, causal_lm_config, hf_config

    if model_type not in CONFIGS:
        pytest.skip(f"no random-config strategy for {model_type} yet")
    family = families.get(model_type)
    if family.seq2seq is not None and family.causal_lm_class == family.seq2seq.whole_class:
        pytest.skip(f"{model_type} has no CausalLM: its whole model's caches are run in tests/test_seq2seq_*.py")
    config = data.draw(CONFIGS[model_type], label="config")
    arch = paramledger.load(config)
    # A window of 1 breaks transformers 5.24.0 itself (its sliding cache slices [-0:], the mask disagrees).
    assume(arch.sliding_window != 1)
    hf = hf_config(config)
    if families.get(model_type).text_config:
        hf = causal_lm_config(hf)
    # An odd number of rotary channels (partial_rotary_factor × a tiny head_dim) makes transformers'
    # keys one channel wider than k_proj's output: a degenerate-config quirk, not a layout.
    factor = (getattr(hf, "rope_parameters", None) or {}).get("partial_rotary_factor")
    assume(factor is None or int(factor * arch.attention_head_dim) % 2 == 0)
    torch.manual_seed(0)
    try:
        # the CausalLM, or the class that maps the type (Mistral 4's: image-text-to-text only)
        model = auto_class(hf, decoder_alone=True).from_config(hf, experts_implementation="eager",
                                                               **model_kwargs).eval()
    except (RuntimeError, ZeroDivisionError):  # a config only the meta device builds (RWKV's init at 1 layer)
        assume(False)
    longest = min(24, arch.max_position_embeddings) if arch.position_embedding_type == "learned" else 24
    return arch, model, longest

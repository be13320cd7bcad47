"""Hypothesis strategies: random small configs for the families of set Q (decoder-only types), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _sizes, _typed, booleans
from _family_configs_d import dory as dory_d
from _family_configs_d import gemma4_assistant as gemma4_assistant_d
from hypothesis import strategies as st

# DoryConfig.to_dict: a released config.json names each layer as an attention block and an "mlp" block, with
# num_hidden_layers and the three section sizes doubled (DoryConfig.__post_init__ halves them back)
_DORY_DOUBLED = ("num_hidden_layers", "n_input_layers", "n_output_layers", "n_recurrent_layers")


@st.composite
def dory(draw) -> dict:
    """Set D's strategy (nGPT on the sphere: sections, loops, cache mode, sliding and full layers, biases, tying),
    and half the time the released layout of the same config."""
    config = draw(dory_d())
    if draw(booleans):
        kinds = config.get("layer_types") or ["full_attention" if (i + 1) % 4 == 0 else "sliding_attention"
                                              for i in range(config["num_hidden_layers"])]
        config["layer_types"] = [block for kind in kinds for block in (kind, "mlp")]
        config.update({key: 2 * config[key] for key in _DORY_DOUBLED})
    return config


# gemma4_text's strategy (tests/_family_configs.py, which imports this module: looked up on first draw)
_gemma4_text = st.deferred(lambda: __import__("_family_configs").CONFIGS["gemma4_text"])
_NOT_UNIFIED = ("model_type", "hidden_size_per_layer_input", "vocab_size_per_layer_input", "enable_moe_block",
                "num_experts", "top_k_experts", "moe_intermediate_size")


@st.composite
def gemma4_unified_text(draw) -> dict:
    """gemma4_text's configs (retyped) without per-layer inputs or the MoE block (not fields of
    Gemma4UnifiedTextConfig), and KV-sharing last layers drawn without them (Gemma4UnifiedTextModel runs them),
    with or without the double-width FFN."""
    config = {key: value for key, value in draw(_gemma4_text).items() if key not in _NOT_UNIFIED}
    config["num_kv_shared_layers"] = draw(st.integers(0, _shareable(config)))
    return config


@st.composite
def gemma4_unified(draw) -> dict:
    """The whole model: gemma4_unified_text's decoder as text_config, and each embedder only when its sub-config is
    given (vision: patch, pooling, widths, position rows; audio: its width by either of two of its keys), tying."""
    config = {"text_config": {**draw(gemma4_unified_text()), "model_type": "gemma4_unified_text"},
              "tie_word_embeddings": draw(booleans)}
    if draw(booleans):
        config["vision_config"] = {
            "patch_size": draw(st.integers(1, 3)), "pooling_kernel_size": draw(st.integers(1, 2)),
            "mm_embed_dim": draw(st.integers(1, 16)), "mm_posemb_size": draw(st.integers(1, 8)),
            "output_proj_dims": draw(st.integers(1, 16))}
    if draw(booleans):
        config["audio_config"] = {draw(st.sampled_from(["audio_embed_dim", "hidden_size"])): draw(st.integers(1, 16))}
    return config


def _shareable(text: dict) -> int:
    """The most last layers that can share keys and values: every attention type still computed before them."""
    layers = text["num_hidden_layers"]
    types = list(text.get("layer_types") or ["full_attention" if (i + 1) % 6 == 0 else "sliding_attention"
                                             for i in range(layers)])
    types[-1] = "full_attention"  # Gemma4TextConfig and Gemma4UnifiedTextConfig force it
    return max(s for s in range(layers) if set(types[:layers - s]) == set(types))


@st.composite
def gemma4_unified_assistant(draw) -> dict:
    """Set D's gemma4_assistant over Gemma 4 unified's decoder (no per-layer input keys: not its fields), whose
    sharing this class leaves as given: 0 (every layer), all, or a valid partial count (layers then hold k_proj)."""
    config = draw(gemma4_assistant_d())
    text = {key: value for key, value in config["text_config"].items() if key not in _NOT_UNIFIED}
    layers = text["num_hidden_layers"]
    text.update(model_type="gemma4_unified_text",
                num_kv_shared_layers=draw(st.sampled_from([0, layers, *range(1, _shareable(text) + 1)])))
    return {**config, "text_config": text}


_persimmon = st.deferred(lambda: __import__("_family_configs").CONFIGS["persimmon"])


@st.composite
def fuyu(draw) -> dict:
    """Persimmon's configs as text_config (always: FuyuConfig's own decoder, 9.4 billion parameters, is checked at the
    defaults on the meta device, and the slow checks build these with real weights), the patch's size and channels
    (the one Linear beside the decoder), the whole model's own tying."""
    return {"patch_size": draw(st.integers(1, 4)), "num_channels": draw(st.integers(1, 3)),
            "tie_word_embeddings": draw(booleans), "text_config": {**draw(_persimmon), "model_type": "persimmon"}}


@st.composite
def mllama(draw) -> dict:
    """MllamaForCausalLM's text_config: Llama's sizes, the cross-attention layers given (indices past the last layer
    included: they match none) or by default, tying (read by nothing); token ids within the table."""
    text = draw(_sizes())
    layers = draw(st.integers(1, 6))
    text.update({"model_type": "mllama_text_model", "num_hidden_layers": layers,
                 "intermediate_size": draw(st.integers(1, 32)), "pad_token_id": 0, "bos_token_id": 0,
                 "eos_token_id": 0})
    if draw(booleans):
        text["cross_attention_layers"] = draw(st.lists(st.integers(0, layers + 1), max_size=layers, unique=True))
    return {"text_config": text}


@st.composite
def minimax_m3_vl_text(draw) -> dict:
    """Sparse (block-indexed) and full attention layers, dense and MoE FFNs, each pattern given as the lists or in the
    legacy form (sparse_attention_config, moe_layer_freq) or by default; the three FFN widths, the indexer's sizes,
    head_dim, a partial rotary, tying; the SwiGLU clamps and routing scale change no tensor."""
    config = draw(_sizes(head_dim=st.sampled_from([2, 4, 8])))
    layers, experts = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    config.update({
        "num_hidden_layers": layers, "num_local_experts": experts,
        "num_experts_per_tok": draw(st.integers(1, experts)),
        **{key: draw(st.integers(1, 16)) for key in ("intermediate_size", "dense_intermediate_size",
                                                     "shared_intermediate_size", "index_n_heads")},
        "index_head_dim": draw(st.sampled_from([2, 4, 8])),
        "routed_scaling_factor": draw(st.sampled_from([1.0, 2.0])),
        "bos_token_id": 0, "eos_token_id": 0,
    })
    sparse = draw(st.lists(booleans, min_size=layers, max_size=layers))
    dense = draw(st.lists(booleans, min_size=layers, max_size=layers))
    style = draw(st.sampled_from(["lists", "legacy", "default"]))
    if style == "lists":
        config["layer_types"] = ["minimax_m3_sparse" if s else "full_attention" for s in sparse]
        config["mlp_layer_types"] = ["dense" if d else "sparse" for d in dense]
    elif style == "legacy":  # MiniMaxM3VLTextConfig.__post_init__ folds these in
        config["sparse_attention_config"] = {"sparse_attention_freq": [int(s) for s in sparse],
                                             "sparse_num_index_heads": draw(st.integers(1, 4))}
        config["moe_layer_freq"] = [int(not d) for d in dense]
    if draw(booleans):
        config["rope_parameters"] = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5}
    return config


_STRATEGIES = {"dory": dory, "fuyu": fuyu, "mllama": mllama, "minimax_m3_vl_text": minimax_m3_vl_text,
               "gemma4_unified_text": gemma4_unified_text, "gemma4_unified_assistant": gemma4_unified_assistant,
               "gemma4_unified": gemma4_unified}
CONFIGS_Q: dict[str, st.SearchStrategy] = {model_type: _typed(model_type, strategy())
                                           for model_type, strategy in _STRATEGIES.items()}

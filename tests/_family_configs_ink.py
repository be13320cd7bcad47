"""Hypothesis strategies: random small configs for the Inkling types of set "ink" (docs/notes/decoders-ink.md).

Each spells the keys the way InklingTextConfig does (tests/_family_configs.py's style), with the spellings a
checkpoint uses (sconv_kernel_size, sliding_window, num_local_experts: its attribute_map) drawn too."""

from __future__ import annotations

from _family_configs_d import _typed, booleans
from hypothesis import strategies as st


def _heads(draw) -> tuple[int, int]:
    kv = draw(st.sampled_from([1, 2, 4]))
    return kv * draw(st.sampled_from([1, 2])), kv


@st.composite
def inkling_text(draw) -> dict:
    """Full and sliding layers at their own head counts and widths (layer_types, local_layer_ids or the default
    every-sixth pattern), dense and sparse MLPs (mlp_layer_types, dense_mlp_idx or all sparse), the experts' width
    (moe_intermediate_size, or intermediate_size beside dense_intermediate_size), shared experts (none too), the
    relative bank's sizes, the conv kernel, and keys that change no count (tying, unpadded_vocab_size, MTP)."""
    layers = draw(st.integers(1, 7))
    heads, kv = _heads(draw)
    swa_heads, swa_kv = _heads(draw)
    experts = draw(st.integers(1, 5))
    config = {"vocab_size": draw(st.integers(4, 200)), "hidden_size": draw(st.integers(1, 24)),
              "num_hidden_layers": layers, "num_attention_heads": heads, "num_key_value_heads": kv,
              "head_dim": draw(st.integers(1, 8)), "swa_num_attention_heads": swa_heads,
              "swa_num_key_value_heads": swa_kv, "swa_head_dim": draw(st.integers(1, 8)),
              "d_rel": draw(st.integers(1, 6)), "rel_extent": draw(st.integers(1, 12)),
              draw(st.sampled_from(["sliding_window_size", "sliding_window"])): draw(st.integers(1, 12)),
              draw(st.sampled_from(["conv_kernel_size", "sconv_kernel_size"])): draw(st.integers(1, 5)),
              "intermediate_size": draw(st.integers(1, 40)), "moe_intermediate_size": draw(st.integers(1, 16)),
              draw(st.sampled_from(["n_routed_experts", "num_local_experts"])): experts,
              "num_experts_per_tok": draw(st.integers(1, experts)), "n_shared_experts": draw(st.integers(0, 3))}
    placement = draw(st.sampled_from(["types", "local", "default"]))
    if placement == "types":
        config["layer_types"] = draw(st.lists(st.sampled_from(["hybrid", "hybrid_sliding"]), min_size=layers,
                                              max_size=layers))
    elif placement == "local":
        config["local_layer_ids"] = draw(st.lists(st.integers(0, layers - 1), max_size=layers, unique=True))
    mlp = draw(st.sampled_from(["types", "first", "default"]))
    if mlp == "types":
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    elif mlp == "first":
        config["dense_mlp_idx"] = draw(st.integers(0, layers))
    if draw(booleans):  # a checkpoint's dense width apart: intermediate_size is then the experts'
        config["dense_intermediate_size"] = draw(st.integers(1, 40))
    if draw(booleans):
        config.update(tie_word_embeddings=draw(booleans), unpadded_vocab_size=config["vocab_size"] - 1,
                      num_mtp_layers=draw(st.integers(1, 2)), log_scaling_n_floor=draw(st.integers(1, 8)))
    return config


@st.composite
def inkling_vision(draw) -> dict:
    """InklingVisionConfig: patch and temporal sizes of a few prime factors (2 or more: plan_out_scales builds no
    other), fewer layers than scales (scipy's assignment) or more (argmin), by either depth key; its own widths,
    which the whole config overrides (text_hidden_size) or no tensor reads (hidden_size, heads)."""
    config = {"patch_size": draw(st.sampled_from([2, 3, 4, 6, 8, 10, 12])),
              "temporal_patch_size": draw(st.sampled_from([2, 3, 4])),
              draw(st.sampled_from(["num_hidden_layers", "n_layers"])): draw(st.integers(1, 9)),
              "num_channels": draw(st.integers(1, 4))}
    if draw(booleans):
        config.update(text_hidden_size=draw(st.integers(1, 50)), hidden_size=draw(st.integers(1, 50)))
    return config


@st.composite
def inkling_audio(draw) -> dict:
    """InklingAudioConfig: the mel bins and their values, by either spelling (attribute_map)."""
    return {draw(st.sampled_from(["n_mel_bins", "num_codebooks"])): draw(st.integers(1, 6)),
            draw(st.sampled_from(["mel_vocab_size", "codebook_size"])): draw(st.integers(1, 8)),
            **({"text_hidden_size": draw(st.integers(1, 50))} if draw(booleans) else {})}


@st.composite
def inkling_mm_model(draw) -> dict:
    """The whole model: inkling_text's decoder as text_config, each tower's sub-config given or left to its class's
    defaults (the vision tower's 24 layers at patch 40), the MTP section and token ids (no tensor)."""
    config = {"text_config": {**draw(inkling_text()), "model_type": "inkling_text"}}
    for key, strategy in (("vision_config", inkling_vision()), ("audio_config", inkling_audio())):
        if draw(st.integers(0, 3)):
            config[key] = draw(strategy)
    if draw(booleans):
        config.update(mtp_config={"num_nextn_predict_layers": draw(st.integers(1, 3))}, image_token_id=3)
    return config


@st.composite
def inkling2_text(draw) -> dict:
    """Inkling 2's full and sliding layers at their own sizes (layer_types, or the default every-sixth pattern), layer 0
    of either type, routed experts on every layer by either key for the experts' width (intermediate_size is
    moe_intermediate_size) and count, a head of unpadded_vocab_size rows, the numerics that change no count."""
    layers = draw(st.integers(1, 7))
    heads, kv = _heads(draw)
    swa_heads, swa_kv = _heads(draw)
    experts = draw(st.integers(1, 5))
    vocab = draw(st.integers(4, 200))
    config = {"vocab_size": vocab, "unpadded_vocab_size": draw(st.integers(1, vocab)),
              "hidden_size": draw(st.integers(1, 24)), "num_hidden_layers": layers, "num_attention_heads": heads,
              "num_key_value_heads": kv, "head_dim": draw(st.integers(1, 8)), "swa_num_attention_heads": swa_heads,
              "swa_num_key_value_heads": swa_kv, "swa_head_dim": draw(st.integers(1, 8)),
              "d_rel": draw(st.integers(1, 6)), "rel_extent": draw(st.integers(1, 12)),
              draw(st.sampled_from(["sliding_window_size", "sliding_window"])): draw(st.integers(1, 12)),
              draw(st.sampled_from(["conv_kernel_size", "sconv_kernel_size"])): draw(st.integers(1, 5)),
              draw(st.sampled_from(["moe_intermediate_size", "intermediate_size"])): draw(st.integers(1, 16)),
              draw(st.sampled_from(["n_routed_experts", "num_local_experts"])): experts,
              "num_experts_per_tok": draw(st.integers(1, experts))}
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from(["hybrid", "hybrid_sliding"]), min_size=layers,
                                              max_size=layers))
    if draw(booleans):
        config.update(n_layers_per_attn_res_block=draw(st.integers(1, 4)), tie_word_embeddings=draw(booleans),
                      mlp_up_softcap=5.0)
    return config


@st.composite
def inkling2_loop_text(draw) -> dict:
    """Inkling 2's keys, and its looped layers: a block length, start and end multiples of it (start past 0, end at
    or past start, past the last layer too: message_input.query keeps end - start rows), passes and the gates' rank,
    by the loop_* keys or loop_config's."""
    config = draw(inkling2_text())
    block = draw(st.integers(1, 3))
    start = block * draw(st.integers(1, 3))
    end = start + block * draw(st.integers(0, 3))
    loop = {"loop_layer_index_start": start, "loop_layer_index_end": end,
            "loop_num_passes": draw(st.integers(1, 3)), "loop_gate_rank": draw(st.integers(1, 6))}
    config["n_layers_per_attn_res_block"] = block
    if draw(booleans):
        config["loop_config"] = {{"loop_layer_index_start": "core_start", "loop_layer_index_end": "core_end",
                                  "loop_num_passes": "num_passes", "loop_gate_rank": "gate_rank"}[key]: value
                                 for key, value in loop.items()}
    else:
        config.update(loop)
    return config


@st.composite
def inkling2_vision(draw, text_hidden: int) -> dict:
    """Inkling2VisionConfig: a small ViT (heads dividing the width), its MLP width given or from mlp_ratio, patch,
    merge and position grid by either spelling, the merger's width and biases; text_hidden_size the decoder's
    (Inkling2Config.validate_architecture refuses another)."""
    heads = draw(st.integers(1, 3))
    config = {"hidden_size": heads * draw(st.integers(1, 4)), "num_attention_heads": heads,
              "num_hidden_layers": draw(st.integers(1, 3)), "num_channels": draw(st.integers(1, 3)),
              draw(st.sampled_from(["patch_size", "native_patch_size"])): draw(st.integers(1, 4)),
              draw(st.sampled_from(["spatial_merge_size", "adapter_merge_size"])): draw(st.integers(1, 3)),
              "posemb_grid_size": draw(st.integers(1, 5)), "projection_hidden_dim": draw(st.integers(1, 12)),
              "projector_bias": draw(booleans), "text_hidden_size": text_hidden}
    if draw(booleans):
        config["intermediate_size"] = draw(st.integers(1, 20))
    else:
        config["mlp_ratio"] = draw(st.sampled_from([1.0, 2.5, 4.0]))  # 0 wide: refused as LFM2's
    return config


def _inkling2_whole(text_strategy, text_type: str):
    @st.composite
    def whole(draw) -> dict:
        """The whole model: the decoder as text_config, the vision tower at its width (or its class's defaults, at
        the decoder's width too)."""
        text = draw(text_strategy())
        config = {"text_config": {**text, "model_type": text_type}}
        if draw(st.integers(0, 3)):
            config["vision_config"] = draw(inkling2_vision(text["hidden_size"]))
        else:
            config["vision_config"] = {"text_hidden_size": text["hidden_size"], "num_hidden_layers": 1,
                                       "hidden_size": 8, "num_attention_heads": 2, "projection_hidden_dim": 8}
        return config
    return whole


_STRATEGIES = {"inkling_text": inkling_text, "inkling_mm_model": inkling_mm_model, "inkling2_text": inkling2_text,
               "inkling2_loop_text": inkling2_loop_text, "inkling2": _inkling2_whole(inkling2_text, "inkling2_text"),
               "inkling2_loop": _inkling2_whole(inkling2_loop_text, "inkling2_loop_text")}

CONFIGS_INK: dict[str, st.SearchStrategy] = {model_type: _typed(model_type, strategy())
                                             for model_type, strategy in _STRATEGIES.items()}

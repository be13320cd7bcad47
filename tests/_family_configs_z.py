"""Hypothesis strategies: random small configs for the decoder families of set Z (issue #15), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _typed, booleans
from hypothesis import strategies as st

from paramledger import families


@st.composite
def _latent(draw, heads: list[int]) -> dict:
    """One layer type's latent sizes (Dots3NoteTextConfig's names): heads = KV heads (validate_architecture), an even
    rotary key (the interleaved rotation pairs its channels)."""
    count = draw(st.sampled_from(heads))
    return {"num_attention_heads": count, "num_key_value_heads": count, "q_lora_rank": draw(st.integers(1, 12)),
            "kv_lora_rank": draw(st.integers(1, 12)), "qk_nope_head_dim": draw(st.integers(1, 8)),
            "qk_rope_head_dim": draw(st.sampled_from([2, 4, 6])), "v_head_dim": draw(st.integers(1, 8))}


@st.composite
def dots3_note_text(draw) -> dict:
    """Dots3NoteTextConfig: the main layers' latent sizes and indexer (head_dim free: it sizes the indexed rotary
    only), the sliding layers' sizes as the released swa_* keys (swa_qk_rope_head_dim spelt or left to swa_head_dim
    - nope) or as per_layer_config, the layer types given or left to the class (use_sliding_window, use_dsa), the
    dense layers by first_k_dense_replace or mlp_layer_types, the routing groups, biases and tying; index_topk at
    least the 24 tokens the slow checks run (transformers' eager attention masks the unselected keys but multiplies
    them all, where our FLOPs count the selected ones), as DeepSeek-V3.2's strategy does."""
    layers = draw(st.integers(1, 6))
    main = draw(_latent([1, 2, 4]))
    heads = main["num_attention_heads"]
    experts, groups = draw(st.integers(2, 6)), 1
    if experts % 2 == 0 and experts >= 4 and draw(booleans):
        groups = 2
    config = {"vocab_size": draw(st.integers(4, 300)), "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
              "num_hidden_layers": layers, "intermediate_size": draw(st.integers(1, 32)),
              "moe_intermediate_size": draw(st.integers(1, 16)), "n_routed_experts": experts, "n_group": groups,
              "topk_group": draw(st.integers(1, groups)), "num_experts_per_tok": draw(st.integers(1, 2)),
              "n_shared_experts": draw(st.integers(1, 2)),
              "shared_experts_intermediate_size": draw(st.integers(1, 12)), "attention_bias": draw(booleans),
              "tie_word_embeddings": draw(booleans), "head_dim": draw(st.integers(1, 16)),
              "index_n_heads": draw(st.integers(1, 4)), "index_topk": draw(st.integers(24, 64)),
              "sliding_window": draw(st.integers(2, 8)), **main}
    config["index_head_dim"] = main["qk_rope_head_dim"] + draw(st.integers(0, 6))
    if draw(booleans):
        config["first_k_dense_replace"] = draw(st.integers(0, 2))
    else:
        config["mlp_layer_types"] = draw(st.lists(st.sampled_from(["dense", "sparse"]), min_size=layers,
                                                  max_size=layers))
    swa = draw(_latent([1, 2, 4]))
    swa["head_dim"] = swa["qk_nope_head_dim"] + swa["qk_rope_head_dim"]
    full = draw(st.sampled_from(["indexed_attention", "full_attention"]))
    if draw(booleans):  # the layer types given: each main or sliding
        types = draw(st.lists(st.sampled_from([full, "sliding_attention"]), min_size=layers, max_size=layers))
        config["layer_types"] = types
    else:  # left to the class: use_sliding_window's pattern
        config["use_sliding_window"] = draw(booleans)
        types = [full if not config["use_sliding_window"] or i < 2 or i % 4 == 1 else "sliding_attention"
                 for i in range(layers)]
    if draw(booleans):  # the canonical form: per_layer_config (use_dsa then keeps the types as given, full beside
        # indexed ones too)
        types = [draw(st.sampled_from(["indexed_attention", "full_attention"])) if kind == full else kind
                 for kind in types]
        config["per_layer_config"] = {str(i): dict(swa) for i, kind in enumerate(types) if kind == "sliding_attention"}
        config["layer_types"] = types
    else:  # the released form: swa_* keys, use_dsa turning the main layers indexed (True) or full (False)
        config.update({f"swa_{key}": value for key, value in swa.items()})
        if draw(booleans):
            del config["swa_qk_rope_head_dim"]  # swa_head_dim - swa_qk_nope_head_dim
        if draw(booleans):
            config["use_dsa"] = draw(booleans)
        elif full == "full_attention" and "layer_types" in config:
            config["layer_types"] = ["indexed_attention" if kind == full else kind for kind in types]
    return config


@st.composite
def dots3_note_vision(draw, text_hidden: int) -> dict:
    """Dots3NoteVisionConfig: heads dividing the width (the adapter's input), dense or routed blocks as
    pyramid_num_routed (-1: dense) or mlp_layer_types with per-block expert counts, biases (no MLP bias beside
    experts: validate_architecture), the merge size, the adapter to the text width."""
    heads, blocks = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    width, merge = heads * draw(st.sampled_from([2, 4])), draw(st.integers(1, 2))
    config = {"hidden_size": width, "num_attention_heads": heads, "num_hidden_layers": blocks,
              "intermediate_size": draw(st.integers(1, 16)), "moe_intermediate_size": draw(st.integers(1, 8)),
              "num_channels": draw(st.integers(1, 3)), "patch_size": draw(st.integers(1, 3)),
              "spatial_merge_size": merge, "adapter_merge_size": merge, "adapter_in_dim": width,
              "adapter_out_dim": text_hidden, "attention_bias": draw(booleans)}
    counts = draw(st.lists(st.sampled_from([-1, 2, 3]), min_size=blocks, max_size=blocks))
    if draw(booleans):
        config["pyramid_num_routed"] = counts
    else:
        config["mlp_layer_types"] = ["sparse" if n > 0 else "dense" for n in counts]
        config["num_local_experts"] = draw(st.integers(2, 4))
        config["per_layer_config"] = {str(i): {"num_local_experts": n, "num_experts_per_tok": 1}
                                      for i, n in enumerate(counts) if n > 0 and draw(booleans)}
    config["mlp_bias"] = draw(booleans) if all(n <= 0 for n in counts) else False
    return config


@st.composite
def dots3_note_audio(draw, text_hidden: int) -> dict:
    """Dots3NoteAudioConfig, its own keys or the released whisper_config's: heads dividing the width (the adapter's
    input), the mel bins and the conv stem's channels, biases, the adapter to the text width."""
    heads = draw(st.integers(1, 3))
    width = heads * draw(st.sampled_from([2, 4]))
    sizes = {"hidden_size": width, "num_attention_heads": heads, "num_hidden_layers": draw(st.integers(1, 2)),
             "intermediate_size": draw(st.integers(1, 16)), "feature_size": draw(st.integers(1, 20))}
    config = {"downsample_hidden_size": draw(st.integers(1, 6)), "attention_bias": draw(booleans),
              "adapter_input_size": width, "adapter_out_dim": text_hidden}
    if draw(booleans):
        legacy = {own: name for name, own in (("d_model", "hidden_size"), ("encoder_attention_heads",
                  "num_attention_heads"), ("encoder_layers", "num_hidden_layers"), ("encoder_ffn_dim",
                  "intermediate_size"), ("num_mel_bins", "feature_size"))}
        return {**config, "whisper_config": {legacy[key]: value for key, value in sizes.items()}}
    return {**config, **sizes}


@st.composite
def dots3_note(draw) -> dict:
    """Dots3NoteConfig, the whole model: the text decoder as text_config or at the top level (the released form),
    the vision and audio towers, tied by the whole config's own key."""
    text = {"pad_token_id": 0, **draw(dots3_note_text())}
    hidden = text["hidden_size"]
    towers = {"vision_config": draw(dots3_note_vision(hidden)), "audio_config": draw(dots3_note_audio(hidden))}
    if draw(booleans):
        return {**text, **towers, "image_token_id": draw(st.integers(0, 3))}
    return {"text_config": text, **towers, "tie_word_embeddings": draw(booleans)}


_STRATEGIES = {"dots3_note_text": dots3_note_text, "dots3_note": dots3_note}
CONFIGS_Z: dict[str, st.SearchStrategy] = {model_type: _typed(model_type, strategy())
                                           for model_type, strategy in _STRATEGIES.items() if families.get(model_type)}

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
    dense layers by first_k_dense_replace or mlp_layer_types, the routing groups, biases and tying."""
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
              "index_n_heads": draw(st.integers(1, 4)), "index_topk": draw(st.integers(1, 8)),
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
    if draw(booleans):  # the canonical form: per_layer_config (use_dsa then keeps the types as given)
        config["per_layer_config"] = {str(i): dict(swa) for i, kind in enumerate(types) if kind == "sliding_attention"}
        if "layer_types" not in config:
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
def dots3_note(draw) -> dict:
    """Dots3NoteConfig as AutoModelForCausalLM reads it: the text decoder as text_config (the whole config's own
    tie_word_embeddings then unread) or at the top level (the released form); the vision and audio adapters' output
    width the text hidden_size (Dots3NoteConfig.validate_architecture refuses any other)."""
    text = {"pad_token_id": 0, **draw(dots3_note_text())}
    towers = {"vision_config": {"adapter_out_dim": text["hidden_size"]},
              "audio_config": {"adapter_out_dim": text["hidden_size"]}}
    if draw(booleans):
        return {**text, **towers, "image_token_id": draw(st.integers(0, 3))}
    return {"text_config": text, **towers, "tie_word_embeddings": draw(booleans)}


_STRATEGIES = {"dots3_note_text": dots3_note_text, "dots3_note": dots3_note}
CONFIGS_Z: dict[str, st.SearchStrategy] = {model_type: _typed(model_type, strategy())
                                           for model_type, strategy in _STRATEGIES.items() if families.get(model_type)}

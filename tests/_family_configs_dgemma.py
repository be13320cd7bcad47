"""Hypothesis strategies: random small configs for DiffusionGemma's whole model (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

from _family_configs_gemma4 import full_layer_shapes, gemma4_vision

booleans = st.booleans()
FULL, SLIDING = "full_attention", "sliding_attention"


@st.composite
def diffusion_gemma_text(draw) -> dict:
    """DiffusionGemmaTextConfig: width, depth, heads, KV heads and head_dim; the layer pattern given or by default
    (the last layer full either way), the full layers' shapes by the class default (global_head_dim,
    num_global_key_value_heads), given per attention type in per_layer_config, or none; the experts (always built:
    required), attention biases, bidirectional attention, logit softcapping, and sometimes text_config's own
    tie_word_embeddings (which the whole model does not read)."""
    heads = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))
    layers = draw(st.integers(1, 4))
    kv_heads = st.sampled_from([k for k in (1, 2, 3, 4, 6, 8) if heads % k == 0])
    head_dims = st.sampled_from([2, 4, 8, 16])
    experts = draw(st.integers(1, 8))
    config = {"vocab_size": draw(st.integers(4, 300)), "hidden_size": heads * draw(st.sampled_from([2, 4, 6, 8])),
              "num_hidden_layers": layers, "num_attention_heads": heads, "num_key_value_heads": draw(kv_heads),
              "head_dim": draw(head_dims), "intermediate_size": draw(st.integers(1, 48)), "pad_token_id": 0,
              "sliding_window": draw(st.integers(2, 64)), "attention_bias": draw(booleans),
              "use_bidirectional_attention": draw(st.sampled_from([None, "vision", "all"])),
              "final_logit_softcapping": draw(st.sampled_from([None, 30.0])),
              "num_experts": experts, "top_k_experts": draw(st.integers(1, experts)),
              "moe_intermediate_size": draw(st.integers(1, 24))}
    types = None
    if draw(booleans):
        types = draw(st.lists(st.sampled_from([FULL, SLIDING]), min_size=layers, max_size=layers))
        config["layer_types"] = types
    types = list(types or [FULL if (i + 1) % 6 == 0 else SLIDING for i in range(layers)])
    types[-1] = FULL  # DiffusionGemmaTextConfig forces it
    full_layer_shapes(draw, config, types, head_dims, kv_heads, ["default", "default", "given", "null"], False)
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


@st.composite
def diffusion_gemma(draw) -> dict:
    """DiffusionGemmaConfig: the text stack as text_config, Gemma 4's vision tower given, null or absent (the class
    builds its default either way), the whole config's tying (true: the decoder's stack is the encoder's; false: a
    copy) given both ways or left to the default, the canvas length (count-neutral)."""
    config = {"model_type": "diffusion_gemma", "text_config": draw(diffusion_gemma_text())}
    given = draw(st.sampled_from(["absent", "null", "given", "given", "given"]))
    if given != "absent":
        config["vision_config"] = None if given == "null" else draw(gemma4_vision())
    tie = draw(st.sampled_from([None, True, False]))
    if tie is not None:
        config["tie_word_embeddings"] = tie
    if draw(booleans):
        config["canvas_length"] = draw(st.integers(1, 64))
    return config


CONFIGS_DGEMMA = {"diffusion_gemma": diffusion_gemma()}

"""Hypothesis strategies: random small configs for the whole Qwen3-Omni-MoE (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_o import qwen3_omni_moe_thinker
from _family_configs_omni import HEAD_DIMS
from hypothesis import strategies as st

booleans = st.booleans()
small = st.integers(1, 8)


@st.composite
def _attention(draw, head_dim_given: bool) -> dict:
    """Heads, KV heads dividing them, a hidden size whose floored head_dim (hidden // heads) is even or at most 4 when
    no head_dim is given (an odd one above 4 is refused as validate_rope refuses it)."""
    heads = draw(st.integers(1, 4))
    head_dim = draw(HEAD_DIMS)
    config = {"num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([n for n in range(1, heads + 1) if heads % n == 0]))}
    if head_dim_given:
        return {**config, "hidden_size": draw(st.integers(1, 24)), "head_dim": head_dim}
    return {**config, "hidden_size": heads * head_dim + draw(st.integers(0, heads - 1))}


@st.composite
def q3omni_talker(draw) -> dict:
    """Qwen3OmniMoeTalkerConfig: its MoE text_config (the shared expert's width given: the class has none), its code
    predictor (a Qwen3 dense decoder, num_code_groups - 1 tables and heads), thinker_hidden_size, spatial_merge_size
    given (the class has none), its tying drawn."""
    text = {**draw(_attention(False)), "vocab_size": draw(st.integers(1, 40)),
            "intermediate_size": draw(st.integers(1, 24)), "num_hidden_layers": draw(st.integers(1, 3)),
            "moe_intermediate_size": draw(small), "shared_expert_intermediate_size": draw(small),
            "num_experts": draw(st.integers(1, 4)), "num_experts_per_tok": 1}
    if draw(booleans):  # every talker layer is MoE whatever these say (its decoder layer replaces the mlp)
        text["mlp_only_layers"] = [0]
        text["decoder_sparse_step"] = draw(st.integers(1, 3))
    predictor = {**draw(_attention(True)), "vocab_size": draw(st.integers(1, 40)),
                 "intermediate_size": draw(st.integers(1, 24)), "num_hidden_layers": draw(st.integers(1, 3)),
                 "num_code_groups": draw(st.integers(1, 5))}
    config = {"text_config": text, "code_predictor_config": predictor, "spatial_merge_size": 2,
              "thinker_hidden_size": draw(st.integers(1, 24)), "num_code_groups": predictor["num_code_groups"]}
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)  # ties codec_head to model.codec_embedding
    return config


@st.composite
def q3omni_code2wav(draw) -> dict:
    """Qwen3OmniMoeCode2WavConfig: the pre-transformer's sizes, the codebooks, the upsampling ratios and the decoder's
    rates (decoder_dim wide enough to halve once per rate)."""
    rates = [draw(st.integers(1, 4)) for _ in range(draw(st.integers(0, 3)))]
    return {**draw(_attention(False)), "codebook_size": draw(small), "num_quantizers": draw(st.integers(1, 4)),
            "intermediate_size": draw(st.integers(1, 24)), "num_hidden_layers": draw(st.integers(1, 3)),
            "attention_bias": draw(booleans), "upsample_rates": rates,
            "upsampling_ratios": [draw(st.integers(1, 3)) for _ in range(draw(st.integers(0, 2)))],
            "decoder_dim": draw(st.integers(1 << len(rates), 32))}


@st.composite
def qwen3_omni_moe(draw) -> dict:
    """Qwen3OmniMoeConfig: the MoE thinker's config in thinker_config, the talker's and code2wav's beside it,
    enable_audio_output drawn or left to the class (True)."""
    thinker = {key: value for key, value in draw(qwen3_omni_moe_thinker()).items() if key != "model_type"}
    config = {"model_type": "qwen3_omni_moe", "thinker_config": thinker, "talker_config": draw(q3omni_talker()),
              "code2wav_config": draw(q3omni_code2wav())}
    enabled = draw(st.one_of(st.none(), booleans))
    return config if enabled is None else {**config, "enable_audio_output": enabled}


CONFIGS_Q3OMNI: dict[str, st.SearchStrategy] = {"qwen3_omni_moe": qwen3_omni_moe()}

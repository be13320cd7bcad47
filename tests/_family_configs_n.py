"""Hypothesis strategies: random small configs for the families of set N (whole seq2seq models: BART and T5
lineages), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style).  A BART-lineage
whole model reads the same keys set J draws for its decoder, the encoder's own among them (encoder_layers,
encoder_attention_heads, encoder_ffn_dim), now read: set J's strategy, with architectures naming the whole model,
the decoder alone (XForCausalLM: counted as that class builds it) or nothing (the whole model)."""

from __future__ import annotations

from _family_configs_j import CONFIGS_J, bart_decoder
from hypothesis import strategies as st

from paramledger import families


def named(model_type: str) -> st.SearchStrategy:
    """Set J's config of ``model_type`` with its architectures drawn."""
    family = families.get(model_type)
    names = st.sampled_from([None, [family.seq2seq.whole_class], [family.causal_lm_class]])
    return st.tuples(CONFIGS_J[model_type], names).map(
        lambda drawn: drawn[0] if drawn[1] is None else {**drawn[0], "architectures": drawn[1]})


BART_LINEAGE = ("bart", "mbart", "marian", "pegasus", "blenderbot", "blenderbot-small", "plbart", "mvp",
                "bigbird_pegasus", "whisper")  # (Whisper's encoder: helper O's audio tower)

# M2M-100: BART's keys (no CausalLM: drawn whole); its sinusoidal table divides by d_model // 2 - 1 (no 2-wide one)
M2M_100 = bart_decoder("m2m_100").filter(lambda config: config["d_model"] > 2)

# LED: BART's keys, each stack's position table its own key (no CausalLM: drawn whole)
LED = bart_decoder("led", max_encoder_position_embeddings=st.integers(1, 64),
                   max_decoder_position_embeddings=st.integers(1, 64))

# FSMT: BART's keys but each stack's vocabulary its own (src_vocab_size, tgt_vocab_size; FSMTConfig has no
# vocab_size), pad_token_id 1 (its position tables' rows follow it)
FSMT = st.tuples(bart_decoder("fsmt"), st.integers(4, 300)).map(lambda drawn: {
    **{key: value for key, value in drawn[0].items() if key != "vocab_size"}, "pad_token_id": 1,
    "src_vocab_size": drawn[1], "tgt_vocab_size": drawn[0]["vocab_size"], "langs": ["en", "de"]})

CONFIGS_N: dict[str, st.SearchStrategy] = {
    **{model_type: named(model_type) for model_type in BART_LINEAGE}, "m2m_100": M2M_100, "led": LED,
    "fsmt": FSMT}

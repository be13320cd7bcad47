"""Hypothesis strategies: random small configs for set BLT (issue #15: BltForCausalLM), typed here.  Each spells the
keys the way the config classes do (configuration_blt.py: BltConfig and its four sub-configs)."""

from __future__ import annotations

from hypothesis import strategies as st

from paramledger import families

booleans = st.booleans()


@st.composite
def _stack(draw, encoder: bool = False, depth: tuple[int, int] = (0, 2)) -> dict:
    """A sub-config's sizes: heads dividing the width or not (head_dim is hidden_size // heads, even: RoPE's
    validation), KV heads dividing
    the heads or left to their class (null or 0: the heads), the FFN width or, where the class derives it, null or
    0 (the encoder's int(8 × hidden_size / 3), the others' by their ``or``)."""
    heads = draw(st.sampled_from([1, 2, 4]))
    hidden = heads * draw(st.sampled_from([2, 4, 8])) + draw(st.integers(0, heads - 1))  # head_dim even (RoPE)
    kv = draw(st.sampled_from([None, 0, *[n for n in (1, 2, 4) if heads % n == 0]]))
    config = {"hidden_size": hidden, "num_attention_heads": heads,
              "num_hidden_layers": draw(st.integers(*depth)), "intermediate_size": draw(st.integers(1, 24))}
    if kv is not None or draw(booleans):
        config["num_key_value_heads"] = kv
    if draw(booleans):
        config["intermediate_size"] = draw(st.sampled_from([None, 0] if encoder else [0]))
    return config


@st.composite
def blt(draw) -> dict:
    """BltConfig: each stack small, the cross-attention everywhere or once per local stack, cross_attn_k at the top
    (the global transformer's input projection, absent where encoder width × k is its width) and in each local
    stack (their patch projections), the decoder's hidden_size_global its own, the hash table's groups (null or
    empty: BltConfig's six) and functions, the patcher or none (patch_in_forward false or null), a head tied only
    where its shape is the table's."""
    encoder = {**draw(_stack(encoder=True, depth=(1, 2))), "vocab_size": draw(st.integers(4, 40)),
               "cross_attn_all_layers": draw(booleans), "cross_attn_k": draw(st.integers(1, 3))}
    decoder = {**draw(_stack()), "cross_attn_all_layers": draw(booleans), "cross_attn_k": draw(st.integers(1, 3)),
               "hidden_size_global": draw(st.integers(1, 24))}
    glob = draw(_stack())
    top_k = draw(st.integers(1, 3))
    if draw(booleans) and encoder["hidden_size"] * top_k % 2 == 0:  # no projection: the encoder's width × k
        glob = {**glob, "hidden_size": encoder["hidden_size"] * top_k, "num_attention_heads": 1,
                "num_key_value_heads": None}
    vocab = draw(st.integers(4, encoder["vocab_size"]))  # (more: refused, ids the table cannot read)
    config = {"model_type": "blt", "vocab_size": vocab, "cross_attn_k": top_k, "encoder_config": encoder,
              "decoder_config": decoder, "global_config": glob,
              "encoder_hash_byte_group_vocab": draw(st.integers(0, 30)),
              "encoder_hash_byte_group_nb_functions": draw(st.integers(0, 3)),
              "encoder_hash_byte_group_size": draw(st.sampled_from([None, [], [2], [3, 4, 5]])),
              "patch_in_forward": draw(st.sampled_from([True, True, False, None])),
              "patcher_config": {**draw(_stack()), "vocab_size": draw(st.integers(4, 40))}}
    if draw(booleans):  # the head tied: the table's shape (BltForCausalLM ties lm_head to it)
        config.update(tie_word_embeddings=True, vocab_size=encoder["vocab_size"])
        decoder.update(hidden_size=encoder["hidden_size"], num_attention_heads=encoder["num_attention_heads"],
                       num_key_value_heads=None)
    return config


_STRATEGIES = {"blt": blt}
CONFIGS_BLT: dict[str, st.SearchStrategy] = {model_type: strategy() for model_type, strategy in _STRATEGIES.items()
                                             if families.get(model_type)}

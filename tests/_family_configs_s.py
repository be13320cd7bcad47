"""Hypothesis strategies: random small configs for the families of set S (T5Gemma, PEGASUS-X and ProphetNet counted whole),
typed here.

T5GemmaConfig nests two T5GemmaModuleConfig sections, each spelt as that class spells it (Gemma 2's keys:
hidden_activation, head_dim often != hidden / heads, GQA, attention_bias, a window and layer_types or neither), the
encoder's and the decoder's drawn apart (their widths, vocabularies and depths differ: the cross-attention reads
the encoder's width); either section may be absent (the class defaults, Gemma 2 2B's sizes: drawn rarely, they are
large); tie_word_embeddings at the top (the head tied to the decoder's table) or absent.  PEGASUS-X: BART's keys
(set J's strategy) and its global tokens and local blocks (num_global_tokens from 0: an empty table).  ProphetNet:
ProphetNetConfig's keys (prophetnet below)."""

from __future__ import annotations

from _family_configs_j import bart_decoder
from hypothesis import strategies as st

booleans = st.booleans()
KINDS = ("sliding_attention", "full_attention")


@st.composite
def module(draw) -> dict:
    heads = draw(st.sampled_from([1, 2, 3, 4, 6, 8]))
    layers = draw(st.integers(1, 4))
    config = {"vocab_size": draw(st.integers(4, 300)), "hidden_size": heads * draw(st.sampled_from([2, 4, 6, 8])),
              "intermediate_size": draw(st.integers(1, 64)), "num_hidden_layers": layers,
              "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 3, 4, 6, 8) if heads % k == 0])),
              "head_dim": draw(st.sampled_from([2, 4, 6, 10, 16])),
              "hidden_activation": draw(st.sampled_from(["gelu_pytorch_tanh", "gelu", "silu"])),
              "attention_bias": draw(booleans), "pad_token_id": 0, "eos_token_id": 1, "bos_token_id": 2}
    if draw(booleans):
        config["sliding_window"] = draw(st.one_of(st.none(), st.integers(1, 64)))
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from(KINDS), min_size=layers, max_size=layers))
    return config


@st.composite
def t5gemma(draw) -> dict:
    config = {"model_type": "t5gemma", "pad_token_id": 0}
    for section in ("encoder", "decoder"):
        if draw(st.integers(0, 19)):  # (absent one time in twenty: T5GemmaModuleConfig's 2B-sized defaults)
            config[section] = draw(module())
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


PEGASUS_X = bart_decoder("pegasus_x", num_global_tokens=st.integers(0, 8), block_size=st.sampled_from([2, 4, 16]),
                         stagger_local_blocks=booleans)



@st.composite
def prophetnet(draw) -> dict:
    """ProphetNetConfig's keys: both stacks' heads dividing hidden_size (ProphetNetAttention asserts it), the
    n-gram count from 0 (an empty ngram_embeddings), the buckets, cross-attention on or off, tied or not."""
    decoder_heads, encoder_heads = draw(st.sampled_from([1, 2, 4])), draw(st.sampled_from([1, 2]))
    config = {"model_type": "prophetnet", "pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2,
              "decoder_start_token_id": 0, "vocab_size": draw(st.integers(4, 300)),
              "hidden_size": decoder_heads * encoder_heads * draw(st.sampled_from([2, 4, 8])),
              "num_decoder_layers": draw(st.integers(1, 4)), "num_decoder_attention_heads": decoder_heads,
              "decoder_ffn_dim": draw(st.integers(1, 64)), "num_encoder_layers": draw(st.integers(1, 3)),
              "num_encoder_attention_heads": encoder_heads, "encoder_ffn_dim": draw(st.integers(1, 32)),
              "max_position_embeddings": draw(st.integers(1, 64)), "ngram": draw(st.integers(0, 3)),
              "activation_function": draw(st.sampled_from(["gelu", "relu", "silu"]))}
    # (a bucket count below 2, or a max_distance of half of it, divides by zero in transformers' own
    # compute_relative_buckets: such configs build but never run)
    buckets = draw(st.integers(2, 16))
    config.update(num_buckets=buckets, relative_max_distance=draw(st.integers(buckets // 2 + 1, 40)))
    for key in ("add_cross_attention", "tie_word_embeddings"):
        if draw(booleans):
            config[key] = draw(booleans)
    return config


CONFIGS_S: dict[str, st.SearchStrategy] = {"t5gemma": t5gemma(), "pegasus_x": PEGASUS_X, "prophetnet": prophetnet()}

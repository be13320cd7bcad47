"""Hypothesis strategies: random small configs for the families of set TG (T5Gemma 2 counted whole), typed here.

T5Gemma2Config nests T5Gemma2EncoderConfig (text_config, a SigLIP vision_config, mm_tokens_per_image) and
T5Gemma2DecoderConfig, each text section spelt as T5Gemma2TextConfig spells it (Gemma 3's keys: hidden_activation,
head_dim often != hidden / heads, GQA, attention_bias, a window, layer_types or sliding_window_pattern); the two
stacks' depths, heads and FFN widths drawn apart, their width and vocabulary one (T5Gemma2Config refuses others);
either section may be absent (the class defaults: drawn rarely, they are large); tie_word_embeddings at the top
(the decoder's table and the head tied to the encoder's) or absent.  NeoMME: NeoMMEConfig's keys (neomme below)."""

from __future__ import annotations

from _family_configs_f import vit
from hypothesis import strategies as st

booleans = st.booleans()
KINDS = ("sliding_attention", "full_attention")


@st.composite
def text_section(draw, hidden: int, vocab: int) -> dict:
    """One T5Gemma2TextConfig / T5Gemma2DecoderConfig at ``hidden`` and ``vocab``: its heads dividing the width."""
    heads = draw(st.sampled_from([h for h in (1, 2, 3, 4, 6, 8) if hidden % h == 0]))
    layers = draw(st.integers(1, 4))
    config = {"vocab_size": vocab, "hidden_size": hidden, "intermediate_size": draw(st.integers(1, 64)),
              "num_hidden_layers": layers, "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 3, 4, 6, 8) if heads % k == 0])),
              "head_dim": draw(st.sampled_from([2, 4, 6, 10, 16])),
              "hidden_activation": draw(st.sampled_from(["gelu_pytorch_tanh", "gelu", "silu"])),
              "attention_bias": draw(booleans), "pad_token_id": 0, "eos_token_id": 1, "bos_token_id": 2}
    if draw(booleans):
        config["sliding_window"] = draw(st.one_of(st.none(), st.integers(1, 64)))
    pattern = draw(st.integers(0, 2))
    if pattern == 1:
        config["layer_types"] = draw(st.lists(st.sampled_from(KINDS), min_size=layers, max_size=layers))
    elif pattern == 2:
        config["sliding_window_pattern"] = draw(st.integers(1, 4))
    return config


@st.composite
def t5gemma2(draw) -> dict:
    config = {"model_type": "t5gemma2"}
    if draw(st.integers(0, 19)):  # (absent one time in twenty: the class defaults, a 2.3-billion-wide pair)
        hidden, vocab = draw(st.sampled_from([8, 12, 24, 48])), draw(st.integers(4, 300))
        encoder: dict = {}
        if draw(st.integers(0, 9)):
            encoder["text_config"] = draw(text_section(hidden, vocab))
        else:  # the encoder's text at its defaults: the decoder's width and vocabulary too
            hidden, vocab = 2304, 262208
        if draw(st.integers(0, 9)):
            encoder["vision_config"] = {**draw(vit("siglip_vision_model")), "vision_use_head": draw(booleans)}
        if draw(booleans):
            encoder["mm_tokens_per_image"] = draw(st.integers(1, 16))
        config["encoder"] = encoder
        if hidden != 2304 or draw(booleans):
            config["decoder"] = draw(text_section(hidden, vocab))
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


@st.composite
def neomme(draw) -> dict:
    """NeoMMEConfig: KV heads dividing the heads, a factorized table of any rank, head_dim a multiple of 16 (the
    full layers rotate a quarter of it, a multiple of 4) or a rotated share drawn, the patch stem, both biases,
    layer_types holding a full layer (or NeoMMEConfig's default), the window, tying."""
    heads = draw(st.sampled_from([1, 2, 4, 6]))
    layers = draw(st.integers(1, 5))
    config = {"model_type": "neomme", "vocab_size": draw(st.integers(8, 300)),
              "embedding_rank": draw(st.integers(1, 40)), "hidden_size": draw(st.integers(1, 12)) * 4,
              "intermediate_size": draw(st.integers(1, 64)), "num_hidden_layers": layers,
              "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 3, 6) if heads % k == 0])),
              "head_dim": draw(st.sampled_from([16, 32])), "patch_size": draw(st.integers(1, 4)),
              "attention_bias": draw(booleans), "mlp_bias": draw(booleans), "pad_token_id": 0,
              "max_position_embeddings": 64}
    if draw(booleans):
        kinds = draw(st.lists(st.sampled_from(KINDS), min_size=layers, max_size=layers))
        kinds[draw(st.integers(0, layers - 1))] = "full_attention"
        config["layer_types"] = kinds
    if draw(booleans):
        config["sliding_window"] = draw(st.integers(1, 64))
    if draw(booleans):  # a share of the head rotated per layer type (4 or 8 of 16, all of it)
        config["rope_parameters"] = {"full_attention": {"rope_type": "default", "partial_rotary_factor":
                                                        draw(st.sampled_from([0.25, 0.5, 1.0]))},
                                     "sliding_attention": {"rope_type": "default", "partial_rotary_factor":
                                                           draw(st.sampled_from([0.5, 1.0]))}}
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


CONFIGS_TG: dict[str, st.SearchStrategy] = {"t5gemma2": t5gemma2(), "neomme": neomme()}

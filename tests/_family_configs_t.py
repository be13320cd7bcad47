"""Hypothesis strategies: random small configs for the families of set T (XLM's code: xlm, flaubert), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _typed, booleans
from hypothesis import strategies as st

CONFIGS_T: dict[str, st.SearchStrategy] = {}


@st.composite
def xlm(draw) -> dict:
    """XLMConfig: its own size keys or Hugging Face's (its attribute_map), a language table by n_langs and
    use_lang_emb (none at one language or fewer), gelu or relu, the count-neutral switches (sinusoidal positions fill
    the table, causal changes the mask), the adaptive softmax off and the model an encoder (both refused else)."""
    heads = draw(st.sampled_from([1, 2, 4]))
    sizes = {"emb_dim": heads * draw(st.sampled_from([1, 2, 4, 8])), "n_layers": draw(st.integers(1, 4)),
             "n_heads": heads, "vocab_size": draw(st.integers(4, 300))}
    if draw(booleans):
        sizes = dict(zip(("hidden_size", "num_hidden_layers", "num_attention_heads", "n_words"), sizes.values()))
    config = {**sizes, "max_position_embeddings": draw(st.integers(1, 64)), "n_langs": draw(st.integers(0, 4)),
              "use_lang_emb": draw(booleans), "gelu_activation": draw(booleans),
              "sinusoidal_embeddings": draw(booleans), "causal": draw(booleans),
              "tie_word_embeddings": draw(booleans)}
    if draw(booleans):
        config.update(asm=False, is_encoder=True)
    return config


@st.composite
def flaubert(draw) -> dict:
    """FlaubertConfig: XLM's keys, the norms before or after their sublayers, layerdrop (training only)."""
    return {**draw(xlm()), "pre_norm": draw(booleans), "layerdrop": draw(st.sampled_from([0.0, 0.2]))}


CONFIGS_T.update({"xlm": _typed("xlm", xlm()), "flaubert": _typed("flaubert", flaubert())})

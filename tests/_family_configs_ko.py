"""Hypothesis strategies: random small configs for the whole multimodal families of set KO (issue #16: Kosmos-2),
typed here.  Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_f import vit
from _family_configs_l import whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def kosmos2_text(draw) -> dict:
    """Kosmos2TextConfig, its own key names: heads dividing embed_dim (KosmosTextAttention refuses the rest), at
    least 4 wide (the sinusoid divides by embed_dim / 2 - 1), the table's rows, tying, the pad row or none (a pad id
    past the sinusoid's rows fails a real build)."""
    heads = draw(st.integers(1, 4))
    config = {"vocab_size": draw(st.integers(4, 300)), "embed_dim": heads * draw(st.integers(1, 6)),
              "attention_heads": heads, "layers": draw(st.integers(1, 3)), "ffn_dim": draw(st.integers(1, 32)),
              "max_position_embeddings": draw(st.integers(1, 64)), "tie_word_embeddings": draw(booleans),
              "scale_embedding": draw(booleans), "pad_token_id": draw(st.sampled_from([None, 0, 1]))}
    if config["embed_dim"] < 4:
        config["embed_dim"] = 4 * heads
    return config


@st.composite
def pix2struct_text(draw) -> dict:
    """Pix2StructTextConfig: num_heads × d_kv = hidden_size (its forward splits the hidden_size-wide projections so),
    the first block's relative table, the gated feed-forward's width and activation."""
    heads, width = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    return {"vocab_size": draw(st.integers(4, 300)), "hidden_size": heads * width, "num_heads": heads, "d_kv": width,
            "num_layers": draw(st.integers(1, 3)), "d_ff": draw(st.integers(1, 32)),
            "relative_attention_num_buckets": draw(st.integers(2, 8)),  # (1: the forward divides by zero)
            "dense_act_fn": draw(st.sampled_from(["gelu_new", "relu"]))}


@st.composite
def pix2struct_vision(draw) -> dict:
    """Pix2StructVisionConfig: any heads × d_kv (its projections are that wide), the patch input's width, the row
    and column tables' rows."""
    return {"model_type": "pix2struct_vision_model", "hidden_size": draw(st.integers(1, 16)),
            "num_attention_heads": draw(st.integers(1, 4)), "d_kv": draw(st.integers(1, 6)),
            "d_ff": draw(st.integers(1, 32)), "num_hidden_layers": draw(st.integers(1, 3)),
            "seq_len": draw(st.integers(1, 32)), "patch_embed_hidden_size": draw(st.integers(1, 16))}


CONFIGS_KO: dict[str, st.SearchStrategy] = {
    "kosmos-2": whole("kosmos-2", "kosmos_2_text_model", kosmos2_text(), vit("kosmos_2_vision_model"),
                      latent_query_num=st.integers(1, 8)),
    "pix2struct": whole("pix2struct", "pix2struct_text_model", pix2struct_text(), pix2struct_vision(),
                        is_vqa=booleans),
}

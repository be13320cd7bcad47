"""Hypothesis strategies: random small configs for the whole GIT and Janus models of set U (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_l import _set, whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def git_vision(draw) -> dict:
    """GitVisionConfig: heads dividing the width, an image of whole and part patches (the grid floors), the model_type
    given, another or left out (GitConfig builds a GitVisionConfig whatever it says), a stray head_dim it ignores."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    config = {"hidden_size": heads * draw(st.integers(1, 6)), "num_attention_heads": heads,
              "num_hidden_layers": draw(st.integers(1, 2)), "intermediate_size": draw(st.integers(1, 32)),
              "num_channels": draw(st.integers(1, 3)), "patch_size": patch,
              "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)),
              "hidden_act": draw(st.sampled_from(["quick_gelu", "gelu"]))}
    kind = draw(st.sampled_from([None, "git_vision_model", "clip_vision_model"]))
    if kind is not None:
        config["model_type"] = kind
    if draw(st.integers(0, 5)) == 0:
        config["head_dim"] = 7
    return config


@st.composite
def git(draw) -> dict:
    """GitConfig: the decoder's keys at the top (heads dividing the width: GitSelfAttention refuses others), learned
    positions, tying, the temporal embeddings of a video model (null, 0 to 3, or left out), the tower."""
    heads = draw(st.sampled_from([1, 2, 4]))
    config = {"model_type": "git", "vocab_size": draw(st.integers(4, 300)), "num_attention_heads": heads,
              "hidden_size": heads * draw(st.sampled_from([2, 4, 8])), "num_hidden_layers": draw(st.integers(1, 4)),
              "intermediate_size": draw(st.integers(1, 64)), "max_position_embeddings": draw(st.integers(12, 64)),
              "hidden_act": draw(st.sampled_from(["gelu", "relu"])), "pad_token_id": 0,
              "hidden_dropout_prob": draw(st.sampled_from([0.0, 0.1])),
              "attention_probs_dropout_prob": draw(st.sampled_from([0.0, 0.1])),
              "vision_config": draw(git_vision())}
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    frames = draw(st.one_of(st.just("absent"), st.none(), st.integers(0, 3)))
    if frames != "absent":
        config["num_image_with_embedding"] = frames
    return config


@st.composite
def janus_vision(draw) -> dict:
    """JanusVisionConfig: heads dividing the width, an image of whole and part patches (the grid floors), an MLP
    ratio (the width is int(hidden × ratio)), both switches, the aligner's width and depth (0 and 1: fc1 alone)."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    return {"model_type": "janus_vision_model", "hidden_size": heads * draw(st.integers(1, 4)) * 2,
            "num_attention_heads": heads, "num_hidden_layers": draw(st.integers(1, 2)),
            "num_channels": draw(st.integers(1, 3)), "patch_size": patch,
            "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1)),
            "mlp_ratio": draw(st.sampled_from([0.5, 1, 2.5, 4.0])), "attention_bias": draw(booleans),
            "use_qk_norm": draw(booleans), "projection_dim": draw(st.integers(1, 16)), "depth": draw(st.integers(0, 3))}


@st.composite
def janus_vq(draw) -> dict:
    """JanusVQVAEConfig: channels the 32 GroupNorm groups divide, one to three resolutions (attention blocks at the
    last, shortcuts where a multiplier changes the width), 0 to 2 blocks, double_latent, the codebook and the
    generation aligner's and head's widths."""
    return {"model_type": "janus_vqgan", "base_channels": draw(st.sampled_from([32, 64])),
            "channel_multiplier": draw(st.lists(st.integers(1, 2), min_size=1, max_size=3)),
            "num_res_blocks": draw(st.integers(0, 2)), "latent_channels": draw(st.integers(1, 8)),
            "double_latent": draw(booleans), "embed_dim": draw(st.integers(1, 6)),
            "num_embeddings": draw(st.integers(1, 40)), "in_channels": draw(st.integers(1, 3)),
            "out_channels": draw(st.integers(1, 3)), "projection_dim": draw(st.integers(1, 16)),
            "num_hidden_layers": draw(st.integers(0, 3)), "image_token_embed_dim": draw(st.integers(1, 16))}


CONFIGS_U: dict[str, st.SearchStrategy] = {
    "git": git(),
    "janus": st.tuples(whole("janus", "llama", _set("llama"), janus_vision()), janus_vq()).map(
        lambda drawn: {**drawn[0], "vq_config": drawn[1]}),
}

"""Hypothesis strategies: random small configs for the whole GIT model of set U (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

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


CONFIGS_U: dict[str, st.SearchStrategy] = {"git": git()}

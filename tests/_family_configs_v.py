"""Hypothesis strategies: random small configs for the whole BLIP-2 family of set V (issue #16), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_l import _set, whole
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def blip_vision(draw, model_type: str = "blip_2_vision_model") -> dict:
    """Blip2VisionConfig: heads dividing the width, an image of whole and part patches (the grid floors), the qkv
    bias either way or left to its default."""
    heads, patch = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    config = {"model_type": model_type, "hidden_size": heads * draw(st.integers(1, 6)),
              "num_attention_heads": heads, "num_hidden_layers": draw(st.integers(1, 2)),
              "intermediate_size": draw(st.integers(1, 32)), "patch_size": patch,
              "image_size": patch * draw(st.integers(1, 4)) + draw(st.integers(0, patch - 1))}
    if draw(booleans):
        config["qkv_bias"] = draw(booleans)
    return config


@st.composite
def qformer(draw, model_type: str = "blip_2_qformer", text_input: bool = True) -> dict:
    """Blip2QFormerConfig: heads dividing the width, 0 to 4 layers with cross-attention every 1 to 3 (layer 0
    always has it), the text path either way; a stray encoder_hidden_size (Blip2Config sets it to the tower's)."""
    heads = draw(st.integers(1, 3))
    config = {"model_type": model_type, "hidden_size": heads * draw(st.integers(1, 6)),
              "num_attention_heads": heads, "num_hidden_layers": draw(st.integers(0, 4)),
              "intermediate_size": draw(st.integers(1, 32)), "cross_attention_frequency": draw(st.integers(1, 3)),
              "vocab_size": draw(st.integers(1, 50)), "max_position_embeddings": draw(st.integers(1, 40)),
              "encoder_hidden_size": draw(st.integers(1, 9))}
    if text_input and draw(booleans):
        config["use_qformer_text_input"] = draw(booleans)
    return config


def blip2_like(model_type: str, vision_type: str, qformer_type: str, text_input: bool,
               text_types: tuple[str, ...] = ("opt",)) -> st.SearchStrategy:
    """The whole config: a text_config of one of ``text_types``, the tower, the Q-Former, the query tokens (or
    their default)."""
    wholes = st.one_of(*(whole(model_type, text, _set(text), blip_vision(vision_type)) for text in text_types))
    return st.tuples(wholes, qformer(qformer_type, text_input), st.one_of(st.none(), st.integers(0, 5))).map(
        lambda drawn: {**drawn[0], "qformer_config": drawn[1],
                       **({} if drawn[2] is None else {"num_query_tokens": drawn[2]})})


CONFIGS_V: dict[str, st.SearchStrategy] = {
    "blip-2": blip2_like("blip-2", "blip_2_vision_model", "blip_2_qformer", True),
    # (InstructBlipQFormerConfig has no use_qformer_text_input: its text path is always built)
    "instructblip": blip2_like("instructblip", "instructblip_vision_model", "instructblip_qformer", False,
                               ("opt", "llama")),
    "instructblipvideo": blip2_like("instructblipvideo", "instructblipvideo_vision_model",
                                    "instructblipvideo_qformer", False, ("opt", "llama")),
}


@st.composite
def blip(draw) -> dict:
    """BlipConfig: BLIP's tower (BLIP-2's draw, a stray qkv_bias its class ignores), a BERT-like text_config with
    is_decoder and a stray encoder_hidden_size (BlipConfig sets it to the tower's width), tying at either level, each
    drawn or left to the class default."""
    heads = draw(st.integers(1, 3))
    text = {"vocab_size": draw(st.integers(1, 60)), "hidden_size": heads * draw(st.integers(1, 6)),
            "num_attention_heads": heads, "num_hidden_layers": draw(st.integers(1, 3)),
            "intermediate_size": draw(st.integers(1, 32)), "max_position_embeddings": draw(st.integers(1, 40)),
            **dict.fromkeys(("pad_token_id", "bos_token_id", "sep_token_id", "eos_token_id"), 0)}
    for key, values in (("is_decoder", booleans), ("encoder_hidden_size", st.integers(1, 9)),
                        ("tie_word_embeddings", booleans)):
        if draw(booleans):
            text[key] = draw(values)
    config = {"model_type": "blip", "text_config": text, "vision_config": draw(blip_vision("blip_vision_model"))}
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


@st.composite
def chameleon(draw) -> dict:
    """ChameleonConfig (flat): a small Llama decoder (MHA or GQA, its biases, swin_norm, tying), the vocabulary map
    ChameleonModel reads, and a small vq_config: 32 or 64 base channels (the GroupNorms' 32 groups), 1 to 3
    resolutions, attention where attn_resolutions lists a resolution's size and attn_type is vanilla."""
    heads = draw(st.sampled_from([1, 2, 4]))
    config = {"model_type": "chameleon", "vocab_size": draw(st.integers(2, 60)),
              "hidden_size": heads * draw(st.sampled_from([2, 4, 8])), "num_attention_heads": heads,
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
              "num_hidden_layers": draw(st.integers(1, 3)), "intermediate_size": draw(st.integers(1, 32)),
              "vocabulary_map": {"<image>": 0}, **{key: draw(booleans) for key in ("attention_bias", "mlp_bias",
                                                                                    "swin_norm", "tie_word_embeddings")}}
    levels = draw(st.integers(1, 3))
    resolution = draw(st.sampled_from([8, 16, 32]))
    vq = {"base_channels": draw(st.sampled_from([32, 64])), "channel_multiplier": draw(st.lists(
              st.integers(1, 2), min_size=levels, max_size=levels)), "num_res_blocks": draw(st.integers(0, 2)),
          "resolution": resolution, "embed_dim": draw(st.integers(1, 8)), "num_embeddings": draw(st.integers(1, 16)),
          "latent_channels": draw(st.integers(1, 8)), "in_channels": draw(st.integers(1, 3)),
          "double_latent": draw(booleans), "attn_type": draw(st.sampled_from(["vanilla", "none"]))}
    if draw(booleans):
        vq["attn_resolutions"] = draw(st.lists(st.sampled_from([resolution, resolution // 2, resolution // 4]),
                                               max_size=2))
    return {**config, "vq_config": vq}


# BLIP is no BLIP-2 (no Q-Former, a decoder of its own), nor Chameleon: apart from CONFIGS_V, whose tests are BLIP-2's
CONFIGS_BLIP = {"blip": blip(), "chameleon": chameleon()}

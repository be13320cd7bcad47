"""Hypothesis strategies: random small configs for the whole families of set UDOP (issue #16), typed here.

UDOP: T5's keys (tests/_family_configs_r.py's t5 draw) plus UdopConfig's own: the image and patch sizes (an int or
[height, width], the patch within the image), num_channels, max_2d_position_embeddings and relative_bias_args (one
to four tables of any type, with their own buckets, prefix_bucket, expand and the keywords that size nothing).
PP-FormulaNet: GOT-OCR 2.0's SAM tower draw with the projector's four widths, an MBart decoder's keys as
PPFormulaNetTextConfig spells them (no encoder_ffn_dim), either section sometimes absent (its class defaults).
PI0: vlm_config (a PaliGemma config: a small SigLIP, a small Gemma, projection_dim; its sections sometimes absent)
and dit_config (a small Gemma; its vocabulary whatever it says is the VLM's), the action and state widths; either
section sometimes absent (PI0Config's defaults: 3.5 billion on the meta device, drawn rarely)."""

from __future__ import annotations

from _family_configs_e import SIGLIP, TEXT
from _family_configs_j import bart_decoder
from _family_configs_l import got_ocr2_vision
from _family_configs_r import t5
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def _bias(draw, heads: int) -> dict:
    entry = {"type": draw(st.sampled_from(["1d", "horizontal", "vertical"]))}
    if draw(booleans):
        entry["relative_attention_num_buckets"] = draw(st.integers(1, 40))
    for key in ("prefix_bucket", "expand"):
        if draw(booleans):
            entry[key] = draw(booleans)
    if draw(booleans):
        entry["num_heads"] = heads
    if draw(booleans):
        entry["max_distance"] = draw(st.integers(1, 200))
    return entry


@st.composite
def udop(draw) -> dict:
    config = draw(t5("udop"))
    config["feed_forward_proj"] = draw(st.sampled_from(["relu", "gated-gelu", "gated-silu", "gelu"]))
    height, width = draw(st.integers(1, 64)), draw(st.integers(1, 64))
    patch = (draw(st.integers(1, height)), draw(st.integers(1, width)))
    if draw(booleans):
        config["image_size"], config["patch_size"] = [height, width], list(patch)
    else:
        side = min(height, width)
        config["image_size"], config["patch_size"] = side, draw(st.integers(1, side))
    if draw(booleans):
        config["num_channels"] = draw(st.integers(1, 4))
    if draw(booleans):
        config["max_2d_position_embeddings"] = draw(st.integers(1, 100))
    if draw(booleans):
        config["relative_bias_args"] = draw(st.lists(_bias(config["num_heads"]), min_size=1, max_size=4))
    return config


@st.composite
def pp_formulanet(draw) -> dict:
    config: dict = {"model_type": "pp_formulanet"}
    if draw(st.integers(0, 9)):
        vision = {**draw(got_ocr2_vision()), "model_type": "pp_formulanet_vision"}
        for key in ("post_conv_in_channels", "post_conv_mid_channels", "post_conv_out_channels",
                    "decoder_hidden_size"):
            vision[key] = draw(st.integers(1, 24))
        config["vision_config"] = vision
    if draw(st.integers(0, 9)):
        text = draw(bart_decoder("pp_formulanet_text"))
        del text["encoder_ffn_dim"]
        config["text_config"] = text
    return config


@st.composite
def pi0(draw) -> dict:
    config: dict = {"model_type": "pi0"}
    if draw(st.integers(0, 9)):
        vlm: dict = {"model_type": "paligemma"}
        if draw(st.integers(0, 9)):
            vlm["text_config"] = draw(TEXT["gemma"])
        if draw(st.integers(0, 4)):
            vlm["vision_config"] = draw(SIGLIP)
        if draw(booleans):
            vlm["projection_dim"] = draw(st.integers(1, 40))
        config["vlm_config"] = vlm
    if draw(st.integers(0, 9)):
        dit = {key: value for key, value in draw(TEXT["gemma"]).items() if key != "vocab_size" or draw(booleans)}
        dit["hidden_size"] += dit["hidden_size"] % 2  # (PI0Config.validate_architecture: an even width)
        config["dit_config"] = dit
    for key in ("max_action_dim", "max_state_dim", "chunk_size"):
        if draw(booleans):
            config[key] = draw(st.integers(1, 40))
    return config


CONFIGS_UDOP: dict[str, st.SearchStrategy] = {"udop": udop(), "pp_formulanet": pp_formulanet(), "pi0": pi0()}

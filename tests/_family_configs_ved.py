"""Hypothesis strategies: random small configs for helper VED, VisionEncoderDecoderModel, typed here.

The encoder a ViT or a DeiT (ViTConfig's keys: image_size and patch_size an int or a pair, qkv_bias, a
pooler_output_size or none, head_dim given or not) or Donut's Swin or Swin (stages, windows, mlp_ratio, absolute
positions),
the decoder any type paramledger reads with cross-attention: set ED's BERT-code decoders and GPT-2 with
add_cross_attention, TrOCR, MBart and BART (set J's); the two widths drawn apart
(enc_to_dec_proj where they differ), a cross_attention_hidden_size equal to the encoder's width or none."""

from __future__ import annotations

from _family_configs_ed import STRATEGIES, TYPES, gpt2
from _family_configs_j import CONFIGS_J, with_cross_attention
from hypothesis import strategies as st

booleans = st.booleans()


@st.composite
def vit(draw, model_type: str) -> dict:
    heads = draw(st.sampled_from([1, 2, 3, 4]))
    config = {"model_type": model_type, "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
              "num_hidden_layers": draw(st.integers(1, 2)), "num_attention_heads": heads,
              "intermediate_size": draw(st.integers(1, 24)), "num_channels": draw(st.integers(1, 3)),
              "qkv_bias": draw(booleans), "pooler_output_size": draw(st.one_of(st.none(), st.integers(1, 12)))}
    patch = draw(st.integers(1, 8))
    if draw(booleans):
        config["image_size"] = draw(st.integers(patch, 3 * patch + 2))
        config["patch_size"] = patch
    else:
        config["patch_size"] = [patch, draw(st.integers(1, 8))]
        config["image_size"] = [draw(st.integers(patch, 24)), draw(st.integers(config["patch_size"][1], 24))]
    if draw(booleans):
        config["head_dim"] = draw(st.integers(1, 6))
    return config


@st.composite
def donut_swin(draw, model_type: str = "donut-swin") -> dict:
    """DonutSwinConfig's keys: each stage's heads dividing its width (embed_dim × 2^i), positions drawn."""
    stages = draw(st.integers(1, 3))
    embed = draw(st.sampled_from([2, 4, 6, 8]))
    heads = [draw(st.sampled_from([h for h in (1, 2, 4) if (embed * 2 ** i) % h == 0])) for i in range(stages)]
    patch = draw(st.integers(1, 4))
    return {"model_type": model_type, "embed_dim": embed, "depths": [draw(st.integers(1, 2)) for _ in range(stages)],
            "num_heads": heads, "window_size": draw(st.integers(1, 4)), "mlp_ratio": draw(st.sampled_from([1.0, 2.5, 4.0])),
            "qkv_bias": draw(booleans), "use_absolute_embeddings": draw(booleans), "num_channels": draw(st.integers(1, 3)),
            "patch_size": patch, "image_size": draw(st.one_of(st.integers(patch, 24),
                                                              st.lists(st.integers(patch, 24), min_size=2, max_size=2)))}


DECODERS = {**{kind: with_cross_attention(STRATEGIES[kind]) for kind in TYPES}, "trocr": CONFIGS_J["trocr"],
            "gpt2": gpt2(), "mbart": CONFIGS_J["mbart"], "bart": CONFIGS_J["bart"]}


@st.composite
def vision_encoder_decoder(draw) -> dict:
    kind = draw(st.sampled_from(["vit", "deit", "donut-swin", "swin"]))
    swin = kind in ("donut-swin", "swin")
    encoder = draw(donut_swin(kind) if swin else vit(kind))
    width = encoder["embed_dim"] * 2 ** (len(encoder["depths"]) - 1) if swin else encoder["hidden_size"]
    decoder = draw(DECODERS[draw(st.sampled_from(sorted(DECODERS)))])
    decoder.pop("cross_attention_hidden_size", None)
    if decoder["model_type"] != "gpt2" and draw(booleans):  # (GPT-2 reads no such key: its keys are n_embd wide)
        decoder["cross_attention_hidden_size"] = width
    return {"model_type": "vision-encoder-decoder", "encoder": encoder, "decoder": decoder,
            "decoder_start_token_id": 0, "pad_token_id": 0}


@st.composite
def florence_vision(draw) -> dict:
    """Florence2VisionConfig's per-stage lists, each stage's heads and groups dividing its width."""
    stages = draw(st.integers(1, 3))
    widths = [draw(st.sampled_from([2, 4, 6, 8])) for _ in range(stages)]
    return {"embed_dim": widths, "depths": [draw(st.integers(1, 2)) for _ in widths],
            "num_heads": [draw(st.sampled_from([h for h in (1, 2) if w % h == 0])) for w in widths],
            "num_groups": [draw(st.sampled_from([g for g in (1, 2) if w % g == 0])) for w in widths],
            "patch_size": [draw(st.integers(1, 3)) for _ in widths], "patch_stride": [draw(st.integers(1, 2)) for _ in widths],
            "patch_padding": [draw(st.integers(0, 1)) for _ in widths], "patch_prenorm": [draw(booleans) for _ in widths],
            "in_channels": draw(st.integers(1, 3)), "window_size": draw(st.integers(1, 4)),
            "mlp_ratio": draw(st.sampled_from([1.0, 2.5, 4.0])), "qkv_bias": draw(booleans),
            "projection_dim": draw(st.integers(1, 16)), "max_position_embeddings": draw(st.integers(1, 8)),
            "max_temporal_embeddings": draw(st.integers(1, 8))}


@st.composite
def florence2(draw) -> dict:
    """A DaViT tower beside a BART text_config (set J's, its stacks' tables tied as BartModel ties them by default),
    the whole config's tie_word_embeddings drawn (lm_head tied to the shared table, or its own)."""
    text = {**draw(CONFIGS_J["bart"]), "tie_word_embeddings": True}
    config = {"model_type": "florence2", "vision_config": draw(florence_vision()), "text_config": text}
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


CONFIGS_VED: dict[str, st.SearchStrategy] = {"vision-encoder-decoder": vision_encoder_decoder(), "florence2": florence2()}

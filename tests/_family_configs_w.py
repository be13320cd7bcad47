"""Hypothesis strategies: random small configs for the families of set W (sparse encoder-decoders: switch_transformers,
nllb-moe), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_j import bart_decoder
from hypothesis import strategies as st

booleans = st.booleans()


def _step_or_count(draw, config: dict, step_key: str, count_key: str) -> None:
    """A stack's sparse blocks given by their step (as released configs save it: 0 and 1 included) or by their
    count (0: the config's HACK, layer 1 still sparse; above the depth: a step of 0, none sparse), or neither."""
    how = draw(st.sampled_from(["step", "count", "neither"]))
    if how == "step":
        config[step_key] = draw(st.integers(0, 5))
    elif how == "count":
        config[count_key] = draw(st.integers(0, 5))


@st.composite
def switch_transformers(draw) -> dict:
    """SwitchTransformersConfig: T5's sizes (d_kv apart from d_model), the experts and their router's bias, each
    stack's sparse blocks, dense_act_fn, the head tied or not."""
    config = {"model_type": "switch_transformers", "vocab_size": draw(st.integers(4, 300)),
              "d_model": draw(st.integers(1, 40)), "d_kv": draw(st.integers(1, 12)),
              "d_ff": draw(st.integers(1, 64)), "num_layers": draw(st.integers(1, 5)),
              "num_heads": draw(st.integers(1, 6)), "relative_attention_num_buckets": draw(st.integers(1, 40)),
              "num_experts": draw(st.integers(1, 5)), "router_bias": draw(booleans),
              "dense_act_fn": draw(st.sampled_from(("relu", "gelu", "gelu_new", "silu"))),
              "pad_token_id": 0, "eos_token_id": 1, "decoder_start_token_id": 0}
    if draw(booleans):
        config["num_decoder_layers"] = draw(st.integers(1, 5))
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    _step_or_count(draw, config, "encoder_sparse_step", "num_sparse_encoder_layers")
    _step_or_count(draw, config, "decoder_sparse_step", "num_sparse_decoder_layers")
    return config


@st.composite
def nllb_moe(draw) -> dict:
    """NllbMoeConfig: M2M-100's keys (BART's, set J's strategy; its sinusoidal table divides by d_model // 2 - 1:
    no 2-wide one), the experts and their router's bias, each stack's step (0: no sparse layer), present or not."""
    config = draw(bart_decoder("nllb-moe").filter(lambda config: config["d_model"] > 2))
    config.update(num_experts=draw(st.integers(1, 5)), router_bias=draw(booleans))
    for key in ("encoder_sparse_step", "decoder_sparse_step"):
        if draw(booleans):
            config[key] = draw(st.integers(0, 4))
    return config


CONFIGS_W: dict[str, st.SearchStrategy] = {"switch_transformers": switch_transformers(), "nllb-moe": nllb_moe()}

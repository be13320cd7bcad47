"""Hypothesis strategies: random small configs for the families of set R (the T5 lineage counted whole: t5, mt5,
umt5, longt5), typed here.

Each spells the keys the way T5Config does (tests/_family_configs.py's style): d_model, d_kv (a head's width,
independent of d_model), d_ff, num_layers (the encoder's), num_decoder_layers (absent: num_layers is the
decoder's too), num_heads, relative_attention_num_buckets, feed_forward_proj plain or gated, and
tie_word_embeddings drawn though T5Config ties always (it only becomes scale_decoder_outputs)."""

from __future__ import annotations

from hypothesis import strategies as st

booleans = st.booleans()
ACTIVATIONS = ("relu", "gelu", "gelu_new", "silu", "gelu_pytorch_tanh", "xielu")


@st.composite
def t5(draw, model_type: str) -> dict:
    config = {"model_type": model_type, "vocab_size": draw(st.integers(4, 300)),
              "d_model": draw(st.integers(1, 40)), "d_kv": draw(st.integers(1, 12)),
              "d_ff": draw(st.integers(1, 64)), "num_layers": draw(st.integers(1, 4)),
              "num_heads": draw(st.integers(1, 6)), "relative_attention_num_buckets": draw(st.integers(1, 40)),
              "feed_forward_proj": draw(st.sampled_from(("", "gated-"))) + draw(st.sampled_from(ACTIVATIONS)),
              "pad_token_id": 0, "eos_token_id": 1, "decoder_start_token_id": 0}
    if draw(booleans):  # (a null is refused: it is read as num_hidden_layers, which may not be null)
        config["num_decoder_layers"] = draw(st.integers(1, 4))
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    if draw(booleans):  # given beside feed_forward_proj they win (PreTrainedConfig.__post_init__ sets them after)
        config["is_gated_act"] = draw(booleans)
    if draw(booleans):
        config["dense_act_fn"] = draw(st.sampled_from(ACTIVATIONS))
    return config


CONFIGS_R: dict[str, st.SearchStrategy] = {model_type: t5(model_type) for model_type in ("t5", "mt5", "umt5")}
# LongT5: T5's keys, its attention's window and block sizes (they size nothing), the encoder's attention type
# absent (local), local or transient-global
CONFIGS_R["longt5"] = st.tuples(t5("longt5"), st.integers(1, 16), st.integers(1, 16),
                                st.sampled_from([None, "local", "transient-global"])).map(lambda drawn: {
    **drawn[0], "local_radius": drawn[1], "global_block_size": drawn[2],
    **({"encoder_attention_type": drawn[3]} if drawn[3] else {})})

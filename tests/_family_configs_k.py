"""Hypothesis strategies: random small configs for the families of set K (issue #17: masked-LM encoders), typed
here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_d import _typed, booleans, modernbert_decoder
from _family_configs_h import bert
from hypothesis import strategies as st
from strategies import small_decoder

CONFIGS_K: dict[str, st.SearchStrategy] = {
    # EuroBertConfig: Llama's keys; mlp_bias also biases the head
    "eurobert": _typed("eurobert", st.builds(dict, small_decoder(), attention_bias=booleans, mlp_bias=booleans)),
}


@st.composite
def nomic_bert(draw) -> dict:
    """NomicBertConfig: a decoder's sizes (no KV heads: k and v have every head), head_dim often apart, a token-type
    table of any rows (0: an empty one, as nn.Embedding builds it), positions only the buffers' length."""
    config = draw(small_decoder())
    config.pop("num_key_value_heads")
    config.update(type_vocab_size=draw(st.integers(0, 4)), max_position_embeddings=draw(st.integers(1, 64)),
                  hidden_act=draw(st.sampled_from(["silu", "gelu"])))
    return config


CONFIGS_K["nomic_bert"] = _typed("nomic_bert", nomic_bert())


@st.composite
def modernbert(draw) -> dict:
    """ModernBertConfig: the decoder's keys (its strategy), layer_types given or not, and the masked-LM class's
    switches that change no tensor."""
    config = draw(modernbert_decoder())
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from(["full_attention", "sliding_attention"]),
                                              min_size=config["num_hidden_layers"],
                                              max_size=config["num_hidden_layers"]))
    config.update(sparse_prediction=draw(booleans), classifier_pooling=draw(st.sampled_from(["cls", "mean"])),
                  deterministic_flash_attn=draw(booleans))
    return config


CONFIGS_K["modernbert"] = _typed("modernbert", modernbert())


@st.composite
def ibert(draw) -> dict:
    """IBertConfig: BERT's keys (its strategy, GELU only: IBertIntermediate refuses another) and the quantization
    switches, which change no tensor and no buffer."""
    config = draw(bert())
    config.update(hidden_act="gelu", quant_mode=draw(booleans),
                  force_dequant=draw(st.sampled_from(["none", "gelu", "softmax", "layernorm", "nonlinear"])))
    config.pop("is_decoder")
    return config


CONFIGS_K["ibert"] = _typed("ibert", ibert())
# JinaEmbeddingsV3Config: NomicBERT's keys (its layers' layout, with XLM-RoBERTa's head)
CONFIGS_K["jina_embeddings_v3"] = _typed("jina_embeddings_v3", nomic_bert())


@st.composite
def deberta_v2(draw) -> dict:
    """DebertaV2Config: BERT's sizes, relative attention (its table's rows by position_buckets or
    max_relative_positions), a token-type table only for type_vocab_size > 0, a position table only with
    position_biased_input, the encoder's LayerNorm by norm_rel_ebd, the attention head
    size given or not (hidden / heads: the output dense is hidden × hidden)."""
    config = draw(bert())
    config.pop("is_decoder")
    config.update(type_vocab_size=draw(st.integers(0, 3)), position_biased_input=draw(booleans),
                  norm_rel_ebd=draw(st.sampled_from(["none", "layer_norm", "layer_norm|none"])),
                  relative_attention=draw(booleans), legacy=True,
                  pos_att_type=draw(st.sampled_from([None, "p2c|c2p", ["c2p"]])), share_att_key=draw(booleans),
                  position_buckets=draw(st.sampled_from([-1, 4])),
                  max_relative_positions=draw(st.sampled_from([-1, 8])))
    if config["relative_attention"] and config["pos_att_type"]:
        config["share_att_key"] = True  # else every attention holds position projections (refused)
    if draw(booleans):
        config["attention_head_size"] = config["hidden_size"] // config["num_attention_heads"]
    if draw(booleans):
        config["embedding_size"] = config["hidden_size"]
    return config


CONFIGS_K["deberta-v2"] = _typed("deberta-v2", deberta_v2())
# GteConfig: NomicBERT's keys (0 token types: no table)
CONFIGS_K["gte"] = _typed("gte", nomic_bert())


@st.composite
def layoutlm(draw) -> dict:
    """LayoutLMConfig: BERT's keys and the box tables' rows."""
    config = draw(bert())
    config["max_2d_position_embeddings"] = draw(st.integers(1, 64))
    return config


CONFIGS_K["layoutlm"] = _typed("layoutlm", layoutlm())


@st.composite
def esmc(draw) -> dict:
    """EsmcConfig: a decoder's sizes with every head keyed and head_dim × heads = hidden_size (its q and k norms are
    hidden wide), the attention's and FFN's biases."""
    config = draw(small_decoder())
    config.pop("head_dim", None)
    config.update(num_key_value_heads=draw(st.sampled_from([None, config["num_attention_heads"]])),
                  attention_bias=draw(booleans), mlp_bias=draw(booleans))
    return config


CONFIGS_K["esmc"] = _typed("esmc", esmc())


@st.composite
def rembert(draw) -> dict:
    """RemBertConfig: BERT's keys, the tables' and the head's own widths (equal to hidden_size or not)."""
    config = draw(bert())
    config.update(input_embedding_size=draw(st.sampled_from([config["hidden_size"], 1, 3, 8])),
                  output_embedding_size=draw(st.sampled_from([config["hidden_size"], 2, 5, 8])))
    return config


CONFIGS_K["rembert"] = _typed("rembert", rembert())


@st.composite
def longformer(draw) -> dict:
    """LongformerConfig: BERT's keys, one even attention window or one per layer (they change no tensor)."""
    config = draw(bert())
    config.pop("is_decoder")
    windows = st.sampled_from([2, 4, 8])
    config["attention_window"] = draw(st.one_of(windows, st.lists(windows, min_size=config["num_hidden_layers"],
                                                                  max_size=config["num_hidden_layers"])))
    return config


CONFIGS_K["longformer"] = _typed("longformer", longformer())


@st.composite
def esm(draw) -> dict:
    """EsmConfig: BERT's sizes without token types or an activation (GELU hard-coded), absolute or rotary positions,
    the embeddings' LayerNorm or not, and the keys that change no tensor (token dropout, the folding model's, the
    vocabulary list)."""
    config = draw(bert())
    for key in ("type_vocab_size", "is_decoder", "hidden_act"):
        config.pop(key)
    config.update(position_embedding_type=draw(st.sampled_from(["absolute", "rotary"])),
                  token_dropout=draw(booleans), emb_layer_norm_before=draw(st.sampled_from([None, False, True])),
                  mask_token_id=0, vocab_list=None)
    return config


CONFIGS_K["esm"] = _typed("esm", esm())


@st.composite
def ultrabert(draw) -> dict:
    """UltrabertConfig: a decoder's sizes, its biases, the window and layer_types given or not, the bottleneck's
    width."""
    config = draw(small_decoder())
    config.update(attention_bias=draw(booleans), mlp_bias=draw(booleans),
                  sliding_window=draw(st.integers(1, 64)), prediction_head_size=draw(st.integers(1, 16)))
    if draw(booleans):
        config["layer_types"] = draw(st.lists(st.sampled_from(["full_attention", "sliding_attention"]),
                                              min_size=config["num_hidden_layers"],
                                              max_size=config["num_hidden_layers"]))
    return config


CONFIGS_K["ultrabert"] = _typed("ultrabert", ultrabert())


@st.composite
def vbert(draw, model_type: str, text: st.SearchStrategy, vision_given: bool) -> dict:
    """ModernVBertConfig and UltraVBertConfig: a text_config (its family's strategy), a SigLIP vision_config (the
    pooling head or not; UltraVBERT's left out or not, its class's then has none), the pixel shuffle's factor and
    the whole model's tying, each drawn or left to the class default."""
    config = {"model_type": model_type, "text_config": draw(text)}
    if vision_given or draw(booleans):
        config["vision_config"] = draw(st.deferred(lambda: __import__("_family_configs").SIGLIP))
    if draw(booleans):
        config["pixel_shuffle_factor"] = draw(st.integers(1, 4))
    if draw(booleans):
        config["tie_word_embeddings"] = draw(booleans)
    return config


CONFIGS_K["modernvbert"] = vbert("modernvbert", CONFIGS_K["modernbert"], True)
CONFIGS_K["ultravbert"] = vbert("ultravbert", CONFIGS_K["ultrabert"], False)

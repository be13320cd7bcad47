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
    """DebertaV2Config without relative attention: BERT's sizes, a token-type table only for type_vocab_size > 0, a
    position table only with position_biased_input, the encoder's LayerNorm by norm_rel_ebd, the attention head
    size given or not (hidden / heads: the output dense is hidden × hidden), and the relative-attention keys that
    change nothing without it."""
    config = draw(bert())
    config.pop("is_decoder")
    config.update(type_vocab_size=draw(st.integers(0, 3)), position_biased_input=draw(booleans),
                  norm_rel_ebd=draw(st.sampled_from(["none", "layer_norm", "layer_norm|none"])),
                  relative_attention=False, legacy=True,
                  pos_att_type=draw(st.sampled_from([None, "p2c|c2p", ["c2p"]])), share_att_key=draw(booleans),
                  position_buckets=draw(st.sampled_from([-1, 4])),
                  max_relative_positions=draw(st.sampled_from([-1, 8])))
    if draw(booleans):
        config["attention_head_size"] = config["hidden_size"] // config["num_attention_heads"]
    if draw(booleans):
        config["embedding_size"] = config["hidden_size"]
    return config


CONFIGS_K["deberta-v2"] = _typed("deberta-v2", deberta_v2())

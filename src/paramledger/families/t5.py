"""The T5 lineage counted whole (transformers 5.24.0 models/t5, mt5, umt5, longt5: T5ForConditionalGeneration,
MT5ForConditionalGeneration, UMT5ForConditionalGeneration, LongT5ForConditionalGeneration; no CausalLM is registered,
the whole model is the reference of every count).

T5 itself (modeling_t5.py): T5ForConditionalGeneration registers ``shared`` (vocab_size × d_model), the encoder and
the decoder (each a T5Stack, lines 644-654: its own embed_tokens, ``block.{i}``, ``final_layer_norm``) and
``lm_head`` (lines 900-926), the two embed_tokens and lm_head tied to ``shared`` (_tied_weights_keys).  A T5Block
(lines 439-450) is ``layer.0`` (T5LayerSelfAttention: SelfAttention.{q,k,v,o}, no biases, n_heads × d_kv wide
whatever d_model is, and the relative-position table in the first block only: parts/relative_bias.py), in the
decoder ``layer.1`` (T5LayerCrossAttention: EncDecAttention.{q,k,v,o}, never a table), then the feed-forward
(T5LayerFF: DenseReluDense.wi, wo, or gated wi_0, wi_1, wo with feed_forward_proj "gated-{act}"), each with its
``layer_norm`` (T5LayerNorm: a scale, no bias, before the sublayer).  No position table, no buffer, no
final_logits_bias.

T5Config (configuration_t5.py): num_decoder_layers defaults to num_layers; feed_forward_proj "{act}" or
"gated-{act}" ("gated-gelu" runs gelu_new); and tie_word_embeddings is forced true whatever the config says (lines
75-81: the config's own value becomes scale_decoder_outputs, which scales the decoder's output and sizes nothing):
T5 v1.1, Flan-T5 and mT5 releases, whose config.json says false, are tied in 5.24.0 too.

The decoder's design is the whole model's decoder; the encoder (towers/encoder.py) is that design at num_layers
layers without the cross-attention, its feed-forward at ``layer.1``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers.encoder import Seq2Seq
from ._family import Family, derived_from, same
from ._rules import positive

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
DECODER, ENCODER = "decoder", "encoder"
ATTENTION, CROSS = "layer.0.SelfAttention", "layer.1.EncDecAttention"


def _ffn_names(sublayer: int) -> dict[str, Any]:
    """The feed-forward's paths in a block whose T5LayerFF is ``layer.{sublayer}``."""
    ffn = f"layer.{sublayer}.DenseReluDense"
    return {"gate": f"{ffn}.wi_0", "up": f"{ffn}.wi_1", "up_ungated": f"{ffn}.wi", "down": f"{ffn}.wo",
            "act": f"{ffn}.act", "ffn_pre_norm": f"layer.{sublayer}.layer_norm"}


T5_NAMING = Naming(
    embed=f"{DECODER}.embed_tokens", layer=f"{DECODER}.block.{{i}}", q=f"{ATTENTION}.q", k=f"{ATTENTION}.k",
    v=f"{ATTENTION}.v", o=f"{ATTENTION}.o", relative_bias=f"{ATTENTION}.relative_attention_bias",
    attn_pre_norm="layer.0.layer_norm", cross_q=f"{CROSS}.q", cross_k=f"{CROSS}.k", cross_v=f"{CROSS}.v",
    cross_o=f"{CROSS}.o", cross_attn_norm="layer.1.layer_norm", **_ffn_names(2),
    final_norm=f"{DECODER}.final_layer_norm", rotary=None,
    # T5Block: layer.0 (SelfAttention, then its layer_norm), layer.1 (EncDecAttention, layer_norm), layer.2 (the FFN)
    layer_order=(ATTENTION, "layer.0.layer_norm", CROSS, "layer.1.layer_norm", "layer.2.DenseReluDense",
                 "layer.2.layer_norm"),
    model_order=(f"{DECODER}.embed_tokens", f"{DECODER}.block", f"{DECODER}.final_layer_norm"))


def _encoder_names(attention: str = "SelfAttention") -> tuple[tuple[str, Any], ...]:
    """The encoder's names where they differ from the decoder's moved under "encoder.": its T5Block has no
    cross-attention, so its feed-forward is layer.1; its self-attention module is ``layer.0.{attention}``."""
    own = f"layer.0.{attention}"
    paths = (("q", "q"), ("k", "k"), ("v", "v"), ("o", "o"), ("relative_bias", "relative_attention_bias"),
             ("global_relative_bias", "global_relative_attention_bias"),
             ("global_input_layer_norm", "global_input_layer_norm"))
    moved = () if attention == "SelfAttention" else tuple((field, f"{own}.{path}") for field, path in paths)
    return (*moved, *_ffn_names(1).items(),
            ("layer_order", (own, "layer.0.layer_norm", "layer.1.DenseReluDense", "layer.1.layer_norm")))


KEYS = {**same("vocab_size"), "d_model": "hidden_size", "d_kv": "head_dim", "d_ff": "intermediate_size",
        "num_heads": "num_attention_heads", "num_decoder_layers": "num_hidden_layers",
        "relative_attention_num_buckets": "relative_bias_num_buckets"}
SWITCHES = {"norm_type": "rmsnorm", "norm_placement": "pre", "position_embedding_type": "none",
            "attention_bias": False, "attention_output_bias": False, "mlp_bias": False, "final_norm": True,
            "add_cross_attention": True, "tie_word_embeddings": True}
COUNT_NEUTRAL = frozenset({
    "num_layers",  # the encoder's depth (Seq2Seq.keys), and the decoder's where num_decoder_layers is absent
    "feed_forward_proj",  # read by _feed_forward
    "relative_attention_max_distance", "dropout_rate", "is_encoder_decoder", "is_decoder", "classifier_dropout",
    # derived from feed_forward_proj by the config class unless the config gives them (read by _feed_forward)
    "dense_act_fn", "is_gated_act",
    # T5Config turns the config's tie_word_embeddings into scale_decoder_outputs and ties always
    "tie_word_embeddings", "scale_decoder_outputs",
    "n_positions", "output_past", "gradient_checkpointing", "num_labels"})
# transformers 5.24.0 activations.py ACT2FN, less PReLU (nn.PReLU holds a weight of its own: not counted here)
ACTIVATIONS = frozenset({
    "gelu", "gelu_10", "gelu_accurate", "gelu_fast", "gelu_new", "gelu_python", "gelu_python_tanh",
    "gelu_pytorch_tanh", "hardswish", "laplace", "leaky_relu", "linear", "mish", "quick_gelu", "relu", "relu2",
    "relu6", "sigmoid", "silu", "sqrtsoftplus", "swish", "tanh", "xielu"})


def _activation(key: str, act: Any) -> str:
    """An ACT2FN name the feed-forward's ``act`` is made from (T5DenseActDense: ACT2FN[config.dense_act_fn])."""
    if act == "prelu":
        raise ArchitectureError(key, "'prelu' is not counted (nn.PReLU holds a weight of its own)")
    if act not in ACTIVATIONS:
        raise ArchitectureError(key, f"{act!r} is not an activation transformers 5.24.0 knows (ACT2FN: "
                                f"{', '.join(sorted(ACTIVATIONS))})")
    return act


def _feed_forward(config: Mapping[str, Any]) -> dict[str, Any]:
    """feed_forward_proj "{act}" or "gated-{act}" (T5Config.__post_init__ and validate_architecture).

    T5Config.__post_init__ derives is_gated_act and dense_act_fn from it (configuration_t5.py lines 68-74; mT5's,
    UMT5's, LongT5's and UDOP's alike), but a config that gives either key keeps its own: PreTrainedConfig's
    __post_init__ sets every remaining keyword after (configuration_utils.py lines 499-506), and T5LayerFF reads
    them (modeling_t5.py: DenseGatedActDense where is_gated_act, ACT2FN[dense_act_fn])."""
    proj = config["feed_forward_proj"]
    parts = proj.split("-") if isinstance(proj, str) else None
    if parts is None or len(parts) > 2 or len(parts) == 2 and parts[0] != "gated":
        raise ArchitectureError("feed_forward_proj", f"must be 'ACT' or 'gated-ACT' (e.g. 'relu', 'gated-gelu'), "
                                f"got {proj!r}")
    gated = config.get("is_gated_act")
    if gated is None:  # (absent, or null: T5LayerFF's `if config.is_gated_act` reads null as false)
        gated = "is_gated_act" not in config and len(parts) == 2
    elif type(gated) is not bool:
        raise ArchitectureError("is_gated_act", f"must be true or false, got {gated!r}")
    if "dense_act_fn" in config:
        act = _activation("dense_act_fn", config["dense_act_fn"])
    else:
        act = "gelu_new" if proj == "gated-gelu" else _activation("feed_forward_proj", parts[-1])
    return {"mlp_gated": gated, "hidden_act": act}


def _decoder_depth(config: Mapping[str, Any]) -> int:
    """num_decoder_layers, else num_layers (T5Config: "default = symmetry"); num_layers a whole number either way."""
    encoder = positive("num_layers", config["num_layers"])  # (T5Config's strict field: never null)
    if config.get("num_hidden_layers") is not None:  # num_decoder_layers, read and checked as the field
        return config["num_hidden_layers"]
    return encoder


def _first_layer_table(config: Mapping[str, Any]) -> dict[str, Any]:
    """The relative-position table in the first block alone (T5Stack: has_relative_attention_bias=bool(i == 0))."""
    return {"num_hidden_layers": _decoder_depth(config), "relative_bias_layers": (0,)}


def _every_layer_table(config: Mapping[str, Any]) -> dict[str, Any]:
    """A relative-position table in every block (UMT5LayerSelfAttention: has_relative_attention_bias=True)."""
    layers = _decoder_depth(config)
    return {"num_hidden_layers": layers, "relative_bias_layers": tuple(range(layers))}


def _whole(whole_class: str, layers: int, first_layer_table: bool = True,
           attention: str = "SelfAttention") -> Seq2Seq:
    """The whole model: the encoder's depth (num_layers) and its class default; tied always (no tie key: the
    decoder's own tie_word_embeddings, which SWITCHES fixes true); the encoder's table in its first block (else
    the decoder's list, every layer, repeated to the encoder's depth)."""
    return Seq2Seq(whole_class, {"num_layers": "num_hidden_layers"}, {"num_layers": layers}, shared="shared",
                   decoder=DECODER, encoder=ENCODER, head_buffers=(), tie_key="",
                   encoder_fields={"relative_bias_layers": (0,)} if first_layer_table else {},
                   encoder_naming=_encoder_names(attention))


def _defaults(vocab: int, d_ff: int, layers: int, heads: int, feed_forward_proj: str) -> dict[str, Any]:
    return {"vocab_size": vocab, "d_model": 512, "d_kv": 64, "d_ff": d_ff, "num_layers": layers, "num_heads": heads,
            "relative_attention_num_buckets": 32, "feed_forward_proj": feed_forward_proj,
            "num_decoder_layers": None}  # (null: num_layers, by the rule _decoder_depth)


T5 = Family(
    model_type="t5",
    causal_lm_class="T5ForConditionalGeneration",  # (no T5ForCausalLM: the whole model is the reference)
    source=TF.format("t5"),
    naming=T5_NAMING,
    keys=KEYS,
    defaults=_defaults(32128, 2048, 6, 8, "relu"),
    switches=SWITCHES,
    count_neutral=COUNT_NEUTRAL,
    derive=(_feed_forward, _first_layer_table),
    seq2seq=_whole("T5ForConditionalGeneration", 6),
)

# identical to t5 except: MT5Config's defaults (a 250,112-token table, gated-gelu, 8 layers of 6 heads; d_ff 1024)
# and its class (modeling_mt5.py: every module "Copied from transformers.models.t5.modeling_t5" with T5->MT5).
MT5 = derived_from(T5, model_type="mt5", causal_lm_class="MT5ForConditionalGeneration", source=TF.format("mt5"),
                   defaults=_defaults(250112, 1024, 8, 6, "gated-gelu"),
                   seq2seq=_whole("MT5ForConditionalGeneration", 8))

# identical to mt5 except: a relative-position table in every block's self-attention, the encoder's and the
# decoder's (modeling_umt5.py UMT5LayerSelfAttention, line 379), and its class.
UMT5 = derived_from(MT5, model_type="umt5", causal_lm_class="UMT5ForConditionalGeneration", source=TF.format("umt5"),
                    derive=(_feed_forward, _every_layer_table),
                    seq2seq=_whole("UMT5ForConditionalGeneration", 8, first_layer_table=False))

def _longt5_encoder(config: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    """The encoder's attention by encoder_attention_type (LongT5Block, modeling_longt5.py lines 1076-1085)."""
    kind = config.get("encoder_attention_type")
    if kind in (None, "local"):  # LongT5LocalAttention: T5's q, k, v, o and first-block table
        return {}
    if kind != "transient-global":
        raise ArchitectureError("encoder_attention_type", f"must be 'local' or 'transient-global', got {kind!r}",
                                where)
    # LongT5TransientGlobalAttention (lines 706-733): a global_relative_attention_bias table beside the first block's
    # and a global_input_layer_norm in every block
    return {"encoder_fields": {"relative_bias_layers": (0,), "relative_bias_global": True, "global_input_norm": True},
            "encoder_naming": _encoder_names("TransientGlobalSelfAttention")}


# identical to t5 except: the encoder's self-attention is LongT5LocalAttention (modeling_longt5.py lines 534-555:
# the same q, k, v, o and first-block table, under layer.0.LocalSelfAttention; attention within local_radius, which
# sizes nothing) or, with encoder_attention_type "transient-global", LongT5TransientGlobalAttention (its tables and
# global norm: _longt5_encoder); LongT5Config's class (its defaults are T5Config's), LongT5ForConditionalGeneration.
LONGT5 = derived_from(T5, model_type="longt5", causal_lm_class="LongT5ForConditionalGeneration",
                      source=TF.format("longt5"),
                      count_neutral=COUNT_NEUTRAL | {"local_radius", "global_block_size", "encoder_attention_type"},
                      seq2seq=_whole("LongT5ForConditionalGeneration", 6, attention="LocalSelfAttention")._replace(
                          encoder_variant=_longt5_encoder))

FAMILIES = [T5, MT5, UMT5, LONGT5]

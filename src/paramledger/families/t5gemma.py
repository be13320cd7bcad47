"""T5Gemma (transformers 5.24.0 models/t5gemma/): an encoder and a decoder, each a stack of Gemma 2 layers, counted
whole as T5GemmaForConditionalGeneration (modeling_t5gemma.py lines 925-937).

What the class builds: T5GemmaModel (lines 810-818) holds ``encoder`` (T5GemmaEncoder of config.encoder) and
``decoder`` (T5GemmaDecoder of config.decoder), each registering ``embed_tokens`` (its own table: no shared one),
``norm``, then ``layers`` (lines 621-634, 705-718: the final norm before the layers in named_parameters()), and a
rotary module whose inv_freq pair is a buffer.  An encoder layer (T5GemmaEncoderLayer, lines 387-406) is Gemma 2's
sandwich: self_attn (q, k, v, o; bias by attention_bias), pre_/post_self_attn_layernorm, mlp (gate, up, down, no
bias), pre_/post_feedforward_layernorm.  A decoder layer (T5GemmaDecoderLayer, lines 439-463) adds, after those,
cross_attn (T5GemmaCrossAttention: k_proj and v_proj read cross_attention_hidden_size, which T5GemmaConfig sets to
the encoder's hidden_size, configuration_t5gemma.py line 148) and its pre_/post_cross_attn_layernorm.  The head is
``lm_head.out_proj`` (T5GemmaLMHead, no bias), the decoder's vocabulary and width, tied to
model.decoder.embed_tokens by the whole config's tie_word_embeddings (``_tied_weights_keys``); the encoder's table
is never tied.  The embeddings' sqrt(hidden_size) scale is computed in forward (line 677): no buffer.

The config nests two T5GemmaModuleConfig sections, ``encoder`` and ``decoder`` (configuration_t5gemma.py lines
28-105; absent: the class defaults, Gemma 2 2B's sizes): the decoder's table is read from its section by a rule,
the encoder's by ``Seq2Seq.encoder_variant``, each key refused under its section's name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import check_values
from .padding_idx import Padded, pad_problem
from ..naming import Naming
from ..towers.encoder import Seq2Seq
from . import _rules as rules, divisors
from ._family import COUNT_NEUTRAL, Family
from ._tables import LLAMA_SWITCHES

SOURCE = "transformers 5.24.0 models/t5gemma/configuration_t5gemma.py"
DECODER, ENCODER = "model.decoder", "model.encoder"
CROSS = "cross_attn"
# T5GemmaDecoderLayer's registration order (its cross-attention after the feed-forward's norms)
LAYER_ORDER = ("self_attn", "pre_self_attn_layernorm", "post_self_attn_layernorm", "mlp",
               "pre_feedforward_layernorm", "post_feedforward_layernorm", CROSS, "pre_cross_attn_layernorm",
               "post_cross_attn_layernorm")
NAMING = Naming(
    embed=f"{DECODER}.embed_tokens", layer=f"{DECODER}.layers.{{i}}", final_norm=f"{DECODER}.norm",
    attn_pre_norm="pre_self_attn_layernorm", attn_post_norm="post_self_attn_layernorm",
    ffn_pre_norm="pre_feedforward_layernorm", ffn_post_norm="post_feedforward_layernorm",
    cross_q=f"{CROSS}.q_proj", cross_k=f"{CROSS}.k_proj", cross_v=f"{CROSS}.v_proj", cross_o=f"{CROSS}.o_proj",
    cross_attn_norm="pre_cross_attn_layernorm", cross_attn_post_norm="post_cross_attn_layernorm",
    lm_head="lm_head.out_proj", rotary=f"{DECODER}.rotary_emb", layer_order=LAYER_ORDER,
    model_order=(f"{DECODER}.embed_tokens", f"{DECODER}.norm", f"{DECODER}.layers"))

# T5GemmaModuleConfig's defaults (configuration_t5gemma.py lines 71-94), as a section's keys are spelt
MODULE_DEFAULTS: dict[str, Any] = {
    "vocab_size": 256000, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh",
    "max_position_embeddings": 8192, "attention_bias": False, "sliding_window": 4096, "layer_types": None}
# a section's key -> the design field it sets
SECTION_KEYS = {"vocab_size": "vocab_size", "hidden_size": "hidden_size", "intermediate_size": "intermediate_size",
                "num_hidden_layers": "num_hidden_layers", "num_attention_heads": "num_attention_heads",
                "num_key_value_heads": "num_key_value_heads", "head_dim": "head_dim",
                "hidden_activation": "hidden_act", "max_position_embeddings": "max_position_embeddings",
                "attention_bias": "attention_bias"}
SIZES = ("vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
         "num_key_value_heads", "head_dim", "max_position_embeddings")
# What a section may hold beside them and change no count: numerics, ids, softcaps, the attention scale, the
# window (read by the layer pattern), what T5GemmaConfig.__post_init__ writes into each section
SECTION_NEUTRAL = frozenset({
    "sliding_window", "layer_types", "query_pre_attn_scalar", "final_logit_softcapping", "attn_logit_softcapping",
    "rope_parameters", "rope_theta", "rms_norm_eps", "initializer_range", "use_cache", "is_decoder",
    "dropout_rate", "attention_dropout", "classifier_dropout_rate", "cross_attention_hidden_size",
    "tie_word_embeddings", "pad_token_id", "bos_token_id", "eos_token_id", "model_type", "torch_dtype", "dtype",
    "_sliding_window_pattern"})
SECTION_KNOWN = frozenset(SECTION_KEYS) | SECTION_NEUTRAL | COUNT_NEUTRAL


def _section(config: Mapping[str, Any], name: str, defaults: Mapping[str, Any] = MODULE_DEFAULTS,
             pattern: int | None = None) -> dict[str, Any]:
    """A T5GemmaModuleConfig section read as the design's fields (absent: the class defaults), each size refused in
    one line under "<section>.<key>"; ``pattern``: the default layer_types' period read from the section's
    sliding_window_pattern (T5Gemma 2's sections: every sixth layer full), None: T5Gemma's alternation."""
    given = config.get(name)
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise ArchitectureError(name, f"must be a JSON object, got {given!r}")
    merged = {**defaults, **given}
    for key in SIZES:
        rules.positive(f"{name}.{key}", merged[key])
    divisors.section(merged, name)  # (the section's attention scales by query_pre_attn_scalar ** -0.5)
    fields = {field: merged[key] for key, field in SECTION_KEYS.items()}
    check_values(fields, None, lambda field: f"{name}.{next(k for k, f in SECTION_KEYS.items() if f == field)}")
    # each stack's nn.Embedding(vocab_size, ..., padding_idx=its section's pad_token_id, T5GemmaModuleConfig's 0)
    if (problem := pad_problem("t5gemma", merged, Padded(0))) is not None:
        raise ArchitectureError(f"{name}.pad_token_id", problem)
    if merged["hidden_size"] % merged["num_attention_heads"]:  # T5GemmaModuleConfig.validate_architecture
        raise ArchitectureError(f"{name}.hidden_size", f"{merged['hidden_size']} is not a multiple of "
                                f"num_attention_heads={merged['num_attention_heads']} (T5GemmaModuleConfig refuses it)")
    if merged["num_attention_heads"] % merged["num_key_value_heads"]:
        raise ArchitectureError(f"{name}.num_key_value_heads", f"{merged['num_key_value_heads']} does not divide "
                                f"num_attention_heads={merged['num_attention_heads']}")
    types, layers = merged["layer_types"], merged["num_hidden_layers"]
    every = 2 if pattern is None else rules.positive(f"{name}.sliding_window_pattern",
                                                     merged.get("sliding_window_pattern", pattern))
    if types is None:  # T5GemmaModuleConfig.__post_init__: sliding, full, sliding, ... (T5Gemma 2's: every sixth)
        types = ["sliding_attention" if (i + 1) % every else "full_attention" for i in range(layers)]
    if not isinstance(types, list) or len(types) != layers:
        raise ArchitectureError(f"{name}.layer_types", f"must list num_hidden_layers={layers} layer types, got "
                                f"{types!r}")
    if pattern is not None and not set(types) <= {rules.SLIDING, rules.FULL}:  # (T5Gemma 2's rotary: one per kind)
        raise ArchitectureError(f"{name}.layer_types", f"must list {rules.FULL} or {rules.SLIDING} layers, got "
                                f"{types!r}")
    if merged["sliding_window"] is not None:
        rules.positive(f"{name}.sliding_window", merged["sliding_window"])
    # (T5Gemma 2 keeps the pattern without a window: its rotary has a pair per layer type listed)
    return {**fields, **rules.layer_pattern(merged["sliding_window"], [kind == rules.SLIDING for kind in types],
                                            keep=pattern is not None),
            "attention_output_bias": bool(merged["attention_bias"])}  # o_proj biased as q, k, v


def _decoder(config: Mapping[str, Any]) -> dict[str, Any]:
    """The decoder's design from the decoder section; its cross-attention reads the encoder's width."""
    decoder = _section(config, "decoder")
    # T5GemmaCrossAttention: k_proj and v_proj num_key_value_heads × head_dim wide, reading the encoder's width
    return {**decoder, "cross_attention_hidden_size": _section(config, "encoder")["hidden_size"],
            "cross_attention_kv_heads": decoder["num_key_value_heads"]}


def _encoder(config: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    """The encoder's design from the encoder section (Seq2Seq.encoder_variant): every size its own."""
    try:
        fields = _section(config, "encoder")
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None
    return {"encoder_fields": {**fields, "cross_attention_hidden_size": None, "cross_attention_kv_heads": None}}


T5GEMMA = Family(
    model_type="t5gemma",
    causal_lm_class="T5GemmaForConditionalGeneration",  # (no T5GemmaForCausalLM: the whole model is the reference)
    source=SOURCE,
    naming=NAMING,
    keys={"tie_word_embeddings": "tie_word_embeddings"},
    defaults={"tie_word_embeddings": True},
    # Gemma 2's layer (sandwich norms, a gated GeGLU MLP without bias, RMSNorm, RoPE) and a cross-attention
    switches={**LLAMA_SWITCHES, "norm_placement": "sandwich", "mlp_bias": False, "add_cross_attention": True},
    # the sections (read by the rule and the encoder variant); the top-level vocab_size sizes nothing
    # (T5GemmaForConditionalGeneration reads config.decoder.vocab_size)
    count_neutral=frozenset({"encoder", "decoder", "vocab_size", "dropout_rate", "classifier_dropout_rate"}),
    sections={"encoder": SECTION_KNOWN, "decoder": SECTION_KNOWN},
    derive=(_decoder,),
    seq2seq=Seq2Seq("T5GemmaForConditionalGeneration", {}, {"tie_word_embeddings": True}, shared="",
                    decoder=DECODER, encoder=ENCODER, head_buffers=(), shared_table=False,
                    encoder_naming=(("rotary", f"{ENCODER}.rotary_emb"),), encoder_variant=_encoder),
)

FAMILIES = [T5GEMMA]

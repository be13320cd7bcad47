"""Qwen4-Exp's text decoder (transformers 5.24.0 models/qwen4_exp, Qwen4ExpForCausalLM from a Qwen4ExpTextConfig).

Identical to Qwen3.5-MoE's (families/qwen3_next.py: Gated DeltaNet layers, gated attention with q/k norms, routed
experts with a gated shared expert in every layer) except (modeling_qwen4_exp.py): every layer that is not
"linear_attention" is "indexed_attention", its attention holding a QSA token indexer (parts/qsa_attention.py; a
config's "full_attention" is read as indexed, Qwen4ExpTextConfig.__post_init__); no block norms and no model norm: each
layer's two sublayers sit behind gated hyper-connections over hc_count residual streams (parts/hyper_residuals.py),
and the model mixes the streams back into one after the layers (model.hyper_connection_mixer, Naming.hyper_mixer); the
rotary turns every channel (no partial_rotary_factor by default); the linear layers in ple_layer_ids add a hashed
n-gram embedding to the streams (ple: parts/hyper_connection.py's NGramEmbedding, placed by design/flat.py's column).

qwen4_exp, the whole Qwen4ExpForConditionalGeneration, is Qwen3_5MoeForConditionalGeneration: Qwen3.5-MoE's vision
tower (towers/qwen4_exp.py) under "model.visual", this decoder under "model.language_model", the head tied by the
whole config's tie_word_embeddings alone (False); AutoModelForCausalLM builds Qwen4ExpForCausalLM from its
text_config (--text-only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ..parts.sublayers import SUBLAYER_MODULES
from . import _rules as rules
from ..towers import Whole
from ..towers.qwen_vl import none
from ._family import Family, multimodal, same
from ._tables import ROUTING_KEYS
from .qwen3_next import EXPECTS, LINEAR_DEFAULTS, LINEAR_KEYS, MOE_KEYS, MOE_SWITCHES, NEUTRAL, QWEN3_5_LINEAR

TF = "transformers 5.24.0 models/qwen4_exp/configuration_qwen4_exp.py (Qwen4ExpTextConfig)"
LINEAR, INDEXED, FULL = "linear_attention", "indexed_attention", "full_attention"
QSA = ("indexer_n_heads", "indexer_kv_heads", "indexer_head_dim", "indexer_budget", "indexer_compress_ratio")
# Qwen4ExpTextDecoderLayer: the mixer (the DeltaNet's dt_bias, A_log, conv1d, norm, out_proj before its
# projections), mlp, (ple), attn_hyper_connection, mlp_hyper_connection
NAMING = Naming(attn_gate_in_q=True, shared_expert="mlp.shared_expert", hyper_mixer="model.hyper_connection_mixer",
                layer_order=(*QWEN3_5_LINEAR, "linear_attn", "self_attn", "mlp", "ple", "attn_hyper_connection",
                             "mlp_hyper_connection"))


def qwen4_exp_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Qwen4ExpTextConfig.__post_init__ and validate_architecture: layer_types as given ("full_attention" read as
    "indexed_attention"), else every full_attention_interval-th layer indexed; the QSA sizes all given or none,
    one indexer key head, a budget of whole blocks, the rotary within the indexer's head."""
    layers = config["num_hidden_layers"]
    for key in ("moe_intermediate_size", "shared_expert_intermediate_size"):  # (validate_architecture: both > 0)
        if isinstance(config.get(key), int) and config[key] <= 0:
            raise ArchitectureError(key, f"{config[key]} is not above 0: transformers 5.24.0 refuses it "
                                         "(Qwen4ExpTextConfig.validate_architecture)")
    types = config.get("layer_types")
    if types is None:
        interval = config.get("full_attention_interval", 4)
        if type(interval) is not int or interval < 1:  # transformers takes it modulo
            raise ArchitectureError("full_attention_interval", f"must be a positive whole number, got {interval!r}")
        types = [LINEAR if (i + 1) % interval else INDEXED for i in range(layers)]
    if not isinstance(types, (list, tuple)) or len(types) != layers:
        raise ArchitectureError("layer_types", f"must list one entry for each of the {layers} layers, got "
                                f"{types!r}"[:200])
    wrong = next((kind for kind in types if kind not in (LINEAR, INDEXED, FULL)), None)
    if wrong is not None:
        raise ArchitectureError("layer_types", f"{wrong!r} is not {LINEAR} or {INDEXED} (Qwen4ExpTextConfig."
                                "validate_architecture)"[:200])
    given = {key: config.get(key) for key in QSA}
    if all(value is None for value in given.values()) and any(kind != LINEAR for kind in types):
        # Qwen4ExpTextQSAIndexer: token_budget // compress_ratio, None // None; under text_config's name in a whole
        # config (one whose decoder keys name no model_type)
        key = "indexer_n_heads" if config.get("model_type") == "qwen4_exp_text" else "text_config.indexer_n_heads"
        raise ArchitectureError(key, "missing (required: transformers 5.24.0 cannot build this family "
                                "without it)")
    if any(value is not None for value in given.values()):
        missing = [key for key, value in given.items() if value is None]
        if missing:
            raise ArchitectureError(missing[0], "is required with the other QSA indexer sizes (validate_architecture)")
        bad = next((key for key, value in given.items() if type(value) is not int or value < 1), None)
        if bad is not None:
            raise ArchitectureError(bad, f"must be a positive whole number, got {given[bad]!r}"[:200])
        if given["indexer_kv_heads"] != 1:
            raise ArchitectureError("indexer_kv_heads", f"must be 1 (Qwen4-Exp's QSA), got {given['indexer_kv_heads']}")
        if given["indexer_budget"] % given["indexer_compress_ratio"]:
            raise ArchitectureError("indexer_budget", f"{given['indexer_budget']} is not a multiple of "
                                    f"indexer_compress_ratio={given['indexer_compress_ratio']}")
        rope = config.get("rope_parameters") or {}
        head_dim = config.get("head_dim")
        factor = rope.get("partial_rotary_factor", 1.0) if isinstance(rope, Mapping) else 1.0
        if isinstance(head_dim, int) and isinstance(factor, (int, float)) and int(head_dim * factor) > given[
                "indexer_head_dim"]:
            raise ArchitectureError("indexer_head_dim", f"{given['indexer_head_dim']} is narrower than the rotary's "
                                    f"{int(head_dim * factor)} channels (validate_architecture)")
    linear = tuple(i for i, kind in enumerate(types) if kind == LINEAR)
    out: dict[str, Any] = {"linear_attention_layers": linear, "sliding_window": None, "layer_types": (),
                           "qsa_attention_layers": tuple(i for i, kind in enumerate(types) if kind != LINEAR),
                           "ple_layers": ple_layers(config, set(linear))}
    if not linear:
        out.update(dict.fromkeys(LINEAR_KEYS))
    return out


def ple_layers(config: Mapping[str, Any], linear: set[int]) -> tuple[int, ...]:
    """ple_layer_ids: one-indexed, sorted and deduplicated (Qwen4ExpTextConfig.__post_init__), each a linear layer,
    eos_token_id set with them (the n-gram context pads with it; validate_architecture); 0-based here."""
    ids = config.get("ple_layer_ids") or []
    if not isinstance(ids, (list, tuple)) or any(type(i) is not int for i in ids):
        raise ArchitectureError("ple_layer_ids", f"must be a list of layer numbers, got {ids!r}"[:200])
    layers = config["num_hidden_layers"]
    for i in sorted(set(ids)):
        if not 1 <= i <= layers:
            raise ArchitectureError("ple_layer_ids", f"{i} is out of range: one-indexed ids in [1, {layers}]")
        if i - 1 not in linear:
            raise ArchitectureError("ple_layer_ids", f"layer {i} is not a linear_attention layer (transformers "
                                    "5.24.0 puts PLE on linear layers only)")
    if ids and config.get("eos_token_id") in (None, []):
        raise ArchitectureError("eos_token_id", "must be set with ple_layer_ids (transformers 5.24.0 refuses none)")
    return tuple(i - 1 for i in sorted(set(ids)))


FAMILIES = [] if "qsa_attention" not in MIXER_MODULES or "hyper_residuals" not in SUBLAYER_MODULES else [
    Family(
        model_type="qwen4_exp_text",
        causal_lm_class="Qwen4ExpForCausalLM",
        source=TF,
        naming=NAMING,
        keys={**MOE_KEYS, **same("hc_count", "hc_lowrank", "indexer_n_heads", "indexer_kv_heads", "indexer_head_dim",
                                   "indexer_compress_ratio", "ple_embed_dim", "ple_conv_kernel_size", "ngram_size",
                                   "heads_per_ngram", "ngram_vocab_size_base", "make_ngram_vocab_size_divisible_by")},
        defaults={"vocab_size": 248320, "hidden_size": 2048, "num_hidden_layers": 40, "num_attention_heads": 16,
                  "num_key_value_heads": 2, "hidden_act": "silu", "max_position_embeddings": 32768,
                  "tie_word_embeddings": False, "attention_bias": False, "head_dim": 256, **LINEAR_DEFAULTS,
                  "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512, "num_experts_per_tok": 10,
                  "num_experts": 512, "layer_types": None, "hc_count": 4, "hc_lowrank": 320,
                  **dict.fromkeys(QSA), "ple_layer_ids": None, "ple_embed_dim": None, "ple_conv_kernel_size": 4,
                  "ngram_size": 3, "heads_per_ngram": 8, "ngram_vocab_size_base": 20_000_000,
                  "make_ngram_vocab_size_divisible_by": 128},
        switches={**MOE_SWITCHES, "norm_placement": "none", "final_norm": False},
        # indexer_budget: how many tokens the indexer picks; output_gate_type: the DeltaNet
        # gate's activation; number_of_conv_states (the cache's, set by __post_init__); ple_layer_ids (read by the
        # rule); seed (the n-gram hash multipliers, buffers) and split_ngram_parts (the checkpoint's shards of a table)
        count_neutral=ROUTING_KEYS | NEUTRAL | {"indexer_budget", "output_gate_type", "number_of_conv_states",
                                                "ple_layer_ids", "seed", "split_ngram_parts"},
        expects=EXPECTS,
        derive=(rules.output_bias_follows("attention_bias"), qwen4_exp_layers),
    ),
]

WHOLE_SOURCE = TF.replace("(Qwen4ExpTextConfig)", "(Qwen4ExpConfig, Qwen4ExpVisionConfig)")
FAMILIES += [multimodal(family, "qwen4_exp", WHOLE_SOURCE,
                        Whole({"model_type": "qwen4_exp_vision"}, none, vision_prefix="model.visual.",
                              tie_word_embeddings=False),
                        "Qwen4ExpForConditionalGeneration") for family in FAMILIES]

"""Qwen4-Exp's text decoder (transformers 5.24.0 models/qwen4_exp, Qwen4ExpForCausalLM from a Qwen4ExpTextConfig).

Identical to Qwen3.5-MoE's (families/qwen3_next.py: Gated DeltaNet layers, gated attention with q/k norms, routed
experts with a gated shared expert in every layer) except (modeling_qwen4_exp.py): every layer that is not
"linear_attention" is "indexed_attention", its attention holding a QSA token indexer (parts/qsa_attention.py; a
config's "full_attention" is read as indexed, Qwen4ExpTextConfig.__post_init__); no block norms and no model norm: each
layer's two sublayers sit behind gated hyper-connections over hc_count residual streams (parts/hyper_residuals.py),
and the model mixes the streams back into one after the layers (model.hyper_connection_mixer, Naming.hyper_mixer); the
rotary turns every channel (no partial_rotary_factor by default).  The per-layer n-gram embeddings (ple_layer_ids)
are not counted yet: a config listing any is refused in one line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ..parts.sublayers import SUBLAYER_MODULES
from . import _rules as rules
from ._family import Family, same
from ._tables import ROUTING_KEYS
from .qwen3_next import EXPECTS, LINEAR_DEFAULTS, LINEAR_KEYS, MOE_KEYS, MOE_SWITCHES, NEUTRAL, QWEN3_5_LINEAR

TF = "transformers 5.24.0 models/qwen4_exp/configuration_qwen4_exp.py (Qwen4ExpTextConfig)"
LINEAR, INDEXED, FULL = "linear_attention", "indexed_attention", "full_attention"
QSA = ("indexer_n_heads", "indexer_kv_heads", "indexer_head_dim", "indexer_budget", "indexer_compress_ratio")
# Qwen4ExpTextDecoderLayer: the mixer (the DeltaNet's dt_bias, A_log, conv1d, norm, out_proj before its
# projections), mlp, (ple), attn_hyper_connection, mlp_hyper_connection
NAMING = Naming(attn_gate_in_q=True, shared_expert="mlp.shared_expert", hyper_mixer="model.hyper_connection_mixer",
                layer_order=(*QWEN3_5_LINEAR, "linear_attn", "self_attn", "mlp", "attn_hyper_connection",
                             "mlp_hyper_connection"))


def qwen4_exp_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Qwen4ExpTextConfig.__post_init__ and validate_architecture: layer_types as given ("full_attention" read as
    "indexed_attention"), else every full_attention_interval-th layer indexed; the QSA sizes all given or none,
    one indexer key head, a budget of whole blocks, the rotary within the indexer's head."""
    layers = config["num_hidden_layers"]
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
    if config.get("ple_layer_ids"):
        raise ArchitectureError("ple_layer_ids", "Qwen4-Exp's per-layer n-gram embeddings (PLE) are not counted yet")
    given = {key: config.get(key) for key in QSA}
    if all(value is None for value in given.values()) and any(kind != LINEAR for kind in types):
        # Qwen4ExpTextQSAIndexer: token_budget // compress_ratio, None // None
        raise ArchitectureError("indexer_n_heads", "missing (required: transformers 5.24.0 cannot build this family "
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
                           "qsa_attention_layers": tuple(i for i, kind in enumerate(types) if kind != LINEAR)}
    if not linear:
        out.update(dict.fromkeys(LINEAR_KEYS))
    return out


FAMILIES = [] if "qsa_attention" not in MIXER_MODULES or "hyper_residuals" not in SUBLAYER_MODULES else [
    Family(
        model_type="qwen4_exp_text",
        causal_lm_class="Qwen4ExpForCausalLM",
        source=TF,
        naming=NAMING,
        keys={**MOE_KEYS, **same("hc_count", "hc_lowrank", "indexer_n_heads", "indexer_kv_heads", "indexer_head_dim",
                                   "indexer_compress_ratio")},
        defaults={"vocab_size": 248320, "hidden_size": 2048, "num_hidden_layers": 40, "num_attention_heads": 16,
                  "num_key_value_heads": 2, "hidden_act": "silu", "max_position_embeddings": 32768,
                  "tie_word_embeddings": False, "attention_bias": False, "head_dim": 256, **LINEAR_DEFAULTS,
                  "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512, "num_experts_per_tok": 10,
                  "num_experts": 512, "layer_types": None, "hc_count": 4, "hc_lowrank": 320,
                  **dict.fromkeys(QSA), "ple_layer_ids": None},
        switches={**MOE_SWITCHES, "norm_placement": "none", "final_norm": False},
        # indexer_budget: how many tokens the indexer picks; output_gate_type: the DeltaNet
        # gate's activation; number_of_conv_states (the cache's, set by __post_init__); ple_layer_ids (read by the
        # rule) and the PLE sizes, which build nothing without it
        count_neutral=ROUTING_KEYS | NEUTRAL | {"indexer_budget", "output_gate_type",
                                                "number_of_conv_states",
                                                "ple_layer_ids", "ple_embed_dim", "ple_conv_kernel_size", "ngram_size",
                                                "heads_per_ngram", "ngram_vocab_size_base",
                                                "make_ngram_vocab_size_divisible_by", "seed", "split_ngram_parts"},
        expects=EXPECTS,
        derive=(rules.output_bias_follows("attention_bias"), qwen4_exp_layers),
    ),
]

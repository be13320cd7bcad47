"""Liquid's LFM3: LFM2's short-convolution and attention layers, the attention layers full or sliding, with
sandwich norms and a per-head output gate (transformers 5.24.0 modular_lfm3.py, modeling_lfm3.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import _rules as rules
from ._family import derived_from, same
from .lfm2 import LFM2
from .lfm2 import NAMING as LFM2_NAMING

TF = "transformers 5.24.0 models/lfm3/configuration_lfm3.py"
CONV = "conv"

# Lfm3Attention is Qwen3Attention (q_proj, k_proj, v_proj, o_proj, q_norm, k_norm) and then g_proj; the
# decoder layer registers its mixer, feed_forward, operator_norm, ffn_norm, then post_operator_norm and
# post_ffn_norm (Lfm3DecoderLayer.__init__ after Lfm2DecoderLayer's); one rotary per attention layer type.
NAMING = dataclasses.replace(
    LFM2_NAMING, o="self_attn.o_proj", q_norm="self_attn.q_norm", k_norm="self_attn.k_norm",
    attn_gate="self_attn.g_proj", attn_post_norm="post_operator_norm", ffn_post_norm="post_ffn_norm",
    rotary_per_layer_type=True,
    layer_order=("conv", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                 "self_attn.q_norm", "self_attn.k_norm", "self_attn.g_proj", "feed_forward", "operator_norm",
                 "ffn_norm", "post_operator_norm", "post_ffn_norm"))


# LFM2's switches but the norm placement and the positions, which lfm3_layers sets (switches win over rules)
SWITCHES = {key: value for key, value in LFM2.switches.items() if key not in ("norm_placement",
                                                                             "position_embedding_type")}


def attention_pattern(config: Mapping[str, Any], types: Any, mixer: str, model: str,
                      keep: bool = False) -> dict[str, Any]:
    """sliding_window and layer_types of a design whose layer_types name another token mixer (``mixer``)
    beside full and sliding attention: the other mixer's layers stand as full (never sliding) attention in
    the pattern; ``keep``: as rules.layer_pattern's.  Any other type is refused: ``model`` builds no mask for it."""
    layers = config["num_hidden_layers"]
    if not isinstance(types, (list, tuple)) or len(types) != layers:
        raise ArchitectureError("layer_types", f"must list one type for each of the {layers} layers, got "
                                f"{types!r}"[:200])
    wrong = next((kind for kind in types if kind not in (mixer, rules.FULL, rules.SLIDING)), None)
    if wrong is not None:
        raise ArchitectureError("layer_types", f"{wrong!r} is not {mixer}, full_attention or sliding_attention "
                                f"({model} builds no mask for it)")
    out = rules.layer_pattern(config.get("sliding_window"), [kind == rules.SLIDING for kind in types], keep)
    if out["layer_types"]:
        out["layer_types"] = tuple(rules.SLIDING if kind == rules.SLIDING else rules.FULL for kind in types)
    return out


def lfm3_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Lfm3Config.__post_init__: layer_types as given, else layer i is "full_attention" when i % 4 == 2,
    "sliding_attention" when i % 4 == 0 and i > 0, "conv" otherwise.  Every type but "conv" is an attention
    layer (Lfm3DecoderLayer.is_attention_layer), sliding within sliding_window on the sliding ones; the
    pattern is kept without a window (Lfm3RotaryEmbedding still keeps a rotary for each attention type the
    list names).  A design with no attention layer holds no rotary buffers, so it is given no positions.
    use_sandwich_norm: post_operator_norm and post_ffn_norm beside LFM2's pre-norms (else nn.Identity);
    use_attention_gate: g_proj, one sigmoid gate per query head from the layer input (else None)."""
    layers = config["num_hidden_layers"]
    types = config.get("layer_types")
    if types is None:
        types = ["full_attention" if i % 4 == 2 else "sliding_attention" if i % 4 == 0 and i > 0 else CONV
                 for i in range(layers)]
    out = attention_pattern(config, types, CONV, "Lfm3Model", keep=True)
    out["conv_layers"] = tuple(i for i, kind in enumerate(types) if kind == CONV)
    out["position_embedding_type"] = "none" if len(out["conv_layers"]) == layers else "rope"
    out["norm_placement"] = "sandwich" if config.get("use_sandwich_norm", True) else "pre"
    out["attention_output_gate"] = "per_head" if config.get("use_attention_gate", True) else "none"
    return out


# LFM3 = LFM2 except: q/k norms and o_proj named as Qwen3's, sliding attention layers beside the full ones,
# sandwich norms and a per-head output gate by switch, a bias flag on the attention, and none of LFM2's FFN
# width rule (Lfm3MLP is Lfm2MoeMLP: intermediate_size as given).
FAMILIES = [
    derived_from(
        LFM2, model_type="lfm3", causal_lm_class="Lfm3ForCausalLM", source=TF, naming=NAMING,
        keys={**LFM2.keys, **same("attention_bias")},
        defaults={"vocab_size": 128000, "hidden_size": 2048, "intermediate_size": 7680, "num_hidden_layers": 24,
                  "num_attention_heads": 16, "num_key_value_heads": 4, "max_position_embeddings": 128000,
                  "tie_word_embeddings": True, "conv_bias": False, "conv_L_cache": 7, "layer_types": None,
                  "head_dim": 128, "sliding_window": 256, "use_sandwich_norm": True, "use_attention_gate": True,
                  "attention_bias": False, "hidden_act": "silu"},
        # use_sandwich_norm and use_attention_gate are read by lfm3_layers (as full_attn_idxs is by LFM2's rule)
        switches=SWITCHES,
        count_neutral=frozenset({"norm_eps", "use_sandwich_norm", "use_attention_gate"}),
        derive=(rules.output_bias_follows("attention_bias"), lfm3_layers)),
]

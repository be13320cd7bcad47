"""The seeds' counting functions, with their published signatures, computed by the engine.

Seed 001 (attn_params, mlp_params, block_params, model_params) and seed 003
(full_parameter_count) each describe a design in a few arguments.  Here each call declares
that design as an Architecture and reads the answer off its inventory: the arithmetic is
written once, in the builder, not again here.
"""

from __future__ import annotations

from .architecture import Architecture
from .inventory import Inventory

# Seed 001's "norms per block" as a placement: 0 none, 1 one shared norm, 2 pre-norm, 4 sandwich.
_PLACEMENT = {0: "none", 1: "parallel", 2: "pre", 4: "sandwich"}


def _design(d: int, f: int, *, vocab: int = 1, layers: int = 1, gated: bool = False, bias: bool = False,
            norms: int = 0, tied: bool = True, final_norm: bool = False) -> Inventory:
    from . import inventory

    if norms not in _PLACEMENT:
        from ._exceptions import OptionError

        raise OptionError("norms", f"must be one of {sorted(_PLACEMENT)} norms per block, got {norms}")
    arch = Architecture.from_mapping({
        "vocab_size": vocab, "hidden_size": d, "num_hidden_layers": layers,
        "num_attention_heads": 1,  # four full d×d projections: the head split adds nothing
        "intermediate_size": f, "mlp_gated": gated,
        "attention_bias": bias, "attention_output_bias": bias, "mlp_bias": bias,
        "norm_type": "rmsnorm", "norm_placement": _PLACEMENT[norms], "final_norm": final_norm,
        "position_embedding_type": "none", "tie_word_embeddings": tied,
    }, "lesson")
    return inventory(arch)


def attn_params(d: int, bias: bool = False) -> int:
    """Four d×d matrices (q, k, v, output), plus 4d biases when ``bias``."""
    return _design(d, 1, bias=bias).component("attention")


def mlp_params(d: int, f: int, gated: bool = False, bias: bool = False) -> int:
    """2·d·f (plain) or 3·d·f (gated) weights; biases f + d (plain) or 2f + d (gated)."""
    return _design(d, f, gated=gated, bias=bias).component("ffn")


def block_params(d: int, f: int, gated: bool = False, bias: bool = False, norms: int = 0) -> int:
    """Attention + MLP + norms·d (each norm a scale vector of d)."""
    return _design(d, f, gated=gated, bias=bias, norms=norms).by_layer[0]


def model_params(layers: int, d: int, f: int, vocab: int, tied: bool = True, gated: bool = False,
                 bias: bool = False, norms_per_block: int = 2, final_norm: bool = True) -> int:
    """The embedding table, an untied output matrix when not ``tied``, ``layers`` blocks
    and a final norm when ``final_norm``."""
    return _design(d, f, vocab=vocab, layers=layers, gated=gated, bias=bias, norms=norms_per_block,
                   tied=tied, final_norm=final_norm).total


def full_parameter_count(V, L, d_model, n_heads, d_ff, n_kv_heads=None, ffn_type="standard",
                         tie_embeddings=True, include_biases=True, *, max_position_embeddings=None):
    """Seed 003's function and dict, from the engine.

    As published it has no learned position table, so for GPT-2 small it gives
    123,653,376, not the "~124.44M" it expects: GPT-2 learns a 1,024 × 768 position
    table (786,432 more).  Pass ``max_position_embeddings=1024`` to add it and get the
    real model's 124,439,808 (the dict then has a "position_embedding" entry)."""
    from . import inventory

    gated = ffn_type != "standard"
    arch = Architecture.from_mapping({
        "vocab_size": V, "hidden_size": d_model, "num_hidden_layers": L, "num_attention_heads": n_heads,
        "num_key_value_heads": n_kv_heads, "head_dim": d_model // n_heads, "intermediate_size": d_ff,
        "mlp_gated": gated,
        "attention_bias": include_biases, "attention_output_bias": include_biases,
        "mlp_bias": include_biases and not gated,  # "SwiGLU typically doesn't use biases"
        "norm_type": "layernorm" if include_biases else "layernorm_nobias",
        "position_embedding_type": "learned" if max_position_embeddings else "sinusoidal",
        "max_position_embeddings": max_position_embeddings or 1,
        "tie_word_embeddings": tie_embeddings,
    }, "full_parameter_count")
    inv = inventory(arch)
    layer0 = inv.select(layer=0)
    params = {"embedding": inv.component("embedding")}
    if max_position_embeddings:
        params["position_embedding"] = inv.component("positions")
    params["attention_per_layer"] = sum(t.count for t in layer0 if t.component == "attention")
    params["ffn_per_layer"] = sum(t.count for t in layer0 if t.component == "ffn")
    params["norm_per_layer"] = sum(t.count for t in layer0 if t.component == "norm")
    params["total_per_layer"] = inv.by_layer[0]
    params["all_layers"] = sum(count for layer, count in inv.by_layer.items() if layer is not None)
    params["final_norm"] = sum(t.count for t in inv.select(component="norm", layer=None))
    params["output_head"] = inv.component("lm_head")
    params["total"] = inv.total
    return params

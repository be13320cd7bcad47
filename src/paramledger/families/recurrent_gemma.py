"""RecurrentGemma (Griffin; transformers 5.24.0 models/recurrent_gemma): Gemma's scaled, tied embedding and RMSNorms
(stored as a weight, applied as 1 + weight), each layer a temporal block then a gated MLP with biases.  The temporal
block is the RG-LRU recurrent block (parts/rglru.py) on the layers block_types calls "recurrent" and local
attention (parts/local_attention.py: a rotary in each layer) on the others, block_types repeated through the depth
(modeling_recurrent_gemma.py RecurrentGemmaDecoderLayer, lines 491-499; configuration_recurrent_gemma.py
layers_block_type)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ._family import Family, same

TF = "transformers 5.24.0 models/recurrent_gemma/configuration_recurrent_gemma.py"
RECURRENT, ATTENTION = "recurrent", "attention"
LINEAR, SLIDING = "linear_attention", "sliding_attention"  # layers_block_type's names, which layer_types maps to

NAMING = Naming(attn_pre_norm="temporal_pre_norm", ffn_pre_norm="channel_pre_norm", q="temporal_block.q_proj",
                k="temporal_block.k_proj", v="temporal_block.v_proj", o="temporal_block.o_proj",
                gate="mlp_block.gate_proj", up="mlp_block.up_proj", down="mlp_block.down_proj",
                final_norm="model.final_norm", rotary=None, layer_rotary="temporal_block.rotary_emb",
                # RecurrentGemmaModel.normalizer: sqrt(hidden_size), a 0-D bfloat16 buffer whatever the dtype
                model_buffers=(("model.normalizer", (), "bfloat16", False),),
                layer_order=("temporal_pre_norm", "temporal_block", "channel_pre_norm", "mlp_block"))


def griffin_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """RecurrentGemmaConfig.layers_block_type: block_types repeated (``(block_types * 100)[:num_hidden_layers]``),
    "recurrent" an RG-LRU layer and "attention" a local-attention layer, every one sliding within
    attention_window_size; RecurrentGemmaMlp is intermediate_size // 2 wide."""
    layers, kinds = config["num_hidden_layers"], config.get("block_types")
    if not isinstance(kinds, (list, tuple)) or not kinds or not set(kinds) <= {RECURRENT, ATTENTION}:
        raise ArchitectureError("block_types", f"must be a non-empty list of 'recurrent' and 'attention', got "
                                f"{kinds!r}"[:200])
    if layers > 100 * len(kinds):  # (block_types * 100)[:num_hidden_layers]: transformers builds no deeper
        raise ArchitectureError("block_types", f"repeats 100 times, {100 * len(kinds)} layers, below "
                                f"num_hidden_layers={layers}")
    kinds = [kinds[i % len(kinds)] for i in range(layers)]
    attention = tuple(i for i, kind in enumerate(kinds) if kind == ATTENTION)
    out = {"rglru_layers": tuple(i for i, kind in enumerate(kinds) if kind == RECURRENT),
           "local_attention_layers": attention,
           "layer_types": tuple(LINEAR if kind == RECURRENT else SLIDING for kind in kinds) if attention else (),
           "sliding_window": config.get("attention_window_size") if attention else None}
    size = config.get("intermediate_size")
    if isinstance(size, int) and not isinstance(size, bool):
        out["intermediate_size"] = size // 2
    if len(out["rglru_layers"]) == 0:  # no recurrent layer: its sizes describe nothing transformers builds
        out.update(lru_width=None, conv1d_width=None)
    return out


FAMILIES = [] if "rglru" not in MIXER_MODULES else [
    Family(
        model_type="recurrent_gemma",
        causal_lm_class="RecurrentGemmaForCausalLM",
        source=TF,
        naming=NAMING,
        keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
                  "attention_bias", "tie_word_embeddings", "lru_width", "conv1d_width", "head_dim",
                  hidden_activation="hidden_act"),
        defaults={"num_hidden_layers": 26, "vocab_size": 256000, "hidden_size": 2560, "intermediate_size": 3 * 2560,
                  "num_attention_heads": 10, "lru_width": None, "attention_window_size": 2048, "conv1d_width": 4,
                  "hidden_activation": "gelu_pytorch_tanh", "block_types": ["recurrent", "recurrent", "attention"],
                  "num_key_value_heads": None, "attention_bias": False, "tie_word_embeddings": True,
                  "partial_rotary_factor": 0.5},
        # o_proj is always biased (RecurrentGemmaAttention, line 217), the MLP's three projections too (line 481)
        switches={"mlp_gated": True, "mlp_bias": True, "attention_output_bias": True, "norm_type": "rmsnorm",
                  "norm_placement": "pre", "position_embedding_type": "rope"},
        # (__post_init__ sets head_dim to hidden_size // num_attention_heads before the keywords, so a given head_dim
        # wins: the attention is that wide); the rest is numerics
        count_neutral=frozenset({"intermediate_size", "block_types", "attention_window_size",
                                 "logits_soft_cap", "w_init_variance_scale", "final_w_init_variance_scale",
                                 "embeddings_scale_by_sqrt_dim"}),
        # The releases spell the pattern _block_types, which RecurrentGemmaConfig does not read (it builds block_types,
        # its default the releases' pattern): another value there describes a model transformers would not build.
        expects={"_block_types": ["recurrent", "recurrent", "attention"]},
        derive=(griffin_layers,),
    ),
]

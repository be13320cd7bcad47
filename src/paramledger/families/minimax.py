"""MiniMax-Text-01 (transformers 5.24.0 models/minimax): Mixtral's block with lightning attention (parts/lightning.py)
in place of self-attention on the layers layer_types calls "linear_attention" (by default every second layer, from
layer 1); the other layers are Mixtral's attention (modeling_minimax.py MiniMaxDecoderLayer, lines 530-551).

Registered only once parts/__init__.py lists "lightning" in MIXER_MODULES (the Architecture then has its keys and the
Naming its path); until then FAMILIES is empty and minimax is refused as unsupported.  Verified with it listed (a clone
of the tree): tests/test_families.py, test_buffers.py, test_kvcache.py and test_compute.py, slow checks included, -k
minimax (docs/notes/coverage-set-d.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from ..parts import MIXER_MODULES
from ._family import derived_from
from .moe import FAMILIES as MOE
from .qwen3_next import FULL, LINEAR, gated_deltanet_layers

MIXTRAL = next(family for family in MOE if family.model_type == "mixtral")


def lightning_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """MiniMaxConfig.__post_init__: layer_types as given, else layer i full when (i + 1) is odd, lightning when even,
    checked as Qwen3-Next's (the same two kinds); the block size only sizes the lightning layers' buffers.  No layer
    slides as the cache sees it: sliding_window only masks (MiniMaxModel, line 669), and MiniMaxCache, a DynamicCache
    built without the config, keeps every key."""
    types = config.get("layer_types")
    if types is None:
        types = [FULL if (i + 1) % 2 else LINEAR for i in range(config["num_hidden_layers"])]
    lightning = gated_deltanet_layers({**config, "layer_types": types})["linear_attention_layers"]
    return {"lightning_attention_layers": lightning,
            "lightning_block_size": config.get("block_size") if lightning else None,
            "sliding_window": None, "layer_types": ()}


# Identical to Mixtral except: lightning attention on the "linear_attention" layers (block_size sizes its buffers),
# six residual weights (*_alpha_factor, *_beta_factor: floats, no parameters), and the layer registering its norms
# before its MoE block (MiniMaxDecoderLayer assigns mlp last, line 543).
FAMILIES = [] if "lightning" not in MIXER_MODULES else [
    derived_from(
        MIXTRAL,
        model_type="minimax",
        causal_lm_class="MiniMaxForCausalLM",
        source="transformers 5.24.0 models/minimax/configuration_minimax.py",
        naming=Naming(layer_order=("self_attn", "input_layernorm", "post_attention_layernorm", "mlp")),
        keys={**MIXTRAL.keys, "block_size": "lightning_block_size"},
        defaults={**MIXTRAL.defaults, "max_position_embeddings": 4096 * 32, "block_size": 256, "layer_types": None},
        count_neutral=MIXTRAL.count_neutral | {"full_attn_alpha_factor", "full_attn_beta_factor",
                                               "linear_attn_alpha_factor", "linear_attn_beta_factor",
                                               "mlp_alpha_factor", "mlp_beta_factor"},
        derive=(lightning_layers,),
    ),
]

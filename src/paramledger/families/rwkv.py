"""RWKV-4 (transformers 5.24.0 models/rwkv): every block a LayerNorm before its time mix and one before its channel
mix (parts/rwkv.py holds both mixes), the first block a third LayerNorm on the embeddings (pre_ln), a LayerNorm
(ln_out) and an untied head after the blocks; no attention, no positions (modeling_rwkv.py RwkvBlock, lines
325-338; RwkvModel, lines 486-499; RwkvForCausalLM, lines 666-672)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..naming import Naming
from ..parts import MIXER_MODULES
from ._family import Family, same

TF = "transformers 5.24.0 models/rwkv/configuration_rwkv.py"

# rwkv.embeddings, rwkv.blocks.0.pre_ln (only the first block has one: named as the embeddings' norm, which
# named_parameters() lists just before the block's own), rwkv.blocks.{i}.ln1, .ln2, .attention, .feed_forward,
# rwkv.ln_out, head
NAMING = Naming(embed="rwkv.embeddings", embed_norm="rwkv.blocks.0.pre_ln", layer="rwkv.blocks.{i}",
                attn_pre_norm="ln1", final_norm="rwkv.ln_out", lm_head="head", rotary=None,
                layer_order=("ln1", "ln2", "attention", "feed_forward"))


def every_layer_rwkv(config: Mapping[str, Any]) -> dict[str, Any]:
    """Every block is an RWKV block: the time mix, and the channel mix in the FFN's place."""
    layers = tuple(range(config["num_hidden_layers"]))
    return {"rwkv_layers": layers, "layers_without_ffn": layers}


FAMILIES = [] if "rwkv" not in MIXER_MODULES else [
    Family(
        model_type="rwkv",
        causal_lm_class="RwkvForCausalLM",
        source=TF,
        naming=NAMING,
        keys=same("vocab_size", "hidden_size", "num_hidden_layers", "intermediate_size", "tie_word_embeddings",
                  attention_hidden_size="rwkv_attention_hidden_size"),
        defaults={"vocab_size": 50277, "context_length": 1024, "hidden_size": 4096, "num_hidden_layers": 32,
                  "attention_hidden_size": None, "intermediate_size": None, "tie_word_embeddings": False},
        # No attention anywhere: the design's one required head count is a placeholder no tensor reads.
        switches={"num_attention_heads": 1, "norm_type": "layernorm", "norm_placement": "pre",
                  "position_embedding_type": "none"},
        # context_length only sizes the CUDA kernel's buffers; rescale_every halves activations at inference
        count_neutral=frozenset({"context_length", "rescale_every"}),
        derive=(every_layer_rwkv,),
    ),
]

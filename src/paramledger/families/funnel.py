"""Funnel Transformer (transformers 5.24.0 models/funnel, FunnelForMaskedLM; only in the masked-LM mapping): the token
table and its LayerNorm, the encoder's layers in blocks (funnel.encoder.blocks.{b}.{j}, block_sizes), the decoder's
num_decoder_layers layers (funnel.decoder.layers.{j}), each a FunnelLayer (parts/funnel_layer.py: relative attention
and a feed-forward with their own post-LayerNorms), no final norm, and lm_head: tied to the table by default, always
biased.  The pooling between blocks holds no tensor; block_repeats runs a block's layers again, holding none more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..layer_lists import LISTED_LAYERS
from ..naming import Naming
from ._family import Family, same

TF = "transformers 5.24.0 models/funnel/configuration_funnel.py"


def _sizes(config: Mapping[str, Any], key: str) -> list[int]:
    value = config[key]
    if not isinstance(value, (list, tuple)) or not value or not all(type(size) is int and size >= 0
                                                                     for size in value):
        raise ArchitectureError(key, f"{value!r} is not a non-empty list of layer counts of 0 or more"[:200])
    return list(value)


def funnel_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """FunnelConfig: the encoder's blocks (block_sizes) then the decoder's num_decoder_layers layers, one list, every
    layer a FunnelLayer; block_repeats as long as block_sizes (validate_architecture), the pooling and attention
    kinds among those it runs."""
    blocks = _sizes(config, "block_sizes")
    repeats = config.get("block_repeats")
    if repeats is not None and len(_sizes(config, "block_repeats")) != len(blocks):
        raise ArchitectureError("block_repeats", f"{len(repeats)} entries for {len(blocks)} blocks (FunnelConfig "
                                "needs as many as block_sizes)")
    for key, allowed in (("pooling_type", ("mean", "max")), ("attention_type", ("relative_shift", "factorized"))):
        if config.get(key) not in allowed:
            raise ArchitectureError(key, f"{config.get(key)!r} is not one of {list(allowed)} (FunnelConfig refuses "
                                    "it)"[:200])
    decoder = config["num_decoder_layers"]
    if type(decoder) is not int or decoder < 0:
        raise ArchitectureError("num_decoder_layers", f"{decoder!r} is not a layer count of 0 or more"[:200])
    depth = sum(blocks) + decoder
    if depth < 1:
        raise ArchitectureError("block_sizes", "no layer in the blocks nor in the decoder (num_decoder_layers)")
    if depth > LISTED_LAYERS:  # the blocks' names are listed one tensor at a time (layer_blocks.py)
        raise ArchitectureError("block_sizes", f"{depth:,} layers with the decoder's are beyond the "
                                f"{LISTED_LAYERS:,} paramledger names in blocks (docs/limits.md)")
    every = tuple(range(depth))
    return {"block_sizes": tuple(blocks), "num_hidden_layers": depth, "funnel_layers": every,
            "layers_without_ffn": every}


FAMILIES = [
    # identical to xlnet (families/xlnet.py) except: every layer is Funnel's (parts/funnel_layer.py), named in the
    # encoder's blocks then the decoder's list (Naming.layer_blocks), the table's LayerNorm (FunnelEmbeddings), no
    # mask embedding, the head's Linear lm_head (configuration_funnel.py, modeling_funnel.py lines 44-49, 993-1000)
    Family(
        model_type="funnel",
        causal_lm_class="FunnelForMaskedLM",
        source=TF,
        naming=Naming(embed="funnel.embeddings.word_embeddings", embed_norm="funnel.embeddings.layer_norm",
                      layer="funnel.decoder.layers.{i}", layer_blocks="funnel.encoder.blocks.{b}.{j}", rotary=None),
        # (hidden_size and num_attention_heads: FunnelConfig's attribute_map, set into d_model and n_head)
        keys=same("vocab_size", "tie_word_embeddings", "block_sizes", "hidden_act", "hidden_size",
                  "num_attention_heads", d_model="hidden_size", n_head="num_attention_heads", d_head="head_dim",
                  d_inner="intermediate_size"),
        defaults={"vocab_size": 30522, "block_sizes": [4, 4, 4], "block_repeats": None, "num_decoder_layers": 2,
                  "d_model": 768, "n_head": 12, "d_head": 64, "d_inner": 3072, "hidden_act": "gelu_new",
                  "pooling_type": "mean", "attention_type": "relative_shift", "tie_word_embeddings": True},
        switches={"norm_type": "layernorm", "norm_placement": "none", "final_norm": False,
                  "position_embedding_type": "none", "lm_head_bias": True, "mlp_gated": False,
                  "layernorm_embedding": True},
        # read by funnel_layers; the rest steer pooling, the attention's arithmetic and initialisation
        count_neutral=frozenset({"block_repeats", "num_decoder_layers", "pooling_type", "attention_type",
                                 "separate_cls", "truncate_seq", "pool_q_only", "hidden_dropout",
                                 "activation_dropout", "initializer_std"}),
        derive=(funnel_layers,),
    ),
]

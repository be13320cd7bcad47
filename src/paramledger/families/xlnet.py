"""XLNet (transformers 5.24.0 models/xlnet, XLNetLMHeadModel): a learned mask embedding, the token table, layers of
relative attention and a feed-forward, each with its own post-LayerNorm (parts/relative_segment_attention.py), no
final norm, and lm_loss: a head tied to the table by default, always biased."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ._family import Family, same

TF = "transformers 5.24.0 models/xlnet/configuration_xlnet.py"


def xlnet_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """XLNetConfig: d_head is d_model // n_head (set when absent, refused otherwise: validate_architecture); every
    layer is an XLNetLayer, which holds its own feed-forward and norms."""
    width, heads = config["d_model"], config["n_head"]
    head = config.get("d_head") or (width // heads if isinstance(width, int) and isinstance(heads, int) and heads
                                    else None)
    if isinstance(width, int) and isinstance(heads, int) and heads > 0 and head != width // heads:
        raise ArchitectureError("d_head", f"{head!r} is not d_model // n_head = {width // heads} (XLNetConfig "
                                "refuses it)"[:200])
    every = tuple(range(config["n_layer"])) if isinstance(config["n_layer"], int) else ()
    return {"head_dim": head, "relative_segment_attention_layers": every, "layers_without_ffn": every}


_MASK = "mask_embedding" in {field.name for field in dataclasses.fields(Naming)}

FAMILIES = [] if "relative_segment_attention" not in MIXER_MODULES or not _MASK else [
    # identical to llama (the default Naming) except: every layer is XLNet's (the part above, holding the FFN and
    # post-norms: norm_placement "none"), LayerNorms, no final norm, no rotary, the mask embedding before the table
    # (Naming.mask_embedding) and the head's bias (configuration_xlnet.py)
    Family(
        model_type="xlnet",
        causal_lm_class="XLNetLMHeadModel",
        source=TF,
        naming=Naming(embed="transformer.word_embedding", layer="transformer.layer.{i}", lm_head="lm_loss",
                      mask_embedding="transformer.mask_emb", rotary=None,
                      # XLNetModel registers mask_emb first, as its own Parameter
                      model_order=("transformer.mask_emb", "transformer.word_embedding", "transformer.layer",
                                   "lm_loss")),
        keys=same("vocab_size", "tie_word_embeddings", d_model="hidden_size", n_layer="num_hidden_layers",
                  n_head="num_attention_heads", d_inner="intermediate_size", ff_activation="hidden_act"),
        defaults={"vocab_size": 32000, "d_model": 1024, "n_layer": 24, "n_head": 16, "d_inner": 4096,
                  "d_head": None, "ff_activation": "gelu", "tie_word_embeddings": True},
        switches={"norm_type": "layernorm", "norm_placement": "none", "final_norm": False,
                  "position_embedding_type": "none", "lm_head_bias": True, "mlp_gated": False},
        # d_head: read by xlnet_layers; the rest steer attention, memory and the summary heads of other classes
        count_neutral=frozenset({"d_head", "attn_type", "layer_norm_eps", "dropout", "mem_len", "reuse_len",
                                 "use_mems_eval", "use_mems_train", "bi_data", "clamp_len", "same_length",
                                 "summary_type", "summary_use_proj", "summary_activation", "summary_last_dropout",
                                 "start_n_top", "end_n_top"}),
        derive=(xlnet_layers,),
    ),
]

"""CPM-Ant (OpenBMB; transformers 5.24.0 models/cpmant): a pre-norm decoder of weight-only RMSNorms, MHA without
biases or RoPE, and a gated FFN, with a segment table and one learned relative-position bias shared by the layers
(CpmAntSegmentPositionEmbedding.relative_attention_bias, a bare (segment_types² + position_bias_num_buckets, heads)
Parameter).  The input table holds the prompt tokens past the vocabulary, the head only the vocabulary, and the head
is never tied (CpmAntForCausalLM._tied_weights_keys = {}: the head is a vocab-sized slice of the table)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ._family import Family, same

TF = "transformers 5.24.0 models/cpmant/configuration_cpmant.py"


def cpmant_tables(config: Mapping[str, Any]) -> dict[str, Any]:
    """CpmAntModel (modeling_cpmant.py lines 540-550): input_embedding has vocab_size + prompt_types × prompt_length
    rows, lm_head vocab_size; the relative bias segment_types² + position_bias_num_buckets rows."""
    sizes = {key: config[key] for key in ("prompt_types", "prompt_length", "segment_types",
                                          "position_bias_num_buckets")}
    for key, value in sizes.items():
        if type(value) is not int or value < 0:
            raise ArchitectureError(key, f"must be a whole number of zero or more, got {value!r}"[:200])
    vocab = config["vocab_size"]
    return {"vocab_size": vocab + sizes["prompt_types"] * sizes["prompt_length"], "output_vocab_size": vocab,
            "relative_attention_num_buckets": sizes["segment_types"] ** 2 + sizes["position_bias_num_buckets"]}


_RAW_BIAS = "relative_attention_bias_raw" in {field.name for field in dataclasses.fields(Naming)}

FAMILIES = [] if not _RAW_BIAS else [
    # identical to llama (no family entry: the default Naming) except: CPM-Ant's module names, no RoPE, the
    # segment table, the shared relative bias (a bare Parameter: Naming.relative_attention_bias_raw), the prompt
    # rows of the table and the head never tied (configuration_cpmant.py)
    Family(
        model_type="cpmant",
        causal_lm_class="CpmAntForCausalLM",
        source=TF,
        naming=Naming(embed="cpmant.input_embedding", token_types="cpmant.segment_embedding",
                      layer="cpmant.encoder.layers.{i}", attn_pre_norm="self_att.layernorm_before_attention",
                      q="self_att.self_attention.project_q", k="self_att.self_attention.project_k",
                      v="self_att.self_attention.project_v", o="self_att.self_attention.attention_out",
                      ffn_pre_norm="ffn.layernorm_before_ffn", gate="ffn.ffn.w_in.w_0", up="ffn.ffn.w_in.w_1",
                      down="ffn.ffn.w_out", final_norm="cpmant.encoder.output_layernorm",
                      relative_attention_bias="cpmant.position_bias.relative_attention_bias",
                      relative_attention_bias_raw=True, rotary=None,
                      layer_order=("self_att.layernorm_before_attention", "self_att", "ffn.layernorm_before_ffn"),
                      model_order=("cpmant.encoder.layers", "cpmant.encoder.output_layernorm",
                                   "cpmant.segment_embedding", "cpmant.input_embedding", "cpmant.position_bias")),
        keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
                  dim_head="head_dim", dim_ff="intermediate_size", segment_types="type_vocab_size"),
        defaults={"vocab_size": 30720, "hidden_size": 4096, "num_attention_heads": 32, "dim_head": 128,
                  "dim_ff": 10240, "num_hidden_layers": 48, "position_bias_num_buckets": 512,
                  "position_bias_max_distance": 2048, "prompt_types": 32, "prompt_length": 32, "segment_types": 32},
        switches={"mlp_gated": True, "norm_type": "rmsnorm", "norm_placement": "pre",
                  "position_embedding_type": "none", "tie_word_embeddings": False},
        # prompt_types, prompt_length, position_bias_num_buckets: sizes read by cpmant_tables; tie_word_embeddings:
        # never read (no tied keys); the rest numerics
        count_neutral=frozenset({"prompt_types", "prompt_length", "position_bias_num_buckets",
                                 "position_bias_max_distance", "tie_word_embeddings", "dropout_p", "eps",
                                 "init_std"}),
        derive=(cpmant_tables,),
    ),
]

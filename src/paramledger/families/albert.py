"""ALBERT (transformers 5.24.0 models/albert, AlbertForMaskedLM; only in the masked-LM mapping): ELECTRA's factorized
tables (families/electra.py) under a stack whose layers are shared: AlbertTransformer registers
albert_layer_groups.{g}.albert_layers.{j} once for g < num_hidden_groups, j < inner_group_num, and runs
num_hidden_layers steps, step i through group i // (num_hidden_layers / num_hidden_groups) (modeling_albert.py lines
255-290). named_parameters() names each shared tensor once: no alias names.

Identical to electra except (configuration_albert.py, modeling_albert.py lines 40-420): the layers counted are the
groups (num_hidden_groups read as the design's depth: one tensor, many uses), each AlbertLayer's
full_layer_layer_norm registered first, then attention.query, .key, .value, .dense and attention.LayerNorm, ffn and
ffn_output; albert.encoder.embedding_hidden_mapping_in at any width (biased); the head AlbertMLMHead (predictions:
its bias held apart, LayerNorm and dense at embedding_size, the decoder tied); no cross-attention; AlbertConfig's
defaults (the xxlarge sizes: 4,096 wide, 64 heads).  inner_group_num above 1: each group holds that many layers
(AlbertLayerGroup.albert_layers, line 245), the design's depth num_hidden_groups × inner_group_num, layer i named
albert_layer_groups.{i // inner_group_num}.albert_layers.{i % inner_group_num} (Naming.layer_groups)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_REPEAT, big
from ._family import derived_from
from .bert_variants import renamed
from .electra import ELECTRA

PREFIX = "albert.embeddings"


def runs(arch: Any) -> str | None:
    """The design's depth is the groups' (the tensors); ALBERT runs num_hidden_layers steps through them."""
    return ("the layers listed are ALBERT's shared layer groups (num_hidden_groups, each of inner_group_num layers), "
            "each holding its tensors once; transformers runs num_hidden_layers steps through them, so compute and "
            "activation figures here are for one pass through each group, not for the full depth")


def inner_groups(config: Mapping[str, Any]) -> dict[str, Any]:
    """inner_group_num layers a group (AlbertLayerGroup), num_hidden_groups groups: the design's layers, numbered
    group by group; one a group keeps the plain naming (no inner_group_num on the design)."""
    inner = config.get("inner_group_num")
    if inner is None or inner == 1:
        return {}
    if type(inner) is not int or inner < 1:
        why = " (0 builds groups holding no layer, which paramledger does not count)" if type(inner) is int else ""
        raise ArchitectureError("inner_group_num", f"{inner!r} is not a positive integer{why}")
    layers = config["num_hidden_layers"] * inner  # (num_hidden_groups, read as the field)
    if layers > MAX_REPEAT:
        raise ArchitectureError("inner_group_num", f"{big(inner)} layers in each of {config['num_hidden_layers']:,} "
                                f"groups are beyond the bound of {MAX_REPEAT:,} layers (docs/limits.md)")
    return {"inner_group_num": inner, "num_hidden_layers": layers}


ALBERT = derived_from(
    ELECTRA, model_type="albert", causal_lm_class="AlbertForMaskedLM",
    source="transformers 5.24.0 models/albert/configuration_albert.py",
    naming=renamed(ELECTRA.naming, "albert", embed=f"{PREFIX}.word_embeddings",
                   positions=f"{PREFIX}.position_embeddings", token_types=f"{PREFIX}.token_type_embeddings",
                   embed_norm=f"{PREFIX}.LayerNorm", embed_project="albert.encoder.embedding_hidden_mapping_in",
                   embed_project_always=True, layer="albert.encoder.albert_layer_groups.{i}.albert_layers.0",
                   layer_groups="albert.encoder.albert_layer_groups.{g}.albert_layers.{j}",
                   q="attention.query", k="attention.key", v="attention.value", o="attention.dense",
                   attn_post_norm="attention.LayerNorm", up="ffn", down="ffn_output",
                   ffn_post_norm="full_layer_layer_norm",
                   lm_head="predictions.decoder", lm_head_bias="predictions.bias",
                   lm_head_dense="predictions.dense", lm_head_norm="predictions.LayerNorm",
                   layer_order=("full_layer_layer_norm", "attention", "ffn", "ffn_output"),
                   model_buffers=tuple((f"{PREFIX}.{name}", (1, "max_position_embeddings"), "int64", False)
                                       for name in ("position_ids", "token_type_ids")),
                   model_order=(PREFIX, "albert.encoder.embedding_hidden_mapping_in",
                                "albert.encoder.albert_layer_groups", "predictions.bias", "predictions.LayerNorm", "predictions.dense",
                                "predictions.decoder")),
    keys={**{key: field for key, field in ELECTRA.keys.items() if key != "num_hidden_layers"},
          "num_hidden_groups": "num_hidden_layers"},
    defaults={"vocab_size": 30000, "embedding_size": 128, "hidden_size": 4096, "num_hidden_layers": 12,
              "num_hidden_groups": 1, "num_attention_heads": 64, "intermediate_size": 16384, "inner_group_num": 1,
              "hidden_act": "gelu_new", "max_position_embeddings": 512, "type_vocab_size": 2,
              "tie_word_embeddings": True},
    switches={**ELECTRA.switches, "lm_head_bias": True},
    # num_hidden_layers: how many steps run through the groups (no tensor of its own); inner_group_num: read by
    # inner_groups
    count_neutral=ELECTRA.count_neutral - {"summary_last_dropout"} | {"num_hidden_layers", "classifier_dropout_prob",
                                                                       "inner_group_num"},
    requires={}, explain=(runs,), derive=(inner_groups,))

FAMILIES = [ALBERT]

"""ConvBERT (transformers 5.24.0 models/convbert, ConvBertForMaskedLM; only in the masked-LM mapping): ELECTRA's
generator (families/electra.py) whose every layer mixes tokens by ConvBERT's mixed attention
(parts/span_conv_attention.py) instead of self-attention, and where num_groups > 1 grouped FFN projections
(parts/grouped_ffn.py) instead of the dense FFN.

Identical to electra except (configuration_convbert.py, modeling_convbert.py lines 130-200, 291-330, 570-680):
ConvBertModel under "convbert"; every layer's attention a share of the heads (head_ratio) beside a span-based
dynamic convolution (conv_kernel_size), the output dense over both; for num_groups > 1 the FFN's intermediate.dense
and output.dense are GroupedLinearLayers (a (groups, in // groups, out // groups) weight and a whole bias: the
grouped_ffn sublayer holds them and output.LayerNorm, every layer listed without the dense FFN); ConvBertConfig's
defaults (BERT-base's sizes, embedding_size 768)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_INTEGER, big
from ._family import derived_from
from .bert_variants import renamed
from .electra import ELECTRA


def mixed_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Every ConvBertLayer's attention is the mixed one (ConvBertSelfAttention); with add_cross_attention (and
    is_decoder) its crossattention too; num_groups > 1: the grouped FFN."""
    every = tuple(range(config["num_hidden_layers"]))
    cross = {}
    if config.get("add_cross_attention"):  # ConvBertLayer.crossattention: the mixed attention again
        if not config.get("is_decoder"):
            raise ArchitectureError("add_cross_attention", "needs is_decoder true (transformers refuses cross-attention "
                                    "in an encoder: \"should be used as a decoder model if cross attention is added\")")
        cross = {"span_conv_cross_attention": True}
    groups = config.get("num_groups")
    if groups is None or groups == 1:  # (null: ConvBertConfig's default, 1)
        return {"span_conv_layers": every, **cross}
    if type(groups) is not int or groups < 1:
        raise ArchitectureError("num_groups", f"{groups!r} is not a positive integer (GroupedLinearLayer divides by "
                                "it)")
    if groups > MAX_INTEGER:
        raise ArchitectureError("num_groups", f"{big(groups)} is beyond the bound of {MAX_INTEGER:,} (docs/limits.md)")
    # GroupedLinearLayer in the FFN's place (modeling_convbert.py lines 313-345)
    return {"span_conv_layers": every, "num_groups": groups, "layers_without_ffn": every, **cross}


CONVBERT = derived_from(
    ELECTRA, model_type="convbert", causal_lm_class="ConvBertForMaskedLM",
    source="transformers 5.24.0 models/convbert/configuration_convbert.py",
    naming=renamed(ELECTRA.naming, "convbert", embed="convbert.embeddings.word_embeddings",
                   positions="convbert.embeddings.position_embeddings",
                   token_types="convbert.embeddings.token_type_embeddings",
                   embed_norm="convbert.embeddings.LayerNorm", layer="convbert.encoder.layer.{i}",
                   embed_project="convbert.embeddings_project",
                   model_buffers=tuple((f"convbert.embeddings.{name}", (1, "max_position_embeddings"), "int64", False)
                                       for name in ("position_ids", "token_type_ids")),
                   model_order=("convbert.embeddings", "convbert.embeddings_project", "convbert.encoder.layer",
                                "generator_predictions.LayerNorm", "generator_predictions.dense",
                                "generator_lm_head")),
    keys={**ELECTRA.keys, "head_ratio": "span_head_ratio", "conv_kernel_size": "span_conv_kernel_size"},
    defaults={**ELECTRA.defaults, "hidden_size": 768, "num_attention_heads": 12, "intermediate_size": 3072,
              "embedding_size": 768, "head_ratio": 2, "conv_kernel_size": 9, "num_groups": 1},
    # add_cross_attention (with is_decoder: parts/span_conv_cross.py) and num_groups: read by mixed_layers
    count_neutral=ELECTRA.count_neutral | {"add_cross_attention", "num_groups"},
    requires={}, derive=(mixed_layers,))

FAMILIES = [CONVBERT]

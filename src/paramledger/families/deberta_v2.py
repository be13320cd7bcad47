"""DeBERTa-v2 (transformers 5.24.0 models/deberta_v2): DebertaV2ForMaskedLM's legacy head (cls.predictions, BERT's)
over BERT's post-LN encoder (families/bert.py) with its own projection names and, with relative attention, one
hidden-wide relative-position table after the layers. Only in the masked-LM mapping: the reference is
DebertaV2ForMaskedLM.

Without share_att_key, relative attention adds pos_key_proj / pos_query_proj to every attention (by pos_att_type),
and an attention_head_size whose heads do not fill hidden_size makes query, key and value that wide beside a hidden
square output dense: both counted by parts/disentangled_v2_attention.py (disentangled_attention).  An embedding_size
apart from hidden_size adds embed_proj without a bias (refused in one line).  conv_kernel_size above 0 adds
DebertaV2Encoder.conv, a ConvLayer after the layers and their LayerNorm (lines 443-456, 586): conv.conv (hidden,
hidden / conv_groups, conv_kernel_size) and its bias, then conv.LayerNorm; conv_groups that do not divide
hidden_size, or are not positive, are refused as nn.Conv1d refuses them.  legacy false builds DebertaV2OnlyMLMHead
as lm_predictions instead of cls (lines 879-893): lm_predictions.lm_head's own bias (vocab), then its dense
(hidden × hidden, biased) and LayerNorm, no decoder (forward multiplies by the token table itself) and nothing tied
(_tied_weights_keys emptied); the names by Naming.not_legacy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_INTEGER, big
from ._family import derived_from, same
from .bert import BERT
from .bert_variants import renamed


def deberta_tables(config: Mapping[str, Any]) -> dict[str, Any]:
    """DebertaV2Embeddings (modeling_deberta_v2.py lines 486-505): a position table only with position_biased_input,
    a token-type table only for type_vocab_size > 0; DebertaV2Encoder's LayerNorm (lines 581-584, after the layers)
    whenever norm_rel_ebd names layer_norm, with relative attention or without."""
    width = config.get("embedding_size")
    if width is not None and width != config["hidden_size"]:
        raise ArchitectureError("embedding_size", f"{width} apart from hidden_size is not supported for deberta-v2 "
                                "(its embed_proj carries no bias; paramledger counts only equal widths)")
    norms = [name.strip() for name in str(config.get("norm_rel_ebd") or "none").lower().split("|")]
    return {"position_embedding_type": "learned" if config.get("position_biased_input", True) else "none",
            "type_vocab_size": config.get("type_vocab_size") or None, "final_norm": "layer_norm" in norms,
            "relative_embeddings_size": relative_rows(config), **encoder_conv(config)}


def encoder_conv(config: Mapping[str, Any]) -> dict[str, Any]:
    """DebertaV2Encoder.conv where conv_kernel_size > 0 (getattr, default 0; conv_groups default 1): nn.Conv1d refuses
    groups that are not positive or do not divide hidden_size."""
    kernel = config.get("conv_kernel_size") or 0
    if type(kernel) is not int:
        raise ArchitectureError("conv_kernel_size", f"{kernel!r} is not an integer")
    if kernel <= 0:
        return {}
    if kernel > MAX_INTEGER:
        raise ArchitectureError("conv_kernel_size", f"{big(kernel)} is beyond the bound of {MAX_INTEGER:,} "
                                "(docs/limits.md)")
    groups = config.get("conv_groups", 1)
    if type(groups) is not int or groups < 1:
        raise ArchitectureError("conv_groups", f"{groups!r} is refused by transformers 5.24.0: nn.Conv1d's groups must "
                                "be a positive integer")
    if config["hidden_size"] % groups:
        raise ArchitectureError("conv_groups", f"{groups} does not divide hidden_size={config['hidden_size']} "
                                "(transformers 5.24.0 refuses it: nn.Conv1d's in_channels must be divisible by groups)")
    return {"encoder_conv_kernel_size": kernel, "encoder_conv_groups": groups}


def relative_rows(config: Mapping[str, Any]) -> int | None:
    """DebertaV2Encoder.rel_embeddings (lines 566-579): 2 × position_buckets when positive, else 2 ×
    max_relative_positions (max_position_embeddings when below 1); None without relative attention."""
    if not config.get("relative_attention"):
        return None
    buckets, positions = config.get("position_buckets") or -1, config.get("max_relative_positions") or -1
    return 2 * (buckets if buckets > 0 else positions if positions >= 1 else config["max_position_embeddings"])


def disentangled_attention(config: Mapping[str, Any]) -> dict[str, Any]:
    """DisentangledSelfAttention (lines 142-176): all_head_size = heads × attention_head_size (the config's wherever
    given: getattr, hidden_size // heads else; hidden_size must be a multiple of heads whatever it says, ValueError),
    and, with relative attention and without share_att_key (getattr, false), pos_key_proj for "c2p" and
    pos_query_proj for "p2c" in pos_att_type (a string split at "|", as DebertaV2Config.__post_init__ splits it).
    Where all_head_size is not hidden_size or a position projection is built, every layer's attention is
    parts/disentangled_v2_attention.py's (the output dense hidden_size square); else the plain one."""
    heads, hidden = config["num_attention_heads"], config["hidden_size"]
    if hidden % heads:
        raise ArchitectureError("num_attention_heads", f"{heads} does not divide hidden_size={hidden} "
                                "(DisentangledSelfAttention raises ValueError whatever attention_head_size says)")
    if "attention_head_size" in config and config["attention_head_size"] is None:
        raise ArchitectureError("attention_head_size", "null: transformers cannot build it (DisentangledSelfAttention "
                                "reads it with getattr and multiplies it by the heads: TypeError)")
    width = heads * (config.get("head_dim") or hidden // heads)
    kinds = config.get("pos_att_type") or []
    kinds = [kind.strip() for kind in kinds.lower().split("|")] if isinstance(kinds, str) else kinds
    unshared = bool(config.get("relative_attention")) and not config.get("share_att_key")
    keys, queries = unshared and "c2p" in kinds, unshared and "p2c" in kinds
    if width == hidden and not (keys or queries):
        return {}
    return {"disentangled_v2_layers": tuple(range(config["num_hidden_layers"])), "unshared_pos_key_proj": keys,
            "unshared_pos_query_proj": queries}


def forward_fails(arch: Any) -> str | None:
    """all_head_size apart from hidden_size: DebertaV2SelfOutput.dense reads hidden_size channels of the attention's
    all_head_size (measured: "mat1 and mat2 shapes cannot be multiplied")."""
    width = arch.num_attention_heads * arch.attention_head_dim
    if not arch.disentangled_v2_layers or width == arch.hidden_size:
        return None
    return (f"attention_head_size {arch.attention_head_dim:,} × {arch.num_attention_heads:,} heads is not "
            f"hidden_size={arch.hidden_size:,}: counted as transformers builds it (query, key and value that wide, the "
            "output dense hidden_size square), a model whose forward cannot run")


HEAD = "lm_predictions.lm_head"
# legacy false: the head's names (no decoder: lm_head ""; its bias its own, not a Linear's)
NOT_LEGACY = (("lm_head", ""), ("lm_head_bias", f"{HEAD}.bias"), ("lm_head_dense", f"{HEAD}.dense"),
              ("lm_head_norm", f"{HEAD}.LayerNorm"), ("lm_head_linear_bias", False),
              ("model_order", ("deberta.embeddings", "deberta.encoder.layer", "deberta.encoder.rel_embeddings",
                               "deberta.encoder.LayerNorm", "deberta.encoder.conv", f"{HEAD}.bias", f"{HEAD}.dense",
                               f"{HEAD}.LayerNorm")))

# identical to bert except: DebertaV2Model under "deberta" (query_proj, key_proj, value_proj; the attention head size
# as attention_head_size), no token_type_ids buffer, the tables by deberta_tables, DebertaV2Config's defaults
# (configuration_deberta_v2.py), the relative table by relative_rows; unshared position projections and heads that do
# not fill hidden_size by disentangled_attention; factorized embeddings refused; legacy false names the new head
# (NOT_LEGACY); the conv layer by encoder_conv
DEBERTA_V2 = derived_from(
    BERT, model_type="deberta-v2", causal_lm_class="DebertaV2ForMaskedLM",
    source="transformers 5.24.0 models/deberta_v2/configuration_deberta_v2.py",
    naming=renamed(BERT.naming, "deberta", q="attention.self.query_proj", k="attention.self.key_proj",
                   v="attention.self.value_proj", final_norm="deberta.encoder.LayerNorm",
                   relative_embeddings="deberta.encoder.rel_embeddings",
                   model_buffers=(("deberta.embeddings.position_ids", (1, "max_position_embeddings"), "int64",
                                   False),),
                   encoder_conv="deberta.encoder.conv",  # (pos_key_proj, pos_query_proj: Names' defaults)
                   model_order=("deberta.embeddings", "deberta.encoder.layer", "deberta.encoder.rel_embeddings",
                                "deberta.encoder.LayerNorm", "deberta.encoder.conv",
                                "cls.predictions.bias", "cls.predictions.transform"),
                   not_legacy=NOT_LEGACY),
    keys={**same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
                 "max_position_embeddings", "tie_word_embeddings", "hidden_act", "legacy"),
          "attention_head_size": "head_dim"},
    defaults={"vocab_size": 128100, "hidden_size": 1536, "num_hidden_layers": 24, "num_attention_heads": 24,
              "intermediate_size": 6144, "hidden_act": "gelu", "max_position_embeddings": 512, "type_vocab_size": 0,
              "tie_word_embeddings": True, "position_biased_input": True, "relative_attention": False},
    count_neutral=BERT.count_neutral | {"type_vocab_size", "position_biased_input", "norm_rel_ebd", "embedding_size",
                                        "relative_attention",
                                        "pooler_dropout", "pooler_hidden_act", "pooler_hidden_size",
                                        "max_relative_positions", "position_buckets", "pos_att_type",
                                        "share_att_key", "conv_groups", "conv_act", "cls_dropout",
                                        "conv_kernel_size"},  # (conv_kernel_size, conv_groups: read by encoder_conv)
    switches={key: value for key, value in BERT.switches.items()
              if key not in ("position_embedding_type", "final_norm")},
    requires={}, expects={},
    derive=(deberta_tables, disentangled_attention), explain=(forward_fails,))
MASKED_LM_ONLY = [DEBERTA_V2]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY

"""XLM and FlauBERT (transformers 5.24.0 models/xlm, models/flaubert): XLMWithLMHeadModel (in both the causal-LM and
the masked-LM mappings) and FlaubertWithLMHeadModel (the masked-LM mapping's).  XLMModel is DistilBERT's layer (the same
MultiHeadAttention q_lin/k_lin/v_lin/out_lin and TransformerFFN lin1/lin2, biased, post-LN) held as one ModuleList per
kind of module (attentions.{i}, layer_norm1.{i}, ffns.{i}, layer_norm2.{i}: Naming.layer_lists, layer_lists.py),
modeling_xlm.py lines 494-590 and 668-727; the head is XLMPredLayer (lines 866-905)."""

from __future__ import annotations

import dataclasses
from typing import Any

from .._exceptions import ArchitectureError
from ..design.values import whole
from ..limits import MAX_INTEGER, big
from ..parts.adaptive_softmax import cutoffs_checked, div_value_text, tail_widths
from ._family import derived_from, same
from .bert_variants import DISTILBERT

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"


def switch(config: Any, key: str) -> bool:
    """A bool key a rule reads (XLMConfig declares it bool: transformers refuses another type too)."""
    if not isinstance(value := config[key], bool):
        raise ArchitectureError(key, f"must be true or false, got {value!r}"[:200])
    return value


def languages(config: Any) -> dict:
    """XLMModel.lang_embeddings (n_langs rows, an nn.Embedding) exists only with use_lang_emb and n_langs > 1
    (modeling_xlm.py line 703); gelu_activation picks gelu over relu (TransformerFFN, line 581)."""
    langs = whole(config["n_langs"], "n_langs", None)
    if langs > MAX_INTEGER:  # (a rule's size: the bound every size key is held to)
        raise ArchitectureError("n_langs", f"{big(langs)} is beyond the bound of {MAX_INTEGER:,} (docs/limits.md)")
    rows = langs if switch(config, "use_lang_emb") and langs > 1 else None
    return {"type_vocab_size": rows, "hidden_act": "gelu" if switch(config, "gelu_activation") else "relu"}


def encoder_and_plain_head(config: Any) -> dict:
    """is_encoder false: XLMModel.__init__ raises NotImplementedError "Currently XLM can only be used as an encoder"
    (modeling_xlm.py lines 673-676; FlaubertModel "Currently Flaubert ...", modeling_flaubert.py 696-699).  asm true:
    XLMPredLayer.proj becomes nn.AdaptiveLogSoftmaxWithLoss(emb_dim, n_words, asm_cutoffs, asm_div_value,
    head_bias=True) (modeling_xlm.py lines 878-887; parts/adaptive_softmax.py), keys XLMConfig does not declare
    (AttributeError without them); else proj is a Linear with its own bias."""
    name = "Flaubert" if config.get("pre_norm") is not None else "XLM"
    if switch(config, "is_encoder") is False:
        raise ArchitectureError("is_encoder", f"false is refused by transformers ({name}Model raises "
                                f"NotImplementedError: \"Currently {name} can only be used as an encoder\")")
    if not switch(config, "asm"):
        return {"lm_head_bias": True}
    for key in ("asm_cutoffs", "asm_div_value"):
        if key not in config:
            raise ArchitectureError("asm", f"true without {key}: transformers cannot build it ({name}PredLayer reads "
                                    f"config.{key}, which {name}Config does not declare: AttributeError)")
        if config[key] is None:
            raise ArchitectureError(key, "null with asm true: transformers cannot build it "
                                    "(nn.AdaptiveLogSoftmaxWithLoss takes no None: TypeError)")
    cutoffs = cutoffs_checked(config["asm_cutoffs"], config["vocab_size"])
    div_value = div_value_text(config["asm_div_value"])
    tail_widths(div_value, config["hidden_size"], len(cutoffs))  # (torch's refusals, said now)
    return {"lm_head_bias": False, "asm_cutoffs": cutoffs, "asm_div_value": div_value}


# identical to distilbert except: the layers as module lists under "transformer" (attentions, layer_norm1, ffns,
# layer_norm2), the tables registered positions, languages (the token-type table's place: lang_embeddings), tokens,
# then layer_norm_emb; the FFN always 4 × emb_dim wide; no head transform: pred_layer.proj, a Linear with its own bias
# tied to the token table; XLMConfig's keys and defaults (emb_dim 2048, 16 heads, 30,145 words).  asm: an adaptive
# softmax in the head's place, sized by asm_cutoffs and asm_div_value, keys XLMConfig does not declare
# (parts/adaptive_softmax.py); is_encoder false (NotImplementedError in XLMModel) is refused, saying why
# (encoder_and_plain_head); sinusoidal_embeddings only fills the position table, still a learned weight.
XLM_NAMING = dataclasses.replace(
    DISTILBERT.naming, embed="transformer.embeddings", positions="transformer.position_embeddings",
    token_types="transformer.lang_embeddings", embed_norm="transformer.layer_norm_emb", layer="transformer.{i}",
    layer_lists=True, q="attentions.q_lin", k="attentions.k_lin", v="attentions.v_lin", o="attentions.out_lin",
    attn_post_norm="layer_norm1", attn_pre_norm="layer_norm1", up="ffns.lin1", down="ffns.lin2",
    ffn_post_norm="layer_norm2", ffn_pre_norm="layer_norm2", lm_head="pred_layer.proj", lm_head_bias=None,
    layer_order=("attentions", "layer_norm1", "ffns", "layer_norm2"),
    model_order=("transformer.position_embeddings", "transformer.lang_embeddings", "transformer.embeddings",
                 "transformer.layer_norm_emb", "transformer", "pred_layer"),
    model_buffers=(("transformer.position_ids", (1, "max_position_embeddings"), "int64", False),))

XLM = derived_from(
    DISTILBERT, model_type="xlm", causal_lm_class="XLMWithLMHeadModel", source=TF.format("xlm"), naming=XLM_NAMING,
    # (XLMConfig.attribute_map: Hugging Face's names and n_words stand in for its own)
    keys={**same("vocab_size", "max_position_embeddings", "tie_word_embeddings", "hidden_size", "num_hidden_layers",
                 "num_attention_heads", n_words="vocab_size", emb_dim="hidden_size", n_layers="num_hidden_layers",
                 n_heads="num_attention_heads")},
    defaults={"vocab_size": 30145, "emb_dim": 2048, "n_layers": 12, "n_heads": 16, "gelu_activation": True,
              "n_langs": 1, "use_lang_emb": True, "max_position_embeddings": 512, "tie_word_embeddings": True,
              "asm": False, "is_encoder": True},
    # (lm_head_bias: the Linear head's own, none on an adaptive softmax's: encoder_and_plain_head says which)
    switches={**{key: value for key, value in DISTILBERT.switches.items() if key != "lm_head_bias"},
              "lm_head_transform": False, "lm_head_transform_bias": False},
    count_neutral=frozenset({"gelu_activation", "n_langs", "use_lang_emb", "sinusoidal_embeddings", "causal",
                             "asm_cutoffs", "asm_div_value", "embed_init_std", "init_std", "unk_index", "mask_index",
                             "bos_index", "eos_index", "pad_index", "start_n_top", "end_n_top", "mask_token_id",
                             "lang_id", "id2lang", "lang2id", "summary_last_dropout", "gradient_checkpointing",
                             "asm", "is_encoder"}),  # (asm*, is_encoder: read by encoder_and_plain_head)
    derive=(languages, encoder_and_plain_head))

def pre_norm(config: Any) -> dict:
    """pre_norm: each layer's norms before their sublayers (FlaubertModel.forward, modeling_flaubert.py 893-920)."""
    return {"norm_placement": "pre" if switch(config, "pre_norm") else "post"}


# identical to xlm except: FlaubertModel's pre_norm puts layer_norm1 before the attention and layer_norm2 before the
# FFN (modeling_flaubert.py lines 893-920; the same tensors, no final norm), layerdrop skips layers in training only;
# FlaubertConfig's defaults are XLMConfig's
FLAUBERT = derived_from(
    XLM, model_type="flaubert", causal_lm_class="FlaubertWithLMHeadModel", source=TF.format("flaubert"),
    defaults={**XLM.defaults, "pre_norm": False},
    count_neutral=XLM.count_neutral | {"pre_norm", "layerdrop"},
    switches={key: value for key, value in XLM.switches.items() if key != "norm_placement"},
    derive=(languages, encoder_and_plain_head, pre_norm))

FAMILIES = [XLM, FLAUBERT]

"""RoBERTa and the masked-LM types transformers 5.24.0 builds from its code (issue #17): BERT's encoder
(families/bert.py) under other module names, with RobertaLMHead (dense, layer_norm, decoder and its bias held apart
as lm_head.bias, registered first). Each reference is the CausalLM class the mapping registers (RobertaForCausalLM,
...), whose tensors are the masked-LM class's (RobertaForMaskedLM: the same roberta and lm_head modules, checked in
tests/test_encoders_h.py)."""

from __future__ import annotations

import dataclasses

from ._family import derived_from
from .bert import BERT, reading_cross_attention

TF = "transformers 5.24.0 models/{0}/configuration_{1}.py"


def roberta_naming(prefix: str, **changes):
    """BERT's names under ``prefix`` (RobertaModel's attribute in the head class) and RobertaLMHead's, in
    RobertaEmbeddings' registration order (word, token types, LayerNorm, then positions) and the head's own bias
    before its submodules (a module's own parameters come first in named_parameters)."""
    embeddings = f"{prefix}.embeddings"
    head = ("lm_head.bias", "lm_head.dense", "lm_head.layer_norm", "lm_head.decoder")
    names = dataclasses.replace(
        BERT.naming, embed=f"{embeddings}.word_embeddings", positions=f"{embeddings}.position_embeddings",
        token_types=f"{embeddings}.token_type_embeddings", embed_norm=f"{embeddings}.LayerNorm",
        layer=f"{prefix}.encoder.layer.{{i}}", lm_head="lm_head.decoder", lm_head_bias="lm_head.bias",
        lm_head_dense="lm_head.dense", lm_head_norm="lm_head.layer_norm",
        model_buffers=((f"{embeddings}.position_ids", (1, "max_position_embeddings"), "int64", False),
                       (f"{embeddings}.token_type_ids", (1, "max_position_embeddings"), "int64", False)),
        model_order=(f"{embeddings}.word_embeddings", f"{embeddings}.token_type_embeddings",
                     f"{embeddings}.LayerNorm", f"{embeddings}.position_embeddings", f"{prefix}.encoder.layer",
                     f"{prefix}.encoder.LayerNorm", f"{prefix}.LayerNorm", *head))
    return dataclasses.replace(names, **changes)  # a variant's own paths over RoBERTa's


ROBERTA_DEFAULTS = {**BERT.defaults, "vocab_size": 50265}

# identical to bert except: RobertaModel under "roberta", RobertaLMHead's names, the embeddings' registration order,
# vocab_size 50265 (transformers 5.24.0 models/roberta/configuration_roberta.py)
ROBERTA = derived_from(
    BERT, model_type="roberta", causal_lm_class="RobertaForCausalLM", source=TF.format("roberta", "roberta"),
    naming=roberta_naming("roberta"), defaults=ROBERTA_DEFAULTS, explain=())

# identical to roberta except: the model under "data2vec_text", BertConfig's vocab_size 30522
DATA2VEC_TEXT = derived_from(
    ROBERTA, model_type="data2vec-text", causal_lm_class="Data2VecTextForCausalLM",
    source=TF.format("data2vec", "data2vec_text"), naming=roberta_naming("data2vec_text"),
    defaults={**ROBERTA_DEFAULTS, "vocab_size": 30522})

# identical to roberta except: pre-LN layers (attention.LayerNorm before attention, intermediate.LayerNorm before
# the FFN, neither after) and a final roberta_prelayernorm.LayerNorm after the encoder; the embeddings keep theirs
ROBERTA_PRELAYERNORM = derived_from(
    ROBERTA, model_type="roberta-prelayernorm", causal_lm_class="RobertaPreLayerNormForCausalLM",
    source=TF.format("roberta_prelayernorm", "roberta_prelayernorm"),
    naming=roberta_naming("roberta_prelayernorm", attn_pre_norm="attention.LayerNorm",
                          ffn_pre_norm="intermediate.LayerNorm", final_norm="roberta_prelayernorm.LayerNorm",
                          # add_cross_attention: crossattention.{self,output.dense} and its own pre-LN
                          # crossattention.LayerNorm, after the attention (modeling_roberta_prelayernorm.py
                          # RobertaPreLayerNormLayer, RobertaPreLayerNormAttention)
                          cross_attn_norm="crossattention.LayerNorm",
                          layer_order=("attention.self", "attention.output", "attention.LayerNorm", "crossattention",
                                       "intermediate.LayerNorm", "intermediate", "output")),
    switches={**ROBERTA.switches, "norm_placement": "pre", "final_norm": True})

# identical to roberta except: pre-LN layers (attention.self_attn_layer_norm, registered after the attention's
# output, and the layer's own LayerNorm before the FFN, registered last), no LayerNorm on the embeddings, a final
# roberta.encoder.LayerNorm, XLMRobertaXLConfig's sizes
XLM_ROBERTA_XL = derived_from(
    ROBERTA, model_type="xlm-roberta-xl", causal_lm_class="XLMRobertaXLForCausalLM",
    source=TF.format("xlm_roberta_xl", "xlm_roberta_xl"),
    naming=roberta_naming("roberta", embed_norm=None, attn_pre_norm="attention.self_attn_layer_norm",
                          ffn_pre_norm="LayerNorm", final_norm="roberta.encoder.LayerNorm",
                          # add_cross_attention: crossattention.{self,output.dense} and its own
                          # crossattention.self_attn_layer_norm (modeling_xlm_roberta_xl.py XLMRobertaXLLayer)
                          cross_attn_norm="crossattention.self_attn_layer_norm",
                          layer_order=("attention.self", "attention.output", "attention.self_attn_layer_norm",
                                       "crossattention", "intermediate", "output", "LayerNorm")),
    defaults={**ROBERTA_DEFAULTS, "vocab_size": 250880, "hidden_size": 2560, "num_hidden_layers": 36,
              "num_attention_heads": 32, "intermediate_size": 10240, "max_position_embeddings": 514,
              "type_vocab_size": 1},
    switches={**ROBERTA.switches, "norm_placement": "pre", "final_norm": True})


# identical to roberta except: XLMRobertaForCausalLM registers lm_head before roberta (its parameters come first, and
# a tied table is named lm_head.decoder.weight, the embedding its alias), BertConfig's vocab_size 30522
XLM_ROBERTA_NAMING = dataclasses.replace(
    roberta_naming("roberta"), tied_table_in_head=True,
    model_order=("lm_head.bias", "lm_head.dense", "lm_head.layer_norm", "lm_head.decoder",
                 *roberta_naming("roberta").model_order[:5]))
XLM_ROBERTA = derived_from(
    ROBERTA, model_type="xlm-roberta", causal_lm_class="XLMRobertaForCausalLM",
    source=TF.format("xlm_roberta", "xlm_roberta"), naming=XLM_ROBERTA_NAMING,
    defaults={**ROBERTA_DEFAULTS, "vocab_size": 30522})
# identical to xlm-roberta except: CamembertForCausalLM's name (CamembertConfig: the same keys and defaults)
CAMEMBERT = derived_from(XLM_ROBERTA, model_type="camembert", causal_lm_class="CamembertForCausalLM",
                         source=TF.format("camembert", "camembert"))
# add_cross_attention read where the layer's crossattention block is BERT's under BERT's names (checked against
# transformers: docs/notes/cross-attention-j.md); the pre-LN layers under their own norm's name
# (docs/notes/requires-req1.md).
FAMILIES = [*map(reading_cross_attention, (ROBERTA, DATA2VEC_TEXT, ROBERTA_PRELAYERNORM, XLM_ROBERTA_XL)),
            *map(reading_cross_attention, (XLM_ROBERTA, CAMEMBERT))]

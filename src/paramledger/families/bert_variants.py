"""Masked-LM types whose code is BERT's (families/bert.py) under other names or norm placements (issue #17):
ERNIE, Megatron-BERT, DistilBERT, YOSO and MRA. Each reference is the CausalLM class where the mapping registers one
(ErnieForCausalLM, MegatronBertForCausalLM: the masked-LM class's tensors, tests/test_encoders_h.py), else the
masked-LM class (DistilBertForMaskedLM)."""

from __future__ import annotations

import dataclasses

from ..naming import Naming
from ._family import derived_from, same
from .bert import BERT, reading_cross_attention

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"


def renamed(naming: Naming, prefix: str, **changes) -> Naming:
    """``naming`` with BERT's model attribute ("bert.") as ``prefix``, buffers and order included."""
    def swap(path: str) -> str:
        return prefix + path.removeprefix("bert") if path.startswith("bert.") else path
    names = {field.name: swap(getattr(naming, field.name)) for field in dataclasses.fields(naming)
             if isinstance(getattr(naming, field.name), str)}
    names["model_buffers"] = tuple((swap(name), *rest) for name, *rest in naming.model_buffers)
    names["model_order"] = tuple(map(swap, naming.model_order))
    return dataclasses.replace(naming, **{**names, **changes})


def task_types(config):
    """ErnieEmbeddings.task_type_embeddings exists only with use_task_id (task_type_vocab_size rows)."""
    return {"task_type_vocab_size": config["task_type_vocab_size"] if config.get("use_task_id") else None}


# identical to bert except: BertModel's code as ErnieModel under "ernie"; use_task_id adds a task-type table
# (ErnieEmbeddings.task_type_embeddings, task_type_vocab_size rows, registered after the embeddings' LayerNorm), and
# no pretraining heads are said apart (ERNIE's checkpoints are converted from PaddlePaddle)
ERNIE = derived_from(
    BERT, model_type="ernie", causal_lm_class="ErnieForCausalLM", source=TF.format("ernie"),
    naming=renamed(BERT.naming, "ernie", task_types="ernie.embeddings.task_type_embeddings",
                   model_order=("ernie.embeddings.word_embeddings", "ernie.embeddings.position_embeddings",
                                "ernie.embeddings.token_type_embeddings", "ernie.embeddings.LayerNorm",
                                "ernie.embeddings.task_type_embeddings",
                                *renamed(BERT.naming, "ernie").model_order[1:])),
    explain=(), count_neutral=BERT.count_neutral | {"use_task_id", "task_type_vocab_size"},
    defaults={**BERT.defaults, "use_task_id": False, "task_type_vocab_size": 3}, derive=(task_types,))

# identical to bert except: pre-LN layers (attention.ln before attention, the layer's ln before the FFN), no
# LayerNorm on the embeddings, a final bert.encoder.ln, no token_type_ids buffer, MegatronBertConfig's sizes
MEGATRON_BERT = derived_from(
    BERT, model_type="megatron-bert", causal_lm_class="MegatronBertForCausalLM", source=TF.format("megatron_bert"),
    naming=dataclasses.replace(
        BERT.naming, embed_norm=None, attn_pre_norm="attention.ln", ffn_pre_norm="ln", final_norm="bert.encoder.ln",
        # add_cross_attention: a crossattention block of its own pre-LN kind (crossattention.ln, self, output.dense)
        # after the attention (modeling_megatron_bert.py MegatronBertLayer, MegatronBertAttention)
        cross_attn_norm="crossattention.ln",
        layer_order=("attention.ln", "attention.self", "attention.output", "crossattention.ln", "crossattention",
                     "ln", "intermediate", "output"),
        model_buffers=BERT.naming.model_buffers[:1],
        model_order=("bert.embeddings", "bert.encoder.layer", "bert.encoder.ln", "cls.predictions.bias",
                     "cls.predictions.transform")),
    defaults={**BERT.defaults, "vocab_size": 29056, "hidden_size": 1024, "num_hidden_layers": 24,
              "num_attention_heads": 16, "intermediate_size": 4096},
    switches={**BERT.switches, "norm_placement": "pre", "final_norm": True}, explain=())

# identical to bert except: no token-type table; DistilBertConfig's own key names (its attribute_map lets Hugging
# Face's stand in); q_lin/k_lin/v_lin/out_lin, sa_layer_norm, ffn.lin1/lin2 and output_layer_norm in every layer;
# a head of vocab_transform, vocab_layer_norm and vocab_projector whose bias is the Linear's own (not held apart);
# sinusoidal_pos_embds only fills the position table (still an nn.Embedding's weight)
DISTILBERT = derived_from(
    BERT, model_type="distilbert", causal_lm_class="DistilBertForMaskedLM", source=TF.format("distilbert"),
    naming=dataclasses.replace(
        renamed(BERT.naming, "distilbert"), token_types=BERT.naming.token_types,
        layer="distilbert.transformer.layer.{i}",
        q="attention.q_lin", k="attention.k_lin", v="attention.v_lin", o="attention.out_lin",
        attn_post_norm="sa_layer_norm", up="ffn.lin1", down="ffn.lin2", ffn_post_norm="output_layer_norm",
        lm_head="vocab_projector", lm_head_bias=None, lm_head_dense="vocab_transform", lm_head_norm="vocab_layer_norm",
        layer_order=("attention", "sa_layer_norm", "ffn", "output_layer_norm"), model_order=(),
        model_buffers=(("distilbert.embeddings.position_ids", (1, "max_position_embeddings"), "int64", False),)),
    keys={**same("vocab_size", "max_position_embeddings", "tie_word_embeddings", "hidden_size", "num_hidden_layers",
                 "num_attention_heads", activation="hidden_act", hidden_dim="intermediate_size"),
          "dim": "hidden_size", "n_layers": "num_hidden_layers", "n_heads": "num_attention_heads"},
    defaults={"vocab_size": 30522, "max_position_embeddings": 512, "n_layers": 6, "n_heads": 12, "dim": 768,
              "hidden_dim": 3072, "activation": "gelu", "tie_word_embeddings": True},
    count_neutral=BERT.count_neutral | {"sinusoidal_pos_embds", "qa_dropout", "seq_classif_dropout"},
    requires={}, expects={}, explain=())


def _two_more_positions(prefix: str, persistent_positions: bool) -> Naming:
    """BERT's names under ``prefix``, a position table of max_position_embeddings + 2 rows (YosoEmbeddings,
    MraEmbeddings: position ids start after the padding index), position_ids kept in the state dict or not."""
    buffers = ((f"{prefix}.embeddings.position_ids", (1, "max_position_embeddings"), "int64", persistent_positions),
               (f"{prefix}.embeddings.token_type_ids", (1, "max_position_embeddings"), "int64", False))
    return renamed(BERT.naming, prefix, position_offset=2, model_buffers=buffers)


# identical to bert except: YosoModel under "yoso", two more position rows, YosoConfig's sizes (RoBERTa's vocabulary,
# 4096 positions, one token type); conv_window adds a depthwise conv over the values to every attention
# (YosoSelfAttention.conv: parts/value_conv.py), registered after value; the hashing keys change no tensor
YOSO = derived_from(
    BERT, model_type="yoso", causal_lm_class="YosoForMaskedLM", source=TF.format("yoso"),
    naming=dataclasses.replace(_two_more_positions("yoso", persistent_positions=False),
                               layer_order=("attention.self", "attention.output", "intermediate", "output.dense",
                                            "output.LayerNorm")), explain=(),
    keys={**BERT.keys, "conv_window": "attention_conv_kernel_size"},
    defaults={**BERT.defaults, "vocab_size": 50265, "max_position_embeddings": 4096, "type_vocab_size": 1},
    # add_cross_attention: YosoLayer keeps the flag (self.add_cross_attention) but builds no crossattention
    # (modeling_yoso.py line 489), so it is count-neutral, not refused
    count_neutral=BERT.count_neutral | {"use_expectation", "hash_code_len", "num_hash", "use_fast_hash",
                                        "lsh_backward", "add_cross_attention"},
    requires={key: value for key, value in BERT.requires.items() if key != "add_cross_attention"})

# identical to yoso except: MraModel under "mra", position_ids persistent (MraEmbeddings registers it so), 512
# positions; its block-sparse keys change no tensor (nor add_cross_attention: MraLayer keeps it and builds nothing,
# modeling_mra.py line 681)
MRA = derived_from(
    YOSO, model_type="mra", causal_lm_class="MraForMaskedLM", source=TF.format("mra"),
    naming=_two_more_positions("mra", persistent_positions=True), keys=BERT.keys,
    defaults={**YOSO.defaults, "max_position_embeddings": 512},
    count_neutral=BERT.count_neutral | {"block_per_row", "approx_mode", "initial_prior_first_n_blocks",
                                        "initial_prior_diagonal_n_blocks", "add_cross_attention"})

# Types transformers registers only as masked-LM models: their reference is AutoModelForMaskedLM's (auto_class)
MASKED_LM_ONLY = [DISTILBERT, YOSO, MRA]
# ERNIE's crossattention is BERT's; Megatron-BERT's its own pre-LN block (docs/notes/requires-req1.md)
FAMILIES = [reading_cross_attention(ERNIE), reading_cross_attention(MEGATRON_BERT), *MASKED_LM_ONLY]

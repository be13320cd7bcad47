"""A family: how one Hugging Face ``model_type`` maps onto the declared architecture.

A family is data: which config keys it reads and which architecture field each one
means, the defaults its config class uses when a key is absent, the switches it always
turns on, the config values it cannot count, how its tensors are named, and the
transformers class that is its reference.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..naming import LLAMA, Naming

# Config keys that never change a parameter count, whatever the family (ids, dropout,
# numerics, rope scaling, routing arithmetic, bookkeeping, PreTrainedConfig's own keys).
# A key outside these and outside the family's own tables is reported as "not
# understood" (it might change the count).
COUNT_NEUTRAL = frozenset({
    "_name_or_path", "architectures", "auto_map", "model_type", "transformers_version", "torch_dtype",
    "dtype", "bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id", "decoder_start_token_id",
    "use_cache", "initializer_range", "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "norm_eps",
    "rope_theta", "rope_scaling", "rope_parameters", "attention_dropout", "hidden_dropout", "dropout",
    "embd_pdrop", "resid_pdrop", "attn_pdrop", "summary_type", "summary_use_proj", "summary_activation",
    "summary_proj_to_labels", "summary_first_dropout", "task_specific_params", "quantization_config", "quantization",
    "pretraining_tp", "is_decoder", "tokenizer_class", "id2label", "label2id", "problem_type",
    "output_attentions", "output_hidden_states", "return_dict", "use_return_dict", "chunk_size_feed_forward",
    "attn_implementation", "_attn_implementation", "attention_implementation", "partial_rotary_factor",
    "rotary_pct", "rotary_emb_base", "router_aux_loss_coef", "output_router_logits", "router_jitter_noise",
    "scale_attn_weights", "scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn",
    "final_logit_softcapping", "attn_logit_softcapping", "query_pre_attn_scalar", "n_ctx", "bos_token",
    "eos_token", "use_bfloat16", "cache_implementation", "original_max_position_embeddings", "head_first",
    "norm_topk_prob", "routed_scaling_factor", "topk_method", "n_group", "topk_group", "scoring_func",
    "aux_loss_alpha", "seq_aux", "ep_size", "rope_interleave", "initializer_factor", "classifier_dropout",
    "rope_local_base_freq", "num_logits_to_keep", "is_encoder_decoder", "tie_encoder_decoder",
    "torchscript", "pruned_heads", "prefix", "finetuning_task", "max_length", "min_length", "do_sample",
    "early_stopping", "num_beams", "temperature", "top_k", "top_p", "repetition_penalty", "length_penalty",
    "no_repeat_ngram_size", "bad_words_ids", "num_return_sequences", "forced_bos_token_id",
    "forced_eos_token_id", "remove_invalid_values", "exponential_decay_length_penalty", "suppress_tokens",
    "begin_suppress_tokens", "tf_legacy_loss", "cross_attention_hidden_size", "num_beam_groups",
    "diversity_penalty", "output_scores", "return_dict_in_generate", "typical_p", "encoder_no_repeat_ngram_size",
    "use_kernels", "use_bidirectional_attention", "max_window_layers", "use_sliding_window",
    "sliding_window", "layer_types", "sliding_window_pattern", "_sliding_window_pattern",
    "default_theta", "hidden_act", "hidden_activation", "activation_function", "mlp_only_layers",
    "is_llama_config", "rope_interleaved",  # SmolLM2's bookkeeping for other runtimes
    # what older transformers releases saved beside a config's own keys (4.48's attention bookkeeping, the training
    # switch of 4.x configs, the hub revision, GPT-2-era output_past, TPU placement)
    "_attn_implementation_autoset", "gradient_checkpointing", "_commit_hash", "output_past", "xla_device",
})


@dataclass(frozen=True)
class Family:
    model_type: str
    causal_lm_class: str  # transformers' reference class, e.g. "LlamaForCausalLM"
    source: str  # the configuration file its defaults were read from (transformers version)
    naming: Naming = LLAMA
    keys: Mapping[str, str] = field(default_factory=dict)  # config key this family reads -> field
    defaults: Mapping[str, Any] = field(default_factory=dict)  # config key -> config class default
    switches: Mapping[str, Any] = field(default_factory=dict)  # fields the family fixes
    count_neutral: frozenset[str] = frozenset()  # this family's own count-neutral keys
    # Config keys whose other values change the tensors in a way this table does not
    # build (GPT-2's add_cross_attention): config key -> the one value it can count.
    requires: Mapping[str, Any] = field(default_factory=dict)
    # Config keys transformers does not read, whose value in the family's releases describes what it
    # builds (StarCoder2's norm_type "layer_norm"): config key -> that value (a list: every entry). Any
    # other value describes a checkpoint transformers would not build, and is reported as not understood.
    expects: Mapping[str, Any] = field(default_factory=dict)
    # Conversions from config keys whose meaning is not a plain rename (e.g.
    # first_k_dense_replace -> mlp_only_layers, which layers slide).  Each takes the config
    # (defaults filled in) and returns field -> value; kept few and shared (families/_rules.py).
    derive: tuple[Callable[[Mapping[str, Any]], Mapping[str, Any]], ...] = ()
    text_config: bool = False  # a multimodal family whose decoder is config["text_config"]
    # What a reader should know of a count of this family, given its design (BERT's checkpoint holds pretraining
    # heads the class does not build): each a function of the architecture giving a note, or None.
    explain: tuple[Callable[[Any], str | None], ...] = ()
    # The whole multimodal model beside that decoder (towers.Whole: its vision tower and projector); None:
    # the family counts its text decoder alone.
    whole: Any = None
    # An encoder-decoder: the encoder stack and the shared table beside this decoder (towers.encoder.Seq2Seq), the
    # whole model counted by default and ``causal_lm_class`` the decoder alone; None: the decoder is the model.
    seq2seq: Any = None
    # Config keys holding a nested object (DBRX's attn_config, ffn_config) -> the keys inside it that
    # the family reads or knows to change no count; any other is reported as "section.key".
    sections: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @property
    def text_decoder_only(self) -> bool:
        """A multimodal family counted through its text decoder alone (no ``whole`` model yet)."""
        return self.text_config and self.whole is None

    @cached_property
    def understood(self) -> frozenset[str]:
        """Every config key this family reads, checks or knows to be count-neutral: a key
        outside it is reported as not understood.  Its config class's aliases are read as their keys
        (attribute_maps.resolved)."""
        from .attribute_maps import MAPS

        return (frozenset(self.keys) | frozenset(self.requires) | frozenset(self.expects) | self.count_neutral
                | COUNT_NEUTRAL | (NO_CROSS_ATTENTION if self.model_type not in READ_CROSS_ATTENTION else frozenset())
                | frozenset(MAPS.get(self.model_type, ())))

    @cached_property
    def head_dim_key(self) -> str:
        """The config key head_dim is read from (JetMoE's kv_channels, T5's d_kv)."""
        return next((key for key, field_name in self.keys.items() if field_name == "head_dim"), "head_dim")

    @cached_property
    def aliased(self) -> bool:
        """Two config keys read into one field (GPT-2's n_layer and num_hidden_layers): which one wins
        then depends on the order the config gives them in."""
        return len(set(self.keys.values())) < len(self.keys)


# The model_types whose modeling files read config.add_cross_attention (transformers 5.24.0, grep of models/*/
# modeling_*.py); in any other, the generic PretrainedConfig key (Llama 3.2 Vision's and Kimi K2.5's text_config give
# it false) builds nothing, so it is count-neutral there.
READ_CROSS_ATTENTION = frozenset({
    "bert", "bert-generation", "big_bird", "bridgetower", "bros", "camembert", "convbert", "d_fine", "data2vec-text",
    "decision_transformer", "deimv2", "electra", "encoder-decoder", "ernie", "esm", "evolla", "gpt2", "gpt_bigcode",
    "ibert", "imagegpt", "kosmos-2", "megatron-bert", "mra", "musicgen", "musicgen_melody", "nystromformer",
    "pp_doclayout_v2", "pp_doclayout_v3", "prophetnet", "rembert", "roberta", "roberta-prelayernorm", "roc_bert",
    "roformer", "rt_detr", "rt_detr_v2", "speech-encoder-decoder", "tapas", "udop", "vision-encoder-decoder", "xglm",
    "xlm-roberta", "xlm-roberta-xl", "xmod", "yoso"})
NO_CROSS_ATTENTION = frozenset({"add_cross_attention"})


def multimodal(text: Family, model_type: str, source: str, whole: Any = None, causal_lm_class: str = "") -> Family:
    """The multimodal config whose text_config is ``text``'s: the same table, read from text_config.  With
    ``whole`` (towers.Whole) the family is the whole model transformers builds, ``causal_lm_class``: its
    towers and projector beside the decoder, which it names where it sits there (``--text-only`` reads the
    config as ``text``'s family, the decoder alone); without, the text decoder alone."""
    if whole is None:
        return dataclasses.replace(text, model_type=model_type, source=source, text_config=True)
    from ..towers import whole_naming

    return dataclasses.replace(text, model_type=model_type, source=source, text_config=True,
                               whole=whole._replace(text_model_type=text.model_type),
                               naming=whole_naming(text.naming, whole.decoder_prefix, whole.decoder_roots),
                               causal_lm_class=causal_lm_class)


def same(*names: str, **renamed: str) -> dict[str, str]:
    """A key table: ``names`` read under the field's own name, ``renamed`` as config key=field."""
    return {**{name: name for name in names}, **renamed}


def derived_from(parent: Family, **changes: Any) -> Family:
    """A family written as a difference from ``parent``: only what differs is given, and the entry's
    comment says what ("identical to X except: ..."), as transformers' modular files do."""
    return dataclasses.replace(parent, **changes)

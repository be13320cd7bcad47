"""Nystromformer (transformers 5.24.0 models/nystromformer, NystromformerForMaskedLM; only in the masked-LM mapping):
BERT's encoder (families/bert.py) whose attention adds a depthwise convolution over the values
(parts/value_conv.py), as YOSO's (families/bert_variants.py) with conv_window.

Identical to yoso except (configuration_nystromformer.py, modeling_nystromformer.py lines 46-140, 282-300):
NystromformerModel under "nystromformer"; attention.self.conv in every attention, (heads, 1, conv_kernel_size, 1),
none for conv_kernel_size null; add_cross_attention read but building nothing (NystromformerLayer keeps the flag
only); the landmarks' keys change no tensor; NystromformerConfig's defaults (30,000 rows, 510 positions, gelu_new)."""

from __future__ import annotations

from . import _rules as rules
from ._family import derived_from
from .bert import BERT
from .bert_variants import YOSO, renamed

PREFIX = "nystromformer.embeddings"
BUFFERS = tuple((f"{PREFIX}.{name}", (1, "max_position_embeddings"), "int64", False)
                for name in ("position_ids", "token_type_ids"))

NYSTROMFORMER = derived_from(
    YOSO, model_type="nystromformer", causal_lm_class="NystromformerForMaskedLM",
    source="transformers 5.24.0 models/nystromformer/configuration_nystromformer.py",
    naming=renamed(BERT.naming, "nystromformer", position_offset=2, model_buffers=BUFFERS,
                   layer_order=("attention.self", "attention.output", "intermediate", "output.dense",
                                "output.LayerNorm")),
    keys={**YOSO.keys, "conv_kernel_size": "attention_conv_kernel_size"},
    defaults={**YOSO.defaults, "vocab_size": 30000, "hidden_act": "gelu_new", "max_position_embeddings": 510,
              "type_vocab_size": 2, "conv_kernel_size": 65},
    count_neutral=BERT.count_neutral | {"segment_means_seq_len", "num_landmarks", "inv_coeff_init_option",
                                        "add_cross_attention"},
    requires={},
    # NystromformerSelfAttention reads config["inv_init_coeff_option"] where it is set (modeling_nystromformer.py
    # lines 118-119): a config object is not subscriptable
    derive=(*YOSO.derive, rules.unbuildable_when_set(
        "inv_coeff_init_option", "NystromformerSelfAttention subscripts the config: TypeError")))

FAMILIES = [NYSTROMFORMER]

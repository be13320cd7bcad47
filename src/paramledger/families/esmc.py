"""ESM C (transformers 5.24.0 models/esmc): Llama's pre-norm stack (families/llama.py) with LayerNorms, q and k
normed over the whole width, and ESM's masked-LM head. Only in the masked-LM mapping: the reference is
EsmcForMaskedLM."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import _rules as rules
from ._family import derived_from
from .llama import FAMILIES as LLAMA_FAMILIES

LLAMA = LLAMA_FAMILIES[0]


def every_head_keyed(config: Mapping[str, Any]) -> dict[str, Any]:
    """EsmcAttention's q_norm and k_norm are hidden_size wide (modeling_esmc.py lines 206-207): only as many KV heads
    as heads, head_dim × heads = hidden_size, runs."""
    heads, kv_heads = config["num_attention_heads"], config.get("num_key_value_heads")
    if kv_heads is not None and kv_heads != heads:
        raise ArchitectureError("num_key_value_heads", f"{kv_heads} != num_attention_heads={heads}; EsmcAttention's "
                                "k_norm is hidden_size wide, so only as many KV heads as heads is counted")
    return {}


# identical to llama except: EsmcModel under "esmc"; LayerNorms with biases around each sublayer, q_norm and k_norm
# (one LayerNorm without bias over all the queries' and keys' channels), a final esmc.norm without bias; the head
# EsmcMaskedLMHead (lm_head.dense and lm_head.layer_norm, biased, then lm_head.decoder with its bias), never tied; the
# classifier's keys, which change no tensor; EsmcConfig's defaults (configuration_esmc.py)
ESMC = derived_from(
    LLAMA, model_type="esmc", causal_lm_class="EsmcForMaskedLM",
    source="transformers 5.24.0 models/esmc/configuration_esmc.py",
    naming=dataclasses.replace(
        LLAMA.naming, embed="esmc.embed_tokens", layer="esmc.layers.{i}", final_norm="esmc.norm",
        lm_head="lm_head.decoder", lm_head_dense="lm_head.dense", lm_head_norm="lm_head.layer_norm",
        rotary="esmc.rotary_emb"),
    defaults={"vocab_size": 64, "hidden_size": 2560, "intermediate_size": 6912, "num_hidden_layers": 80,
              "num_attention_heads": 40, "num_key_value_heads": None, "head_dim": None, "hidden_act": "silu",
              "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
              "mlp_bias": False},
    switches={**LLAMA.switches, "norm_type": "layernorm", "qk_norm": "full", "qk_norm_bias": False,
              "final_norm_bias": False, "lm_head_transform": True, "lm_head_transform_bias": True,
              "lm_head_bias": True, "tie_word_embeddings": False},
    # EsmcForMaskedLM declares no tied weights: its decoder stays its own whatever tie_word_embeddings says
    keys={key: name for key, name in LLAMA.keys.items() if key != "tie_word_embeddings"},
    count_neutral=LLAMA.count_neutral | {"mask_token_id", "classifier_dropout", "tie_word_embeddings"},
    derive=(*LLAMA.derive, every_head_keyed,
            rules.heads_fill_hidden("EsmcAttention's q_norm and k_norm are hidden_size wide")))
MASKED_LM_ONLY = [ESMC]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY

"""EuroBERT (transformers 5.24.0 models/eurobert): Llama's decoder stack run bidirectionally as a masked-LM
encoder (EuroBertForMaskedLM, the only head class with an LM head: it is the reference)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import _rules as rules
from ._family import derived_from
from .llama import FAMILIES as LLAMA_FAMILIES

LLAMA = LLAMA_FAMILIES[0]


def head_bias_follows_mlp_bias(config: Mapping[str, Any]) -> dict[str, Any]:
    """EuroBertForMaskedLM.lm_head = nn.Linear(hidden, vocab, config.mlp_bias) (modeling_eurobert.py line 402)."""
    return {"lm_head_bias": bool(config.get("mlp_bias", False))}


# identical to llama except: EuroBertConfig's defaults (128,256 rows, 768 wide, 12 layers, 8192 positions), the
# head's bias by mlp_bias, and the masked-LM class's two keys that change no tensor (mask_token_id,
# classifier_pooling: read by the classification heads only) (configuration_eurobert.py)
EUROBERT = derived_from(
    LLAMA, model_type="eurobert", causal_lm_class="EuroBertForMaskedLM",
    source="transformers 5.24.0 models/eurobert/configuration_eurobert.py",
    defaults={"vocab_size": 128256, "hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12,
              "num_attention_heads": 12, "num_key_value_heads": None, "head_dim": None, "hidden_act": "silu",
              "max_position_embeddings": 8192, "tie_word_embeddings": False, "attention_bias": False,
              "mlp_bias": False},
    count_neutral=LLAMA.count_neutral | {"mask_token_id", "classifier_pooling"},
    derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding, head_bias_follows_mlp_bias))
MASKED_LM_ONLY = [EUROBERT]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY

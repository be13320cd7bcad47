"""Molmo 2 (transformers 5.24.0 models/molmo2): the whole Molmo2ForConditionalGeneration, a vision tower and an adapter
(towers/molmo2.py) beside Molmo2TextModel, and lm_head.

Its decoder (Molmo2TextModel, modeling_molmo2.py lines 629-650) is Qwen 3's except: the token table holds
additional_vocab_size rows more than the head (vocab_size + additional_vocab_size; lm_head stays vocab_size rows and
is never tied: the class declares no tied weights), o_proj is never biased, the q/k RMSNorms are per head
(qk_norm_type "qwen3") or over the whole projection ("olmo"), norm_after moves no tensor (the same two norms,
applied to each sublayer's output), and a second, unscaled rotary (rotary_emb_unscaled) sits beside the first.

transformers registers no CausalLM for molmo2_text (only Molmo2TextModel, headless): the decoder is counted inside
the whole model, and --text-only is refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole
from ..towers.molmo2 import adapter, rewritten
from ._family import derived_from, multimodal
from .llama import FAMILIES as LLAMA_FAMILIES

QWEN3 = next(family for family in LLAMA_FAMILIES if family.model_type == "qwen3")
TF = "transformers 5.24.0 models/molmo2/configuration_molmo2.py"


def molmo2_text(config: Mapping[str, Any]) -> dict[str, Any]:
    """The table's rows and the head's, the q/k norms' layout (Molmo2TextConfig.validate_architecture refuses
    another qk_norm_type and a negative additional_vocab_size)."""
    extra, vocab = config.get("additional_vocab_size"), config["vocab_size"]
    if type(extra) is not int or extra < 0:
        raise ArchitectureError("additional_vocab_size", f"must be a whole number from 0, got {extra!r}"[:200])
    kind = config.get("qk_norm_type")
    if kind not in ("qwen3", "olmo"):
        raise ArchitectureError("qk_norm_type", f"must be \"qwen3\" or \"olmo\", got {kind!r}"[:200])
    rows = vocab + extra if type(vocab) is int else vocab  # (a bad vocab_size is refused as itself)
    return {"vocab_size": rows, "output_vocab_size": vocab if extra and type(vocab) is int else None,
            "qk_norm": "head" if kind == "qwen3" else "full", "tie_word_embeddings": False,
            "attention_output_bias": False, "sliding_window": None, "layer_types": ()}


# identical to Qwen 3 except: the extra token rows, the untied head, the q/k norm layout, o_proj unbiased, the
# unscaled rotary's buffers, Molmo2TextConfig's defaults and keys
TEXT = derived_from(
    QWEN3, model_type="molmo2", causal_lm_class="Molmo2ForConditionalGeneration", source=TF,
    naming=Naming(model_buffers=tuple((f"model.rotary_emb_unscaled.{which}", ("rotary_half",), "float32", False)
                                      for which in ("inv_freq", "original_inv_freq"))),
    keys={**{key: field for key, field in QWEN3.keys.items() if key != "tie_word_embeddings"},
          "qkv_bias": "attention_bias"},  # (attribute_map)
    switches={key: value for key, value in QWEN3.switches.items() if key != "qk_norm"},  # molmo2_text's
    defaults={"hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
              "vocab_size": 151936, "additional_vocab_size": 128, "attention_bias": False, "qk_norm_type": "qwen3",
              "num_hidden_layers": 36, "intermediate_size": 12288, "hidden_act": "silu",
              "max_position_embeddings": 36864, "norm_after": False, "tie_word_embeddings": False},
    # read by molmo2_text; norm_after and rope_scaling_layers move no tensor; tie_word_embeddings ties nothing
    count_neutral=QWEN3.count_neutral | {"additional_vocab_size", "qk_norm_type", "norm_after", "rope_scaling_layers",
                                         "tie_word_embeddings", "embedding_dropout", "residual_dropout"},
    # the remote code's switch (its releases': true), which Molmo2TextConfig does not read: the q/k norms are built
    expects={"use_qk_norm": True},
    derive=(molmo2_text,))

CONDITIONAL = multimodal(
    TEXT, "molmo2", TF + " (Molmo2Config, vision_config Molmo2VisionConfig, adapter_config Molmo2AdapterConfig)",
    # the tower whatever vision_config's model_type says (Molmo2Config builds Molmo2VisionConfig from it: the remote
    # code's says "molmo2"), its remote-code vit_config read as the class rewrites it
    Whole({"model_type": "molmo2_vision"}, adapter, tie_word_embeddings=False, tie_keys=(), vision_kind="molmo2_vision",
          config_rewritten=rewritten,
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (Molmo2TextModel has no "
                                "head and no CausalLM is registered): count the whole model"),
    "Molmo2ForConditionalGeneration")
CONDITIONAL = dataclasses.replace(CONDITIONAL, count_neutral=CONDITIONAL.count_neutral | {
    "adapter_config", "vit_config", "image_col_id", "use_frame_special_tokens", "image_start_token_id", "low_res_image_start_token_id", "image_end_token_id", "image_patch_id",
    "frame_start_token_id", "frame_end_token_id", "image_token_id", "video_token_id"})

FAMILIES = [CONDITIONAL]

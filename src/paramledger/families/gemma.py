"""Gemma 1/2/3: tied embeddings, explicit head_dim; Gemma 2 and 3 add sandwich norms (a norm
before and after both attention and the FFN) and local sliding-window layers; Gemma 3 adds
per-head q/k norms.  Gemma's RMSNorm stores (1 + weight) but still one vector of hidden_size."""

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole, images, projectors
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

TF = "transformers 5.24.0 models/{0}/configuration_{0}.py"
# Gemma's scaled embedding (GemmaTextScaledWordEmbedding): sqrt(hidden_size) as a 0-D buffer, model dtype
EMBED_SCALE = (("model.embed_tokens.embed_scale", (), None, False),)
SANDWICH = Naming(ffn_pre_norm="pre_feedforward_layernorm", model_buffers=EMBED_SCALE)
GEMMA3_NAMING = Naming(ffn_pre_norm="pre_feedforward_layernorm", model_buffers=EMBED_SCALE, rotary_per_layer_type=True)
GEMMA_KEYS = {**DECODER_KEYS, **same("head_dim", "attention_bias")}
# Gemma 2/3 call the activation hidden_activation.
GEMMA2_KEYS = {**{k: v for k, v in GEMMA_KEYS.items() if k != "hidden_act"}, "hidden_activation": "hidden_act"}
GEMMA3_TEXT_DEFAULTS = {
    "vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "hidden_activation": "gelu_pytorch_tanh",
    "max_position_embeddings": 131072, "tie_word_embeddings": True, "attention_bias": False,
    "sliding_window": 4096,
}
GEMMA3_SWITCHES = {**LLAMA_SWITCHES, "norm_placement": "sandwich", "qk_norm": "head"}
_EVERY_SIXTH = rules.sliding_every("sliding_window_pattern", 6, True)


def gemma3_window(config: Mapping[str, Any]) -> dict[str, Any]:
    """Layer i slides unless (i + 1) is a multiple of sliding_window_pattern (6); with use_bidirectional_attention
    the window is halved (Gemma3TextConfig.__post_init__, configuration_gemma3.py lines 101-102: sliding_window // 2
    + 1, exclusive bounds), and a null one cannot be (transformers' TypeError, None // 2)."""
    out = _EVERY_SIXTH(config)
    if config.get("use_bidirectional_attention"):
        window = config.get("sliding_window")
        if window is None:
            raise ArchitectureError("use_bidirectional_attention", "true halves sliding_window, which is null: "
                                    "transformers 5.24.0 cannot build it (Gemma3TextConfig: None // 2); give a window")
        if out["sliding_window"] is not None:
            out["sliding_window"] = window // 2 + 1
    return out


GEMMA3_RULES = (rules.output_bias_follows("attention_bias"), gemma3_window)

FAMILIES = [
    Family(
        model_type="gemma",
        causal_lm_class="GemmaForCausalLM",
        naming=Naming(model_buffers=EMBED_SCALE),
        source=TF.format("gemma"),
        keys=GEMMA_KEYS,
        defaults={"vocab_size": 256000, "hidden_size": 3072, "intermediate_size": 24576, "num_hidden_layers": 28,
                  "num_attention_heads": 16, "num_key_value_heads": 16, "head_dim": 256,
                  "hidden_act": "gelu_pytorch_tanh", "max_position_embeddings": 8192, "tie_word_embeddings": True,
                  "attention_bias": False},
        switches=LLAMA_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), rules.no_sliding),
    ),
    Family(
        model_type="gemma2",
        causal_lm_class="Gemma2ForCausalLM",
        source=TF.format("gemma2"),
        naming=SANDWICH,
        keys=GEMMA2_KEYS,
        defaults={"vocab_size": 256000, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
                  "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
                  "hidden_activation": "gelu_pytorch_tanh", "max_position_embeddings": 8192,
                  "tie_word_embeddings": True, "attention_bias": False, "sliding_window": 4096},
        switches={**LLAMA_SWITCHES, "norm_placement": "sandwich"},
        count_neutral=frozenset({"sliding_window_size"}),  # a legacy spelling in gemma-2 configs, never read
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_every(None, 2)),
    ),
    Family(
        model_type="gemma3_text",
        causal_lm_class="Gemma3ForCausalLM",
        source="transformers 5.24.0 models/gemma3/configuration_gemma3.py (Gemma3TextConfig)",
        naming=GEMMA3_NAMING,
        keys=GEMMA2_KEYS,
        defaults=GEMMA3_TEXT_DEFAULTS,
        switches=GEMMA3_SWITCHES,
        derive=GEMMA3_RULES,
    ),
]
# The whole model (Gemma3ForConditionalGeneration): a SigLIP tower (the default vision_config is
# SiglipVisionConfig's, models/gemma3/configuration_gemma3.py) and Gemma3MultiModalProjector.
FAMILIES.append(multimodal(FAMILIES[-1], "gemma3",
                           "transformers 5.24.0 models/gemma3/configuration_gemma3.py (Gemma3Config.text_config)",
                           Whole({"model_type": "siglip_vision_model"}, projectors.gemma3, image_tokens=images.gemma3),
                           "Gemma3ForConditionalGeneration"))

FAMILIES.append(
    Family(
        model_type="vaultgemma",  # Gemma 2 without the post-attention and post-FFN norms
        causal_lm_class="VaultGemmaForCausalLM",
        source=TF.format("vaultgemma"),
        naming=SANDWICH,
        keys=GEMMA2_KEYS,
        defaults={"vocab_size": 256000, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
                  "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
                  "hidden_activation": "gelu_pytorch_tanh", "max_position_embeddings": 8192,
                  "tie_word_embeddings": True, "attention_bias": False, "sliding_window": 4096},
        switches=LLAMA_SWITCHES,
        derive=(rules.output_bias_follows("attention_bias"), rules.sliding_every(None, 2)),
    )
)

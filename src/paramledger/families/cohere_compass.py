"""Cohere Compass (North): Cohere 2's text decoder under its own model_type (one LayerNorm
without bias feeding parallel attention and FFN, tied embeddings), and the whole
CohereCompassForConditionalGeneration: Qwen3-VL's whole model (families/qwen_vl.py: its tower with the mergers under
"model.visual", towers/cohere_compass.py) with this decoder read from text_config, tied by the whole config's own
tie_word_embeddings (CohereCompassConfig: False; text_config's True ties nothing), transformers 5.24.0
models/cohere_compass/modular_cohere_compass.py (CohereCompassModel(Qwen3VLModel)).  An image's tokens follow its
size and the processor's own bounds (Qwen2VLImageProcessor's, from preprocessor_config.json): not declared, as for
Qwen3-VL."""

from ..naming import Naming
from ..towers import Whole
from ..towers.qwen_vl import none
from . import _rules as rules
from ._family import Family, multimodal, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

COHERE_COMPASS_TEXT = Family(
    model_type="cohere_compass_text",
    causal_lm_class="CohereCompassForCausalLM",
    naming=Naming(rotary_per_layer_type=True),
    source="transformers 5.24.0 models/cohere_compass/configuration_cohere_compass.py (CohereCompassTextConfig)",
    # CohereCompassTextConfig sets head_dim = hidden_size // heads itself (configuration_cohere_compass.py line 119),
    # unless the file gives one (rules.head_dim_unless_given)
    keys={**DECODER_KEYS, **same("attention_bias")},
    defaults={"vocab_size": 256000, "hidden_size": 8192, "intermediate_size": 22528, "num_hidden_layers": 40,
              "num_attention_heads": 64, "num_key_value_heads": None, "hidden_act": "silu",
              "max_position_embeddings": 8192, "tie_word_embeddings": True, "attention_bias": False,
              "sliding_window": 4096, "layer_types": None},
    switches={**LLAMA_SWITCHES, "norm_type": "layernorm_nobias", "norm_placement": "parallel"},
    count_neutral=frozenset({"logit_scale", "head_dim", "pooling"}),
    # Its __post_init__ fills layer_types with full attention only (the sliding_window_pattern
    # branch after it never runs): a layer slides only where the config's layer_types says so.
    derive=(rules.output_bias_follows("attention_bias"), rules.sliding_except(lambda i, config: True, True),
            rules.head_dim_unless_given),
)

FAMILIES = [COHERE_COMPASS_TEXT, multimodal(
    COHERE_COMPASS_TEXT, "cohere_compass", "transformers 5.24.0 models/cohere_compass/configuration_cohere_compass.py "
    "(CohereCompassConfig: text_config cohere_compass_text, vision_config cohere_compass_vision)",
    # its sub-config spec names CohereCompassVisionConfig, which it builds whatever vision_config's model_type says
    Whole({"model_type": "cohere_compass_vision"}, none, vision_prefix="model.visual.", tie_word_embeddings=False,
          vision_kind="cohere_compass_vision"),
    "CohereCompassForConditionalGeneration")]

"""Muse Glimmer (MuseGlimmerForConditionalGeneration) counted whole: the vision tower (towers/muse_glimmer.py), the
decoder under "model.language_model", then the projector's vision_adapter and vision_projection, and the head.
transformers 5.24.0 models/muse_glimmer/modeling_muse_glimmer.py (MuseGlimmerModel).

The decoder is MuseGlimmerTextModel (transformers registers no CausalLM for muse_glimmer_text): Gemma 2's sandwich
norms (input, post-attention, pre- and post-feedforward, each one weight: MuseGlimmerTextCenteredRMSNorm), a gated
SiLU MLP, attention with a bias-free per-channel output gate (gate_proj, heads × head_dim) and a q/k norm without a
weight, a token table whose norm has none either, a final RMSNorm and an untied head by default.  Its layers slide
but every fourth from the last (layer_types; those use no rotary: layer_rope_theta 0)."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole
from ..towers.muse_glimmer import projector
from . import _rules as rules
from ._family import Family, multimodal
from ._tables import LLAMA_SWITCHES
from .gemma import GEMMA2_KEYS

TF = "transformers 5.24.0 models/muse_glimmer/configuration_muse_glimmer.py"


def heads_divide_hidden(config: Mapping[str, Any]) -> dict[str, Any]:
    """MuseGlimmerTextConfig.validate_architecture refuses a width its heads do not divide."""
    if config["hidden_size"] % config["num_attention_heads"]:
        raise ArchitectureError("num_attention_heads", f"{config['num_attention_heads']} heads do not divide "
                                f"hidden_size={config['hidden_size']} (transformers refuses it)")
    return {}


TEXT = Family(
    model_type="muse_glimmer",
    causal_lm_class="MuseGlimmerForConditionalGeneration",
    source=f"{TF} (MuseGlimmerTextConfig)",
    naming=Naming(ffn_pre_norm="pre_feedforward_layernorm"),
    keys=GEMMA2_KEYS,
    defaults={"vocab_size": 202048, "hidden_size": 6656, "intermediate_size": 19968, "num_hidden_layers": 52,
              "num_attention_heads": 32, "num_key_value_heads": 2, "head_dim": 128, "hidden_activation": "silu",
              "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": False,
              "sliding_window": 2048},
    switches={**LLAMA_SWITCHES, "norm_placement": "sandwich", "attention_output_gate": "per_channel"},
    # numerics and positions: the logits' softcap and scales, the post-norms' eps, each layer's rope theta
    count_neutral=frozenset({"final_logit_softcapping", "qk_scale_factor", "output_multiplier", "post_norm_eps",
                             "layer_rope_theta"}),
    derive=(heads_divide_hidden, rules.output_bias_follows("attention_bias"),
            rules.sliding_except(lambda i, config: (config["num_hidden_layers"] - 1 - i) % 4 == 0)),
)
WHOLE = multimodal(TEXT, "muse_glimmer", f"{TF} (MuseGlimmerConfig)",
                   Whole({"model_type": "muse_glimmer_vision"}, projector, projector_prefix="model.",
                         tie_word_embeddings=False, vision_kind="muse_glimmer_vision"),
                   "MuseGlimmerForConditionalGeneration")
# The tower, the decoder, then the projector's two modules, as named_parameters() lists them
DECODER = WHOLE.naming
FAMILIES = [dataclasses.replace(WHOLE, naming=dataclasses.replace(DECODER, model_order=(
    "model.vision_tower", DECODER.embed, DECODER.layer.partition(".{i}")[0], DECODER.final_norm,
    "model.vision_adapter", "model.vision_projection")))]

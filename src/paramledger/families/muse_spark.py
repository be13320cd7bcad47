"""Muse Spark (MuseSparkForConditionalGeneration) counted whole: Muse Glimmer's vision tower, the decoder under
"model.language_model", Glimmer's projector (vision_adapter, vision_projection), then the audio tower
(towers/muse_spark.py), and the head.  transformers 5.24.0 models/muse_spark/modular_muse_spark.py (MuseSparkModel).

Muse Spark's decoder is identical to Muse Glimmer's (families/muse_glimmer.py) except: hidden_act is read under that
name (not hidden_activation); the MLP of each "sparse" layer of mlp_layer_types (all by default) is MuseSparkMoE, its
routed experts in a latent of moe_hidden_size (parts/muse_spark_moe.py), a "dense" one Glimmer's gated MLP at
intermediate_size; the post-attention norm holds no weight; each residual is mixed through a learned (hidden,) gate
(post_attention_residual_gate, post_feedforward_residual_gate); the attention's o_norm holds no weight either.  The
whole class never ties its head (MuseSparkForConditionalGeneration declares no _tied_weights_keys, where Glimmer's
does), whatever tie_word_embeddings says."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

from ..towers import Whole
from ..towers.muse_glimmer import projector
from ..towers.muse_spark import widths_agree
from . import _rules as rules
from ._family import derived_from, multimodal, same
from ._tables import ROUTING_KEYS
from .gemma import GEMMA_KEYS
from .muse_glimmer import TEXT as GLIMMER
from .muse_glimmer import heads_divide_hidden

TF = "transformers 5.24.0 models/muse_spark/configuration_muse_spark.py"



def mlp_layer_types(config: Mapping[str, Any]) -> dict[str, Any]:
    """Each layer's MLP: "sparse" MuseSparkMoE, else Glimmer's dense MLP (MuseSparkTextDecoderLayer reads
    mlp_layer_types[layer_idx]; the config class fills all "sparse" when absent); anything but a list of
    "dense"/"sparse", one per layer, is refused rather than read as transformers would misread it."""
    kinds, layers = config.get("mlp_layer_types"), config["num_hidden_layers"]
    if kinds is None:
        return {"mlp_only_layers": ()}
    if not isinstance(kinds, (list, tuple)) or len(kinds) != layers or any(k not in ("dense", "sparse") for k in kinds):
        raise ArchitectureError("mlp_layer_types", f"must list \"dense\" or \"sparse\" for each of the {layers} layers, "
                                f"got {kinds!r}"[:200])
    return {"mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense")}


TEXT = derived_from(
    GLIMMER,
    model_type="muse_spark",
    causal_lm_class="MuseSparkForConditionalGeneration",
    source=f"{TF} (MuseSparkTextConfig)",
    keys={**GEMMA_KEYS, **same("moe_intermediate_size", "moe_hidden_size", "num_experts_per_tok"),
          "num_local_experts": "num_experts"},
    defaults={"vocab_size": 202048, "hidden_size": 8192, "intermediate_size": 16384, "num_hidden_layers": 62,
              "num_attention_heads": 128, "num_key_value_heads": 16, "head_dim": 64, "hidden_act": "silu",
              "max_position_embeddings": 1048576, "tie_word_embeddings": False, "attention_bias": False,
              "sliding_window": 2048, "moe_intermediate_size": 4096, "num_local_experts": 256,
              "num_experts_per_tok": 8, "moe_hidden_size": 4096, "mlp_layer_types": None},
    # the post-attention norm has no weight: the pre-norms here, the post-FFN norm with the residual gates
    switches={**GLIMMER.switches, "norm_placement": "pre", "residual_gates": True},
    # numerics and routing: the router's scale, the residual gates' temperature
    # (mlp_layer_types is read by the rule below, as axk1's and afmoe's)
    count_neutral=GLIMMER.count_neutral | ROUTING_KEYS | {"routed_scaling_factor", "residual_gate_temperature",
                                                          "mlp_layer_types"},
    derive=(heads_divide_hidden, rules.output_bias_follows("attention_bias"),
            rules.sliding_except(lambda i, config: (config["num_hidden_layers"] - 1 - i) % 4 == 0),
            mlp_layer_types),
)
WHOLE = multimodal(TEXT, "muse_spark", f"{TF} (MuseSparkConfig)",
                   Whole({"model_type": "muse_spark_vision"}, projector, projector_prefix="model.",
                         tie_word_embeddings=False, tie_keys=(), vision_kind="muse_glimmer_vision",
                         audio_config={"model_type": "muse_spark_audio"}, audio_kind="muse_spark_audio",
                         audio_first=False, config_rewritten=widths_agree),
                   "MuseSparkForConditionalGeneration")
# The tower, the decoder, the projector's two modules, then the audio tower, as named_parameters() lists them
DECODER = WHOLE.naming
FAMILIES = [dataclasses.replace(WHOLE, naming=dataclasses.replace(DECODER, model_order=(
    "model.vision_tower", DECODER.embed, DECODER.layer.partition(".{i}")[0], DECODER.final_norm,
    "model.vision_adapter", "model.vision_projection", "model.audio_tower")))]

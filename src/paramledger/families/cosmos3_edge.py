"""Cosmos3-Edge (Cosmos3EdgeForConditionalGeneration) counted whole: SigLIP 2's tower under "model.visual"
(towers/cosmos3_edge.py; Cosmos3EdgeVisionModel whatever vision_config's model_type says), its decoder under
"model.language_model" (Llama's tensors with an ungated fc1/fc2 MLP, q/k/v/o biased by attention_bias, the MLP by
mlp_bias; Cosmos3EdgeConfig builds Cosmos3EdgeTextConfig from any text_config, so this family's own table reads it),
then the projector ("model.projector", registered after the decoder) and the head, never tied
(Cosmos3EdgeForConditionalGeneration's _tied_weights_keys is empty, whatever either tie_word_embeddings says)."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError

from ..naming import Naming
from ..towers import Whole
from ..towers.cosmos3_edge import cosmos3_edge
from ._family import multimodal
from ._projector_last import projector_last
from .llama import FAMILIES as LLAMA_LINE

LLAMA = next(family for family in LLAMA_LINE if family.model_type == "llama")


def mrope_fits(config: Mapping[str, Any]) -> dict[str, Any]:
    """Cosmos3EdgeTextConfig.validate_architecture: rope_parameters' mrope_section is three sections whose sum is half
    of head_dim (it sizes nothing, but transformers loads no config where it is not)."""
    rope, width = config.get("rope_parameters"), config.get("head_dim")
    section = rope.get("mrope_section") if isinstance(rope, Mapping) else None
    if isinstance(section, list) and type(width) is int and (
            len(section) != 3 or not all(type(part) is int for part in section) or sum(section) != width // 2):
        raise ArchitectureError("rope_parameters.mrope_section", f"must be three sections whose sum is half of "
                                f"head_dim={width}, got {section!r}"[:200] + " (transformers 5.24.0 refuses it)")
    return {}


# Cosmos3EdgeTextConfig (models/cosmos3_edge/configuration_cosmos3_edge.py); rope_parameters' mrope_section changes no
# count (mrope_fits holds it to head_dim, as transformers does).
TEXT = dataclasses.replace(
    LLAMA, model_type="cosmos3_edge", naming=Naming(up="mlp.fc1", down="mlp.fc2"),
    switches={**LLAMA.switches, "mlp_gated": False},
    defaults={"vocab_size": 131072, "hidden_size": 2048, "intermediate_size": 9216, "num_hidden_layers": 28,
              "num_attention_heads": 16, "num_key_value_heads": 8, "hidden_act": "relu2",
              "max_position_embeddings": 131072, "tie_word_embeddings": False, "attention_bias": False,
              "mlp_bias": False, "head_dim": 128},
    derive=(*LLAMA.derive, mrope_fits))

FAMILIES = [projector_last(
    multimodal(TEXT, "cosmos3_edge", "transformers 5.24.0 models/cosmos3_edge/configuration_cosmos3_edge.py "
               "(Cosmos3EdgeConfig, Cosmos3EdgeTextConfig)",
               Whole({"model_type": "cosmos3_edge_vision"}, cosmos3_edge, vision_prefix="model.visual.",
                     projector_prefix="model.projector.", tie_word_embeddings=False, tie_keys=(),
                     vision_kind="cosmos3_edge_vision"),
               "Cosmos3EdgeForConditionalGeneration"),
    "model.visual", "model.projector")]

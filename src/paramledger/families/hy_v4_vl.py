"""HY-V4-VL (HYV4VLForConditionalGeneration) counted whole: the decoder under "model.language_model", registered
*first*, then the vision tower under "model.vision_tower" with its patch merger (towers/hy_v4_vl.py), and the head.
transformers 5.24.0 models/hy_v4_vl/modeling_hy_v4_vl.py (HYV4VLModel).

The decoder is HYV4VLTextModel: HY-V4's tensors (families/hy_v4.py; its modular file derives it from hy_v4), read
under the whole model's type with HYV4VLTextConfig's defaults (transformers registers no CausalLM for
hy_v4_vl_text).  The head is tied by the whole config's tie_word_embeddings (HYV4VLConfig: False); the head is held
in float32 at every precision (_keep_in_fp32_modules_strict), as HY-V4's."""

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole
from ..towers.hy_v4_vl import merger
from ._family import derived_from, multimodal
from .hy_v4 import FAMILIES as HY_V4

TF = "transformers 5.24.0 models/hy_v4_vl/configuration_hy_v4_vl.py"

MROPE_SECTION = [12, 10, 10]  # HYV4VLTextConfig.convert_rope_params_to_dict's default


def mrope_section_fits(config: Mapping[str, Any]) -> dict[str, Any]:
    """HYV4VLTextConfig.validate_architecture: mrope_section (rope_parameters', else [12, 10, 10]) is three whole
    numbers summing to qk_rope_head_dim // 2; transformers refuses any other config, and so does the count."""
    rope = config.get("rope_parameters") or config.get("rope_scaling") or {}
    section = rope.get("mrope_section", MROPE_SECTION) if isinstance(rope, Mapping) else MROPE_SECTION
    half = config["qk_rope_head_dim"] // 2
    if not (isinstance(section, list) and len(section) == 3 and all(type(n) is int for n in section)
            and sum(section) == half):
        raise ArchitectureError("text_config.rope_parameters.mrope_section", f"{section!r} must be three whole "
                                f"numbers summing to qk_rope_head_dim // 2 = {half}"[:200])
    return {}


FAMILIES = []
if HY_V4:
    # identical to HY-V4 except HYV4VLTextConfig's sizes (and its mrope_section: positions, count-neutral)
    TEXT = derived_from(HY_V4[0], model_type="hy_v4_vl", source=f"{TF} (HYV4VLTextConfig)", defaults={
        **HY_V4[0].defaults, "hidden_size": 6144, "intermediate_size": 18432, "moe_intermediate_size": 2048,
        "num_hidden_layers": 78, "num_attention_heads": 64, "num_key_value_heads": 32, "q_lora_rank": 2048,
        "index_n_heads": 32}, derive=(*HY_V4[0].derive, mrope_section_fits))
    WHOLE = multimodal(TEXT, "hy_v4_vl", f"{TF} (HYV4VLConfig)",
                       Whole({"model_type": "hy_v4_vl_vision"}, merger, vision_prefix="model.vision_tower.",
                             projector_prefix="model.vision_tower.patch_merger.", tie_word_embeddings=False,
                             vision_kind="hy_v4_vl_vision"),
                       "HYV4VLForConditionalGeneration")
    # The decoder first, then the tower and its merger, as named_parameters() lists them
    FAMILIES.append(dataclasses.replace(WHOLE, naming=dataclasses.replace(WHOLE.naming, model_order=(
        "model.language_model.embed_tokens", "model.language_model.layers", "model.language_model.norm",
        "model.language_model.hc_head", "model.vision_tower.embeddings", "model.vision_tower.layers",
        "model.vision_tower.patch_merger"))))

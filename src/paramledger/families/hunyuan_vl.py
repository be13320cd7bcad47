"""HunYuan-VL (HunYuanVLForConditionalGeneration) counted whole: the decoder under "model.language_model", registered
*first*, then the vision tower under "model.vision_tower" with its patch merger (towers/hunyuan_vl.py), and the
head.  transformers 5.24.0 models/hunyuan_vl/modeling_hunyuan_vl.py (HunYuanVLModel).

The decoder is HunYuanVLTextModel: HunYuan-dense's tensors (per-head query_layernorm and key_layernorm), read under
the whole model's type by the hunyuan_v1_dense family's table with HunYuanVLTextConfig's defaults and aliases
(transformers registers no CausalLM for hunyuan_vl_text); a config without text_config gives its keys at the top
(HunYuanVLConfig.__post_init__), its tie_word_embeddings the whole model's own.  Tied by the whole config's
tie_word_embeddings (True) or text_config's (True): HunYuanVLConfig.__post_init__ forwards it (checked over all nine
combinations)."""

import dataclasses

from .._exceptions import ArchitectureError
from ..towers import Whole
from ..towers.hunyuan_vl import merger
from ._family import derived_from, multimodal, same
from .llama import FAMILIES as LLAMA

HUNYUAN = next(family for family in LLAMA if family.model_type == "hunyuan_v1_dense")


def flat_config_ties(config):
    """A config without text_config: HunYuanVLConfig.__post_init__ moves the decoder's keys into text_config, but
    tie_word_embeddings is its own field and stays: text_config ties by HunYuanVLTextConfig's default (True)."""
    return {"tie_word_embeddings": True} if config.get("model_type") == "hunyuan_vl" else {}


def head_dim_set(config):
    """HunYuanVLDenseV1Attention reads head_dim (HunYuanVLTextConfig: None): refused where it is missing, under the
    key where the config gives the decoder's (text_config's, or the top level's in a flat config)."""
    if config.get("head_dim") is None:
        key = "head_dim" if config.get("model_type") == "hunyuan_vl" else "text_config.head_dim"
        raise ArchitectureError(key, "missing (required: transformers 5.24.0 cannot build this family without it)")
    return {}


# identical to HunYuan-dense except HunYuanVLTextConfig's defaults (tied) and its attribute_map's legacy spellings
TEXT = derived_from(
    HUNYUAN, model_type="hunyuan_vl",
    keys={**HUNYUAN.keys, **same(attention_head_dim="head_dim", org_vocab_size="vocab_size")},
    defaults={**HUNYUAN.defaults, "tie_word_embeddings": True},
    derive=(head_dim_set, *HUNYUAN.derive[1:], flat_config_ties),  # HUNYUAN.derive[0]: its must_be_set("head_dim")
    count_neutral=HUNYUAN.count_neutral | {"pad_id", "sep_token_id", "image_token_id", "im_start_id", "im_end_id",
                                           "im_newline_id"})
WHOLE = multimodal(TEXT, "hunyuan_vl", "transformers 5.24.0 models/hunyuan_vl/configuration_hunyuan_vl.py "
                   "(HunYuanVLConfig)",
                   Whole({"model_type": "hunyuan_vl_vision"}, merger, vision_prefix="model.vision_tower.",
                         projector_prefix="model.vision_tower.patch_merger.", tie_word_embeddings=True,
                         tie_from_text=True, vision_kind="hunyuan_vl_vision", text_at_top=True),
                   "HunYuanVLForConditionalGeneration")
# The decoder first, then the tower and its merger, as named_parameters() lists them
FAMILIES = [dataclasses.replace(WHOLE, naming=dataclasses.replace(WHOLE.naming, model_order=(
    "model.language_model.embed_tokens", "model.language_model.layers", "model.language_model.norm",
    "model.vision_tower.embeddings", "model.vision_tower.layers", "model.vision_tower.patch_merger")))]

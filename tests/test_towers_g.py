"""The windowed vision towers of set G (towers/qwen_vl.py: Qwen2-VL, Qwen2.5-VL, Qwen3-VL, GLM-4.1V): one-line
refusals for a vision_config they cannot count, and the merger counted as the projector.  Each whole model is
checked tensor by tensor against transformers in tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import math

import pytest

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference
from paramledger.towers import text_only


@pytest.mark.parametrize(("model_type", "vision", "message"), [
    ("qwen2_vl", {"embed_dim": 10, "num_heads": 3}, "vision_config.num_heads: 3 heads do not divide embed_dim=10"),
    ("qwen2_5_vl", {"hidden_size": 0}, "vision_config.hidden_size: must be a positive whole number, got 0"),
    ("qwen2_vl", {"depth": -1}, "vision_config.depth: must be a positive whole number, got -1"),
    ("qwen2_vl", {"mlp_ratio": "four"}, "vision_config.mlp_ratio: must be a positive number, got 'four'"),
    ("qwen2_vl", {"mlp_ratio": 0}, "vision_config.mlp_ratio: must be a positive number, got 0"),
    ("qwen2_5_vl", {"patch_size": [14, 14]}, r"vision_config.patch_size: must be a positive whole number, got \[14"),
    ("qwen2_5_vl", {"spatial_merge_size": None}, "vision_config.spatial_merge_size: must be a positive whole"),
    ("qwen3_vl", {"deepstack_visual_indexes": 3}, "vision_config.deepstack_visual_indexes: must be a list of layer "
                                                  "indexes, got 3"),
    ("qwen3_vl_moe", {"num_position_embeddings": 0}, "vision_config.num_position_embeddings: must be a positive"),
    ("glm4v", {"image_size": 8, "patch_size": 14}, "vision_config.patch_size: 14 is larger than image_size=8"),
    ("glm4v", {"out_hidden_size": 2.5}, "vision_config.out_hidden_size: must be a positive whole number, got 2.5"),
    ("qwen2_vl", {"model_type": "made_up_vision"}, "vision_config.model_type: 'made_up_vision' is a vision tower "
                                                   "paramledger does not build yet"),
])
def test_a_vision_config_it_cannot_count_is_one_line(model_type, vision, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": model_type, "vision_config": vision})
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("spelling", ["qwen2_vl", "qwen2_vl_vision"])
def test_a_vision_config_under_its_older_model_type_is_the_same_tower(spelling):
    """Qwen2VLConfig.__post_init__ reads an old checkpoint's vision_config model_type "qwen2_vl" as its tower."""
    config = {"model_type": "qwen2_vl", "vision_config": {"model_type": spelling, "depth": 2}}
    inv = paramledger.inventory(paramledger.load(config))
    assert inv.total == build_reference(config).total


def test_the_merger_is_the_projector_and_text_only_is_the_decoder():
    config = {"model_type": "qwen3_vl"}
    inv = paramledger.inventory(paramledger.load(config))
    reference = dict(build_reference(config).tensors)
    mergers = sum(math.prod(shape) for name, shape in reference.items() if "merger" in name)
    assert inv.components["projector"] == mergers  # model.visual.merger and the three deepstack mergers
    vision = sum(math.prod(shape) for name, shape in reference.items() if name.startswith("model.visual."))
    assert inv.components["vision"] == vision - mergers
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    assert decoder.total == inv.total - vision
    assert not any(t.name.startswith("model.visual.") for t in decoder.tensors)



@pytest.mark.parametrize("model_type", ["qwen2_vl", "qwen2_5_vl"])
def test_a_flat_config_reads_its_decoder_from_the_top_level(model_type):
    """Qwen2VLConfig reads a config without text_config from its top level (the releases' flat config.json)."""
    from paramledger.reference import build_reference, diff

    config = {"model_type": model_type, "vocab_size": 300, "hidden_size": 64, "intermediate_size": 96,
              "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "image_token_id": 7,
              "vision_config": {"depth": 2, "hidden_size": 32, "intermediate_size": 48, "num_heads": 2,
                                "embed_dim": 32, "out_hidden_size": 64}}
    arch = paramledger.load(config)
    assert arch.num_hidden_layers == 2 and not any("not understood" in note for note in arch.notes)
    assert diff(paramledger.inventory(arch), build_reference(config)).matches

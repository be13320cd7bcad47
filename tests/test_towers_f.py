"""Set F's towers and projectors (issue #16): a vision_config, perceiver_config or projector key they cannot
count is refused in one line naming the key.  Their tensors are checked against transformers, family by family,
in tests/test_families.py and tests/test_buffers.py."""

from __future__ import annotations

import pytest
from _family_configs_f import decoder, vit
from hypothesis import given, settings
from hypothesis import strategies as st
from test_buffers import ours, reference
from test_families import assert_matches_reference

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError
from paramledger.towers import text_only, tower_kinds


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "idefics3", "vision_config": {"model_type": "idefics3_vision", "hidden_size": 10,
                                                  "num_attention_heads": 3}},
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"model_type": "smolvlm", "vision_config": {"model_type": "smolvlm_vision", "patch_size": "14"}},
     "vision_config.patch_size: must be a positive whole number, got '14'"),
    ({"model_type": "idefics3", "scale_factor": 0}, "scale_factor: must be a positive whole number, got 0"),
    ({"model_type": "idefics2", "perceiver_config": [1]}, "perceiver_config: must be a JSON object"),
    ({"model_type": "idefics2", "perceiver_config": {"resampler_depth": -1}},
     "perceiver_config.resampler_depth: must be a positive whole number, got -1"),
    ({"model_type": "idefics2", "perceiver_config": {"resampler_n_heads": 2, "num_key_value_heads": 4}},
     "perceiver_config.num_key_value_heads: 4 is more than resampler_n_heads=2"),
    ({"model_type": "lfm2_vl", "vision_config": {"model_type": "siglip2_vision_model", "num_patches": None}},
     "vision_config.num_patches: must be a positive whole number, got None"),
    ({"model_type": "lfm2_vl", "downsample_factor": 1.5}, "downsample_factor: must be a positive whole number"),
    ({"model_type": "lfm2_vl", "projector_hidden_size": 0}, "projector_hidden_size: must be a positive whole"),
])
def test_a_config_set_f_cannot_count_is_one_line(config, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("vision", "message"), [
    ({"hidden_size": 0}, "vision_config.hidden_size: must be a positive whole number, got 0"),
    ({"hidden_size": 30, "num_attention_heads": 6},
     "vision_config.num_attention_heads: 6 heads of hidden_size=30 are 5 wide: Pixtral's RoPE needs an even"),
    ({"image_size": 8}, "vision_config.patch_size: 16 is larger than image_size=8"),
])
def test_a_pixtral_vision_config_it_cannot_count_is_one_line(vision, message):
    kind = tower_kinds()["pixtral"]
    with pytest.raises(ArchitectureError, match=message) as error:
        kind.make("model.vision_tower.", {**kind.defaults, **vision}, "config.json")
    assert "\n" not in str(error.value)


def test_set_f_towers_are_found_by_their_model_type():
    """The Pixtral tower is found by its vision_config's model_type, whichever whole model holds it."""
    assert {"pixtral", "idefics2_vision", "idefics3_vision", "smolvlm_vision",
            "siglip2_vision_model"} <= set(tower_kinds())


@settings(max_examples=25, deadline=None, database=None)
@given(data=st.data())
def test_llava_with_a_pixtral_tower_matches_transformers(data):
    """Pixtral-12B is LlavaForConditionalGeneration with a pixtral vision_config: LLaVA's family (set E's) with
    this set's tower, tensor by tensor and buffer by buffer against transformers."""
    if families.get("llava") is None:
        pytest.skip("no llava family yet")
    config = {"model_type": "llava", "text_config": {"model_type": "mistral", **data.draw(decoder(window=True))},
              "vision_config": data.draw(vit("pixtral", step=2)), "vision_feature_layer": -1,
              "multimodal_projector_bias": data.draw(st.booleans()), "tie_word_embeddings": data.draw(st.booleans())}
    assert_matches_reference(config)
    assert ours(config) == reference(config)


# Mistral-Small-3.1-24B-Instruct-2503's config.json, its keys that change a count (the whole file, and where it
# was found, is in docs/notes/multimodal-f.md, to bundle with the family).
MISTRAL_SMALL_3_1 = {
    "model_type": "mistral3", "multimodal_projector_bias": False, "spatial_merge_size": 2, "vision_feature_layer": -1,
    "text_config": {"head_dim": 128, "hidden_size": 5120, "intermediate_size": 32768, "model_type": "mistral",
                    "num_attention_heads": 32, "num_hidden_layers": 40, "num_key_value_heads": 8,
                    "sliding_window": None, "vocab_size": 131072},
    "vision_config": {"head_dim": 64, "hidden_size": 1024, "image_size": 1540, "intermediate_size": 4096,
                      "model_type": "pixtral", "num_attention_heads": 16, "num_channels": 3, "num_hidden_layers": 24,
                      "patch_size": 14},
}


def test_mistral_small_3_1_counts_as_transformers_builds_it():
    """No top-level tie_word_embeddings: Mistral3Config ties (True), so from_config holds no lm_head, though the
    checkpoint has one (docs/notes/multimodal-f.md); the decoder alone is Mistral's own, untied."""
    config = MISTRAL_SMALL_3_1
    assert_matches_reference(config)
    arch = paramledger.load(config)
    inv = paramledger.inventory(arch)
    assert inv.total == 23_340_272_640 and inv.tied
    assert inv.notes[-1].endswith("a checkpoint that stores lm_head.weight loads untied, 671,088,640 more")
    assert inv.components["vision"] == 403_305_472 and inv.components["projector"] == 35_652_608
    assert paramledger.inventory(text_only(arch)).total == 23_572_403_200

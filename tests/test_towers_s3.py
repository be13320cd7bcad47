"""Step-3.7 (set S3, issue #16): one-line refusals for a config it cannot count, the components and Hugging Face's
non-embedding count, the head's tying, the legacy keys the config classes fold in, the KV cache against a real
forward pass, and --text-only refused (no class builds the decoder alone).  The whole model is checked tensor by
tensor in tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line
from test_kvcache import _cache_bytes, _run
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import OptionError
from paramledger.kvcache import kv_cache
from paramledger.reference import auto_class, build_reference, diff, hf_config
from paramledger.towers import text_only

TEXT = {"model_type": "step3p5", "num_hidden_layers": 4, "hidden_size": 32, "intermediate_size": 16,
        "moe_intermediate_size": 8, "n_routed_experts": 2, "num_experts_per_tok": 1, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 8, "share_expert_dim": 8, "vocab_size": 50}
SMALL = {"model_type": "step3p7", "text_config": TEXT,
         "vision_config": {"hidden_size": 16, "num_hidden_layers": 1, "num_attention_heads": 2, "image_size": 28}}


def _step(text: dict | None = None, vision: dict | None = None, **whole: object) -> dict:
    return {**SMALL, "text_config": {**TEXT, **(text or {})},
            "vision_config": {**SMALL["vision_config"], **(vision or {})}, **whole}


@pytest.mark.parametrize(("config", "message"), [
    (_step({"layer_types": ["full_attention"] * 3}), "layer_types: must list one entry for each of the 4 layers"),
    (_step({"layer_types": ["full_attention", "chunked_attention"] * 2}),
     "layer_types: each entry must be one of full_attention, sliding_attention"),
    (_step({"mlp_layer_types": ["dense", "moe", "sparse", "sparse"]}),
     "mlp_layer_types: each entry must be one of dense, sparse"),
    (_step({"mlp_layer_types": "dense"}), "mlp_layer_types: must list one entry for each of the 4 layers"),
    (_step({"moe_layers_enum": "1,two"}), "moe_layers_enum: must list layer indices, got '1,two'"),
    (_step({"num_sliding_attention_heads": 0}), "num_sliding_attention_heads: must be a positive whole number, got 0"),
    (_step({"attention_other_setting": [4]}), r"attention_other_setting: must be an object, got \[4\]"),
    (_step({"attention_other_setting": {"num_attention_heads": "8"}}),
     "num_sliding_attention_heads: must be a positive whole number, got '8'"),
    (_step({"num_nextn_predict_layers": -1}), "num_nextn_predict_layers: must be a whole number >= 0, got -1"),
    (_step({"partial_rotary_factors": [0.5] * 3}),
     "partial_rotary_factors: must list one entry for each of the 4 layers"),
    (_step({"partial_rotary_factors": [0, 1, 1, 1]}), r"partial_rotary_factors: must be numbers in \(0, 1\], got 0"),
    (_step(vision={"mlp_ratio": "wide"}), "vision_config.mlp_ratio: must be a number making a positive"),
    (_step(vision={"mlp_ratio": 0.01}), "vision_config.mlp_ratio: must be a number making a positive"),
    (_step(vision={"hidden_size": 10, "num_attention_heads": 3}),
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    (_step(vision={"width": 0}), "vision_config.hidden_size: must be a positive whole number, got 0"),
    (_step(vision={"rope_parameters": {"rope_type": "default"}}),
     "vision_config.rope_parameters: its rope_type must be 'axial'"),
    (_step(vision={"image_size": 10, "patch_size": 14}), "vision_config.image_size: 10 is smaller than patch_size=14"),
    (_step(projector_bias="yes"), "projector_bias: must be true or false, got 'yes'"),
])
def test_a_step3p7_config_it_cannot_count_is_one_line(config, message):
    refused_in_one_line(config, message)


def test_the_cli_refuses_a_bad_step3p7_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "step3p7", "text_config": {"moe_layers_enum": "3,x"}}',
                       "moe_layers_enum: must list layer indices, got '3,x'")


def test_step3p7s_decoder_alone_is_refused():
    with pytest.raises(OptionError, match="step3p7: its decoder alone is no class transformers"):
        text_only(paramledger.load(SMALL))


def test_step3p7s_defaults():
    inventory = paramledger.inventory(paramledger.load({"model_type": "step3p7"}))
    assert inventory.total == 197_824_847_872 and not inventory.tied
    assert inventory["model.multi_modal_projector.weight"].shape == (4096, 4 * 1536)


def test_step3p7s_tower_projector_and_non_embedding_count():
    """The downsamplers are the tower's; the bias-free Linear is the projector; the tower's position table is its
    only nn.Embedding beside the decoder's."""
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    config = _step(projector_bias=True)
    ours, (projector, tower) = _sums(config, "model.multi_modal_projector.", "model.vision_model.")
    assert (ours["projector"], ours["vision"]) == (projector, tower)
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**config))
    assert paramledger.inventory(paramledger.load(config)).non_embedding("hf") == model.num_parameters(
        exclude_embeddings=True)


@pytest.mark.parametrize(("whole", "text"), [(None, True), (True, None), (False, True)])
def test_step3p7_ties_by_the_whole_configs_tie_word_embeddings_only(whole, text):
    config = _step({} if text is None else {"tie_word_embeddings": text},
                   **({} if whole is None else {"tie_word_embeddings": whole}))
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.tied == bool(whole)
    assert diff(inventory, build_reference(config)).matches


def test_step3p7s_legacy_keys_are_read_as_its_config_classes_fold_them():
    """A release's own spelling: the MTP layers' trailing entries, moe_layers_enum, attention_other_setting, the
    tower's width/layers/heads (Step3p7TextConfig and Step3p7VisionConfig.__post_init__)."""
    config = _step({"num_nextn_predict_layers": 1, "layer_types": ["full_attention", "sliding_attention"] * 2
                    + ["full_attention"], "moe_layers_enum": "2,3,4", "sliding_window": 4,
                    "attention_other_setting": {"num_attention_heads": 2, "num_attention_groups": 2},
                    "partial_rotary_factors": [0.5, 1.0, 0.5, 1.0, 0.5]},
                   {"width": 24, "layers": 2, "heads": 3, "hidden_size": 8})
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert inventory["model.language_model.layers.1.self_attn.q_proj.weight"].shape == (16, 32)
    names = {t.name for t in inventory.tensors}
    assert {"model.language_model.layers.1.mlp.gate_proj.weight",
            "model.language_model.layers.2.mlp.experts.gate_up_proj"} <= names


@pytest.mark.parametrize("window", [2, 9])
def test_step3p7s_cache_is_what_transformers_caches(window):
    """Sliding layers of fewer heads keep the same KV heads, and only the window's last tokens.  (Sliding layers
    without a window are counted, but transformers' DynamicCache cannot run them: DynamicSlidingWindowLayer
    refuses sliding_window None.)"""
    config = _step({"layer_types": ["sliding_attention", "full_attention"] * 2, "num_sliding_attention_heads": 2,
                    "sliding_window": window})
    hf = hf_config(config)
    model = auto_class(hf).from_config(hf, experts_implementation="eager").eval()
    assert kv_cache(paramledger.load(config), 5, 2, "fp32").bytes == _cache_bytes(_run(model, 2, 5))

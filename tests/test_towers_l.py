"""The whole models of set L (issue #16: InternVL; Llama 4 and Qwen3.5, whose whole families need the reference to
build their ForConditionalGeneration, docs/notes/multimodal-l.patch): one-line refusals for a config their towers
cannot count, the projector's share, and the text decoder alone as its own family counts it.  Each whole model is
checked tensor by tensor in tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import math

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_l import CONFIGS_L
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only

WHOLE = {name for name in ("internvl", "llama4", "qwen3_5", "qwen3_5_moe") if families.get(name).whole is not None}
whole_only = {name: pytest.mark.skipif(name not in WHOLE, reason=f"{name} is counted whole with "
                                       "docs/notes/multimodal-l.patch") for name in ("llama4", "qwen3_5")}


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": {"norm_type": "batch_norm"}},
     "vision_config.norm_type: 'batch_norm' is not layer_norm or rms_norm"),
    ({"vision_config": {"image_size": [448, 448, 3]}},
     r"vision_config.image_size: must be a positive whole number or a \[height, width\] pair of them, got \[448"),
    ({"vision_config": {"patch_size": 0}}, "vision_config.patch_size: must be a positive whole number or a"),
    ({"vision_config": {"image_size": [448, 10], "patch_size": 14}},
     r"vision_config.patch_size: \[14, 14\] is larger than image_size=\[448, 10\]"),
    ({"vision_config": {"hidden_size": 100, "num_attention_heads": 16}},
     "vision_config.num_attention_heads: 16 heads do not divide hidden_size=100"),
    ({"vision_config": {"num_hidden_layers": -1}}, "vision_config.num_hidden_layers: must be a positive whole"),
    ({"downsample_ratio": 0}, "downsample_ratio: must be a number above 0 and at most 1, got 0"),
    ({"downsample_ratio": 2.0}, "downsample_ratio: must be a number above 0 and at most 1, got 2.0"),
    ({"downsample_ratio": "half"}, "downsample_ratio: must be a number above 0 and at most 1, got 'half'"),
    ({"text_config": {"model_type": "gpt2"}},
     "text_config.model_type: 'gpt2' is not a text decoder paramledger builds in internvl"),
])
def test_an_internvl_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "internvl", **config}, message)


def test_the_cli_refuses_patches_larger_than_the_image_in_one_line(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "internvl", "vision_config": {"image_size": 10, "patch_size": 14}}',
                       "vision_config.patch_size: [14, 14] is larger than image_size=[10, 10]")


def _sums(config: dict, *prefixes: str) -> tuple[dict[str, int], list[int]]:
    """Our components, and the reference's parameters under each of ``prefixes``."""
    inv = paramledger.inventory(paramledger.load(config))
    reference = build_reference(config).tensors
    return inv.components, [sum(math.prod(shape) for name, shape in reference if name.startswith(prefix))
                            for prefix in prefixes]


def test_internvls_projector_is_the_multimodal_projector_and_its_vision_the_tower():
    ours, (projector, tower) = _sums({"model_type": "internvl", "text_config": {"num_hidden_layers": 1}},
                                     "model.multi_modal_projector.", "model.vision_tower.")
    assert (ours["projector"], ours["vision"]) == (projector, tower)


TEXT_ONLY = ("aria", "deepseek_vl", "got_ocr2", "hyperclovax_vision_v2", "lighton_ocr", "minicpmv4_6", "pp_chart2table",
             "qianfan_ocr", "shieldgemma2", "video_llama_3")


@pytest.mark.parametrize("model_type", sorted(WHOLE.union(TEXT_ONLY)))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(model_type, data):
    """--text-only: the decoder text_config names, tensor by tensor against its own CausalLM."""
    config = data.draw(CONFIGS_L[model_type], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


@whole_only["llama4"]
@pytest.mark.parametrize(("vision", "message"), [
    ({"vision_output_dim": 0}, "vision_config.vision_output_dim: must be a positive whole number, got 0"),
    ({"projector_input_dim": 2.5}, "vision_config.projector_input_dim: must be a positive whole number, got 2.5"),
    ({"hidden_size": 1000, "num_attention_heads": 16}, "vision_config.num_attention_heads: 16 heads do not divide"),
    ({"image_size": 10, "patch_size": 14}, "vision_config.patch_size: 14 is larger than image_size=10"),
    ({"model_type": "made_up_vision"}, "vision_config.model_type: 'made_up_vision' is a vision tower"),
])
def test_a_llama4_vision_config_it_cannot_count_is_one_line(vision, message):
    _refused({"model_type": "llama4", "vision_config": vision}, message)


@whole_only["llama4"]
def test_llama4s_adapter_and_projector_are_the_projector():
    """The vision adapter (pixel shuffle MLP, inside vision_model) and multi_modal_projector are the projector."""
    config = {"model_type": "llama4", "text_config": {"num_hidden_layers": 1, "num_local_experts": 2}}
    ours, (adapter, projector, tower) = _sums(config, "vision_model.vision_adapter.", "multi_modal_projector.",
                                              "vision_model.")
    assert (ours["projector"], ours["vision"]) == (adapter + projector, tower - adapter)


@whole_only["qwen3_5"]
@pytest.mark.parametrize("model_type", ["qwen3_5", "qwen3_5_moe"])
@pytest.mark.parametrize("spelling", ["", "_vision"])
def test_a_qwen3_5_vision_config_by_its_old_type_or_aliases_is_the_same_tower(model_type, spelling):
    """Qwen3_5Config.__post_init__ reads an old checkpoint's vision_config model_type (the whole model's) as its
    tower; num_hidden_layers and num_attention_heads are depth and num_heads (its attribute_map)."""
    config = {"model_type": model_type, "vision_config": {"model_type": model_type + spelling,
                                                          "num_hidden_layers": 2, "num_attention_heads": 4},
              "text_config": {"num_hidden_layers": 1, "num_experts": 2, "num_experts_per_tok": 1}}
    inv = paramledger.inventory(paramledger.load(config))
    assert diff(inv, build_reference(config)).matches
    assert not any(".blocks.2." in t.name for t in inv.tensors)


@whole_only["qwen3_5"]
@pytest.mark.parametrize(("vision", "message"), [
    ({"hidden_size": 10, "num_heads": 3}, "vision_config.num_heads: 3 heads do not divide hidden_size=10"),
    ({"num_position_embeddings": 0}, "vision_config.num_position_embeddings: must be a positive whole number"),
    ({"spatial_merge_size": None}, "vision_config.spatial_merge_size: must be a positive whole number"),
])
def test_a_qwen3_5_vision_config_it_cannot_count_is_one_line(vision, message):
    _refused({"model_type": "qwen3_5", "vision_config": vision}, message)


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "glm46v", "text_config": {"model_type": "glm4v_moe_text"}},
     "text_config.model_type: 'glm4v_moe_text' is not a text decoder paramledger builds in glm46v"),
    ({"model_type": "glmga", "text_config": {"model_type": "glm4v_moe_text"}},
     "text_config.model_type: 'glm4v_moe_text' is not a text decoder paramledger builds in glmga"),
    ({"model_type": "lighton_ocr", "spatial_merge_size": 0}, "spatial_merge_size: must be a positive whole number"),
    ({"model_type": "lighton_ocr", "text_config": {"model_type": "llama"}},
     "text_config.model_type: 'llama' is not a text decoder paramledger builds in lighton_ocr"),
    ({"model_type": "lighton_ocr", "vision_config": {"model_type": "pixtral", "hidden_size": 1026,
                                                     "num_attention_heads": 2}},
     "vision_config.num_attention_heads: 2 heads of hidden_size=1026 are 513 wide"),
    ({"model_type": "shieldgemma2", "mm_tokens_per_image": 0}, "mm_tokens_per_image: must be a positive whole"),
    ({"model_type": "deepseek_vl", "vision_config": {"image_size": 10, "patch_size": 16}},
     "vision_config.patch_size: 16 is larger than image_size=10"),
    ({"model_type": "qianfan_ocr", "vision_config": {"norm_type": "group_norm"}},
     "vision_config.norm_type: 'group_norm' is not layer_norm or rms_norm"),
    ({"model_type": "qianfan_ocr", "downsample_ratio": -0.5}, "downsample_ratio: must be a number above 0"),
    ({"model_type": "aria", "projector_patch_to_query_dict": {"1225": "many"}},
     r"projector_patch_to_query_dict: its values must be whole numbers, got \['many'\]"),
    ({"model_type": "aria", "projector_patch_to_query_dict": []},
     "projector_patch_to_query_dict: must be a JSON object of patches to queries"),
    ({"model_type": "aria", "vision_config": {"hidden_size": 100, "num_attention_heads": 16}},
     "vision_config.num_attention_heads: 16 heads do not divide hidden_size=100"),
    ({"model_type": "exaone4_5", "vision_config": {"num_key_value_heads": 3}},
     "vision_config.num_key_value_heads: 3 does not divide num_heads=16"),
    ({"model_type": "exaone4_5", "vision_config": {"num_key_value_heads": None}},
     "vision_config.num_key_value_heads: must be a positive whole number, got None"),
    ({"model_type": "glm4v_moe", "vision_config": {"image_size": 8, "patch_size": 14}},
     "vision_config.patch_size: 14 is larger than image_size=8"),
    ({"model_type": "glm_ocr", "vision_config": {"hidden_size": 10, "num_heads": 3}},
     "vision_config.num_heads: 3 heads do not divide hidden_size=10"),
    ({"model_type": "glm_ocr", "vision_config": {"out_hidden_size": 0}},
     "vision_config.out_hidden_size: must be a positive whole number, got 0"),
    ({"model_type": "paddleocr_vl", "vision_config": {"spatial_merge_size": 0}},
     "vision_config.spatial_merge_size: must be a positive whole number, got 0"),
    ({"model_type": "kimi_k25", "vision_config": {"hidden_size": 9, "num_attention_heads": 3}},
     "vision_config.hidden_size: 9 is odd: Kimi K2.5's frame sinusoid needs an even width"),
    ({"model_type": "kimi_k25", "vision_config": {"merge_kernel_size": [2]}},
     r"vision_config.merge_kernel_size: must be a \[height, width\] pair of positive whole numbers, got \[2\]"),
    ({"model_type": "kimi_k25", "projection_hidden_size": None},
     "projection_hidden_size: must be a positive whole number, got None"),
    ({"model_type": "minicpmv4_6", "merger_times": 0}, "merger_times: must be a positive whole number, got 0"),
    ({"model_type": "minicpmv4_6", "vision_config": {"window_kernel_size": 2}},
     r"vision_config.window_kernel_size: must be a \[height, width\] pair of positive whole numbers, got 2"),
    ({"model_type": "got_ocr2", "vision_config": {"window_size": -1}},
     "vision_config.window_size: must be a whole number from 0, got -1"),
    ({"model_type": "got_ocr2", "vision_config": {"global_attn_indexes": 2}},
     "vision_config.global_attn_indexes: must be a list of layer indexes, got 2"),
    ({"model_type": "got_ocr2", "vision_config": {"image_size": 8}},
     "vision_config.patch_size: 16 is larger than image_size=8"),
    ({"model_type": "cosmos3_edge", "projector_hidden_size": 0}, "projector_hidden_size: must be a positive whole"),
    ({"model_type": "cosmos3_edge", "vision_config": {"spatial_merge_size": "2"}},
     "vision_config.spatial_merge_size: must be a positive whole number, got '2'"),
    ({"model_type": "hyperclovax_vision_v2", "vision_config": {"model_type": "qwen2_5_vl", "out_hidden_size": 0}},
     "vision_config.out_hidden_size: must be a positive whole number, got 0"),
    ({"model_type": "video_llama_3", "vision_config": {"patch_size": 0}},
     "vision_config.patch_size: must be a positive whole number, got 0"),
])
def test_a_config_of_the_other_whole_models_it_cannot_count_is_one_line(config, message):
    _refused(config, message)


@pytest.mark.parametrize("tie", [None, False, True])
def test_a_flat_paddleocr_vl_config_ties_whatever_its_top_level_says(tie):
    """PaddleOCRVLConfig moves a flat config's decoder keys into text_config, but not tie_word_embeddings (its own
    field): text_config ties by its class default, and the whole model by either."""
    config = {"model_type": "paddleocr_vl", "num_hidden_layers": 1, "vocab_size": 50,
              "vision_config": {"num_hidden_layers": 1}, **({} if tie is None else {"tie_word_embeddings": tie})}
    inv = paramledger.inventory(paramledger.load(config))
    assert inv.tied
    assert diff(inv, build_reference(config)).matches


@pytest.mark.parametrize(("whole", "text"), [(True, None), (None, True), (True, True)])
def test_cosmos3_edge_never_ties_its_head(whole, text):
    """Cosmos3EdgeForConditionalGeneration's _tied_weights_keys is empty: neither tie_word_embeddings ties it."""
    config = {"model_type": "cosmos3_edge", "text_config": {"num_hidden_layers": 1, "vocab_size": 40},
              "vision_config": {"num_hidden_layers": 1}, **({} if whole is None else {"tie_word_embeddings": whole})}
    if text is not None:
        config["text_config"]["tie_word_embeddings"] = text
    inv = paramledger.inventory(paramledger.load(config))
    assert not inv.tied
    assert diff(inv, build_reference(config)).matches


def test_glm4v_moe_builds_no_qk_norm_whatever_use_qk_norm_says():
    """Glm4vMoeTextAttention has no q/k norms (GLM-4-MoE's use_qk_norm is not a key of its text config class)."""
    config = {"model_type": "glm4v_moe", "text_config": {"num_hidden_layers": 2, "n_routed_experts": 4,
                                                         "num_experts_per_tok": 2, "use_qk_norm": True}}
    inv = paramledger.inventory(paramledger.load(config))
    assert not any("q_norm" in t.name for t in inv.tensors)
    assert diff(inv, build_reference(config)).matches


@pytest.mark.parametrize(("whole", "text", "tied"), [(None, None, True), (False, None, True), (None, False, False),
                                                     (True, False, True), (False, False, False)])
def test_shieldgemma2_ties_by_its_own_key_or_else_its_text_configs(whole, text, tied):
    """ShieldGemma2Config.__post_init__: a false tie_word_embeddings takes text_config's (Gemma 3's: true)."""
    config = {"model_type": "shieldgemma2", "text_config": {"num_hidden_layers": 1}, "vision_config": {
        "num_hidden_layers": 1}}
    if whole is not None:
        config["tie_word_embeddings"] = whole
    if text is not None:
        config["text_config"]["tie_word_embeddings"] = text
    inv = paramledger.inventory(paramledger.load(config))
    assert inv.tied is tied
    assert diff(inv, build_reference(config)).matches

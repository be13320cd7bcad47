"""The whole models of set VL (issue #16: Mistral Large 4, ...): one-line refusals for a config they cannot count,
the components, Hugging Face's non-embedding count, the KV cache of layers that read an earlier layer's latent, and
--text-only where the decoder alone is no class.  Each whole model is checked tensor by tensor in
tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli
from test_kvcache import _cache_bytes, _run
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import ArchitectureError, OptionError
from paramledger.kvcache import kv_cache
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


# ----------------------------------------------------------------- Mistral Large 4
LARGE4_TEXT = {"model_type": "mistral_large4_text", "num_hidden_layers": 4, "hidden_size": 32, "intermediate_size": 16,
               "moe_intermediate_size": 8, "n_routed_experts": 2, "num_experts_per_tok": 2, "num_attention_heads": 2,
               "num_key_value_heads": 2, "kv_lora_rank": 8, "qk_rope_head_dim": 4, "qk_nope_head_dim": 4,
               "v_head_dim": 4, "index_head_dim": 6, "index_n_heads": 1, "vocab_size": 50}
SMALL_LARGE4 = {"model_type": "mistral_large4", "text_config": LARGE4_TEXT,
                "vision_config": {"model_type": "pixtral", "hidden_size": 16, "intermediate_size": 8,
                                  "num_hidden_layers": 1, "num_attention_heads": 2}}


def _large4(**text: object) -> dict:
    return {**SMALL_LARGE4, "text_config": {**LARGE4_TEXT, **text}}


@pytest.mark.parametrize(("text", "message"), [
    ({"no_rope_layers": [1, 1]}, r"no_rope_layers: must list 1 \(RoPE\) or 0 \(NoPE\) for each of the 4 layers"),
    ({"no_rope_layers": [1, 2, 1, 1]}, r"no_rope_layers: must list 1 \(RoPE\) or 0 \(NoPE\)"),
    ({"no_rope_layer_interval": 0}, "no_rope_layer_interval: must be a positive integer, got 0"),
    ({"kv_source_layers": [0, 0]}, "kv_source_layers: must list one layer index for each of the 4 layers"),
    ({"kv_source_layers": [0, 2, 2, 3]}, "kv_source_layers: layer 1 must share KV with an earlier layer that owns"),
    ({"kv_source_layers": [0, 0, 1, 3]}, "kv_source_layers: layer 2 must share KV with an earlier layer that owns"),
    ({"indexer_types": ["full", "sometimes", "full", "full"]},
     "indexer_types: must list \"full\" or \"shared\" for each of the 4 layers"),
    ({"index_n_heads": 0}, "index_n_heads: must be positive, got 0"),
    ({"kv_lora_rank": None}, "kv_lora_rank: required with scaled_mla_layers"),
])
def test_a_mistral_large4_config_it_cannot_count_is_one_line(text, message):
    _refused(_large4(**text), message)


def test_a_q_lora_rank_set_on_mistral_large4_is_refused():
    """MistralLarge4TextAttention deletes q_a_proj: --set q_lora_rank has nothing to build."""
    with pytest.raises(ArchitectureError, match="q_lora_rank: must be unset with scaled_mla_layers"):
        paramledger.load(SMALL_LARGE4).replace(q_lora_rank=8)


def test_the_cli_refuses_a_bad_mistral_large4_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "mistral_large4", "text_config": {"kv_source_layers": [1]}}',
                       "kv_source_layers: must list one layer index for each of the 72 layers")


def test_mistral_large4s_decoder_alone_is_refused():
    with pytest.raises(OptionError, match="mistral_large4: its decoder alone is no class transformers"):
        text_only(paramledger.load(SMALL_LARGE4))


def test_mistral_large4s_projector_and_tower_and_non_embedding_count():
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    ours, (projector, tower) = _sums(SMALL_LARGE4, "model.multi_modal_projector.", "model.vision_tower.")
    assert (ours["projector"], ours["vision"]) == (projector, tower)
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**SMALL_LARGE4))
    inventory = paramledger.inventory(paramledger.load(SMALL_LARGE4))
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


def test_mistral_large4s_defaults_are_its_one_trillion():
    """MistralLarge4Config() whole (Mistral-Large-4-1T-A52B's sizes, the class docstring's checkpoint)."""
    inventory = paramledger.inventory(paramledger.load({"model_type": "mistral_large4"}))
    assert inventory.total == 1_051_822_421_536
    assert (inventory.components["vision"], inventory.components["projector"]) == (1_637_107_712, 67_110_912)


def test_mistral_large4s_closed_form_holds_the_rotary_alpha_and_an_untied_head():
    """paramledger formula traces the eight attention kinds and the learned alpha ((d_rope + 1) // 2, a symbol has no
    int()); the head stays V × d (checked at the design and at perturbed designs by closed_form itself)."""
    import sympy

    from paramledger.formula import closed_form

    form = closed_form(paramledger.load({"model_type": "mistral_large4"}))
    assert form.evaluate(form.total, form.architecture) == 1_051_822_421_536
    assert form.components["lm_head"] == sympy.Symbol("V", integer=True, nonnegative=True) * sympy.Symbol(
        "d", integer=True, nonnegative=True)


@pytest.mark.parametrize(("sources", "indexers", "rope"), [
    ([0, 0, 2, 3], None, None),  # layer 1 reads layer 0's latent and runs its own indexer: it caches that key
    ([0, 0, 2, 2], ["full", "full", "shared", "shared"], [1, 1, 0, 0]),  # a reusing layer without an indexer: none
    ([0, 1, 1, 3], ["full", "shared", "full", "shared"], [0, 0, 0, 0]),  # NoPE: no rotary key
])
def test_mistral_large4s_cache_is_what_transformers_caches(sources, indexers, rope):
    config = _large4(kv_source_layers=sources, **({"indexer_types": indexers} if indexers else {}),
                     **({"no_rope_layers": rope} if rope else {}))
    from paramledger.reference import auto_class, hf_config

    hf = hf_config(config)
    model = auto_class(hf, decoder_alone=True).from_config(hf, experts_implementation="eager").eval()
    assert kv_cache(paramledger.load(config), 3, 2, "fp32").bytes == _cache_bytes(_run(model, 2, 3))


# ----------------------------------------------------------------- Molmo 2
SMALL_MOLMO2 = {"model_type": "molmo2",
                "text_config": {"model_type": "molmo2_text", "num_hidden_layers": 2, "hidden_size": 32,
                                "intermediate_size": 48, "num_attention_heads": 4, "num_key_value_heads": 2,
                                "head_dim": 8, "vocab_size": 100, "additional_vocab_size": 7},
                "vision_config": {"model_type": "molmo2_vision", "hidden_size": 16, "intermediate_size": 24,
                                  "num_hidden_layers": 3, "num_attention_heads": 2, "num_key_value_heads": 1,
                                  "head_dim": 8, "image_size": [28, 42], "patch_size": 14},
                "adapter_config": {"vision_feature_layer": [-1, -3], "hidden_size": 16, "num_attention_heads": 2,
                                   "num_key_value_heads": 2, "head_dim": 8, "intermediate_size": 40,
                                   "text_hidden_size": 32}}


@pytest.mark.parametrize(("config", "message"), [
    ({"text_config": {"qk_norm_type": "gemma"}}, "qk_norm_type: must be \"qwen3\" or \"olmo\", got 'gemma'"),
    ({"text_config": {"additional_vocab_size": -1}}, "additional_vocab_size: must be a whole number from 0, got -1"),
    ({"vision_config": {"image_size": [378]}}, r"vision_config.image_size: must be \[height, width\], got \[378\]"),
    ({"vision_config": {"image_size": [10, 10], "patch_size": 14}},
     r"vision_config.patch_size: 14 is larger than image_size=\[10, 10\]"),
    ({"vision_config": {"num_key_value_heads": 0}},
     "vision_config.num_key_value_heads: must be a positive whole number, got 0"),
    ({"vision_config": {"attention_bias": "yes"}}, "vision_config.attention_bias: must be true or false, got 'yes'"),
    ({"vision_config": {"image_num_pos": 0}},
     "vision_config.num_position_embeddings: must be a positive whole number, got 0"),
    ({"adapter_config": {"vision_feature_layer": [25]}},
     "adapter_config.vision_feature_layer: 25 is not one of the 25 layers of vision_config"),
    ({"adapter_config": {"vit_layers": []}}, r"adapter_config.vision_feature_layer: must be a list of tower layers"),
    ({"adapter_config": {"text_hidden_size": 0}}, "adapter_config.text_hidden_size: must be a positive whole number"),
    ({"adapter_config": {"mlp_bias": 1}}, "adapter_config.mlp_bias: must be true or false, got 1"),
    ({"adapter_config": 3}, "adapter_config: must be a JSON object"),
    ({"vit_config": 3}, "vit_config: must be a JSON object"),
    ({"vit_config": {}, "adapter_config": {"vit_layers": [1.5]}},
     r"adapter_config.vision_feature_layer: must be a list of tower layers, got \[1.5\]"),
])
def test_a_molmo2_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "molmo2", **config}, message)


def test_the_cli_refuses_a_bad_molmo2_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "molmo2", "adapter_config": {"vision_feature_layer": [-26]}}',
                       "adapter_config.vision_feature_layer: -26 is not one of the 25 layers of vision_config")


def test_molmo2s_decoder_alone_is_refused():
    with pytest.raises(OptionError, match="molmo2: its decoder alone is no class transformers"):
        text_only(paramledger.load(SMALL_MOLMO2))


@pytest.mark.parametrize("tie", [True, False])
def test_molmo2s_head_is_never_tied_and_its_positions_are_no_embedding(tie):
    """Molmo2ForConditionalGeneration declares no tied weights (its table is additional_vocab_size rows longer
    than the head); the tower's positional_embedding is a bare Parameter, kept in Hugging Face's non-embedding
    count; the adapter is the projector."""
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    config = {**SMALL_MOLMO2, "tie_word_embeddings": tie}
    ours, (projector, tower) = _sums(config, "model.multi_modal_projector.", "model.vision_tower.")
    assert (ours["projector"], ours["vision"]) == (projector, tower)
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**config))
    inventory = paramledger.inventory(paramledger.load(config))
    assert not inventory.tied and inventory["lm_head.weight"].shape == (100, 32)
    assert inventory["model.language_model.embed_tokens.weight"].shape == (107, 32)
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


REMOTE_MOLMO2 = {**SMALL_MOLMO2, "vision_config": None,
                 "vit_config": {"model_type": "molmo2", "hidden_size": 16, "intermediate_size": 20,
                                "num_hidden_layers": 27, "num_attention_heads": 2, "num_key_value_heads": 2,
                                "head_dim": 8, "image_default_input_size": [28, 28], "image_patch_size": 14,
                                "image_num_pos": 4},
                 "adapter_config": {"model_type": "molmo2", "vit_layers": [-3, -9], "hidden_size": 16,
                                    "num_attention_heads": 2, "num_key_value_heads": 2, "head_dim": 8,
                                    "intermediate_size": 12, "text_hidden_size": 32}}


def test_molmo2s_remote_code_layout_is_read_as_its_config_class_rewrites_it():
    """allenai's releases ship vit_config (its own spellings, model_type "molmo2") and vit_layers: Molmo2Config
    takes the layers modulo 27 (24 and 18) and cuts the tower to 25 layers."""
    inventory = paramledger.inventory(paramledger.load(REMOTE_MOLMO2))
    assert diff(inventory, build_reference(REMOTE_MOLMO2)).matches
    names = {t.name for t in inventory.tensors}
    assert "model.vision_tower.layers.24.mlp.fc2.bias" in names
    assert "model.vision_tower.layers.25.mlp.fc2.bias" not in names
    assert inventory["model.vision_tower.positional_embedding"].shape == (4, 16)


def test_molmo2s_remote_use_qk_norm_is_expected_true():
    """Molmo2TextConfig reads no use_qk_norm (the q/k norms are always built): true, the releases' value, is
    understood; false is said not understood."""
    assert not any("not understood" in note for note in paramledger.load(
        {"model_type": "molmo2", "text_config": {"use_qk_norm": True}}).notes)
    assert any("not understood (they might change the count): use_qk_norm" in note for note in paramledger.load(
        {"model_type": "molmo2", "text_config": {"use_qk_norm": False}}).notes)


def test_molmo2s_defaults():
    """Molmo2Config() whole: its tower, its adapter (to text_hidden_size 3584, not the decoder's 4096) and decoder."""
    inventory = paramledger.inventory(paramledger.load({"model_type": "molmo2"}))
    assert inventory.total == 8_694_602_192
    assert (inventory.components["vision"], inventory.components["projector"]) == (382_505_936, 120_836_608)


# ----------------------------------------------------------------- Unlimited-OCR
SMALL_UNLIMITED_OCR = {
    "model_type": "unlimited_ocr",
    "text_config": {"model_type": "unlimited_ocr_text", "num_hidden_layers": 3, "hidden_size": 32,
                    "intermediate_size": 48, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 100,
                    "n_routed_experts": 3, "num_experts_per_tok": 2, "moe_intermediate_size": 8,
                    "n_shared_experts": 1, "attention_bias": True, "mlp_bias": True},
    "vision_config": {"sam_config": {"hidden_size": 16, "output_channels": 8, "num_hidden_layers": 2,
                                     "num_attention_heads": 2, "image_size": 64, "patch_size": 16, "window_size": 2,
                                     "global_attn_indexes": [1], "mlp_dim": 20, "downsample_channels": [12, 24, 7]},
                      "encoder_config": {"hidden_size": 24, "intermediate_size": 40, "num_hidden_layers": 2,
                                         "num_attention_heads": 2, "image_size": 28, "patch_size": 14}}}


@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": {"sam_config": {"downsample_channels": [512]}}},
     r"vision_config.sam_config.downsample_channels: must list at least two positive channel counts, got \[512\]"),
    ({"vision_config": {"sam_config": {"hidden_size": 10, "num_attention_heads": 3}}},
     "vision_config.sam_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"vision_config": {"sam_config": {"window_size": -1}}},
     "vision_config.sam_config.window_size: must be a whole number from 0, got -1"),
    ({"vision_config": {"sam_config": 5}}, "vision_config.sam_config: must be a JSON object"),
    ({"vision_config": {"encoder_config": {"image_size": [224, 224]}}},
     r"vision_config.encoder_config.image_size: must be a positive whole number, got \[224, 224\]"),
    ({"vision_config": {"encoder_config": {"hidden_size": 10, "num_attention_heads": 3}}},
     "vision_config.encoder_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"text_config": {"mlp_layer_types": ["dense"]}},
     "mlp_layer_types: must list \"dense\" or \"sparse\" for each of the 12 layers, got \\['dense'\\]"),
    ({"text_config": {"mlp_layer_types": ["moe"] * 12}}, "mlp_layer_types: must list \"dense\" or \"sparse\""),
])
def test_an_unlimited_ocr_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "unlimited_ocr", **config}, message)


def test_the_cli_refuses_a_bad_unlimited_ocr_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "unlimited_ocr", "vision_config": {"sam_config": '
                                 '{"downsample_channels": [1]}}}',
                       "vision_config.sam_config.downsample_channels: must list at least two positive channel counts")


def test_unlimited_ocrs_decoder_alone_is_refused():
    with pytest.raises(OptionError, match="unlimited_ocr: its decoder alone is no class transformers"):
        text_only(paramledger.load(SMALL_UNLIMITED_OCR))


def test_unlimited_ocrs_projector_separators_tower_and_non_embedding_count():
    """The projector reads downsample_channels[-1] + the encoder's width (7 + 24); view_separator and image_newline
    count with it; the CLIP encoder's position table is its only nn.Embedding beside the decoder's."""
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    ours, (projector, separator, newline, tower) = _sums(SMALL_UNLIMITED_OCR, "model.multi_modal_projector.",
                                                         "model.view_separator", "model.image_newline",
                                                         "model.vision_tower.")
    assert (ours["projector"], ours["vision"]) == (projector + separator + newline, tower)
    inventory = paramledger.inventory(paramledger.load(SMALL_UNLIMITED_OCR))
    assert inventory["model.multi_modal_projector.weight"].shape == (32, 31)
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**SMALL_UNLIMITED_OCR))
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


def test_unlimited_ocrs_remote_language_config_is_its_decoder():
    """UnlimitedOcrConfig.__post_init__: without text_config, language_config is the decoder's."""
    config = {key: value for key, value in SMALL_UNLIMITED_OCR.items() if key != "text_config"}
    config["language_config"] = SMALL_UNLIMITED_OCR["text_config"]
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, build_reference(config)).matches
    assert inventory.total == paramledger.inventory(paramledger.load(SMALL_UNLIMITED_OCR)).total
    _refused({"model_type": "unlimited_ocr", "language_config": 3}, "language_config: must be a JSON object")


def test_unlimited_ocrs_defaults():
    inventory = paramledger.inventory(paramledger.load({"model_type": "unlimited_ocr"}))
    assert inventory.total == 3_335_504_128
    assert (inventory.components["vision"], inventory.components["projector"]) == (398_144_768, 2_625_280)


def test_unlimited_ocrs_prompt_is_cached_whole():
    """UnlimitedOcrDynamicReferenceSlidingWindowLayer keeps every prefill token (prefill_keys, prefill_values): the
    prompt's cache is every layer's keys and values, as counted."""
    from paramledger.reference import auto_class, hf_config

    hf = hf_config(SMALL_UNLIMITED_OCR)
    model = auto_class(hf, decoder_alone=True).from_config(hf, experts_implementation="eager").eval()
    arch = paramledger.load(SMALL_UNLIMITED_OCR)
    assert kv_cache(arch, 5, 2, "fp32").bytes == _cache_bytes(_run(model, 2, 5)) == 3 * 2 * 5 * 2 * 16 * 4

"""Apertus 1.5, ERNIE 4.5 VL MoE and GLM-5-Next whole (helper trio, issue #16): one-line refusals for a config they
cannot count, the head's tying and the tokenizers kept in float32.  Each whole model is checked tensor by tensor in
tests/test_families.py and test_buffers.py."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line

import paramledger
from paramledger.reference import build_reference

APERTUS_TEXT = {"model_type": "apertus1p5_text", "vocab_size": 64, "hidden_size": 16, "intermediate_size": 8,
                "num_hidden_layers": 2, "num_attention_heads": 2, "output_vocab_size": 10}
APERTUS = {"model_type": "apertus1p5", "text_config": APERTUS_TEXT, "image_token_offset": 0,
           "audio_token_offset": 4, "image_token_id": 0, "audio_token_id": 1,
           "vision_config": {"codebook_size": 4, "base_channels": 32, "channel_multiplier": [1, 2],
                             "num_res_blocks": 1, "resolution": 16, "attn_resolutions": [8]},
           "audio_config": {"num_filters": 4, "upsampling_ratios": [2, 2], "hidden_size": 8, "codebook_dim": 8,
                            "codebook_size": 4}}


def _apertus(vision: dict | None = None, audio: dict | None = None, **whole: object) -> dict:
    return {**APERTUS, "vision_config": {**APERTUS["vision_config"], **(vision or {})},
            "audio_config": {**APERTUS["audio_config"], **(audio or {})}, **whole}


@pytest.mark.parametrize(("config", "message"), [
    (_apertus(vision={"base_channels": 48}), "vision_config.base_channels: 48 × a channel_multiplier gives 48"),
    (_apertus(vision={"channel_multiplier": []}), "vision_config.channel_multiplier: must list at least one stage"),
    (_apertus(vision={"channel_multiplier": [1, 0]}), "vision_config.channel_multiplier: must be a list of whole"),
    (_apertus(vision={"attn_resolutions": "16"}), "vision_config.attn_resolutions: must be a list of whole numbers"),
    (_apertus(vision={"num_res_blocks": -1}), "vision_config.num_res_blocks: must be a whole number from 0"),
    (_apertus(vision={"embed_dim": 0}), "vision_config.embed_dim: must be a whole number from 1"),
    (_apertus(audio={"num_filters": 0}), "audio_config.num_filters: must be a positive whole number, got 0"),
    (_apertus(audio={"upsampling_ratios": [2, 0]}), "audio_config.upsampling_ratios: must be a list of positive"),
    (_apertus(audio={"upsampling_ratios": [2] * 60}), "audio_config.upsampling_ratios: 60 ratios"),
    (_apertus(audio={"num_residual_layers": 5000}), "audio_config.upsampling_ratios: 2 ratios of 5000 blocks"),
    (_apertus(vision={"channel_multiplier": [1] * 6000}), "vision_config.num_res_blocks: 6000 stages of 1 blocks"),
    (_apertus(audio={"compress": 5}), "audio_config.compress: 5 leaves no channels of num_filters 4"),
    (_apertus(audio={"codebook_dim": 4}), r"audio_config.codebook_dim: must equal hidden_size \(8\)"),
    (_apertus(audio={"norm_type": "layer_norm"}), "audio_config.norm_type: must be \"weight_norm\" or"),
    (_apertus(audio={"num_lstm_layers": 0}), "audio_config.num_lstm_layers: must be a whole number from 1"),
    (_apertus(audio={"decoder_hidden_size": 30}), "audio_config.decoder_hidden_size: must be a multiple of"),
    (_apertus(audio={"model_type": "wavtokenizer"}), "audio_config.model_type: 'wavtokenizer' is an audio tower"),
    (_apertus(audio_token_offset=5), r"audio_token_offset: must be image_token_offset \+ vision_config.codebook_size"),
    (_apertus(image_token_offset="0"), "image_token_offset: must be a whole number, got '0'"),
    (_apertus(image_token_offset=58, audio_token_offset=62), "text_config.vocab_size: must hold the audio codes"),
])
def test_an_apertus1p5_config_it_cannot_count_is_one_line(config, message):
    refused_in_one_line(config, message)


def test_an_apertus1p5_refusal_is_one_line_from_the_cli(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "apertus1p5", "audio_config": {"norm_type": "none"}}',
                       "audio_config.norm_type: must be")


@pytest.mark.parametrize("tie", [None, False, True])
@pytest.mark.parametrize("text_tie", [False, True])
def test_apertus1p5_ties_its_head_by_the_whole_config(tie, text_tie):
    config = {**APERTUS, "text_config": {**APERTUS_TEXT, "tie_word_embeddings": text_tie}}
    if tie is not None:
        config["tie_word_embeddings"] = tie
    ours = paramledger.inventory(config)
    reference = build_reference(config)
    assert ours.total == reference.total
    assert ("lm_head.weight" in ours.aliases) == bool(tie)


def test_apertus1p5_keeps_its_tokenizers_in_float32():
    from paramledger.families.kept_float32 import KEPT

    assert KEPT["apertus1p5"].always == ("audio_tokenizer", "vision_tokenizer")


ERNIE_TEXT = {"model_type": "ernie4_5_vl_moe_text", "vocab_size": 64, "hidden_size": 32, "intermediate_size": 16,
              "num_hidden_layers": 3, "num_attention_heads": 2, "num_key_value_heads": 1, "moe_num_experts": 4,
              "moe_k": 2, "moe_num_shared_experts": 1, "moe_intermediate_size": [8, 4],
              "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "mrope_section": [2, 2, 4]}}
ERNIE = {"model_type": "ernie4_5_vl_moe", "text_config": ERNIE_TEXT,
         "vision_config": {"depth": 1, "hidden_size": 16, "num_heads": 2, "intermediate_size": 8, "patch_size": 2}}


def _ernie(text: dict | None = None, vision: dict | None = None, **whole: object) -> dict:
    return {**ERNIE, "text_config": {**ERNIE_TEXT, **(text or {})},
            "vision_config": {**ERNIE["vision_config"], **(vision or {})}, **whole}


@pytest.mark.parametrize(("config", "message"), [
    (_ernie({"moe_intermediate_size": 8}), "text_config.moe_intermediate_size: must list the text and the vision"),
    (_ernie({"moe_intermediate_size": [8, 0]}), "text_config.moe_intermediate_size: must list the text and the"),
    (_ernie({"mlp_layer_types": ["dense", "sparse"]}), "mlp_layer_types: must list \"dense\" or \"sparse\" for each"),
    (_ernie({"moe_num_experts": 0}), "moe_num_experts: must be positive"),
    (_ernie({"rope_parameters": {"rope_type": "default", "mrope_section": [4, 4, 4]}}),
     r"rope_parameters.mrope_section: must split the 8 rotary frequencies"),
    (_ernie({"rope_parameters": {"rope_type": "linear", "factor": 2.0}}), "rope_parameters.rope_type: must be"),
    (_ernie(vision={"num_heads": 3}), "vision_config.num_heads: 3 heads do not divide hidden_size=16"),
    (_ernie(vision={"patch_size": 0}), "vision_config.patch_size: must be a positive whole number, got 0"),
    (_ernie(vision={"temporal_merge_size": -1}), "vision_config.temporal_merge_size: must be a positive whole"),
])
def test_an_ernie4_5_vl_moe_config_it_cannot_count_is_one_line(config, message):
    refused_in_one_line(config, message)


def test_ernie4_5_vl_moe_matches_transformers_and_a_text_token_reads_no_vision_expert():
    inventory = paramledger.inventory(ERNIE)
    assert inventory.total == build_reference(ERNIE).total
    names = {t.name: t.count for t in inventory.tensors}
    text = sum(c for n, c in names.items() if ".text_moe.experts." in n)
    vision = sum(c for n, c in names.items() if ".vision_moe.experts." in n)
    assert text and vision
    # two sparse layers, each 4 text experts of which a token reads 2; no vision expert
    assert inventory.active == inventory.total - text - vision + text * 2 // 4


def test_ernie4_5_vl_moe_refuses_text_only():
    from paramledger._exceptions import OptionError
    from paramledger.towers import text_only

    with pytest.raises(OptionError, match="no ERNIE 4.5 VL CausalLM is registered"):
        text_only(paramledger.load(ERNIE))

"""Qwen3-Omni-MoE counted whole (issue #16): the thinker under "thinker.", the talker (its code predictor inside) and
code2wav beside it, what enable_audio_output builds, the talker's tying, the refusals.  (Tensor by tensor against
transformers at the defaults plus DEFAULTS_NEED and on random configs: tests/test_families.py and test_buffers.py.)"""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line

import paramledger
from paramledger.reference import default_config
from paramledger.towers import text_only

BARE = {"model_type": "qwen3_omni_moe"}
OMNI = default_config("qwen3_omni_moe")  # with the two keys transformers 5.24.0 reads and declares no default for


def test_the_defaults_with_the_release_keys_are_the_thinker_then_the_talker_then_code2wav():
    """Qwen3OmniMoeConfig() with them: 21,978,863,145 parameters in 1,846 tensors (measured on the meta device)."""
    inv = paramledger.inventory(paramledger.load(OMNI))
    assert inv.total == 21_978_863_145 and len(inv.tensors) == 1_846
    assert (inv.component("talker"), inv.component("vocoder")) == (3_344_516_864, 216_016_577)
    names = [t.name for t in inv.tensors]
    assert names[0].startswith("thinker.model.audio_tower.")
    assert names[-1] == "code2wav.decoder.6.conv.bias"
    assert names[names.index("talker.model.norm.weight") + 1] == "talker.model.codec_embedding.weight"
    assert names.index("thinker.lm_head.weight") < names.index("talker.model.layers.0.self_attn.q_proj.weight")
    assert "talker.code_predictor.lm_head.30.weight" in names and "talker.code_predictor.lm_head.31.weight" not in names
    assert not inv.aliases
    # the talker's experts count whole (a tower's), the thinker's routed share by its top-k
    assert inv.active == 6_124_394_025


@pytest.mark.parametrize(("config", "key"), [
    (BARE, "talker_config.text_config.shared_expert_intermediate_size"),
    ({**BARE, "talker_config": {"spatial_merge_size": 2}}, "talker_config.text_config.shared_expert_intermediate_size"),
    ({**BARE, "talker_config": {"text_config": {"shared_expert_intermediate_size": 768}}},
     "talker_config.spatial_merge_size"),
])
def test_the_bare_defaults_are_refused_naming_the_key_transformers_lacks(config, key):
    refused_in_one_line(config, rf"^config: {key}: is missing")


def test_without_audio_output_it_is_the_thinker_alone_under_its_prefix():
    whole = paramledger.inventory(paramledger.load({**BARE, "enable_audio_output": False}))
    thinker = paramledger.inventory(paramledger.load({"model_type": "qwen3_omni_moe_thinker"}))
    assert whole.total == thinker.total
    assert [t.name for t in whole.tensors] == ["thinker." + t.name for t in thinker.tensors]


def test_text_only_counts_the_thinkers_decoder():
    alone = paramledger.inventory(text_only(paramledger.load(OMNI)))
    assert alone.total == paramledger.inventory(text_only(paramledger.load({"model_type": "qwen3_omni_moe_thinker"}))
                                                ).total == 17_201_485_816


def test_talker_config_tie_word_embeddings_ties_codec_head_to_codec_embedding():
    """Qwen3OmniMoeTalkerForConditionalGeneration._tied_weights_keys (checked against transformers)."""
    talker = {**OMNI["talker_config"], "tie_word_embeddings": True}
    inv = paramledger.inventory(paramledger.load({**OMNI, "talker_config": talker}))
    assert inv.aliases == {"talker.codec_head.weight": "talker.model.codec_embedding.weight"}
    assert inv.total == 21_978_863_145 - 3072 * 1024


TALKER = OMNI["talker_config"]


@pytest.mark.parametrize(("config", "message"), [
    ({"talker_config": {**TALKER, "text_config": {"shared_expert_intermediate_size": 0}}},
     "talker_config.text_config.shared_expert_intermediate_size: must be a positive"),
    ({"talker_config": {**TALKER, "text_config": {**TALKER["text_config"], "num_experts": 0}}},
     "talker_config.text_config.num_experts: must be a positive"),
    ({"talker_config": {**TALKER, "text_config": {**TALKER["text_config"], "num_key_value_heads": 3}}},
     "talker_config.text_config.num_key_value_heads: 3 does not divide"),
    ({"talker_config": {**TALKER, "text_config": {**TALKER["text_config"], "num_attention_heads": 2048}}},
     "talker_config.text_config.num_attention_heads: 2048 is more than hidden_size"),
    ({"talker_config": {**TALKER, "text_config": {**TALKER["text_config"], "num_hidden_layers": 10**6}}},
     "talker_config.text_config.num_hidden_layers: 1,000,000 is beyond the bound"),
    ({"talker_config": {**TALKER, "text_config": "x"}}, "talker_config.text_config: must be a JSON object"),
    ({"talker_config": {**TALKER, "code_predictor_config": {"num_code_groups": 0}}},
     "talker_config.code_predictor_config.num_code_groups: must be a positive"),
    ({"talker_config": {**TALKER, "code_predictor_config": {"head_dim": 7}}},
     "talker_config.code_predictor_config.head_dim: 7 is odd and rotated whole"),
    ({"talker_config": {**TALKER, "code_predictor_config": {"tie_word_embeddings": True}}},
     "talker_config.code_predictor_config.tie_word_embeddings: true cannot be built"),
    ({"talker_config": {**TALKER, "thinker_hidden_size": -1}}, "talker_config.thinker_hidden_size: must be a positive"),
    ({"talker_config": {**TALKER, "tie_word_embeddings": "yes"}}, "talker_config.tie_word_embeddings: must be true"),
    ({"code2wav_config": {"decoder_dim": 8}}, "code2wav_config.upsample_rates: 4 blocks halve decoder_dim=8 to 0"),
    ({"code2wav_config": {"upsampling_ratios": [0]}}, "code2wav_config.upsampling_ratios: must be a list"),
    ({"code2wav_config": {"codebook_size": 0}}, "code2wav_config.codebook_size: must be a positive"),
    ({"code2wav_config": {"attention_bias": 1}}, "code2wav_config.attention_bias: must be true or false"),
    ({"code2wav_config": []}, "code2wav_config: must be a JSON object"),
    ({"enable_audio_output": "no"}, "enable_audio_output: must be true or false"),
])
def test_a_bad_talker_or_code2wav_key_is_refused_in_one_line_naming_it(config, message):
    refused_in_one_line({**OMNI, **config}, message)


def test_the_cli_refuses_the_bare_defaults_in_one_line(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "qwen3_omni_moe"}',
                       "talker_config.text_config.shared_expert_intermediate_size: is missing")

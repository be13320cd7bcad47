"""Qwen2.5-Omni counted whole (issue #16): the thinker under "thinker.", the talker and token2wav beside it, what
enable_audio_output builds, token2wav held in float32, the refusals.  (Tensor by tensor against transformers at the
defaults and on random configs: tests/test_families.py and test_buffers.py.)"""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line

import paramledger
from paramledger.memory import weight_bytes
from paramledger.towers import text_only

OMNI = {"model_type": "qwen2_5_omni"}


def test_the_class_defaults_are_the_thinker_then_the_talker_then_token2wav():
    """Qwen2_5OmniConfig(): 18,386,365,824 parameters in 2,495 tensors (measured on the meta device)."""
    inv = paramledger.inventory(paramledger.load(OMNI))
    assert inv.total == 18_386_365_824 and len(inv.tensors) == 2_495
    assert (inv.component("audio"), inv.component("vision"), inv.component("projector"), inv.component("talker"),
            inv.component("vocoder")) == (635_056_128, 2_826_102_528, 261_513_728, 6_599_025_664, 449_051_264)
    names = [t.name for t in inv.tensors]
    assert names[0] == "thinker.model.audio_tower.conv1.weight"
    assert names[-1] == "token2wav.code2wav_bigvgan_model.conv_post.weight"
    first_talker = names.index("talker.thinker_to_talker_proj.weight")
    assert names[first_talker - 1] == "thinker.lm_head.weight"  # the thinker's head untied, before the talker
    assert names[first_talker + 2] == "talker.model.embed_tokens.weight"
    assert "talker.codec_head.weight" in names and not inv.aliases  # the talker ties nothing


def test_without_audio_output_it_is_the_thinker_alone_under_its_prefix():
    whole = paramledger.inventory(paramledger.load({**OMNI, "enable_audio_output": False}))
    thinker = paramledger.inventory(paramledger.load({"model_type": "qwen2_5_omni_thinker"}))
    assert whole.total == thinker.total == 11_338_288_896
    assert [t.name for t in whole.tensors] == ["thinker." + t.name for t in thinker.tensors]


def test_text_only_counts_the_thinkers_decoder():
    arch = paramledger.load(OMNI)
    alone = paramledger.inventory(text_only(arch))
    assert alone.total == paramledger.inventory(text_only(paramledger.load({"model_type": "qwen2_5_omni_thinker"}))
                                                ).total == 7_070_619_136
    assert text_only(arch).notes[-1] == ("qwen2_5_omni is multimodal: counting its text decoder "
                                         "(thinker_config.text_config) only")


def test_thinker_text_config_sizes_reach_the_decoder():
    config = {**OMNI, "thinker_config": {"text_config": {"num_hidden_layers": 2}}}
    assert paramledger.load(config).num_hidden_layers == 2


@pytest.mark.parametrize("dtype", ["bf16", "fp16"])
def test_token2wav_is_priced_in_float32_at_half_precision(dtype, cli):
    """Qwen2_5OmniForConditionalGeneration.enable_talker casts token2wav to float32 (self.token2wav.float())."""
    inv = paramledger.inventory(paramledger.load(OMNI))
    weights = weight_bytes(inv, dtype)
    assert weights.upcast == 4 * inv.component("vocoder")
    assert weights.checkpoint == 2 * inv.total  # the files hold it at the checkpoint's dtype


def test_the_memory_view_says_why_token2wav_is_float32(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "qwen2_5_omni"}')
    status, out, _ = cli("memory", str(path))
    assert status == 0
    assert "transformers holds token2wav so when it loads qwen2_5_omni at bf16 (its class casts them to float32 " \
           "as it builds them)" in " ".join(out.split())


@pytest.mark.parametrize(("config", "message"), [
    ({"talker_config": {"hidden_size": 0}}, r"^config: talker_config\.hidden_size: must be a positive whole number"),
    ({"talker_config": 5}, r"^config: talker_config: must be a JSON object"),
    ({"talker_config": {"num_hidden_layers": 10 ** 8}},
     r"^config: talker_config\.num_hidden_layers: 100,000,000 is beyond"),
    ({"talker_config": {"num_attention_heads": 28, "num_key_value_heads": 5}},
     r"^config: talker_config\.num_key_value_heads: 5 does not divide"),
    ({"enable_audio_output": "yes"}, r"^config: enable_audio_output: must be true or false"),
    ({"thinker_config": []}, r"^config: thinker_config: must be a JSON object"),
    ({"thinker_config": {"text_config": 7}}, r"^config: thinker_config\.text_config: must be a JSON object"),
    ({"token2wav_config": {"dit_config": {"num_hidden_layers": -1}}},
     r"^config: token2wav_config\.dit_config\.num_hidden_layers: must be a positive whole number"),
    ({"token2wav_config": {"dit_config": []}}, r"^config: token2wav_config\.dit_config: must be a JSON object"),
    ({"token2wav_config": {"dit_config": {"num_embeds": -1}}},
     r"^config: token2wav_config\.dit_config\.num_embeds: must "),
    ({"token2wav_config": {"dit_config": {"enc_channels": [256, 256]}}},
     r"^config: token2wav_config\.dit_config\.enc_channels: enc_channels, enc_kernel_sizes and enc_dilations must"),
    ({"token2wav_config": {"dit_config": {"enc_res2net_scale": 1000}}},
     r"^config: token2wav_config\.dit_config\.enc_res2net_scale: 1000 is more than a middle enc_channels entry 256"),
    ({"token2wav_config": {"bigvgan_config": {"upsample_rates": [2] * 12}}},
     r"^config: token2wav_config\.bigvgan_config\.upsample_rates: 12 steps halve upsample_initial_channel=1536 to 0"),
    ({"token2wav_config": {"bigvgan_config": {"resblock_dilation_sizes": [[1, 2]]}}},
     r"^config: token2wav_config\.bigvgan_config\.resblock_dilation_sizes: must be a list of lists of at least 3"),
    ({"token2wav_config": {"bigvgan_config": {"resblock_kernel_sizes": []}}},
     r"^config: token2wav_config\.bigvgan_config\.resblock_kernel_sizes: must be a list of 1 to 10,000 whole numbers"),
])
def test_a_bad_talker_or_token2wav_key_is_refused_in_one_line_naming_it(config, message):
    refused_in_one_line({**OMNI, **config}, message)


def test_the_cli_refuses_a_bad_talker_size_in_one_line(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "qwen2_5_omni", "talker_config": {"head_dim": -2}}',
                       "talker_config.head_dim: must be a positive whole number, got -2")


@pytest.mark.parametrize(("config", "key"), [({"talker_config": {"pad_token_id": 8448}}, "talker_config.pad_token_id"),
                                             ({"thinker_config": {"text_config": {"pad_token_id": -152065}}},
                                              "thinker_config.text_config.pad_token_id")])
def test_a_pad_token_id_outside_a_padded_table_is_refused_as_transformers_refuses_it(config, key):
    """Qwen2_5OmniTalkerModel's embed_tokens and the thinker's take padding_idx = pad_token_id (lines 2201, 1564)."""
    from paramledger._exceptions import ParamledgerError
    from paramledger.reference import build_reference

    refused_in_one_line({**OMNI, **config}, rf"^config: {key}: .* is outside the")
    with pytest.raises(ParamledgerError, match="Padding_idx"):
        build_reference({**OMNI, **config})


@pytest.mark.parametrize(("config", "key"), [({"talker_config": {"head_dim": 63}}, "talker_config.head_dim"),
                                             ({"token2wav_config": {"dit_config": {"head_dim": 5}}},
                                              "token2wav_config.dit_config.head_dim")])
def test_an_odd_head_dim_rotated_whole_is_refused_as_transformers_refuses_it(config, key):
    from paramledger._exceptions import ParamledgerError
    from paramledger.reference import build_reference

    refused_in_one_line({**OMNI, **config}, rf"^config: {key}: .* is odd and rotated whole")
    with pytest.raises(ParamledgerError, match="even rotary dimension"):
        build_reference({**OMNI, **config})

"""UDOP, PP-FormulaNet and PI0 counted whole (issue #16): their defaults, their layouts and their refusals.  Each is
checked tensor by tensor against transformers in tests/test_families.py; these are the behaviours around it."""

from __future__ import annotations

import json

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line

import paramledger
from paramledger._exceptions import ParamledgerError
from paramledger.reference import build_reference, diff


def test_udop_defaults_are_t5_with_its_image_and_layout_tables():
    """UdopConfig(): 742,440,960 parameters (UdopForConditionalGeneration on the meta device): T5-large's layout at
    33,201 tokens, the patch embeddings (one shared with the encoder, one the decoder's own), the encoder's cell
    tables and two more relative tables per stack, the first of each tied to the encoder's T5 table."""
    inv = paramledger.inventory(paramledger.load({"model_type": "udop"}))
    assert inv.total == 742_440_960
    assert inv.component("vision") == 2 * (1024 * 3 * 16 * 16 + 1024)
    names = [t.name for t in inv.tensors]
    assert names[:3] == ["shared.weight", "patch_embed.proj.weight", "patch_embed.proj.bias"]
    assert names[-3:] == ["decoder.final_layer_norm.weight", "decoder.relative_bias.biases.1.relative_attention_bias"
                          ".weight", "decoder.relative_bias.biases.2.relative_attention_bias.weight"]
    table = "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"
    assert inv.aliases["decoder.relative_bias.biases.0.relative_attention_bias.weight"] == table
    assert inv.aliases["encoder.embed_patches.proj.weight"] == "patch_embed.proj.weight"
    assert inv.aliases["lm_head.weight"] == "shared.weight"
    assert inv.non_embedding("hf") == 706_342_912  # num_parameters(exclude_embeddings=True)


def test_udop_bias_tables_follow_their_own_buckets_and_prefix_rows():
    config = {"model_type": "udop", "num_layers": 1, "d_model": 8, "num_heads": 2, "d_kv": 4, "d_ff": 8,
              "vocab_size": 10, "relative_bias_args": [{"type": "horizontal"}, {"type": "1d", "prefix_bucket": True,
                                                        "relative_attention_num_buckets": 5}]}
    inv = paramledger.inventory(paramledger.load(config))
    assert inv["encoder.relative_bias.biases.1.relative_attention_bias.weight"].shape == (7, 2)


def test_udop_decoder_alone_is_refused(cli):
    status, _, err = cli("count", "--text-only", _written({"model_type": "udop"}))
    assert status == 2 and err.count("\n") == 1 and "no class transformers builds alone" in err


@pytest.mark.parametrize(("extra", "message"), [
    ({"relative_bias_args": []}, "relative_bias_args: must be a non-empty list"),
    ({"relative_bias_args": [{"type": "diagonal"}]}, r"relative_bias_args\[0\].type: must be one of"),
    ({"relative_bias_args": [{"type": "1d", "num_heads": 3}]}, r"relative_bias_args\[0\].num_heads: must equal"),
    ({"relative_bias_args": [{"type": "1d", "relative_attention_num_buckets": 0}]},
     r"relative_bias_args\[0\].relative_attention_num_buckets: must be a positive"),
    ({"relative_bias_args": [{"type": "1d", "bogus": 1}]}, r"relative_bias_args\[0\].bogus: is no keyword"),
    ({"relative_bias_args": [{"type": "1d", "prefix_bucket": "yes"}]}, r"prefix_bucket: must be true or false"),
    ({"relative_bias_args": [{"type": "1d"}] * 10_001}, "relative_bias_args: 10,001 entries: beyond the bound"),
    ({"patch_size": 0}, "patch_size: must be a positive"),
    ({"patch_size": 32, "image_size": 16}, "patch_size: 32 is larger than image_size=16"),
    ({"image_size": [16, 16, 3]}, r"image_size: must be a whole number or \[height, width\]"),
    ({"num_channels": -1}, "num_channels: must be a positive"),
    ({"max_2d_position_embeddings": 0}, "max_2d_position_embeddings: must be a positive"),
    ({"max_2d_position_embeddings": 10**20}, "max_2d_position_embeddings: .* beyond the bound"),
])
def test_udop_bad_input_is_one_line_naming_the_key(extra, message):
    refused_in_one_line({"model_type": "udop", **extra}, message)


def test_udop_bad_input_exits_2_from_the_cli(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({"model_type": "udop", "patch_size": -3}), "patch_size: must be a positive")


def _written(config: dict) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(config, handle)
    return handle.name


def test_pp_formulanet_defaults_are_its_decoder_then_its_encoder_then_the_head():
    """PPFormulaNetConfig(): 180,897,536 parameters (PPFormulaNetForConditionalGeneration on the meta device)."""
    inv = paramledger.inventory(paramledger.load({"model_type": "pp_formulanet"}))
    assert inv.total == 180_897_536
    assert (inv.component("vision"), inv.component("projector"), inv.component("lm_head")) == (
        87_278_848, 7_472_640, 25_600_000)
    names = [t.name for t in inv.tensors]
    assert names[0] == "model.decoder.embed_tokens.weight" and names[-1] == "lm_head.weight"
    assert names[-2] == "model.encoder.multi_modal_projector.linear_2.bias"
    assert inv.aliases == {}


@pytest.mark.parametrize(("extra", "message"), [
    ({"vision_config": {"hidden_size": -1}}, "vision_config.hidden_size: must be a positive"),
    ({"vision_config": {"patch_size": 1024}}, "vision_config.patch_size: 1024 is larger than image_size=512"),
    ({"vision_config": {"post_conv_mid_channels": 0}}, "vision_config.post_conv_mid_channels: must be a positive"),
    ({"vision_config": {"decoder_hidden_size": "wide"}}, "vision_config.decoder_hidden_size: must be a positive"),
    ({"vision_config": {"num_hidden_layers": 10**6}}, "vision_config.num_hidden_layers: .* beyond the bound"),
    # (a text_config key is named as every whole family names it)
    ({"text_config": {"d_model": 0}}, "d_model: must be positive"),
])
def test_pp_formulanet_bad_input_is_one_line_naming_the_key(extra, message):
    refused_in_one_line({"model_type": "pp_formulanet", **extra}, message)


def test_pp_formulanet_decoder_alone_is_refused(cli):
    status, _, err = cli("count", "--text-only", _written({"model_type": "pp_formulanet"}))
    assert status == 2 and err.count("\n") == 1 and "no CausalLM is registered for pp_formulanet_text" in err


def test_pi0_defaults_are_paligemma_beside_a_gemma_action_expert_without_a_head():
    """PI0Config(): 3,501,372,176 parameters (PI0ForConditionalGeneration on the meta device): the expert first, the
    VLM's tower, projector and decoder, the action projections last; no head, nothing tied."""
    inv = paramledger.inventory(paramledger.load({"model_type": "pi0"}))
    assert inv.total == 3_501_372_176
    names = [t.name for t in inv.tensors]
    assert names[0] == "model.dit.embed_tokens.weight" and inv["model.dit.embed_tokens.weight"].shape == (257152, 1024)
    assert names[-2:] == ["action_out_proj.weight", "action_out_proj.bias"]
    assert inv.aliases == {} and "lm_head.weight" not in names
    assert inv.component("vision") == 412_442_352  # a SigLIP of 4,304-wide MLPs (PI0Config's own vlm default)
    assert inv.non_embedding("hf") == 3_501_372_176 - 257152 * (2048 + 1024) - 256 * 1152


def test_pi0_a_given_vlm_config_takes_paligemmas_defaults():
    """vlm_config given without vision_config: PaliGemmaConfig's SigLIP (4,096-wide MLPs), not PI0's."""
    inv = paramledger.inventory(paramledger.load({"model_type": "pi0", "vlm_config": {"model_type": "paligemma"}}))
    assert inv.component("vision") == 412_442_352 - 27 * 2 * 208 * 1152 - 27 * 208


PI0_SMALL = {"model_type": "pi0", "vlm_config": {
    "text_config": {"num_hidden_layers": 3, "hidden_size": 64, "intermediate_size": 32, "num_attention_heads": 2,
                    "num_key_value_heads": 1, "head_dim": 8, "vocab_size": 100},
    "vision_config": {"hidden_size": 16, "num_attention_heads": 2, "intermediate_size": 8, "num_hidden_layers": 1,
                      "image_size": 28, "patch_size": 14}},
    "dit_config": {"hidden_size": 32, "num_hidden_layers": 2, "intermediate_size": 16, "num_attention_heads": 2,
                   "num_key_value_heads": 1, "head_dim": 8}}


@pytest.mark.parametrize(("extra", "message"), [
    ({"vlm_config": [1]}, "vlm_config: must be a JSON object"),
    ({"vlm_config": {"model_type": "llava"}}, "vlm_config.model_type: 'llava' is not counted in pi0"),
    ({"vlm_config": {"text_config": {"model_type": "gemma2"}}},
     "vlm_config.text_config.model_type: 'gemma2' is not counted in pi0"),
    ({"dit_config": {"model_type": "llama"}}, "dit_config.model_type: 'llama' is not counted in pi0"),
    ({"dit_config": {"hidden_size": 33}}, r"dit_config.hidden_size: must be even"),
    ({"dit_config": {"hidden_size": -2}}, "dit_config.hidden_size: must be positive"),
    ({"dit_config": {"num_hidden_layers": 10**7}}, "dit_config.num_hidden_layers: .* beyond the bound"),
    ({"dit_config": {"pad_token_id": 10**6}}, "dit_config.pad_token_id: 1,000,000 is outside"),
    ({"max_action_dim": 0}, "max_action_dim: must be a positive"),
    ({"max_state_dim": "32"}, "max_state_dim: must be a positive"),
])
def test_pi0_bad_input_is_one_line_naming_the_key(extra, message):
    refused_in_one_line({"model_type": "pi0", **extra}, message)


def test_pi0_the_vlms_pad_token_id_is_checked_where_transformers_refuses_it():
    config = {**PI0_SMALL, "vlm_config": {**PI0_SMALL["vlm_config"], "text_config": {
        **PI0_SMALL["vlm_config"]["text_config"], "pad_token_id": 100}}}
    with pytest.raises(ParamledgerError, match="Padding_idx"):
        build_reference(config)
    refused_in_one_line(config, "pad_token_id: 100 is outside the 100 rows")
    config["vlm_config"]["text_config"]["pad_token_id"] = 99
    assert diff(paramledger.inventory(paramledger.load(config)), build_reference(config)).matches


@pytest.mark.parametrize("argv", [("count", "--text-only"), ("memory",), ("memory", "--flops"), ("formula",)])
def test_pi0_views_that_cannot_be_exact_refuse_in_one_line(cli, argv):
    status, _, err = cli(*argv, _written({"model_type": "pi0"}))
    assert status == 2 and err.count("\n") == 1 and "pi0" in err


def test_pi0_verify_writes_a_set_into_vlm_config(cli):
    """--set num_hidden_layers reaches vlm_config.text_config, as count --set changes the decoder."""
    status, out, _ = cli("verify", _written(PI0_SMALL), "--set", "num_hidden_layers=2")
    assert status == 0 and "match: 84 tensors, total 88,144" in out
    _, out, _ = cli("count", _written(PI0_SMALL), "--set", "num_hidden_layers=2")
    assert "total          88,144" in out


def test_udop_formula_is_refused_in_one_line(cli):
    status, _, err = cli("formula", _written({"model_type": "udop"}))
    assert status == 2 and err.count("\n") == 1 and "relative_bias" in err

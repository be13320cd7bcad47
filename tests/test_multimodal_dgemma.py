"""DiffusionGemma counted whole (issue #16): its figures at the defaults, its tying and its refusals.  Each config is
checked tensor by tensor against transformers in tests/test_families.py (and tests/test_buffers.py); these are the
behaviours around it (docs/notes/multimodal-dgemma.md)."""

from __future__ import annotations

import json

import pytest
from _cli_refusal import refused_in_one_line

import paramledger
from paramledger.reference import DEFAULTS_NEED, build_reference, diff

DEFAULTS = {"model_type": "diffusion_gemma", **DEFAULTS_NEED["diffusion_gemma"]}
SMALL_TEXT = {"num_experts": 4, "top_k_experts": 2, "moe_intermediate_size": 8, "hidden_size": 16,
              "intermediate_size": 24, "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
              "head_dim": 8, "global_head_dim": 16, "vocab_size": 50}
SMALL = {"model_type": "diffusion_gemma", "text_config": SMALL_TEXT,
         "vision_config": {"hidden_size": 8, "intermediate_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
                           "num_key_value_heads": 2, "head_dim": 4, "position_embedding_size": 8}}


@pytest.mark.parametrize(("tie", "tensors", "total", "aliases"), [
    (None, 842, 21_914_754_816, 628), (True, 842, 21_914_754_816, 628), (False, 1_470, 44_200_652_032, 0)])
def test_the_defaults_tied_and_untied(tie, tensors, total, aliases):
    """DiffusionGemmaForBlockDiffusion on the meta device: tied, the decoder's embed_tokens, layers and norm are the
    encoder's (628 names) and lm_head its table; tie_word_embeddings false undoes every tie (a second stack)."""
    config = DEFAULTS if tie is None else {**DEFAULTS, "tie_word_embeddings": tie}
    inv = paramledger.inventory(paramledger.load(config))
    assert (len(inv.tensors), inv.total, len(inv.aliases)) == (tensors, total, aliases)
    if aliases:
        table = "model.encoder.language_model.embed_tokens.weight"
        assert inv.aliases["lm_head.weight"] == inv.aliases["model.decoder.embed_tokens.weight"] == table
        assert inv.aliases["model.decoder.layers.29.experts.down_proj"] == (
            "model.encoder.language_model.layers.29.experts.down_proj")
    conditioning = [f"model.decoder.self_conditioning.{name}" for name in (
        "pre_norm.weight", "gate_proj.weight", "up_proj.weight", "down_proj.weight")]
    names = [t.name for t in inv.tensors]
    assert names[-5:] == ([names[-5], *conditioning] if aliases else [*conditioning, "lm_head.weight"])

def test_text_configs_tying_is_not_read():
    """Only the whole config's tie_word_embeddings ties (measured: text_config's changes nothing)."""
    untied_text = {**SMALL, "text_config": {**SMALL_TEXT, "tie_word_embeddings": False}}
    inv = paramledger.inventory(paramledger.load(untied_text))
    assert inv.aliases["lm_head.weight"] == "model.encoder.language_model.embed_tokens.weight"
    assert inv.total == paramledger.inventory(paramledger.load(SMALL)).total


def test_tied_stacks_keep_their_own_attention_biases():
    """_tied_weights_keys' patterns match weight, scale, per_expert_scale, gate_up_proj and down_proj: each stack's
    q/k/v/o biases are its own even when tied."""
    config = {**SMALL, "text_config": {**SMALL_TEXT, "attention_bias": True}}
    inv = paramledger.inventory(paramledger.load(config))
    assert "model.decoder.layers.0.self_attn.q_proj.bias" in {t.name for t in inv.tensors}
    assert "model.decoder.layers.0.self_attn.q_proj.weight" in inv.aliases
    assert diff(inv, build_reference(config)).matches


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "diffusion_gemma"}, r"text_config\.num_experts: missing \(required: transformers 5.24.0 cannot "
                                        r"build this family without it\)"),
    ({**SMALL, "text_config": {**SMALL_TEXT, "top_k_experts": None}}, r"text_config\.top_k_experts: missing"),
    ({**SMALL, "text_config": {**SMALL_TEXT, "num_experts": 0}}, r"text_config\.num_experts: must be a positive"),
    ({**SMALL, "text_config": {**SMALL_TEXT, "num_hidden_layers": 10_001}},
     r"text_config\.num_hidden_layers: 10,001 is beyond the bound of 10,000"),
    ({**SMALL, "vision_config": {"model_type": "siglip_vision_model"}},
     r"vision_config\.model_type: 'siglip_vision_model' is not a tower paramledger counts in diffusion_gemma"),
    ({**SMALL, "vision_config": {"hidden_size": 0}}, r"vision_config\.hidden_size: must be a positive"),
    ({**SMALL, "tie_word_embeddings": "false"}, r"tie_word_embeddings: must be true or false"),
])
def test_bad_input_is_one_line_naming_the_key(config, message):
    refused_in_one_line(config, message)


@pytest.mark.parametrize(("argv", "said"), [
    (("count", "--text-only"), "--text-only: diffusion_gemma: its text stack alone is no class"),
    (("memory",), "kv-cache: diffusion_gemma: transformers 5.24.0's DiffusionGemma cache"),
    (("fit", "--gpu", "H100"), "kv-cache: diffusion_gemma:"),
    (("formula",), "formula: "),
])
def test_views_that_cannot_be_exact_refuse_in_one_line(cli, tmp_path, argv, said):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(SMALL))
    status, _, err = cli(*argv, str(path))
    assert status == 2 and err.count("\n") == 1 and said in err


def test_the_text_config_alone_is_refused_saying_why():
    from paramledger._exceptions import UnsupportedFamilyError

    with pytest.raises(UnsupportedFamilyError, match="builds no model from it alone: it is diffusion_gemma's "
                                                     "text_config"):
        paramledger.load({"model_type": "diffusion_gemma_text"})


@pytest.mark.parametrize("tie", [True, False])
@pytest.mark.parametrize("changes", [{"num_hidden_layers": 5}, {"hidden_size": 32}, {"intermediate_size": 40}])
def test_the_diffusion_decoder_follows_a_set(tie, changes):
    """--set remakes the decoder's copy from the changed design, as transformers builds the changed config."""
    from paramledger.hf_config import config_with_overrides

    config = {**SMALL, "tie_word_embeddings": tie}
    changed = paramledger.inventory(paramledger.load(config, **changes))
    assert diff(changed, build_reference(config_with_overrides(config, changes))).matches

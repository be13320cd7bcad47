"""Kosmos-2.5 counted whole (issue #16): its defaults, its tying, its refusals, each against transformers 5.24.0."""

from __future__ import annotations

import itertools

import pytest
from _cli_refusal import refused_by_the_cli, refused_in_one_line

import paramledger
from paramledger.reference import build_reference, diff


def test_the_class_defaults_are_the_whole_model():
    """Kosmos2_5Config(): 1,374,646,272 parameters (measured on the meta device), the decoder first with its segment
    table after the token table, 2,048 latent queries."""
    inv = paramledger.inventory(paramledger.load({"model_type": "kosmos-2.5"}))
    assert inv.total == 1_374_646_272
    names = [t.name for t in inv.tensors]
    assert names[:2] == ["text_model.model.embed_tokens.weight", "text_model.model.segment_emb.weight"]
    assert inv.tensors[names.index("image_to_text_projection.latent_query")].shape == (2048, 1536)


SMALL = {"model_type": "kosmos-2.5",
         "text_config": {"layers": 1, "vocab_size": 10, "embed_dim": 4, "attention_heads": 1, "ffn_dim": 2},
         "vision_config": {"num_hidden_layers": 1, "hidden_size": 4, "num_attention_heads": 1, "head_dim": 2,
                           "intermediate_size": 2, "max_num_patches": 4, "patch_embed_hidden_size": 4}}


@pytest.mark.parametrize(("whole", "text"), list(itertools.product([None, False, True], repeat=2)))
def test_the_head_is_tied_by_text_config_alone(whole, text):
    """Kosmos2_5TextForCausalLM ties by its own config: the whole config's tie_word_embeddings is never read."""
    config = {**SMALL, "text_config": {**SMALL["text_config"], **({} if text is None else {"tie_word_embeddings": text})},
              **({} if whole is None else {"tie_word_embeddings": whole})}
    inv = paramledger.inventory(paramledger.load(config))
    result = diff(inv, build_reference(config))
    assert result.matches, result.to_json()
    assert inv.tied is (text is not False)


@pytest.mark.parametrize(("change", "message"), [
    ({"vision_config": {**SMALL["vision_config"], "head_dim": 0}},
     "vision_config.head_dim: must be a positive whole number, got 0"),
    ({"vision_config": {**SMALL["vision_config"], "max_num_patches": -1}},
     "vision_config.max_num_patches: must be a positive whole number, got -1"),
    ({"latent_query_num": 0}, "latent_query_num: must be a positive whole number, got 0"),
])
def test_a_config_it_cannot_count_is_one_line(change, message):
    refused_in_one_line({**SMALL, **change}, message)


def test_the_cli_refuses_a_bad_tower_key_under_its_own_name(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "kosmos-2.5", "vision_config": {"intermediate_size": 0}}',
                       "vision_config.intermediate_size: must be a positive whole number, got 0")

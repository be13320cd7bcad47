"""Gemma 4's whole model (Gemma4ForConditionalGeneration, issue #16): towers only where the config gives their
sub-config, the embedders beside them, --text-only, Hugging Face's non-embedding count with towers, and the refusals
of a vision or audio config it cannot count, each in one line naming the key."""

from __future__ import annotations

import json

import pytest
from _family_configs_gemma4 import gemma4
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL_TEXT = {"num_hidden_layers": 2, "hidden_size": 64, "vocab_size": 100, "vocab_size_per_layer_input": 100,
              "hidden_size_per_layer_input": 4, "intermediate_size": 32, "num_attention_heads": 2,
              "num_key_value_heads": 1, "head_dim": 8, "global_head_dim": 8}


def test_the_class_defaults_build_no_tower():
    """Gemma4Config() gives no vision_config and no audio_config: Gemma4Model builds neither, nor their embedders."""
    inv = paramledger.inventory({"model_type": "gemma4"})
    assert inv.total == 5_077_177_856 and {"vision", "audio", "projector"}.isdisjoint(inv.components)
    assert inv.tensors[0].name == "model.language_model.embed_tokens.weight"


def test_each_given_sub_config_builds_its_tower_and_embedder():
    config = {"model_type": "gemma4", "text_config": SMALL_TEXT, "vision_config": {}, "audio_config": {}}
    inv = paramledger.inventory(config)
    reference = build_reference(config)
    assert diff(inv, reference).matches and inv.total == reference.total == 472_364_580
    names = [t.name for t in inv.tensors]
    assert names[0] == "model.vision_tower.patch_embedder.position_embedding_table"
    assert names[-2:] == ["model.embed_vision.embedding_projection.weight",
                          "model.embed_audio.embedding_projection.weight"]  # lm_head: tied, no tensor of its own
    assert inv.components["projector"] == 64 * 768 + 64 * 1536  # embed_vision from 768, embed_audio from 1536


def test_a_whole_models_non_embedding_count_is_hugging_faces_with_towers():
    """The vision tower's position table is an nn.Parameter, no nn.Embedding: Hugging Face keeps it."""
    from paramledger.reference import auto_class, hf_config

    config = {"model_type": "gemma4", "text_config": SMALL_TEXT, "vision_config": {"num_hidden_layers": 1},
              "audio_config": {"num_hidden_layers": 1}, "tie_word_embeddings": False}
    cfg = hf_config(config)
    with torch.device("meta"):
        model = auto_class(cfg).from_config(cfg)
    inv = paramledger.inventory(config)
    assert inv.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert inv.text_decoder == inv.total - sum(inv.component(c) for c in ("vision", "audio", "projector"))


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(data):
    """--text-only: Gemma4ForCausalLM from text_config, tensor by tensor."""
    config = data.draw(gemma4(), label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


def test_count_and_text_only_of_the_release(cli):
    _, out, _ = cli("count", "gemma-4-31B-it", "--json")
    view = json.loads(out)
    assert (view["total"], view["text_decoder"]) == (31_273_086_512, 30_697_345_280)
    _, out, _ = cli("count", "gemma-4-31B-it", "--text-only", "--json")
    assert json.loads(out)["total"] == 30_697_345_280


def test_memory_sizes_the_towers_buffers():
    """The vision tower's standardization vectors (persistent) and its float32 rotary pair sit beside the weights."""
    from paramledger.buffers import every_buffer

    inv = paramledger.inventory("gemma-4-31B-it")
    names = {b.name: b for b in every_buffer(inv)}
    assert names["model.vision_tower.std_bias"].persistent and names["model.vision_tower.std_bias"].shape == (1152,)
    assert names["model.vision_tower.encoder.rotary_emb.inv_freq"].dtype == "float32"


@pytest.mark.parametrize(("changes", "message"), [
    ({"vision_config": {"hidden_size": 0}}, "vision_config.hidden_size: must be a positive whole number, got 0"),
    ({"vision_config": {"patch_size": -2}}, "vision_config.patch_size: must be a positive whole number, got -2"),
    ({"vision_config": {"num_hidden_layers": 10**8}}, "vision_config.num_hidden_layers: 100,000,000 is beyond"),
    ({"vision_config": {"standardize": "yes"}}, "vision_config.standardize: must be true or false"),
    ({"vision_config": {"output_proj_dims": 0}}, "vision_config.output_proj_dims: must be a positive whole number"),
    ({"vision_config": [1]}, "vision_config: must be a JSON object"),
    ({"audio_config": {"num_attention_heads": 2000}}, "audio_config.num_attention_heads: 2000 heads of "
                                                      "hidden_size=1024 would be 0 wide"),
    ({"audio_config": {"subsampling_conv_channels": [3]}}, "audio_config.subsampling_conv_channels: must list two"),
    ({"audio_config": {"output_proj_dims": 0}}, "audio_config.output_proj_dims: must be a positive whole number"),
    ({"audio_config": {"num_hidden_layers": -1}}, "audio_config.num_hidden_layers: must be a whole number"),
])
def test_a_tower_config_it_cannot_count_is_one_line(changes, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": "gemma4", **changes})
    assert "\n" not in str(error.value)


def test_a_sub_config_of_another_type_is_still_gemma4s():
    """Gemma4Config builds Gemma4VisionConfig and Gemma4AudioConfig whatever the sub-config's model_type says."""
    config = {"model_type": "gemma4", "text_config": SMALL_TEXT,
              "vision_config": {"model_type": "siglip_vision_model", "num_hidden_layers": 1}}
    assert paramledger.inventory(config).total == build_reference(config).total

"""Set KO of issue #16: Kosmos-2 and Pix2Struct counted whole (families/kosmos2.py, pix2struct.py, towers/): their
refusals in one line, where the tower and projection sit, how each ties, the decoder alone, Hugging Face's
non-embedding count (also in tests/test_towers.py) and the decoder's cache against a real forward pass."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_ko import CONFIGS_KO
from hypothesis import given, settings
from hypothesis import strategies as st
from test_kvcache import _cache_bytes
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import cross_attention_cache, kv_cache
from paramledger.reference import build_reference, diff, reference_of
from paramledger.towers import text_only
from paramledger.towers.images import image_tokens

SMALL_TEXT = {"model_type": "kosmos_2_text_model", "vocab_size": 40, "embed_dim": 8, "attention_heads": 2,
              "layers": 2, "ffn_dim": 4, "max_position_embeddings": 16}
SMALL_KOSMOS2 = {"model_type": "kosmos-2", "text_config": SMALL_TEXT, "latent_query_num": 3,
                 "vision_config": {"hidden_size": 4, "num_attention_heads": 2, "intermediate_size": 3,
                                   "num_hidden_layers": 1, "image_size": 4, "patch_size": 2}}


@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": {"hidden_size": 10, "num_attention_heads": 3}},
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=10"),
    ({"vision_config": {"image_size": [224, 224]}},
     r"vision_config.image_size: must be a positive whole number, got \[224, 224\]"),
    ({"vision_config": {"image_size": 10, "patch_size": 14}}, "vision_config.patch_size: 14 is larger than"),
    ({"vision_config": {"num_hidden_layers": 0}}, "vision_config.num_hidden_layers: must be a positive whole number"),
    ({"vision_config": [1024]}, "vision_config: must be a JSON object"),
    ({"latent_query_num": 0}, "latent_query_num: must be a positive whole number, got 0"),
    ({"latent_query_num": "64"}, "latent_query_num: must be a positive whole number, got '64'"),
    ({"tie_word_embeddings": "no"}, "tie_word_embeddings: must be true or false, got 'no'"),
    ({"text_config": {"embed_dim": 2, "attention_heads": 1}}, "embed_dim: 2 is below 4"),
    ({"text_config": {"embed_dim": 10, "attention_heads": 3}}, "attention_heads: 3 heads do not divide"),
    ({"text_config": []}, "text_config: must be a JSON object"),
])
def test_a_kosmos2_config_it_cannot_count_is_one_line(config, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": "kosmos-2", **config})
    assert "\n" not in str(error.value)


def test_the_cli_refuses_a_bad_latent_query_num_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "kosmos-2", "latent_query_num": -1}',
                       "latent_query_num: must be a positive whole number, got -1")


def test_the_projection_is_the_projector_and_the_vision_model_the_tower():
    ours, (projection, tower, decoder) = _sums(SMALL_KOSMOS2, "image_to_text_projection.", "vision_model.",
                                               "text_model.")
    assert (ours["projector"], ours["vision"]) == (projection, tower)
    assert projection == 3 * 8 + 8 * 4 + 8 + 4 * (8 * 8 + 8)  # latent_query, dense, x_attn's four biased Linears
    inv = paramledger.inventory(paramledger.load(SMALL_KOSMOS2))
    assert inv.text_decoder == decoder


@pytest.mark.parametrize("whole", [None, True, False])
@pytest.mark.parametrize("text", [None, True, False])
def test_the_head_is_tied_unless_both_configs_say_false(whole, text):
    config = {**SMALL_KOSMOS2, "text_config": {**SMALL_TEXT, **({} if text is None else {"tie_word_embeddings": text})},
              **({} if whole is None else {"tie_word_embeddings": whole})}
    inv = paramledger.inventory(paramledger.load(config))
    result = diff(inv, build_reference(config))
    assert result.matches, result.to_json()
    assert inv.tied == (whole is not False or text is not False)


def test_the_defaults_are_kosmos_2_patch14_224s_size():
    """Kosmos2Config's defaults are microsoft/kosmos-2-patch14-224's (the config class's checkpoint)."""
    inv = paramledger.inventory(paramledger.load({"model_type": "kosmos-2"}))
    assert inv.total == 1_664_485_376
    assert inv.text_decoder == 1_342_289_920


def test_an_image_costs_latent_query_num_tokens():
    assert image_tokens(paramledger.load(SMALL_KOSMOS2), 2, None) == 6
    assert image_tokens(paramledger.load({"model_type": "kosmos-2"}), 1, None) == 64


def _decoder_alone(text: dict):
    """Kosmos2TextForCausalLM built from text_config on the meta device (no Auto class builds it)."""
    import torch
    from transformers import Kosmos2TextConfig
    from transformers.models.kosmos2.modeling_kosmos2 import Kosmos2TextForCausalLM

    with torch.device("meta"):
        return reference_of(Kosmos2TextForCausalLM(Kosmos2TextConfig(**{k: v for k, v in text.items()
                                                                        if k != "model_type"})))


@settings(max_examples=25, deadline=None)
@given(config=CONFIGS_KO["kosmos-2"])
def test_the_decoder_alone_is_kosmos2_text_for_causal_lm_under_text_model(config):
    """--text-only: the whole model's text_model tensors, as Kosmos2TextForCausalLM builds text_config alone (names
    under text_model., where they sit in the whole model), tied by text_config's key."""
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    alone = _decoder_alone(config["text_config"])
    assert [(t.name, t.shape) for t in decoder.tensors] == [("text_model." + name, shape)
                                                            for name, shape in alone.tensors]
    assert decoder.total == alone.total
    assert decoder.tied == config["text_config"]["tie_word_embeddings"]


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_the_decoder_caches_what_transformers_caches(data):
    """The whole model's text_model run on text, against the bytes of transformers' own cache."""
    import torch

    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_KO["kosmos-2"], label="config")
    if config["text_config"]["pad_token_id"] is None:  # the positions' forward masks by the pad id; no count reads it
        config = {**config, "text_config": {**config["text_config"], "pad_token_id": 1}}
    arch = paramledger.load(config)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf).eval()
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    ids = torch.randint(0, hf.text_config.vocab_size, (batch, tokens), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model.text_model(ids, use_cache=True).cache
    assert type(model).__name__ == "Kosmos2ForConditionalGeneration"
    assert kv_cache(arch, tokens, batch, "fp32").bytes == _cache_bytes(cache)


SMALL_PIX2STRUCT = {"model_type": "pix2struct",
                    "text_config": {"vocab_size": 40, "hidden_size": 8, "num_heads": 2, "d_kv": 4, "num_layers": 2,
                                    "d_ff": 4},
                    "vision_config": {"hidden_size": 8, "num_attention_heads": 2, "d_kv": 3, "d_ff": 5,
                                      "num_hidden_layers": 1, "seq_len": 7, "patch_embed_hidden_size": 6}}


@pytest.mark.parametrize(("config", "message"), [
    ({"vision_config": {"seq_len": 0}}, "vision_config.seq_len: must be a positive whole number, got 0"),
    ({"vision_config": {"d_kv": None}}, "vision_config.d_kv: must be a positive whole number, got None"),
    ({"vision_config": {"patch_embed_hidden_size": 7.5}},
     "vision_config.patch_embed_hidden_size: must be a positive whole number, got 7.5"),
    ({"vision_config": "big"}, "vision_config: must be a JSON object"),
    ({"text_config": {"num_layers": 0}}, "num_layers: must be positive, got 0"),
    ({"tie_word_embeddings": "yes"}, "tie_word_embeddings: must be true or false, got 'yes'"),
])
def test_a_pix2struct_config_it_cannot_count_is_one_line(config, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": "pix2struct", **config})
    assert "\n" not in str(error.value)


def test_the_pix2struct_encoder_is_the_tower_and_it_has_no_projector():
    ours, (encoder, decoder) = _sums(SMALL_PIX2STRUCT, "encoder.", "decoder.")
    assert (ours["vision"], ours.get("projector", 0)) == (encoder, 0)
    assert paramledger.inventory(paramledger.load(SMALL_PIX2STRUCT)).text_decoder == decoder


@pytest.mark.parametrize("whole", [None, True, False])
@pytest.mark.parametrize("text", [None, True, False])
def test_pix2struct_ties_by_the_whole_configs_key_alone(whole, text):
    """Pix2StructConfig.__post_init__ writes its tie_word_embeddings (default False) into text_config's."""
    text_config = {**SMALL_PIX2STRUCT["text_config"], **({} if text is None else {"tie_word_embeddings": text})}
    config = {**SMALL_PIX2STRUCT, "text_config": text_config,
              **({} if whole is None else {"tie_word_embeddings": whole})}
    arch = paramledger.load(config)
    inv = paramledger.inventory(arch)
    result = diff(inv, build_reference(config))
    assert result.matches, result.to_json()
    assert inv.tied == (whole is True) == paramledger.inventory(text_only(arch)).tied


def test_pix2structs_defaults_are_pix2struct_bases_size():
    assert paramledger.inventory(paramledger.load({"model_type": "pix2struct"})).total == 282_285_696


def _text_model_alone(text: dict, tie: bool):
    """Pix2StructTextModel (the decoder and its head) built from text_config, tied as the whole config says."""
    import torch
    from transformers import Pix2StructTextConfig
    from transformers.models.pix2struct.modeling_pix2struct import Pix2StructTextModel

    with torch.device("meta"):
        return reference_of(Pix2StructTextModel(Pix2StructTextConfig(**{**text, "tie_word_embeddings": tie})))


@settings(max_examples=25, deadline=None)
@given(config=CONFIGS_KO["pix2struct"])
def test_pix2structs_decoder_alone_is_its_text_model_under_decoder(config):
    """--text-only: the whole model's decoder. tensors, as Pix2StructTextModel builds text_config alone."""
    tie = config.get("tie_word_embeddings") is True
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    alone = _text_model_alone({k: v for k, v in config["text_config"].items() if k != "model_type"}, tie)
    assert [(t.name, t.shape) for t in decoder.tensors] == [("decoder." + name, shape)
                                                            for name, shape in alone.tensors]
    assert decoder.total == alone.total
    assert decoder.tied == tie


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_pix2structs_decoder_caches_what_transformers_caches(data):
    """The whole model run on flattened patches and decoder ids: its self-attention cache against kv_cache, its
    cross-attention cache against cross_attention_cache at the patches' length."""
    import torch

    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_KO["pix2struct"], label="config")
    text = config["text_config"]
    # the forward adds the encoder's output to the decoder's width: the tower as wide as the decoder
    config = {**config, "vision_config": {**config["vision_config"], "hidden_size": text["hidden_size"]}}
    arch = paramledger.load(config)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf).eval()
    vision = hf.vision_config
    batch = data.draw(st.integers(1, 2), label="batch")
    patches, tokens = data.draw(st.integers(1, 9), label="patches"), data.draw(st.integers(1, 12), label="tokens")
    generator = torch.Generator().manual_seed(1)
    positions = torch.randint(0, vision.seq_len, (batch, patches, 2), generator=generator).float()
    flattened = torch.cat([positions, torch.randn(batch, patches, vision.patch_embed_hidden_size,
                                                  generator=generator)], -1)
    ids = torch.randint(0, hf.text_config.vocab_size, (batch, tokens), generator=generator)
    with torch.no_grad():
        cache = model(flattened_patches=flattened, decoder_input_ids=ids, use_cache=True).cache

    def held(layers) -> int:
        return sum(layer.keys.nbytes + layer.values.nbytes for layer in layers.layers if layer.keys is not None)

    assert kv_cache(arch, tokens, batch, "fp32").bytes == held(cache.self_attention_cache)
    assert cross_attention_cache(arch, encoder_length=patches, batch=batch,
                                 dtype="fp32").bytes == held(cache.cross_attention_cache)

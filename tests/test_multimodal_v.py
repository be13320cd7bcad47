"""Set V of issue #16: BLIP-2, InstructBLIP and InstructBLIP-Video counted whole (towers/qformer.py, families/blip2.py,
instructblip.py): their refusals in one line, where the Q-Former sits, the decoder alone, Hugging Face's
non-embedding count and the decoder's cache."""

from __future__ import annotations

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_v import CONFIGS_V
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kvcache import _cache_bytes
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only
from paramledger.towers.images import image_tokens

SMALL_OPT = {"model_type": "opt", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "ffn_dim": 4,
             "vocab_size": 50, "max_position_embeddings": 16, "word_embed_proj_dim": 8}
SMALL_BLIP2 = {"model_type": "blip-2", "text_config": SMALL_OPT, "num_query_tokens": 3,
               "vision_config": {"hidden_size": 6, "num_hidden_layers": 1, "num_attention_heads": 2,
                                 "intermediate_size": 5, "image_size": 8, "patch_size": 4},
               "qformer_config": {"hidden_size": 4, "num_hidden_layers": 3, "num_attention_heads": 2,
                                  "intermediate_size": 7}}


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("config", "message"), [
    ({"text_config": {"model_type": "t5"}},
     "text_config.model_type: 't5' is not a text decoder paramledger builds in blip-2 \\(it builds opt\\)"),
    ({"qformer_config": {"cross_attention_frequency": 0}},
     "qformer_config.cross_attention_frequency: must be a whole number from 1, got 0"),
    ({"qformer_config": {"num_attention_heads": 5}},
     "qformer_config.num_attention_heads: 5 heads do not divide hidden_size=768"),
    ({"qformer_config": {"num_hidden_layers": -1}}, "qformer_config.num_hidden_layers: must be a whole number from 0"),
    ({"qformer_config": {"use_qformer_text_input": "yes"}},
     "qformer_config.use_qformer_text_input: must be true or false, got 'yes'"),
    ({"qformer_config": [1]}, "qformer_config: must be a JSON object"),
    ({"num_query_tokens": "32"}, "num_query_tokens: must be a whole number from 0, got '32'"),
    ({"vision_config": {"image_size": [224, 224]}},
     r"vision_config.image_size: must be a whole number from 1, got \[224, 224\]"),
    ({"vision_config": {"num_attention_heads": 3}},
     "vision_config.num_attention_heads: 3 heads do not divide hidden_size=1408"),
    ({"vision_config": {"qkv_bias": 1}}, "vision_config.qkv_bias: must be true or false, got 1"),
])
def test_a_blip2_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "blip-2", **config}, message)


def test_the_cli_refuses_a_bad_qformer_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "blip-2", "qformer_config": {"cross_attention_frequency": 0}}',
                       "qformer_config.cross_attention_frequency: must be a whole number from 1, got 0")


def test_the_qformer_and_query_tokens_are_the_projector_and_the_vision_model_the_tower():
    ours, (queries, qformer, projection, tower) = _sums(SMALL_BLIP2, "query_tokens", "qformer.",
                                                        "language_projection.", "vision_model.")
    assert (ours["projector"], ours["vision"]) == (queries + qformer + projection, tower)
    assert queries == 3 * 4


def test_cross_attention_reads_the_towers_width_whatever_qformer_config_says():
    """Blip2Config.__post_init__ sets the Q-Former's encoder_hidden_size to vision_config's hidden_size."""
    config = {**SMALL_BLIP2, "qformer_config": {**SMALL_BLIP2["qformer_config"], "encoder_hidden_size": 99}}
    shapes = {t.name: t.shape for t in paramledger.inventory(paramledger.load(config)).tensors}
    assert shapes["qformer.encoder.layer.0.crossattention.attention.key.weight"] == (4, 6)
    assert "qformer.encoder.layer.1.crossattention.attention.key.weight" not in shapes  # every 2nd layer
    assert "qformer.encoder.layer.2.crossattention.attention.key.weight" in shapes


def test_the_head_ties_by_text_configs_key_alone():
    """Blip2Config holds no tie_word_embeddings: the whole key is ignored, text_config's decides."""
    for whole in (None, True, False):
        for text in (True, False):
            config = {**SMALL_BLIP2, "text_config": {**SMALL_OPT, "tie_word_embeddings": text}}
            if whole is not None:
                config["tie_word_embeddings"] = whole
            inventory = paramledger.inventory(paramledger.load(config))
            assert inventory.tied == text
            assert diff(inventory, build_reference(config)).matches


def test_blip2s_non_embedding_count_drops_only_the_decoders_tables_as_hugging_face_does():
    """The tower's class token and positions are raw Parameters, not nn.Embeddings: only OPT's two tables drop."""
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    config = {**SMALL_BLIP2, "text_config": {**SMALL_OPT, "tie_word_embeddings": False}}
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**config))
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("model_type", ["instructblip", "instructblipvideo"])
def test_instructblips_qformer_embeddings_are_the_projector_and_hugging_face_drops_them(model_type):
    """InstructBlipQFormerEmbeddings' word and position tables are nn.Embeddings: num_parameters(exclude_embeddings)
    drops them with the decoder's tables (the tower answers for them: a projector's tensors declare none)."""
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    qformer = {**SMALL_BLIP2["qformer_config"], "vocab_size": 11, "max_position_embeddings": 9}
    config = {**SMALL_BLIP2, "model_type": model_type, "qformer_config": qformer}
    ours, (queries, qformer_sum, projection, tower) = _sums(config, "query_tokens", "qformer.",
                                                             "language_projection.", "vision_model.")
    assert (ours["projector"], ours["vision"]) == (queries + qformer_sum + projection, tower)
    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**config))
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    # OPT's tokens and positions (2 more rows than max_position_embeddings), the Q-Former's two tables
    assert inventory.total - inventory.non_embedding("hf") == 50 * 8 + 18 * 8 + 11 * 4 + 9 * 4


@pytest.mark.parametrize("model_type", ["instructblip", "instructblipvideo"])
def test_an_instructblip_t5_or_other_decoder_is_refused_in_one_line(model_type):
    _refused({"model_type": model_type, "text_config": {"model_type": "t5"}},
             f"text_config.model_type: 't5' is not a text decoder paramledger builds in {model_type} "
             r"\(it builds opt, llama\)")


def test_a_vicuna_decoder_is_llamas_under_language_model_and_ties_by_its_own_key():
    text = {"model_type": "llama", "hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
            "intermediate_size": 4, "vocab_size": 30}
    for tie in (None, True, False):
        config = {**SMALL_BLIP2, "model_type": "instructblip",
                  "text_config": {**text, **({} if tie is None else {"tie_word_embeddings": tie})}}
        inventory = paramledger.inventory(paramledger.load(config))
        reference = build_reference(config)
        assert diff(inventory, reference).matches
        assert [t.name for t in inventory.tensors] == [name for name, _ in reference.tensors]
        assert inventory.tied == bool(tie)
        assert inventory.tensors[-1].name == ("language_model.model.norm.weight" if tie else
                                              "language_model.lm_head.weight")


def test_an_image_costs_num_query_tokens():
    assert image_tokens(paramledger.load(SMALL_BLIP2), 2, None) == 6
    assert image_tokens(paramledger.load({"model_type": "blip-2"}), 1, None) == 32


@pytest.mark.parametrize("model_type", sorted(CONFIGS_V))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_decoder_alone_is_its_text_configs_causal_lm(model_type, data):
    """--text-only: the decoder text_config names (OPT, Llama), tensor by tensor against its own CausalLM."""
    config = data.draw(CONFIGS_V[model_type], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


@pytest.mark.slow  # a real model per example
@pytest.mark.parametrize("model_type", sorted(CONFIGS_V))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_decoder_caches_what_transformers_caches(model_type, data):
    """The whole model's language model run on text, against the bytes of transformers' own cache."""
    import torch

    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_V[model_type], label="config")
    arch = paramledger.load(config)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf).eval()
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    tokens = min(tokens, hf.text_config.max_position_embeddings)
    ids = torch.randint(0, hf.text_config.vocab_size, (batch, tokens), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model.language_model(ids, use_cache=True).past_key_values
    assert type(model).__name__.endswith("ForConditionalGeneration")
    assert kv_cache(arch, tokens, batch, "fp32").bytes == _cache_bytes(cache)


def test_blips_decoder_alone_is_refused_and_its_count_does_not_offer_it(cli, tmp_path):
    """BlipTextLMHeadModel is in no Auto mapping: --text-only is refused in one line, and the count's decoder line does
    not offer it (a whole model whose decoder is a class of its own still does: Gemma 3)."""
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "blip"}')
    status, out, _ = cli("count", str(path))
    assert status == 0 and "text decoder: 137,881,148 (137.88 M; the total less the towers)\n" in out
    assert "--text-only" not in out
    status, _, err = cli("count", str(path), "--text-only")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "--text-only: blip: the text decoder alone (BlipTextLMHeadModel) is in no Auto mapping" in err


def test_blips_cross_attention_reads_the_towers_width_whatever_text_config_says():
    """BlipConfig.__post_init__ sets text_config.encoder_hidden_size to vision_config.hidden_size."""
    config = {"model_type": "blip", "vision_config": {"hidden_size": 96, "num_attention_heads": 4},
              "text_config": {"encoder_hidden_size": 5}}
    shapes = {t.name: t.shape for t in paramledger.inventory(paramledger.load(config)).tensors}
    assert shapes["text_decoder.bert.encoder.layer.0.crossattention.self.key.weight"] == (768, 96)


@pytest.mark.parametrize(("vq", "message"), [
    ({"base_channels": 48}, "vq_config.base_channels: 48 × a channel_multiplier gives 48 channels, which the blocks' "
                            "32 GroupNorm groups do not divide"),
    ({"channel_multiplier": []}, r"vq_config.channel_multiplier: must be a non-empty list of whole numbers from 1"),
    ({"attn_resolutions": "32"}, "vq_config.attn_resolutions: must be a list of whole numbers or null"),
    ({"num_embeddings": 0}, "vq_config.num_embeddings: must be a whole number from 1, got 0"),
])
def test_chameleons_vq_config_is_refused_in_one_line(vq, message):
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load({"model_type": "chameleon", "vq_config": vq})
    assert "\n" not in str(error.value)


def test_chameleon_attends_where_attn_resolutions_lists_a_resolution_and_refuses_its_decoder_alone(cli, tmp_path):
    """ChameleonVQVAEEncoder's curr_res starts at resolution and halves after each resolution but the last."""
    names = {t.name for t in paramledger.inventory(paramledger.load(
        {"model_type": "chameleon", "vq_config": {"resolution": 512, "attn_resolutions": [128]}})).tensors}
    assert {"model.vqmodel.encoder.down.2.attn.1.q.weight", "model.vqmodel.encoder.mid.attn_1.q.weight"} <= names
    assert not any(".down.1.attn." in name or ".down.3.attn." in name for name in names)
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "chameleon"}')
    status, _, err = cli("count", str(path), "--text-only")
    assert status == 2 and "no Chameleon CausalLM is registered" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("model_type", "said"), [("blip", "vision tower and text decoder"),
                                                  ("chameleon", "vq tower and text decoder"), ("blip-2", "vision tower, projector "
                                                                                            "and text decoder")])
def test_a_whole_models_note_names_a_projector_only_where_it_has_one(model_type, said):
    notes = paramledger.load({"model_type": model_type}).notes
    assert any(f"counting the whole model ({said})" in note for note in notes), notes

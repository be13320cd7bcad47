"""Set U of issue #16: GIT counted whole (families/git.py, towers/git.py): its refusals in one line, --text-only
refused, where the tower and projector sit, the head's bias, an image's tokens and the decoder's cache after a real
forward pass over an image (or a video's frames) and text."""

from __future__ import annotations

import subprocess
import sys

import pytest
from _cli_refusal import refused_by_the_cli
from _family_configs_u import CONFIGS_U
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kvcache import _cache_bytes
from test_towers_l import _sums  # our components, the reference's parameters under prefixes

import paramledger
from paramledger._exceptions import ArchitectureError, OptionError
from paramledger.kvcache import kv_cache
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only
from paramledger.towers.images import image_tokens

SMALL_GIT = {"model_type": "git", "vocab_size": 50, "hidden_size": 8, "num_hidden_layers": 2, "num_attention_heads": 2,
             "intermediate_size": 5, "max_position_embeddings": 16,
             "vision_config": {"hidden_size": 6, "num_hidden_layers": 1, "num_attention_heads": 2,
                               "intermediate_size": 5, "image_size": 8, "patch_size": 4}}


def _refused(config: dict, message: str) -> None:
    with pytest.raises(ArchitectureError, match=message) as error:
        paramledger.load(config)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("config", "message"), [
    ({"num_image_with_embedding": -1}, "num_image_with_embedding: must be null or a whole number from 0, got -1"),
    ({"num_image_with_embedding": True}, "num_image_with_embedding: must be null or a whole number from 0, got True"),
    ({"num_image_with_embedding": "2"}, "num_image_with_embedding: must be null or a whole number from 0, got '2'"),
    ({"num_image_with_embedding": 10**8},
     r"num_image_with_embedding: 100,000,000 is beyond the bound of 10,000,000 \(docs/limits.md\)"),
    ({"vision_config": [1]}, "vision_config: must be a JSON object"),
    ({"vision_config": {"image_size": [224, 224]}},
     r"vision_config.image_size: must be a positive whole number, got \[224, 224\]"),
    ({"vision_config": {"num_attention_heads": 5}},
     "vision_config.num_attention_heads: 5 heads do not divide hidden_size=768"),
    ({"vision_config": {"patch_size": 300}}, "vision_config.patch_size: 300 is larger than image_size=224"),
    ({"hidden_size": 10, "num_attention_heads": 3}, "num_attention_heads: 3 heads do not divide hidden_size=10$"),
    ({"tie_word_embeddings": "no"}, "tie_word_embeddings: must be true or false, got 'no'"),
])
def test_a_git_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "git", **config}, message)


def test_the_cli_refuses_a_bad_frame_count_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "git", "num_image_with_embedding": -1}',
                       "num_image_with_embedding: must be null or a whole number from 0, got -1")


REFUSED_ALONE = "--text-only: git: the decoder alone is no class transformers builds"


def test_the_decoder_alone_is_refused_in_one_line(tmp_path):
    """GitModel always builds its image encoder: there is no text-only GIT to count or to check against."""
    with pytest.raises(OptionError, match=REFUSED_ALONE) as error:
        text_only(paramledger.load(SMALL_GIT))
    assert "\n" not in str(error.value)
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "git"}')
    for command in ("count", "verify"):
        done = subprocess.run([sys.executable, "-m", "paramledger", command, str(path), "--text-only"],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 2, command
        assert len(done.stderr.strip().splitlines()) == 1 and REFUSED_ALONE in done.stderr
    # and the count's note does not offer it
    assert paramledger.load(SMALL_GIT).notes[0] == ("git is multimodal: counting the whole model (vision tower, "
                                                    "projector and text decoder)")


def test_the_image_encoder_is_the_tower_and_the_projection_and_frames_the_projector():
    config = {**SMALL_GIT, "num_image_with_embedding": 3}
    ours, (tower, projection, frames) = _sums(config, "git.image_encoder.", "git.visual_projection.",
                                              "git.img_temporal_embedding.")
    assert (ours["vision"], ours["projector"]) == (tower, projection + frames)
    assert frames == 3 * 6 and projection == 8 * 6 + 8 + 2 * 8


def test_the_towers_model_type_is_ignored_gits_own_vision_config_is_built():
    """GitConfig builds a GitVisionConfig from any vision_config: a CLIP model_type keeps patch_size 16."""
    default = paramledger.inventory(paramledger.load({"model_type": "git"}))
    clip = {"model_type": "git", "vision_config": {"model_type": "clip_vision_model"}}
    inventory = paramledger.inventory(paramledger.load(clip))
    assert inventory.total == default.total == build_reference(clip).total == 176_619_066
    shapes = {t.name: t.shape for t in inventory.tensors}
    assert shapes["git.image_encoder.vision_model.embeddings.position_embedding.weight"] == (197, 768)


def test_a_tied_head_keeps_its_own_bias():
    """_tied_weights_keys names output.weight alone: the Linear's bias is the head's parameter either way."""
    for tie in (None, True, False):
        config = {**SMALL_GIT, **({} if tie is None else {"tie_word_embeddings": tie})}
        inventory = paramledger.inventory(paramledger.load(config))
        assert diff(inventory, build_reference(config)).matches
        assert inventory.tied == bool(tie)
        assert inventory.tensors[-1].name == "output.bias"
        assert inventory.aliases == ({"output.weight": "git.embeddings.word_embeddings.weight"} if tie else {})


def test_an_image_costs_its_patch_grid_and_class_token():
    assert image_tokens(paramledger.load(SMALL_GIT), 2, None) == 2 * (2 * 2 + 1)
    assert image_tokens(paramledger.load({"model_type": "git"}), 1, None) == 14 * 14 + 1


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_decoder_caches_what_transformers_caches(data):
    """GitForCausalLM run on an image (or num_image_with_embedding frames) and text: its cache holds the image
    tokens and the text's, against the bytes of transformers' own cache."""
    import torch

    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_U["git"], label="config")
    arch = paramledger.load(config)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf).eval()
    assert type(model).__name__ == "GitForCausalLM"
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    vision = hf.vision_config
    frames = hf.num_image_with_embedding or 0
    image = (vision.num_channels, vision.image_size, vision.image_size)
    pixels = torch.randn((batch, frames, *image) if frames else (batch, *image))
    ids = torch.randint(0, hf.vocab_size, (batch, tokens), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        cache = model(input_ids=ids, pixel_values=pixels, use_cache=True).past_key_values
    images = image_tokens(arch, max(frames, 1), None)
    assert kv_cache(arch, images + tokens, batch, "fp32").bytes == _cache_bytes(cache)


SMALL_LLAMA = {"model_type": "llama", "hidden_size": 16, "num_hidden_layers": 1, "num_attention_heads": 2,
               "intermediate_size": 8, "vocab_size": 50}
SMALL_JANUS = {"model_type": "janus", "text_config": SMALL_LLAMA,
               "vision_config": {"hidden_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "image_size": 8,
                                 "patch_size": 4, "projection_dim": 16},
               "vq_config": {"base_channels": 32, "channel_multiplier": [1, 2], "num_res_blocks": 1,
                             "latent_channels": 4, "num_embeddings": 20, "embed_dim": 4, "projection_dim": 16,
                             "image_token_embed_dim": 16}}


@pytest.mark.parametrize(("config", "message"), [
    ({"text_config": {"model_type": "qwen2"}},
     r"text_config.model_type: 'qwen2' is not a text decoder paramledger builds in janus \(it builds llama\)"),
    ({"vq_config": [1]}, "vq_config: must be a JSON object"),
    ({"vq_config": {"base_channels": 48}}, "vq_config.base_channels: 48 × a channel_multiplier gives 48 channels, "
                                            "which the blocks' 32 GroupNorm groups do not divide"),
    ({"vq_config": {"channel_multiplier": []}},
     r"vq_config.channel_multiplier: must be a non-empty list of whole numbers from 1, got \[\]"),
    ({"vq_config": {"channel_multiplier": [1, 0]}}, "vq_config.channel_multiplier: must be a non-empty list"),
    ({"vq_config": {"num_res_blocks": -1}}, "vq_config.num_res_blocks: must be a whole number from 0, got -1"),
    ({"vq_config": {"double_latent": "yes"}}, "vq_config.double_latent: must be true or false, got 'yes'"),
    ({"vq_config": {"num_embeddings": 0}}, "vq_config.num_embeddings: must be a whole number from 1, got 0"),
    ({"vq_config": {"num_hidden_layers": 2.5}}, "vq_config.num_hidden_layers: must be a whole number from 0, got 2.5"),
    ({"vq_config": {"num_res_blocks": 10**7}}, "vq_config.num_res_blocks: 10,000,000 is beyond the bound of 10,000"),
    ({"vq_config": {"num_res_blocks": 9_999, "channel_multiplier": [1] * 2_000}},
     "vq_config.num_res_blocks: 2000 resolutions of 9999 blocks are beyond"),
    ({"vision_config": {"num_attention_heads": 5}},
     "vision_config.num_attention_heads: 5 heads do not divide hidden_size=1024"),
    ({"vision_config": {"mlp_ratio": 0}}, "vision_config.mlp_ratio: must be a number above 0, got 0"),
    ({"vision_config": {"mlp_ratio": float("nan")}}, "vision_config.mlp_ratio: must be a number above 0, got nan"),
    ({"vision_config": {"mlp_ratio": 0.0001}}, r"vision_config.mlp_ratio: gives an MLP 0 wide"),
    ({"vision_config": {"use_qk_norm": 1}}, "vision_config.use_qk_norm: must be true or false, got 1"),
    ({"vision_config": {"depth": -1}}, "vision_config.depth: must be a whole number from 0, got -1"),
    ({"vision_config": {"image_size": [384, 384]}},
     r"vision_config.image_size: must be a whole number from 1, got \[384, 384\]"),
    ({"vision_config": {"patch_size": 400}}, "vision_config.patch_size: 400 is larger than image_size=384"),
    ({"tie_word_embeddings": "no"}, "tie_word_embeddings: must be true or false, got 'no'"),
])
def test_a_janus_config_it_cannot_count_is_one_line(config, message):
    _refused({"model_type": "janus", **config}, message)


def test_the_cli_refuses_a_bad_vq_key_in_one_line_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, '{"model_type": "janus", "vq_config": {"base_channels": 48}}',
                       "vq_config.base_channels: 48 × a channel_multiplier gives 48 channels")


def test_the_vision_model_and_vq_vae_are_towers_the_aligners_and_generation_parts_the_projector():
    ours, (tower, vq, aligner, generation) = _sums(SMALL_JANUS, "model.vision_model.", "model.vqmodel.",
                                                   "model.aligner.", "model.generation_")
    assert (ours["vision"], ours["projector"]) == (tower + vq, aligner + generation)
    assert generation == 20 * 4 + (16 * 4 + 16) + (16 * 16 + 16) + (16 * 16 + 16) + (20 * 16 + 20)


def test_the_head_ties_by_the_whole_configs_key_alone():
    """JanusConfig.tie_word_embeddings (True) decides; text_config's changes nothing."""
    for whole in (None, True, False):
        for text in (None, True, False):
            config = {**SMALL_JANUS, "text_config": {**SMALL_LLAMA, **({} if text is None else
                                                                         {"tie_word_embeddings": text})}}
            if whole is not None:
                config["tie_word_embeddings"] = whole
            inventory = paramledger.inventory(paramledger.load(config))
            assert inventory.tied == (whole is not False), (whole, text)
            assert diff(inventory, build_reference(config)).matches


def test_janus_non_embedding_count_drops_the_codebooks_as_hugging_face_does():
    """The VQ codebook, generation_embeddings and the tower's positions are nn.Embeddings: HF drops them."""
    import torch
    from transformers import AutoConfig, AutoModelForImageTextToText

    with torch.device("meta"):
        model = AutoModelForImageTextToText.from_config(AutoConfig.for_model(**SMALL_JANUS))
    inventory = paramledger.inventory(paramledger.load(SMALL_JANUS))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert inventory.total - inventory.non_embedding("hf") == 50 * 16 + 2 * 20 * 4 + 4 * 8


def test_a_janus_image_costs_its_patch_grid():
    assert image_tokens(paramledger.load(SMALL_JANUS), 3, None) == 3 * 4
    assert image_tokens(paramledger.load({"model_type": "janus"}), 1, None) == 576


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_janus_decoder_alone_is_llamas_causal_lm(data):
    """--text-only: text_config as LlamaForCausalLM builds it (its own tying), tensor by tensor."""
    config = data.draw(CONFIGS_U["janus"], label="config")
    decoder = paramledger.inventory(text_only(paramledger.load(config)))
    result = diff(decoder, build_reference(config["text_config"]))
    assert result.matches, result.to_json()


@pytest.mark.slow  # a real model per example
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_the_janus_decoder_caches_what_transformers_caches(data):
    """JanusForConditionalGeneration run on an image's placeholders and text (the aligner as wide as the decoder, so
    its features take the placeholders' places), against the bytes of transformers' own cache."""
    import torch

    from paramledger.reference import auto_class, hf_config

    config = data.draw(CONFIGS_U["janus"], label="config")
    text = config["text_config"]
    vocab = text.get("vocab_size", 32000)
    if vocab < 2:
        return
    # (use_qk_norm off: JanusVisionAttention.forward applies its width-wide LayerNorm to the per-head reshape, which
    # fails with more than one head in transformers 5.24.0 itself; the tensors it builds are counted either way)
    config = {**config, "image_token_id": vocab - 1, "vision_config": {
        **config["vision_config"], "projection_dim": text.get("hidden_size", 4096), "use_qk_norm": False}}
    arch = paramledger.load(config)
    hf = hf_config(config)
    torch.manual_seed(0)
    model = auto_class(hf).from_config(hf).eval()
    assert type(model).__name__ == "JanusForConditionalGeneration"
    tokens, batch = data.draw(st.integers(1, 12), label="tokens"), data.draw(st.integers(1, 2), label="batch")
    vision = hf.vision_config
    images = image_tokens(arch, 1, None)
    pixels = torch.randn(batch, vision.num_channels, vision.image_size, vision.image_size)
    words = torch.randint(0, vocab - 1, (batch, tokens), generator=torch.Generator().manual_seed(1))
    ids = torch.cat([torch.full((batch, images), vocab - 1), words], dim=1)
    with torch.no_grad():
        cache = model(input_ids=ids, pixel_values=pixels, use_cache=True).past_key_values
    assert kv_cache(arch, images + tokens, batch, "fp32").bytes == _cache_bytes(cache)

"""Set "ink" of issue #16: Inkling counted whole (families/inkling.py's inkling_mm_model, towers/inkling.py): where the
towers sit and what Hugging Face's non-embedding count drops, the towers' plan of scales against transformers' own
function, the decoder alone (--text-only), a head never tied, the refusals in one line, and the decoder's cache and
conv states after a real forward pass of the whole model; the same for Inkling 2 and Inkling 2 Loop whole
(families/inkling2.py, towers/inkling2.py)."""

from __future__ import annotations

import json
import random

import pytest
from _cli_refusal import refused_by_the_cli
from test_decoders_ink import INKLING, INKLING2, INKLING2_LOOP
from test_kvcache import _cache_bytes, _state_bytes
from test_towers_l import _sums

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.kvcache import kv_cache
from paramledger.reference import build_reference, diff
from paramledger.towers import text_only
from paramledger.towers.inkling import _assignment, plan_out_scales

torch = pytest.importorskip("torch")

TEXT = {key: value for key, value in INKLING.items() if key != "model_type"}
SMALL = {"model_type": "inkling_mm_model", "text_config": {**TEXT, "model_type": "inkling_text"},
         "vision_config": {"patch_size": 4, "temporal_patch_size": 2, "n_layers": 2, "num_channels": 3,
                           "text_hidden_size": 5},
         "audio_config": {"n_mel_bins": 3, "mel_vocab_size": 4}}


def test_the_towers_are_the_audio_and_vision_components_after_the_decoder():
    ours, (audio, vision) = _sums(SMALL, "model.audio_tower.", "model.vision_tower.")
    assert (ours["audio"], ours["vision"]) == (audio, vision)
    # the mel table and norm at the decoder's width (16), whatever text_hidden_size a sub-config says
    assert audio == 3 * 4 * 16 + 16
    names = [tensor.name for tensor in paramledger.inventory(paramledger.load(SMALL)).tensors]
    assert names.index("model.language_model.norm.weight") < names.index("model.audio_tower.norm.weight") < \
        names.index("model.vision_tower.final_norm.weight") < names.index("lm_head.weight")


def test_hugging_faces_non_embedding_count_drops_the_mel_table():
    from transformers import AutoConfig
    from transformers.models.inkling.modeling_inkling import InklingForConditionalGeneration

    with torch.device("meta"):
        model = InklingForConditionalGeneration(AutoConfig.for_model(**SMALL))
    inventory = paramledger.inventory(paramledger.load(SMALL))
    assert inventory.total == model.num_parameters()
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert inventory.total - inventory.non_embedding("hf") == 64 * 16 + 3 * 4 * 16


def test_the_scales_are_transformers_own_plan_and_scipys_assignment():
    """plan_out_scales at patch, temporal, depth and channels drawn over both of its paths (fewer layers than scales:
    scipy's assignment; more: argmin), the ties of the real numbers broken by float32 as torch breaks them; and the
    assignment alone against scipy's on small integer costs, which tie often."""
    from scipy.optimize import linear_sum_assignment
    from transformers.models.inkling.modeling_inkling import plan_out_scales as reference

    generator = random.Random(0)
    for _ in range(400):
        temporal, patch = generator.randint(2, 40), generator.randint(2, 130)
        layers, channels = generator.randint(1, 30), generator.randint(1, 6)
        expected = [tuple(scale) for scale in reference(temporal, patch, layers, channels).tolist()]
        assert plan_out_scales(temporal, patch, layers, channels) == expected, (temporal, patch, layers, channels)
    for _ in range(400):
        rows = generator.randint(1, 7)
        columns = generator.randint(rows, 9)
        cost = [[float(generator.randint(0, 4)) for _ in range(columns)] for _ in range(rows)]
        assert _assignment(cost) == list(linear_sum_assignment(cost)[1]), cost
    # the exact tie of real numbers at patch 2, temporal 2, 4 layers, 4 channels (row 2: log 32 × 2/4 is halfway
    # between log 4 and log 8): float32 picks log 4
    assert plan_out_scales(2, 2, 4, 4)[2] == (1, 2, 2, 64)


def test_the_decoder_alone_is_the_causal_lm_and_the_head_is_never_tied():
    whole = paramledger.load(SMALL)
    alone = paramledger.inventory(text_only(whole))
    assert diff(alone, build_reference(INKLING)).matches
    assert alone.total == paramledger.inventory(paramledger.load(INKLING)).total
    for tie in ({"tie_word_embeddings": True}, {"text_config": {**SMALL["text_config"], "tie_word_embeddings": True}}):
        config = {**SMALL, **tie}
        inventory = paramledger.inventory(paramledger.load(config))
        assert not inventory.tied
        assert diff(inventory, build_reference(config)).matches


@pytest.mark.parametrize(("changes", "message"), [
    ({"vision_config": {"patch_size": 1}}, r"vision_config.patch_size: must be 2 or more, got 1 \(transformers "),
    ({"vision_config": {"temporal_patch_size": 1}}, r"vision_config.temporal_patch_size: must be 2 or more, got 1"),
    ({"vision_config": {"n_layers": 0}}, r"vision_config.n_layers: must be a positive whole number, got 0"),
    ({"vision_config": {"num_channels": "3"}}, r"vision_config.num_channels: must be a positive whole number"),
    ({"vision_config": {"num_hidden_layers": 10**8}},
     r"vision_config.num_hidden_layers: 100,000,000 is beyond the bound of 10,000 a tower.s layers are named to"),
    ({"vision_config": [1]}, r"vision_config: must be a JSON object"),
    ({"audio_config": {"n_mel_bins": 0}}, r"audio_config.n_mel_bins: must be a positive whole number, got 0"),
    ({"audio_config": {"codebook_size": -1}}, r"audio_config.codebook_size: must be a positive whole number"),
    ({"audio_config": "x"}, r"audio_config: must be a JSON object"),
])
def test_a_bad_tower_key_is_refused_in_one_line(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**SMALL, **changes})
    assert "\n" not in str(caught.value)


def test_the_cli_refuses_a_bad_tower_key_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({**SMALL, "vision_config": {"patch_size": 1}}),
                       "vision_config.patch_size: must be 2 or more, got 1")


def test_the_whole_models_cache_and_conv_states_equal_what_transformers_holds():
    """A prompt of text through InklingForConditionalGeneration, then two decoded tokens: its decoder's keys, values
    and short-conv states, byte for byte."""
    from transformers.models.inkling.modeling_inkling import InklingForConditionalGeneration

    from paramledger.reference import hf_config

    config = hf_config(SMALL)
    config.text_config._experts_implementation = "eager"
    torch.manual_seed(0)
    model = InklingForConditionalGeneration(config).eval()
    generator = torch.Generator().manual_seed(1)
    cache = None
    with torch.no_grad():
        for length in (5, 1, 1):
            ids = torch.randint(0, 64, (2, length), generator=generator)
            cache = model(input_ids=ids, use_cache=True, cache=cache).cache
    ours = kv_cache(paramledger.load(SMALL), context=7, batch=2, dtype="fp32")
    assert (ours.bytes, ours.state_bytes) == (_cache_bytes(cache), _state_bytes(cache))
    assert ours.state_bytes > 0


# Inkling 2 whole: the decoder of tests/test_decoders_ink.py and a small tower at its width
VISION2 = {"hidden_size": 12, "num_hidden_layers": 2, "num_attention_heads": 2, "patch_size": 3, "posemb_grid_size": 4,
           "projection_hidden_dim": 7, "text_hidden_size": 16, "projector_bias": True, "intermediate_size": 10}
WHOLE2 = {"model_type": "inkling2", "text_config": {**{k: v for k, v in INKLING2.items() if k != "model_type"},
                                                    "model_type": "inkling2_text"}, "vision_config": VISION2}


def test_inkling2s_tower_and_its_merger_sit_after_the_decoder_and_hf_drops_its_position_table():
    from transformers import AutoConfig
    from transformers.models.inkling2.modeling_inkling2 import Inkling2ForConditionalGeneration

    ours, (vision,) = _sums(WHOLE2, "model.vision_tower.")
    assert ours["vision"] == vision
    names = [tensor.name for tensor in paramledger.inventory(paramledger.load(WHOLE2)).tensors]
    assert names.index("model.language_model.final_input.query") < names.index(
        "model.vision_tower.embeddings.class_embedding") < names.index("model.vision_tower.merger.linear_2.bias") \
        < names.index("lm_head.weight")
    with torch.device("meta"):
        model = Inkling2ForConditionalGeneration(AutoConfig.for_model(**WHOLE2))
    inventory = paramledger.inventory(paramledger.load(WHOLE2))
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)
    assert inventory.total - inventory.non_embedding("hf") == 64 * 16 + 16 * 12


@pytest.mark.parametrize(("changes", "message"), [
    ({"text_hidden_size": 8}, r"vision_config.text_hidden_size: 8 is not the text hidden_size=16 \(Inkling2Config"),
    ({"num_attention_heads": 5}, r"vision_config.num_attention_heads: 5 heads do not divide hidden_size=12"),
    ({"intermediate_size": None, "mlp_ratio": 0.05}, r"vision_config.intermediate_size: must be a positive whole"),
    ({"projector_bias": "yes"}, r"vision_config.projector_bias: must be true or false, got 'yes'"),
    ({"patch_size": 0}, r"vision_config.patch_size: must be a positive whole number, got 0"),
])
def test_a_bad_inkling2_tower_key_is_refused_in_one_line(changes, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({**WHOLE2, "vision_config": {**VISION2, **changes}})
    assert "\n" not in str(caught.value)


def test_the_cli_refuses_a_tower_of_another_width_with_status_2(tmp_path):
    refused_by_the_cli(tmp_path, json.dumps({**WHOLE2, "vision_config": {**VISION2, "text_hidden_size": 8}}),
                       "vision_config.text_hidden_size: 8 is not the text hidden_size=16")


@pytest.mark.parametrize("text", [INKLING2, INKLING2_LOOP])
def test_inkling2s_whole_model_caches_what_transformers_holds_and_its_decoder_alone_is_the_causal_lm(text):
    from paramledger.reference import hf_config

    model_type = "inkling2" if text is INKLING2 else "inkling2_loop"
    config = {"model_type": model_type, "vision_config": VISION2,
              "text_config": {**{k: v for k, v in text.items() if k != "model_type"}, "model_type": text["model_type"]}}
    whole = paramledger.load(config)
    assert diff(paramledger.inventory(text_only(whole)), build_reference(text)).matches
    assert not paramledger.inventory(paramledger.load({**config, "tie_word_embeddings": True})).tied
    built = hf_config(config)
    built.text_config._experts_implementation = "eager"
    torch.manual_seed(0)
    from transformers import AutoModelForImageTextToText

    model = AutoModelForImageTextToText.from_config(built).eval()
    generator = torch.Generator().manual_seed(1)
    cache = None
    with torch.no_grad():
        for length in (5, 1, 1):
            ids = torch.randint(0, 60, (2, length), generator=generator)
            cache = model(input_ids=ids, use_cache=True, cache=cache).cache
    ours = kv_cache(whole, context=7, batch=2, dtype="fp32")
    assert (ours.bytes, ours.state_bytes) == (_cache_bytes(cache), _state_bytes(cache))

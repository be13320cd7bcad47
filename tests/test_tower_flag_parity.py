"""One key of a whole multimodal model's towers or projector set another way, where paramledger and transformers
disagreed (issue #15, scripts/tower_flag_parity.py): each case is a whole type's smallest random config
(tests/_family_configs.py) with the key set in its section (tests/_tower_flag_parity.py: "" is the whole config's
own key), built by transformers 5.24.0 on the meta device inside the test.

AGREE: both count the same total, or both refuse (the config class refuses it, or the build fails).
REFUSED: transformers builds it, paramledger refuses it in one line on purpose (a learned activation no tower
places, a size of 0, a width the reader refuses): docs/notes/tower-flag-parity.md says why.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _family_configs import CONFIGS
from _rope_parity import agree, paramledger_outcome, transformers_outcome
from _tower_flag_parity import deepened, tower_case, tower_sections
from test_padding_idx import _smallest

AGREE = [
    # a given qformer_config is read over Blip2QFormerConfig's defaults (init_kwargs fill only an absent one)
    ("granite4_vision", "qformer_config", "use_qformer_text_input", True),  # 49,107,065 (counted 4,152,825)
    ("granite4_vision", "qformer_config", "num_attention_heads", 0),  # (overwritten: hidden_size // 64)
    ("granite4_vision", "qformer_config", "num_hidden_layers", 2),
    # Qwen3-Omni's talker: both decoders' attention_bias (358, counted 354), num_local_experts (its attribute_map),
    # decoder_sparse_step 0 (ZeroDivisionError: refused)
    ("qwen3_omni_moe", "talker_config.text_config", "attention_bias", True),
    ("qwen3_omni_moe", "talker_config.code_predictor_config", "attention_bias", True),
    ("qwen3_omni_moe", "talker_config.text_config", "num_local_experts", 2),
    ("qwen3_omni_moe", "talker_config.text_config", "decoder_sparse_step", 0),
    ("qwen3_omni_moe", "talker_config.text_config", "decoder_sparse_step", 2),  # (sizes nothing)
    # derived in __post_init__ before the kwargs are set: a given one wins (a null cannot be built)
    ("dots3_note", "audio_config", "conv_output_size", 3), ("dots3_note", "audio_config", "conv_output_size", None),
    ("phi4_multimodal", "audio_config", "nemo_final_size", 3),
    ("phi4_multimodal", "audio_config", "nemo_final_size", None),
    ("aria", "", "max_value_projector_patch_to_query_dict", 3),
    ("aria", "", "max_value_projector_patch_to_query_dict", None),
    # Llama 4's vision MLPs build nn.GELU() whatever hidden_act says: counted, not refused
    ("llama4", "vision_config", "hidden_act", "prelu"), ("llama4", "vision_config", "hidden_act", "xielu"),
]

# found with the towers' depths of 0 made 1 (tests/_tower_flag_parity.deepened) and ints set to value + 1 and + 2:
# more heads than the width (head_dim = width // heads is 0: transformers' head_dim ** -0.5 divides by zero), an
# odd head_dim rotated whole (validate_rope refuses it): each was counted, now refused as transformers fails
DEEP_AGREE = [
    ("granite_speech", "encoder_config", "num_heads", 3), ("granite_speech_plus", "encoder_config", "num_heads", 2),
    ("hunyuan_vl", "vision_config", "num_attention_heads", 3), ("hy_v4_vl", "vision_config", "num_attention_heads", 3),
    ("muse_glimmer", "vision_config", "num_attention_heads", 3), ("muse_spark", "vision_config", "num_attention_heads", 2),
    ("phi4_multimodal", "audio_config", "num_attention_heads", 3),
    ("diffusion_gemma", "vision_config", "head_dim", 65), ("diffusion_gemma", "vision_config", "head_dim", 5),
    ("voxtral_realtime", "audio_config", "head_dim", 65), ("voxtral_realtime", "audio_config", "head_dim", 3),
    ("hy_v4_vl", "vision_config", "head_dim", 3),  # (HY-V4-VL reads a given head_dim)
]

LEARNED = "is not counted: nn.PReLU holds a weight"
XIELU = "is not counted: XIELUActivation holds alpha_p and alpha_n"
REFUSED = [
    # learned activations: transformers builds 1 (prelu) or 2 (xielu) more per module; no tower places them
    ("llava", "vision_config", "hidden_act", "prelu", f"vision_config.hidden_act: 'prelu' {LEARNED}"),
    ("qwen2_vl", "vision_config", "hidden_act", "xielu", f"vision_config.hidden_act: 'xielu' {XIELU}"),
    ("llava", "", "projector_hidden_act", "xielu", f"projector_hidden_act: 'xielu' {XIELU}"),
    ("voxtral", "", "projector_hidden_act", "prelu", f"projector_hidden_act: 'prelu' {LEARNED}"),
    ("qwen2_audio", "audio_config", "activation_function", "prelu", "audio_config.activation_function: 'prelu'"),
    ("phi4_multimodal", "audio_config", "conv_glu_type", "prelu", "audio_config.conv_glu_type: 'prelu'"),
    ("pix2struct", "vision_config", "dense_act_fn", "xielu", "vision_config.dense_act_fn: 'xielu'"),
    ("deepseek_ocr2", "vision_config.sam_config", "hidden_act", "prelu", "vision_config.sam_config.hidden_act"),
    ("fun_asr_nano", "adaptor_config", "projector_hidden_act", "prelu", "adaptor_config.projector_hidden_act"),
    ("molmo2", "adapter_config", "hidden_act", "xielu", "adapter_config.hidden_act: 'xielu'"),
    ("idefics2", "perceiver_config", "hidden_act", "prelu", "perceiver_config.hidden_act: 'prelu'"),
    ("granite4_vision", "qformer_config", "hidden_act", "prelu", "qformer_config.hidden_act: 'prelu'"),
    ("vision-encoder-decoder", "encoder", "pooler_act", "prelu", "encoder.pooler_act: 'prelu'"),
    ("kyutai_speech_to_text", "codec_config", "hidden_act", "xielu", "codec_config.hidden_act: 'xielu'"),
    ("qwen2_5_omni", "thinker_config.audio_config", "activation_function", "prelu",
     "thinker_config.audio_config.activation_function: 'prelu'"),
    ("qwen2_5_omni", "talker_config", "hidden_act", "xielu", "talker_config.hidden_act: 'xielu'"),
    ("qwen3_omni_moe", "code2wav_config", "hidden_act", "prelu", "code2wav_config.hidden_act: 'prelu'"),
    ("qwen3_omni_moe", "thinker_config.vision_config", "hidden_act", "xielu",
     "thinker_config.vision_config.hidden_act: 'xielu'"),
    ("janus", "vq_config", "hidden_act", "prelu", "vq_config.hidden_act: 'prelu'"),
    # a size of 0 (docs/limits.md) where transformers builds an empty table
    ("dots3_note", "audio_config", "conv_output_size", 0, "audio_config.conv_output_size: must be a positive"),
    ("phi4_multimodal", "audio_config", "nemo_final_size", 0, "audio_config.nemo_final_size: must be a positive"),
    ("aria", "", "max_value_projector_patch_to_query_dict", 0, "must be a positive whole number, got 0"),
    ("qwen3_omni_moe", "talker_config.text_config", "num_local_experts", 0, "num_experts: must be a positive"),
    # widths transformers builds but cannot run, refused by the towers' readers (kept)
    ("mistral3", "vision_config", "hidden_size", 1, "Pixtral's RoPE needs an even head width"),
    ("aya_vision", "", "alignment_intermediate_size", 1, "alignment_intermediate_size: must be a whole number from 2"),
    ("mllama", "vision_config", "vision_output_dim", 1, "the width of the tower's output the projector reads"),
]

# a learned activation inside a tower the smallest config draws with no layer: no module applies it, so transformers
# builds the same total, and paramledger refuses it all the same (it reads no key by the depth it holds); with one
# layer (tests/_tower_flag_parity.deepened) transformers builds one more
NO_LAYER = [("blip-2", "qformer_config"), ("nemo_speechlm", "audio_config.asr_config"),
            ("vibevoice_asr", "acoustic_tokenizer_encoder_config"), ("granite_speech", "projector_config")]


def _ids(cases):
    return [f"{t}-{'.'.join(filter(None, (p, k)))}={v}" for t, p, k, v, *_ in cases]


@pytest.mark.parametrize("model_type, path, key, value", AGREE, ids=_ids(AGREE))
def test_agrees_with_transformers(model_type, path, key, value):
    config = tower_case(model_type, path, key, value)
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)


@pytest.mark.parametrize("model_type, path, key, value", DEEP_AGREE, ids=_ids(DEEP_AGREE))
def test_deepened_agrees_with_transformers(model_type, path, key, value):
    base = _smallest(model_type)
    config = tower_case(model_type, path, key, value, deepened(base, tower_sections(model_type, base)[1]))
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours), (theirs, ours)


@pytest.mark.parametrize("model_type, path, key, value, match", REFUSED, ids=_ids(REFUSED))
def test_refused_where_transformers_builds(model_type, path, key, value, match):
    config = tower_case(model_type, path, key, value)
    assert transformers_outcome(config).startswith("builds ")
    ours = paramledger_outcome(config)
    assert ours.startswith("refuses: ") and match in ours and "\n" not in ours, ours


@pytest.mark.parametrize("model_type, path", NO_LAYER, ids=[t for t, _ in NO_LAYER])
def test_learned_activation_refused_whatever_the_depth(model_type, path):
    config = _smallest(model_type)
    deep = deepened(config, tower_sections(model_type, config)[1])
    for base, more in ((config, 0), (deep, 1)):
        built = int(transformers_outcome(base).removeprefix("builds "))
        assert paramledger_outcome(base) == f"counts {built}"  # (the depth is the only difference)
        variant = tower_case(model_type, path, "hidden_act", "prelu", base)
        assert transformers_outcome(variant) == f"builds {built + more}"
        assert f"{path}.hidden_act: 'prelu' is not counted" in paramledger_outcome(variant)


def test_refusal_is_one_line_and_status_2(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "llava", "vision_config": {"hidden_act": "prelu"}}))
    for command in ("count", "memory"):
        status, out, err = cli(command, str(path))
        assert status == 2 and not out
        assert err.strip().count("\n") == 0 and "vision_config.hidden_act: 'prelu' is not counted" in err, err


# Random small configs (each type's strategy) with a derived size given: every one built by transformers
SETTINGS = settings(max_examples=9, deadline=None, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def _check(config: dict) -> None:
    theirs, ours = transformers_outcome(config), paramledger_outcome(config)
    assert agree(theirs, ours) and theirs.startswith("builds "), (theirs, ours)


@SETTINGS
@given(CONFIGS["dots3_note"], st.integers(1, 9))
def test_random_dots3_note_conv_output_size(config, size):
    _check(tower_case("dots3_note", "audio_config", "conv_output_size", size, config))


@SETTINGS
@given(CONFIGS["phi4_multimodal"], st.integers(1, 9))
def test_random_phi4_nemo_final_size(config, size):
    _check(tower_case("phi4_multimodal", "audio_config", "nemo_final_size", size, config))


@SETTINGS
@given(CONFIGS["aria"], st.integers(1, 9))
def test_random_aria_query_rows(config, rows):
    _check(tower_case("aria", "", "max_value_projector_patch_to_query_dict", rows, config))


@SETTINGS
@given(CONFIGS["qwen3_omni_moe"], st.booleans(), st.booleans(), st.integers(1, 3))
def test_random_qwen3_omni_talker_biases_and_experts(config, text_bias, predictor_bias, experts):
    config = tower_case("qwen3_omni_moe", "talker_config.text_config", "attention_bias", text_bias, config)
    config = tower_case("qwen3_omni_moe", "talker_config.text_config", "num_local_experts", experts, config)
    _check(tower_case("qwen3_omni_moe", "talker_config.code_predictor_config", "attention_bias", predictor_bias,
                      config))

"""rope_parameters given flat where a type takes it layer-typed, or the reverse (families/rope_form.py, issue #15):
refused in one line naming rope_parameters, exactly where transformers refuses the config or cannot build it.

Each supported type's smallest random config (tests/_family_configs.py) is given rope_parameters flat, layer-typed
(full and sliding), one entry per layer type its config uses, and layer-typed missing one of those
(tests/_rope_parity.py); transformers builds it on the meta device and paramledger counts it: both count the same
total, or both refuse.  FOUND lists where paramledger counted and transformers did not (scripts/rope_parity.py).
"""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError
from paramledger.families.rope_form import rope_form_problem

from _rope_parity import DEFAULT, agree, examples, paramledger_outcome, transformers_outcome, variants

# scripts/rope_parity.py before families/rope_form.py: the variants transformers refused (or failed to build) and
# paramledger counted
FOUND = {
    "afmoe": ("typed", "typed as used"), "audioflamingo3": ("typed", "typed as used"), "axk2": ("typed as used",),
    "aya_vision": ("typed", "typed as used"), "bailing_hybrid": ("typed", "typed as used"),
    "bamba": ("typed as used",), "beam": ("flat", "typed without full_attention"),
    "cohere2": ("typed", "typed as used"), "cohere2_moe": ("typed", "typed as used", "typed without full_attention"),
    "cohere2_vision": ("typed", "typed as used"), "cohere_compass": ("flat", "typed without full_attention"),
    "cohere_compass_text": ("flat", "typed without full_attention"),
    "cosmos3_edge": ("flat", "typed", "typed without full_attention", "typed without sliding_attention"),
    "cwm": ("typed", "typed as used"), "deepseek_v32": ("typed as used",),
    "diffusion_gemma": ("flat", "typed without full_attention"),  # (integrated after the sweep: measured the same)
    "dory": ("flat", "typed without sliding_attention"), "dots1": ("typed", "typed as used"),
    "exaone4": ("typed", "typed as used"), "exaone4_5": ("typed", "typed as used"),
    "exaone_moe": ("typed", "typed as used"), "falcon_h1": ("typed as used",), "flint": ("typed", "typed as used"),
    "fun_asr_nano": ("typed", "typed as used"), "gemma2": ("typed", "typed as used"),
    "gemma4": ("flat", "typed without full_attention"), "gemma4_assistant": ("flat", "typed without full_attention"),
    "gemma4_text": ("flat", "typed without full_attention"),
    "gemma4_unified": ("flat", "typed without full_attention"),
    "gemma4_unified_assistant": ("flat", "typed without full_attention"),
    "gemma4_unified_text": ("flat", "typed without full_attention"), "glm_moe_dsa": ("typed as used",),
    "got_ocr2": ("typed", "typed as used"), "gpt_oss": ("typed", "typed as used"),
    "granite_swa": ("typed", "typed as used"), "granitemoe_swa": ("typed", "typed as used"),
    "hy_v4": ("typed as used",), "internvl": ("typed", "typed as used"), "kolibri1": ("typed", "typed as used"),
    "laguna": ("flat", "typed without full_attention"), "lara_mini": ("typed as used",), "lfm2": ("typed as used",),
    "lfm2_moe": ("typed as used",), "lfm2_vl": ("typed as used",), "lighton_ocr": ("typed", "typed as used"),
    "llama4": ("typed", "typed as used"), "llama4_text": ("typed", "typed as used"),
    "mellum": ("flat", "typed without full_attention"), "mimo_v2_flash": ("flat", "typed without sliding_attention"),
    "minicpm_ocr": ("typed as used",), "minicpmv4_6": ("typed as used",), "minicpmv4_7": ("typed as used",),
    "minimax": ("typed", "typed as used"), "minimax_m3_vl": ("typed", "typed as used"),
    "minimax_m3_vl_text": ("typed", "typed as used"), "ministral": ("typed", "typed as used"),
    "mistral_large4": ("typed as used",), "modernbert": ("flat",), "modernbert-decoder": ("flat",),
    "modernvbert": ("flat",), "moss_transcribe_diarize": ("typed", "typed as used"),
    "muse_glimmer": ("typed", "typed as used"), "muse_spark": ("typed", "typed as used"),
    "musicflamingo": ("typed", "typed as used"), "neomme": ("flat",), "ovis2": ("typed", "typed as used"),
    "pp_chart2table": ("typed", "typed as used"), "qianfan_ocr": ("typed", "typed as used"),
    "qwen2": ("typed", "typed as used"), "qwen2_5_omni": ("typed", "typed as used"),
    "qwen2_5_omni_thinker": ("typed", "typed as used"), "qwen2_5_vl": ("typed", "typed as used"),
    "qwen2_audio": ("typed", "typed as used"), "qwen2_moe": ("typed", "typed as used"),
    "qwen2_vl": ("typed", "typed as used"), "qwen3": ("typed", "typed as used"), "qwen3_5": ("typed as used",),
    "qwen3_5_moe": ("typed as used",), "qwen3_5_moe_text": ("typed as used",), "qwen3_5_text": ("typed as used",),
    "qwen3_asr": ("typed", "typed as used"), "qwen3_next": ("typed as used",), "qwen4_exp": ("typed as used",),
    "qwen4_exp_text": ("typed as used",), "smollm3": ("typed", "typed as used"),
    "ultrabert": ("flat", "typed without sliding_attention"),
    "ultravbert": ("flat", "typed without sliding_attention"), "vaultgemma": ("typed", "typed as used"),
    "vibevoice_asr": ("typed", "typed as used"), "video_llama_3": ("typed", "typed as used"),
    "zaya": ("flat", "typed", "typed without hybrid"),
}


@pytest.mark.parametrize(("model_type", "variant"), [(t, v) for t, found in FOUND.items() for v in found])
def test_refused_where_transformers_refuses_or_cannot_build(model_type, variant):
    config = variants(model_type)[variant]
    theirs = transformers_outcome(config)
    assert theirs.startswith(("refuses: ", "fails: ")), theirs  # measured here, against the reference
    with pytest.raises(ArchitectureError, match=r"rope_parameters: (is layer-typed|must|has no entry)"):
        paramledger.load(config)


@pytest.mark.parametrize("model_type", families.supported())
def test_every_form_counted_or_refused_as_transformers_does(model_type):
    for name, config in variants(model_type).items():
        theirs, ours = transformers_outcome(config), paramledger_outcome(config)
        assert agree(theirs, ours), (name, theirs, ours)


def _typed(*kinds: str) -> dict:
    return {kind: dict(DEFAULT) for kind in kinds}


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "qwen2", "rope_parameters": _typed("full_attention")},
     r"config: rope_parameters: is layer-typed \(full_attention\), which qwen2 does not take: its rotary reads one "
     r"rope_type and rope_theta for every layer \(transformers cannot build it; give them flat\)"),
    ({"model_type": "lfm2", "rope_parameters": _typed("full_attention")},  # its attention layers: full_attention
     r"config: rope_parameters: is layer-typed \(full_attention\), which lfm2 does not take"),
    ({"model_type": "gemma2", "num_hidden_layers": 1, "rope_parameters": _typed("sliding_attention")},  # (no window:
     r"is layer-typed \(sliding_attention\), which gemma2 does not take"),  # its one layer still sliding_attention)
    ({"model_type": "granite_swa", "rope_parameters": _typed("full_attention", "sliding_attention")},
     r"is layer-typed \(full_attention, sliding_attention\), which granite_swa does not take: .* \(transformers "
     r"refuses the config"),
    ({"model_type": "aya_vision", "text_config": {"rope_parameters": _typed("full_attention", "sliding_attention")}},
     r"config: text_config.rope_parameters: is layer-typed \(full_attention, sliding_attention\), which cohere2"),
    ({"model_type": "gemma4_text", "rope_parameters": dict(DEFAULT)},
     r"config: rope_parameters: must have one entry per layer type \(full_attention, sliding_attention\): "
     r"gemma4_text's rotary reads one for each \(transformers cannot build it from a flat one\)"),
    ({"model_type": "gemma4_text", "rope_parameters": _typed("full_attention")},
     r"rope_parameters: has no entry for sliding_attention, a layer type the config uses"),
    ({"model_type": "lfm3", "rope_parameters": dict(DEFAULT)},  # (its class default has attention layers)
     r"rope_parameters: must have one entry per layer type \(full_attention, sliding_attention\): lfm3's rotary"),
    ({"model_type": "zaya", "rope_parameters": _typed("full_attention", "sliding_attention")},
     r"rope_parameters: has no entry for hybrid, a layer type the config uses: zaya's rotary reads one for each"),
    ({"model_type": "modernbert", "rope_parameters": dict(DEFAULT)},
     r"rope_parameters: must map full_attention and sliding_attention each to its own rope parameters \(modernbert's "
     r"config class declares it so: transformers refuses the config, flat or otherwise\)"),
    ({"model_type": "modernvbert", "text_config": {"rope_parameters": dict(DEFAULT)}},
     r"config: text_config.rope_parameters: must map full_attention and sliding_attention"),
    ({"model_type": "cosmos3_edge", "text_config": {"rope_parameters": dict(DEFAULT)}},
     r"config: text_config.rope_parameters: must give mrope_section \(cosmos3_edge's config class does not fill it "
     r"in rope_parameters: transformers refuses the config\)"),
    ({"model_type": "cohere2_moe", "rope_parameters": {"rope_type": "default"}},
     r"config: rope_parameters: must give rope_theta \(cohere2_moe's config class does not fill it in "
     r"rope_parameters: transformers cannot build it\)"),
])
def test_refusal_says_why(config, message):
    assert not transformers_outcome(config).startswith("builds ")
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config)


@pytest.mark.parametrize("config", [
    {"model_type": "qwen2", "rope_parameters": dict(DEFAULT)},  # flat: the one entry it reads
    {"model_type": "gpt_oss", "num_hidden_layers": 1, "rope_parameters": {**DEFAULT, "factor": 2.0}},  # (yarn's keys)
    {"model_type": "gemma4_text", "rope_parameters": None},  # the class's own default
    {"model_type": "modernbert", "rope_parameters": _typed("full_attention")},  # the class fills sliding_attention
    {"model_type": "llama", "rope_parameters": _typed("full_attention")},  # no layer_types: never layer-typed
    {"model_type": "lfm3", "rope_parameters": _typed("full_attention", "sliding_attention")},
    {"model_type": "deepseek_v32", "rope_parameters": _typed("full_attention")},  # its layers: indexed_attention
    {"model_type": "gemma2", "num_hidden_layers": 1, "rope_parameters": _typed("full_attention")},  # all sliding
])
def test_counted_where_transformers_builds(config):
    assert agree(transformers_outcome(config), paramledger_outcome(config))
    assert rope_form_problem(config["model_type"], config["rope_parameters"], paramledger.load(config)) is None


# the types whose agreement depends on a layout the smallest config does not show (issue #15's last gaps, found by
# scripts/rope_parity.py --examples 8): the layer types their configs declare (families/rope_form.py DECLARED)
RANDOM = ("recurrent_gemma", "zamba2", "dots3_note_text", "dots3_note", "lara_mini", "minimax", "unlimited_ocr",
          "inkling_text", "mamba2", "t5")  # (and the odd head sizes given a rope_parameters: families/even_rotary.py)


@pytest.mark.parametrize("model_type", RANDOM)
def test_random_configs_counted_or_refused_as_transformers_does(model_type):
    for at, config in enumerate(examples(model_type, 8), 1):
        for name, varied in variants(model_type, config).items():
            theirs, ours = transformers_outcome(varied), paramledger_outcome(varied)
            assert agree(theirs, ours), (at, name, theirs, ours)


GRIFFIN = {"model_type": "recurrent_gemma", "num_hidden_layers": 3, "hidden_size": 8, "num_attention_heads": 2,
           "intermediate_size": 8, "vocab_size": 16, "attention_window_size": 4}
ZAMBA2 = {"model_type": "zamba2", "num_hidden_layers": 2, "hidden_size": 8, "num_attention_heads": 2,
          "vocab_size": 16, "mamba_d_state": 2, "n_mamba_heads": 2, "mamba_headdim": 8, "mamba_ngroups": 1,
          "layers_block_type": ["mamba", "hybrid"], "use_mem_rope": True}


@pytest.mark.parametrize(("config", "message"), [
    ({**GRIFFIN, "rope_parameters": _typed("sliding_attention")},  # (its attention blocks: sliding_attention)
     r"config: rope_parameters: is layer-typed \(sliding_attention\), which recurrent_gemma does not take: its rotary "
     r"reads one rope_type and rope_theta for every layer \(transformers cannot build it; give them flat\)"),
    ({**GRIFFIN, "rope_parameters": _typed("linear_attention")},  # (its recurrent blocks' name)
     r"is layer-typed \(linear_attention\), which recurrent_gemma does not take"),
    ({**ZAMBA2, "rope_parameters": _typed("hybrid")},
     r"config: rope_parameters: is layer-typed \(hybrid\), which zamba2 does not take"),
    ({**ZAMBA2, "rope_parameters": _typed("linear_attention")},  # (mamba, remapped)
     r"is layer-typed \(linear_attention\), which zamba2 does not take"),
    ({"model_type": "minimax", "num_hidden_layers": 2, "rope_parameters": _typed("linear_attention")},
     r"is layer-typed \(linear_attention\), which minimax does not take"),
    ({"model_type": "dots3_note_text", "num_hidden_layers": 2,
      "layer_types": ["indexed_attention", "sliding_attention"], "rope_parameters": _typed("indexed_attention")},
     r"config: rope_parameters: has no entry for sliding_attention, a layer type the config uses: dots3_note_text's "
     r"config class fills each one's partial_rotary_factor \(transformers refuses the config\)"),
])
def test_refusal_follows_the_layer_types_the_config_declares(config, message):
    assert not transformers_outcome(config).startswith("builds ")
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config)


@pytest.mark.parametrize("config", [
    {**GRIFFIN, "block_types": ["recurrent"], "rope_parameters": _typed("linear_attention")},  # no attention: no rotary
    {**GRIFFIN, "rope_parameters": _typed("full_attention")},  # not a type it declares: read as flat
    {**GRIFFIN, "block_types": ["attention"], "rope_parameters": _typed("linear_attention")},  # (all attention)
    {**ZAMBA2, "use_mem_rope": False, "rope_parameters": _typed("hybrid")},  # no rotary
    {**ZAMBA2, "rope_parameters": _typed("mamba")},  # (remapped to linear_attention: mamba is none of its types)
    {"model_type": "minimax", "num_hidden_layers": 2, "layer_types": ["linear_attention"] * 2,
     "rope_parameters": _typed("full_attention")},  # no full_attention layer: read as flat
    {"model_type": "lara_mini", "num_hidden_layers": 1, "layer_types": ["sliding_attention"],
     "rope_parameters": _typed("full_attention")},
    {"model_type": "dots3_note_text", "num_hidden_layers": 2,
     "layer_types": ["indexed_attention", "sliding_attention"], "rope_parameters": dict(DEFAULT)},  # (spread over them)
])
def test_counted_where_the_config_declares_no_such_layer_type(config):
    theirs = transformers_outcome(config)
    assert theirs.startswith("builds ") and agree(theirs, paramledger_outcome(config))


def test_refusal_is_one_line_and_status_2(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "qwen2", "rope_parameters": _typed("full_attention")}))
    for command in ("count", "memory"):
        status, out, err = cli(command, str(path))
        assert status == 2 and not out
        assert err.strip().count("\n") == 0 and "rope_parameters: is layer-typed (full_attention)" in err
    for config, said in (({**GRIFFIN, "rope_parameters": _typed("sliding_attention")},
                          "rope_parameters: is layer-typed (sliding_attention), which recurrent_gemma"),
                         ({**ZAMBA2, "rope_parameters": _typed("hybrid")},
                          "rope_parameters: is layer-typed (hybrid), which zamba2")):
        path.write_text(json.dumps(config))
        for command in ("count", "memory", "verify"):
            status, out, err = cli(command, str(path))
            assert status == 2 and not out and err.strip().count("\n") == 0 and said in err, (command, err)

"""An odd head_dim that RoPE rotates whole (families/even_rotary.py, issue #15): refused in one line naming
head_dim, exactly where transformers' validate_rope refuses the config.

For every supported type, its smallest random config (tests/_family_configs.py) is made with head_dim 5 (given, and
as hidden_size // num_attention_heads where the config spells those keys) and with head_dim 6.
"""

from __future__ import annotations

import json

import pytest

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError, ParamledgerError
from paramledger.reference import hf_config

from _rope_parity import FLAT, examples, layer_types, sections, with_rope
from test_padding_idx import _reader, _smallest

ODD = "is odd and rotated whole"


def _with(config: dict, nested: str, **keys) -> dict:
    if nested:
        return {**config, nested: {**config.get(nested, {}), **keys}}
    return {**config, **keys}


def _spelt(model_type: str) -> str:
    """The config key a family reads its head_dim from."""
    keys = families.get(model_type).keys
    return next((name for name, field in keys.items() if field == "head_dim"), "head_dim")


def _transformers_refuses(config: dict) -> bool | None:
    """True: validate_rope refuses it; False: the config is made; None: refused for another reason."""
    try:
        hf_config(config)
    except ParamledgerError as error:
        return True if "RoPE requires an even rotary dimension" in str(error) else None
    return False


def _paramledger_refuses(config: dict) -> bool:
    try:
        paramledger.load(config)
    except ArchitectureError as error:
        return ODD in str(error)
    return False


@pytest.mark.parametrize("model_type", families.supported())
def test_odd_head_dim_refused_where_transformers_refuses(model_type):
    config = _smallest(model_type)
    reader, nested = _reader(config)
    spelt = _spelt(reader)  # (JetMoE's kv_channels, T5's d_kv)
    given = _with(config, nested, **{spelt: 5})
    refused = _transformers_refuses(given)
    key = f"{nested}.{spelt}" if nested else spelt
    if refused:  # (a few refuse head_dim 5 for its width first: "head_dim: 5 × 1 heads != hidden_size=2")
        # (ModernVBERT's: its text's; ERNIE-VL's M-RoPE sections cannot split an odd head first)
        with pytest.raises(ArchitectureError, match=f"config: ({key}|{spelt}): 5 |rope_parameters.mrope_section: .*"
                                                    r"\(head_dim 5 / 2\)"):
            paramledger.load(given)
    elif refused is False:
        assert not _paramledger_refuses(given)
    assert not _paramledger_refuses(_with(config, nested, **{spelt: 6}))
    section = config.get(nested, {}) if nested else config
    if "hidden_size" in section and "num_attention_heads" in section:  # head_dim 5 as hidden_size // heads
        derived = _with(config, nested, hidden_size=5 * section["num_attention_heads"])
        (derived[nested] if nested else derived).pop("head_dim", None)
        refused = _transformers_refuses(derived)
        if refused is not None:
            assert _paramledger_refuses(derived) == refused


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "llama", "head_dim": 5},
     r"config: head_dim: 5 is odd and rotated whole \(partial_rotary_factor 1.0\): RoPE rotates pairs "
     r"\(transformers' validate_rope refuses it\)"),
    ({"model_type": "llama", "hidden_size": 10, "num_attention_heads": 2},
     r"config: head_dim: 5 \(hidden_size 10 // num_attention_heads 2\) is odd and rotated whole"),
    ({"model_type": "llava", "text_config": {"head_dim": 7}}, r"config: text_config.head_dim: 7 is odd"),
])
def test_odd_head_dim_refusal_says_why(config, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config)


@pytest.mark.parametrize("config", [
    {"model_type": "llama", "head_dim": 3},  # <= 4: let through for test checkpoints (modeling_rope_utils.py)
    {"model_type": "llama", "head_dim": 5, "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                                               "partial_rotary_factor": 0.5}},  # rotates 2 of 5
    {"model_type": "gpt2", "n_embd": 10, "n_head": 2},  # no RoPE
])
def test_odd_head_dim_counted_where_transformers_makes_it(config):
    hf_config(config)
    paramledger.load(config)


def _put(config: dict, path: str, key: str, value) -> dict:
    if not path:
        return {**config, key: value}
    outer, _, inner = path.partition(".")
    return {**config, outer: _put(config.get(outer) or {}, inner, key, value)}


def _flat_text(model_type: str, config: dict) -> dict | None:
    """The config with its text keys at the whole's top level, where the whole takes them so (Dots3-Note's)."""
    whole = families.get(model_type).whole
    if whole is None or not whole.text_at_top or not isinstance(config.get("text_config"), dict):
        return None
    text = {key: value for key, value in config["text_config"].items() if key != "model_type"}
    return {**{key: value for key, value in config.items() if key != "text_config"}, **text}


@pytest.mark.parametrize("model_type", families.supported())
def test_odd_head_dim_with_rope_parameters_given_refused_where_transformers_refuses(model_type):
    """A rope_parameters given without partial_rotary_factor, flat and one entry per layer type the config uses, with
    the head-size key odd (T5's d_kv): transformers validates it even where the config class declares no
    rope_parameters (NO_ROPE_FIELD) or keeps it as given (AS_GIVEN), or on the whole config the text keys are given
    at the top of (TOP_NO_ROPE_FIELD); paramledger refuses exactly those, and counts the others."""
    smallest = _smallest(model_type)
    for config in filter(None, (smallest, _flat_text(model_type, smallest))):
        _odd_head_sizes_agree(model_type, config, (FLAT,))


def _odd_head_sizes_agree(model_type: str, config: dict, forms: tuple) -> None:
    """``config`` with its head-size key 5 and 7, rope_parameters given each of ``forms`` (None: none) and one entry
    per layer type used: paramledger refuses where transformers refuses, and does not refuse the head size where
    transformers makes it."""
    spelt, paths = _spelt(_reader(config)[0]), sections(model_type, config)
    for odd in (5, 7):
        odd_config = config
        for path in paths:
            odd_config = _put(odd_config, path, spelt, odd)
        used = layer_types(odd_config, paths)
        for rope in (*forms, *([{kind: dict(FLAT) for kind in used}] if used else [])):
            roped = odd_config if rope is None else with_rope(odd_config, paths, rope)
            refused = _transformers_refuses(roped)
            if refused:  # (refused for its head size first where paramledger refuses another key: either way)
                with pytest.raises(ParamledgerError):
                    paramledger.load(roped)
            elif refused is False:
                assert not _paramledger_refuses(roped), (odd, rope)


# the types whose random configs disagreed before (scripts/even_rotary_types.py --examples 4): Beam's and Gemma 4's
# sliding layers, HunYuan-VL's attention_head_dim beside head_dim, Cosmos3-Edge's sections, Mamba2's head_dim
RANDOM = ("beam", "gemma4_text", "gemma4_unified", "diffusion_gemma", "hunyuan_vl", "cosmos3_edge", "mamba2", "t5",
          "inkling_text", "dots3_note")


@pytest.mark.parametrize("model_type", RANDOM)
def test_odd_head_dim_on_random_configs_refused_where_transformers_refuses(model_type):
    for config in examples(model_type, 4):
        _odd_head_sizes_agree(model_type, config, (None, FLAT))


@pytest.mark.parametrize(("config", "message"), [
    ({"model_type": "t5", "d_kv": 5, "rope_parameters": dict(FLAT)},
     r"config: d_kv: 5 is odd and rotated whole \(partial_rotary_factor 1.0, the rope_parameters given: t5's config "
     r"class validates it as given, with no default factor\): RoPE rotates pairs \(transformers' validate_rope refuses "
     r"it\)"),
    ({"model_type": "t5", "d_kv": 5, "rope_parameters": dict(FLAT), "partial_rotary_factor": 0.5},  # (not folded in:
     r"config: d_kv: 5 is odd and rotated whole \(partial_rotary_factor 1.0"),  # no class standardizes it)
    ({"model_type": "longt5", "d_kv": 7, "rope_parameters": {"full_attention": dict(FLAT)}},  # (no layer_types: flat)
     r"config: d_kv: 7 is odd and rotated whole \(partial_rotary_factor 1.0, the rope_parameters given"),
    ({"model_type": "inkling_text", "head_dim": 7, "rope_parameters": dict(FLAT)},
     r"config: head_dim: 7 is odd and rotated whole \(partial_rotary_factor 1.0, the rope_parameters given: "
     r"inkling_text's"),
    ({"model_type": "blip-2", "text_config": {"model_type": "opt", "head_dim": 5, "rope_parameters": dict(FLAT)}},
     r"config: text_config.head_dim: 5 is odd and rotated whole \(partial_rotary_factor 1.0, the rope_parameters "
     r"given"),
    ({"model_type": "mimo_v2_flash", "head_dim": 5, "num_hidden_layers": 1, "layer_types": ["full_attention"],
      "rope_parameters": {"full_attention": dict(FLAT)}},  # (the class default held 0.334; the given one holds none)
     r"config: head_dim: 5 is odd and rotated whole \(partial_rotary_factor 1.0 for full_attention, the "
     r"rope_parameters given: mimo_v2_flash's"),
    ({"model_type": "dots3_note", "head_dim": 9, "rope_parameters": dict(FLAT)},  # (Dots3NoteConfig's own attributes)
     r"config: head_dim: 9 is odd and rotated whole \(partial_rotary_factor 1.0, the rope_parameters given: "
     r"dots3_note's"),
    ({"model_type": "beam", "head_dim": 5, "num_hidden_layers": 2, "sliding_window": 4,
      "layer_types": ["sliding_attention", "full_attention"]},  # (its class default: sliding_attention's factor 1.0)
     r"config: head_dim: 5 is odd and rotated whole \(partial_rotary_factor 1.0 for sliding_attention, beam's default "
     r"rope_parameters\)"),
    ({"model_type": "gemma4_text", "head_dim": 5, "num_hidden_layers": 2, "per_layer_config": None,
      "layer_types": ["sliding_attention", "full_attention"]},  # (null: no per-layer sizes, so not heterogeneous)
     r"config: head_dim: 5 is odd and rotated whole \(partial_rotary_factor 1.0 for sliding_attention, gemma4_text's "
     r"default rope_parameters\)"),
    ({"model_type": "cosmos3_edge", "text_config": {"head_dim": 7, "rope_parameters": {  # (sections that fit 7)
        "rope_type": "default", "rope_theta": 10000.0, "mrope_section": [1, 1, 1]}}},
     r"config: text_config.head_dim: 7 is odd and rotated whole \(partial_rotary_factor 1.0\)"),
])
def test_odd_head_dim_with_rope_parameters_given_says_why(config, message):
    assert _transformers_refuses(config)
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load(config)


@pytest.mark.parametrize("config", [
    {"model_type": "t5", "d_kv": 5},  # no rope_parameters given: validate_rope reads none
    {"model_type": "t5", "d_kv": 5, "rope_parameters": {**FLAT, "partial_rotary_factor": 0.5}},  # rotates 2 of 5
    {"model_type": "switch_transformers", "d_kv": 5, "rope_parameters": dict(FLAT)},  # (no head_dim attribute)
    {"model_type": "mimo_v2_flash", "head_dim": 5, "num_hidden_layers": 1, "layer_types": ["full_attention"],
     "rope_parameters": {"full_attention": {**FLAT, "partial_rotary_factor": 0.4}}},
    {"model_type": "qwen2_vl", "head_dim": 5},  # (a flat config's head_dim stays on the whole config, unread)
    {"model_type": "llama", "head_dim": 5, "rope_parameters": dict(FLAT), "partial_rotary_factor": 0.5},  # (folded in)
    {"model_type": "gemma4_text", "head_dim": 5, "num_hidden_layers": 2,  # heterogeneous: validate_rope skips it
     "layer_types": ["sliding_attention", "full_attention"]},
    {"model_type": "beam", "head_dim": 5, "num_hidden_layers": 1},  # no sliding layer: full_attention has no RoPE
    {"model_type": "hunyuan_vl", "attention_head_dim": 4, "head_dim": 5},  # (attribute_map: attention_head_dim wins)
])
def test_odd_head_dim_with_rope_parameters_given_counted_where_transformers_makes_it(config):
    assert _transformers_refuses(config) is False
    paramledger.load(config)


def test_odd_head_dim_is_one_line_and_status_2(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "llama", "head_dim": 5}')
    status, out, err = cli("count", str(path))
    assert status == 2 and not out
    assert err.strip().count("\n") == 0 and "head_dim: 5 is odd and rotated whole" in err
    path.write_text('{"model_type": "t5", "d_kv": 5, "rope_parameters": {"rope_type": "default"}}')
    for command in ("count", "memory", "verify"):
        status, out, err = cli(command, str(path))
        assert status == 2 and not out, (command, err)
        assert err.strip().count("\n") == 0 and "d_kv: 5 is odd and rotated whole (partial_rotary_factor 1.0, the " \
                                                 "rope_parameters given" in err


@pytest.mark.parametrize(("argv", "message"), [
    (["count", "Llama-3.2-1B", "--set", "head_dim=65"], "(override): head_dim: 65 is odd and rotated whole"),
    (["count", "Llama-3.2-1B", "--set", "hidden_size=2080", "--set", "head_dim=null"], "head_dim: 65 (hidden_size 2,080 // num_attention_heads 32)"),
    (["whatif", "Llama-3.2-1B", "--vary", "head_dim=65"], "--vary head_dim=65: head_dim: 65 is odd"),
    (["count", "Phi-3-mini-4k-instruct", "--set", "vocab_size=32000"], "pad_token_id: 32,000 is outside the 32,000 rows"),
    (["whatif", "Phi-3-mini-4k-instruct", "--vary", "vocab_size=32000"], "--vary vocab_size=32000: pad_token_id: 32,000"),
])
def test_a_change_to_a_release_is_refused_where_transformers_refuses_its_config(cli, argv, message):
    """--set and whatif's --vary on a design read from a config ask its config's own refusals again with the change
    (hf_config.recheck_changes): LlamaConfig(head_dim=65) fails validate_rope; Phi-3's pad_token_id 32,000 leaves a
    32,000-row table.  The same changes that transformers makes are counted."""
    status, out, err = cli(*argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err
    even = [arg.replace("65", "66").replace("2080", "2112").replace("32000", "32001") for arg in argv]
    assert cli(*even)[0] == 0


@pytest.mark.parametrize("config", [{"model_type": "mamba2", "hidden_size": 8, "num_heads": 3, "head_dim": 5},
                                    {"model_type": "mamba2", "hidden_size": 8, "num_heads": 4, "head_dim": 4}])
def test_mamba2_head_dim_refused_where_its_config_refuses(cli, tmp_path, config):
    """Found by scripts/even_rotary_types.py: Mamba2Config.validate_architecture refuses num_heads × head_dim other
    than hidden_size × expand; paramledger counted it (head_dim sizes nothing)."""
    try:
        hf_config(config)
    except ParamledgerError as error:
        assert "Inconsistent configuration" in str(error)
        path = tmp_path / "config.json"
        path.write_text(json.dumps(config))
        status, out, err = cli("count", str(path))
        assert status == 2 and not out and err.count("\n") == 1
        assert "head_dim: 5 × num_heads 3 is not hidden_size × expand = 16" in err
    else:
        paramledger.load(config)

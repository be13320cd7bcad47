"""An odd head_dim that RoPE rotates whole (families/even_rotary.py, issue #15): refused in one line naming
head_dim, exactly where transformers' validate_rope refuses the config.

For every supported type, its smallest random config (tests/_family_configs.py) is made with head_dim 5 (given, and
as hidden_size // num_attention_heads where the config spells those keys) and with head_dim 6.
"""

from __future__ import annotations

import pytest

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError, ParamledgerError
from paramledger.reference import hf_config

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


def test_odd_head_dim_is_one_line_and_status_2(cli, tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "llama", "head_dim": 5}')
    status, out, err = cli("count", str(path))
    assert status == 2 and not out
    assert err.strip().count("\n") == 0 and "head_dim: 5 is odd and rotated whole" in err


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

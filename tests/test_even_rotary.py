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
    _, nested = _reader(config)
    given = _with(config, nested, head_dim=5)
    refused = _transformers_refuses(given)
    key = f"{nested}.head_dim" if nested else "head_dim"
    if refused:  # (a few refuse head_dim 5 for its width first: "head_dim: 5 × 1 heads != hidden_size=2")
        with pytest.raises(ArchitectureError, match=f"config: ({key}|head_dim): 5 "):  # (ModernVBERT's: its text's)
            paramledger.load(given)
    elif refused is False:
        assert not _paramledger_refuses(given)
    assert not _paramledger_refuses(_with(config, nested, head_dim=6))
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

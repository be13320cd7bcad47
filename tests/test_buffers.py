"""Buffers against transformers 5.24.0: every family's named_buffers(), buffer by buffer.

The reference is the model transformers builds on the meta device at bfloat16, as the parameters
are checked (test_families.py): each buffer's name, shape, dtype (a bfloat16 one is the model's own
dtype) and whether the state dict holds it (persistent).  Memory sizes these (buffers.py).
"""

from __future__ import annotations

import warnings

import pytest
from _family_configs import CONFIGS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paramledger import families, inventory, load
from paramledger.buffers import buffers_of, every_buffer
from paramledger.hf_config import architecture_from_config
from paramledger.reference import auto_class, causal_lm_config, default_config, hf_config

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def reference(config: dict) -> dict[str, tuple[tuple[int, ...], str, bool]]:
    transformers.logging.set_verbosity_error()
    cfg = hf_config(config)
    family = families.get(config["model_type"])
    if family is not None and family.text_decoder_only:
        cfg = causal_lm_config(cfg)
    with warnings.catch_warnings(), torch.device("meta"):
        warnings.simplefilter("ignore")
        model = auto_class(cfg).from_config(cfg, dtype=torch.bfloat16)
    persistent = set(model.state_dict(keep_vars=True))
    return {name: (tuple(b.shape), str(b.dtype).removeprefix("torch."), name in persistent)
            for name, b in model.named_buffers()}


def ours(config: dict) -> dict[str, tuple[tuple[int, ...], str, bool]]:
    inv = inventory(architecture_from_config(config))
    return {b.name: (b.shape, b.dtype or "bfloat16", b.persistent) for b in every_buffer(inv)}


TYPES = sorted(CONFIGS)


@pytest.mark.parametrize("model_type", TYPES)
def test_buffers_at_the_class_defaults(model_type):
    config = default_config(model_type)
    try:
        theirs = reference(config)
    except Exception as error:  # noqa: BLE001 (a class whose defaults transformers cannot build)
        pytest.skip(f"transformers cannot build {model_type}'s defaults: {str(error)[:80]}")
    assert ours(config) == theirs


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
@pytest.mark.parametrize("model_type", TYPES)
def test_buffers_on_random_configs(model_type, data):
    config = data.draw(CONFIGS[model_type])
    try:
        theirs = reference(config)
    except Exception:  # noqa: BLE001 (transformers refuses this draw; the parameter tests cover refusals)
        return
    assert ours(config) == theirs


def test_buffers_of_sums_each_layer_kind_once():
    inv = inventory(load("DeepSeek-V3"))
    grouped = buffers_of(inv)
    assert sum(b.count * times for b, times in grouped) == sum(b.count for b in every_buffer(inv))
    bias = [(b.name, times) for b, times in grouped if b.name.endswith("e_score_correction_bias")]
    assert bias == [("model.layers.3.mlp.gate.e_score_correction_bias", 58)]

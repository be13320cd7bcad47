"""MiniMax's lightning attention part against transformers 5.24.0's MiniMaxLightningAttention built alone: its
tensors (names, shapes, order), its buffers (name, shape, dtype, persistence), the state MiniMaxCache holds after a
prompt, and the FLOPs torch counts for one decoded token.  The part is not wired into designs yet
(docs/notes/coverage-set-d.md), so the module is built by itself rather than through a family."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from types import SimpleNamespace

import pytest

from _part_reference import built, module_buffers, module_tensors, part_buffers, part_tensors
from paramledger._exceptions import ArchitectureError
from paramledger.parts.lightning import MIXER, LightningAttention

NAMING = SimpleNamespace(lightning=MIXER.names.lightning, conv1d=False)  # what Naming holds once MIXER is listed

sizes = st.fixed_dictionaries({
    "num_attention_heads": st.sampled_from([1, 2, 3, 4]),
    "width": st.sampled_from([2, 4, 8]),  # hidden_size = heads × width
    "head_dim": st.one_of(st.none(), st.sampled_from([2, 4, 6])),  # None: hidden_size // heads
    "block_size": st.integers(1, 8),
    "num_hidden_layers": st.integers(1, 3),
})


def _module(drawn: dict, dtype=None):
    from transformers import MiniMaxConfig
    from transformers.models.minimax.modeling_minimax import MiniMaxLightningAttention

    heads = drawn["num_attention_heads"]
    config = MiniMaxConfig(hidden_size=heads * drawn["width"], num_attention_heads=heads, num_key_value_heads=heads,
                           head_dim=drawn["head_dim"], block_size=drawn["block_size"],
                           num_hidden_layers=drawn["num_hidden_layers"], vocab_size=16, intermediate_size=4)
    return config, built(lambda: MiniMaxLightningAttention(config, layer_idx=drawn["num_hidden_layers"] - 1), dtype)


def _part(config) -> LightningAttention:
    head_dim = config.head_dim or config.hidden_size // config.num_attention_heads
    return LightningAttention(config.hidden_size, config.num_attention_heads, head_dim, config.block_size)


@given(drawn=sizes)
def test_tensors_are_the_modules_in_its_order(drawn):
    config, module = _module(drawn)
    assert part_tensors(_part(config), NAMING) == module_tensors("self_attn.", module)


def test_class_defaults_hold_four_tensors_of_the_hidden_size():
    config, module = _module({"num_attention_heads": 32, "width": 128, "head_dim": None, "block_size": 256,
                              "num_hidden_layers": 2})
    part = _part(config)
    assert part.inner == 4096
    assert part_tensors(part, NAMING) == module_tensors("self_attn.", module)


@given(drawn=sizes)
def test_buffers_are_the_modules_at_the_models_dtype(drawn):
    import torch

    config, module = _module(drawn, dtype=torch.bfloat16)
    assert part_buffers(_part(config), NAMING) == module_buffers("self_attn.", module, torch.bfloat16)


@given(drawn=sizes, prompt=st.integers(1, 10))
def test_state_and_decoding_flops_are_what_transformers_holds_and_counts(drawn, prompt):
    import torch
    from torch.utils.flop_counter import FlopCounterMode
    from transformers.models.minimax.modeling_minimax import MiniMaxCache

    config, module = _module(drawn)
    part = _part(config)
    hidden = torch.randn(1, prompt, config.hidden_size, generator=torch.Generator().manual_seed(prompt))
    cache = MiniMaxCache()
    with torch.no_grad():
        module(hidden, None, None, cache=cache)  # the prompt, in blocks of block_size
        state = cache.get_linear_cache(module.layer_idx)
        assert state.numel() == part.state_values()  # batch 1: one sequence
        with FlopCounterMode(display=False) as counter:
            module(hidden[:, -1:], None, None, cache=cache)  # one decoded token from the state
    weights = sum(p.numel() for name, p in module.named_parameters() if name != "norm.weight")
    assert counter.get_total_flops() == 2 * weights + part.attention_flops(prompt)
    assert part.kv_values_per_token() == 0


def _design(**values):
    """A stand-in design with the attention's sizes and the mixer's keys (the Architecture gets them when listed)."""
    base = {"hidden_size": 32, "num_attention_heads": 4, "attention_head_dim": 8, "lightning_attention_layers": (1,),
            "lightning_block_size": 16}
    return SimpleNamespace(**{**base, **values})


def test_a_layer_holds_the_part_from_the_attentions_sizes():
    assert MIXER.build(_design()) == LightningAttention(32, 4, 8, 16)
    assert MIXER.engaged(_design()) and not MIXER.engaged(_design(lightning_attention_layers=(),
                                                                  lightning_block_size=None))


def test_block_size_is_refused_without_the_layers_and_required_with_them():
    with pytest.raises(ArchitectureError, match="lightning_block_size: set without lightning_attention_layers"):
        MIXER.check(_design(lightning_attention_layers=()), "spec.yaml")
    with pytest.raises(ArchitectureError, match="lightning_block_size: required with lightning_attention_layers"):
        MIXER.check(_design(lightning_block_size=None), "spec.yaml")

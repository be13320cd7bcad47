"""MiniMax's lightning attention part against transformers 5.24.0's MiniMaxLightningAttention built alone: its
tensors (names, shapes, order), its buffers (name, shape, dtype, persistence), the state MiniMaxCache holds after a
prompt, and the FLOPs torch counts for one decoded token.  The part is not wired into designs yet
(docs/notes/coverage-set-d.md), so the module is built by itself rather than through a family."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paramledger.naming import LLAMA
from paramledger.parts._collector import BufferCollector, Collector
from paramledger.parts.lightning import LightningAttention

sizes = st.fixed_dictionaries({
    "num_attention_heads": st.sampled_from([1, 2, 3, 4]),
    "width": st.sampled_from([2, 4, 8]),  # hidden_size = heads × width
    "head_dim": st.one_of(st.none(), st.sampled_from([2, 4, 6])),  # None: hidden_size // heads
    "block_size": st.integers(1, 8),
    "num_hidden_layers": st.integers(1, 3),
})


def _module(drawn: dict, dtype=None):
    import torch
    from transformers import MiniMaxConfig
    from transformers.models.minimax.modeling_minimax import MiniMaxLightningAttention

    heads = drawn["num_attention_heads"]
    config = MiniMaxConfig(hidden_size=heads * drawn["width"], num_attention_heads=heads, num_key_value_heads=heads,
                           head_dim=drawn["head_dim"], block_size=drawn["block_size"],
                           num_hidden_layers=drawn["num_hidden_layers"], vocab_size=16, intermediate_size=4)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype or previous)
    try:
        module = MiniMaxLightningAttention(config, layer_idx=drawn["num_hidden_layers"] - 1)
    finally:
        torch.set_default_dtype(previous)
    return config, module


def _part(config) -> LightningAttention:
    head_dim = config.head_dim or config.hidden_size // config.num_attention_heads
    return LightningAttention(config.hidden_size, config.num_attention_heads, head_dim, config.block_size)


def _ours(part: LightningAttention) -> list[tuple[str, tuple[int, ...]]]:
    c = Collector(LLAMA, "rmsnorm")
    part.tensors(c)
    return [(t.name, t.shape) for t in c.tensors]


@given(drawn=sizes)
def test_tensors_are_the_modules_in_its_order(drawn):
    config, module = _module(drawn)
    theirs = [("self_attn." + name, tuple(p.shape)) for name, p in module.named_parameters()]
    assert _ours(_part(config)) == theirs


def test_class_defaults_hold_four_tensors_of_the_hidden_size():
    config, module = _module({"num_attention_heads": 32, "width": 128, "head_dim": None, "block_size": 256,
                              "num_hidden_layers": 2})
    part = _part(config)
    assert part.inner == 4096
    assert sum(p.numel() for p in module.parameters()) == 4096 + 3 * 4096 * 4096 + 2 * 4096 * 4096
    assert _ours(part) == [("self_attn." + n, tuple(p.shape)) for n, p in module.named_parameters()]


@given(drawn=sizes)
def test_buffers_are_the_modules_at_the_models_dtype(drawn):
    import torch

    config, module = _module(drawn, dtype=torch.bfloat16)
    c = BufferCollector(LLAMA, "rmsnorm")
    _part(config).buffers(c)
    persistent = set(module.state_dict())
    theirs = [("self_attn." + name, tuple(b.shape), b.dtype == module.qkv_proj.weight.dtype, name in persistent)
              for name, b in module.named_buffers()]
    assert [(b.name, b.shape, b.dtype is None, b.persistent) for b in c.buffers] == theirs


@given(drawn=sizes, prompt=st.integers(1, 10))
def test_state_and_decoding_flops_are_what_transformers_holds_and_counts(drawn, prompt):
    import torch
    from torch.utils.flop_counter import FlopCounterMode
    from transformers.models.minimax.modeling_minimax import MiniMaxCache

    config, module = _module(drawn)
    part = _part(config)
    hidden = torch.randn(1, prompt, config.hidden_size, generator=torch.Generator().manual_seed(prompt))
    cache = MiniMaxCache()
    layer = module.layer_idx
    with torch.no_grad():
        module(hidden, None, None, cache=cache)  # the prompt, in blocks of block_size
        state = cache.get_linear_cache(layer)
        assert state.numel() == part.state_values()  # batch 1: one sequence
        with FlopCounterMode(display=False) as counter:
            module(hidden[:, -1:], None, None, cache=cache)  # one decoded token from the state
    weights = sum(p.numel() for name, p in module.named_parameters() if name != "norm.weight")
    assert counter.get_total_flops() == 2 * weights + part.attention_flops(prompt)
    assert part.kv_values_per_token() == 0

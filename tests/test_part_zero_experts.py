"""LongCat-Flash's zero-compute experts part against transformers 5.24.0's LongcatFlashMoE built alone: its tensors
(names, shapes, order; none for the experts when n_routed_experts is 0) and its buffer (name, shape, dtype,
persistence).  The part is not wired into designs yet (docs/notes/coverage-set-d.md)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from _part_reference import built, module_buffers, module_tensors, part_buffers, part_tensors
from paramledger.parts.zero_experts import ZeroComputeExperts

sizes = st.fixed_dictionaries({
    "hidden_size": st.sampled_from([4, 8, 16]),
    "n_routed_experts": st.integers(0, 6),
    "zero_expert_num": st.integers(0, 4),
    "expert_ffn_hidden_size": st.integers(1, 12),
    "router_bias": st.booleans(),
})


def _block(drawn: dict, dtype=None, device: str = "cpu"):
    from transformers import LongcatFlashConfig
    from transformers.models.longcat_flash.modeling_longcat_flash import LongcatFlashMoE

    config = LongcatFlashConfig(vocab_size=16, num_layers=1, num_attention_heads=2, moe_topk=1, **drawn)
    return config, built(lambda: LongcatFlashMoE(config), dtype, device)


def _part(config) -> ZeroComputeExperts:
    return ZeroComputeExperts(config.hidden_size, config.n_routed_experts, config.zero_expert_num,
                              config.expert_ffn_hidden_size, getattr(config, "router_bias", False))


@given(drawn=sizes)
def test_tensors_are_the_blocks_in_its_order(drawn):
    config, block = _block(drawn)
    assert part_tensors(_part(config)) == module_tensors("mlp.", block)


def test_class_defaults_keep_gate_up_slices_for_the_zero_experts():
    config, block = _block({}, device="meta")  # 29 billion parameters: shapes only
    assert tuple(block.experts.gate_up_proj.shape) == (768, 4096, 6144)  # 512 computing + 256 zero experts
    assert part_tensors(_part(config)) == module_tensors("mlp.", block)


@given(drawn=sizes)
def test_buffer_is_the_blocks_at_the_models_dtype(drawn):
    import torch

    config, block = _block(drawn, dtype=torch.bfloat16)
    assert part_buffers(_part(config)) == module_buffers("mlp.", block, torch.bfloat16)

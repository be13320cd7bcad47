"""ZAYA's MLP-routed experts part against transformers 5.24.0's ZayaSparseMoeBlock built alone: its tensors (names,
shapes, order, the first layer without the router-state scale) and its buffer (name, shape, dtype, persistence).  The
part is not wired into designs yet (docs/notes/coverage-set-d.md), so the block is built by itself."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from _part_reference import built, module_buffers, module_tensors, part_buffers, part_tensors
from paramledger.parts._collector import Collector
from paramledger.naming import LLAMA
from paramledger.parts.mlp_router import MlpRoutedExperts

sizes = st.fixed_dictionaries({
    "hidden_size": st.sampled_from([4, 8, 16]),
    "num_experts": st.integers(1, 6),
    "moe_intermediate_size": st.integers(1, 12),
    "router_hidden_size": st.integers(1, 12),
    "layer": st.integers(0, 2),
})


def _block(drawn: dict, dtype=None):
    from transformers import ZayaConfig
    from transformers.models.zaya.modeling_zaya import ZayaSparseMoeBlock

    keys = {k: v for k, v in drawn.items() if k != "layer"}
    config = ZayaConfig(vocab_size=16, num_hidden_layers=3, num_attention_heads=2, num_key_value_heads=1, head_dim=4,
                        **keys)
    return config, built(lambda: ZayaSparseMoeBlock(config, drawn["layer"]), dtype)


def _part(config, layer: int) -> MlpRoutedExperts:
    return MlpRoutedExperts(config.hidden_size, config.num_experts, config.moe_intermediate_size,
                            config.router_hidden_size, carries_router_state=layer != 0)


@given(drawn=sizes)
def test_tensors_are_the_blocks_in_its_order(drawn):
    config, block = _block(drawn)
    part = _part(config, drawn["layer"])
    assert part_tensors(part) == module_tensors("mlp.", block)
    c = Collector(LLAMA, "rmsnorm")
    part.tensors(c)
    assert {t.name: t.experts for t in c.tensors if t.experts} == {"mlp.experts.gate_up_proj": config.num_experts,
                                                                  "mlp.experts.down_proj": config.num_experts}


def test_class_defaults_score_a_skip_expert_beside_sixteen():
    config, block = _block({"layer": 1})
    ours = part_tensors(_part(config, 1))
    assert dict(ours)["mlp.gate.router_mlp.out_proj.weight"] == (17, 256)
    assert ours == module_tensors("mlp.", block)


@given(drawn=sizes)
def test_buffer_is_the_blocks_float32_whatever_the_models_dtype(drawn):
    import torch

    config, block = _block(drawn, dtype=torch.bfloat16)
    assert part_buffers(_part(config, drawn["layer"])) == module_buffers("mlp.", block, torch.bfloat16)

"""The Kimi Delta Attention part against transformers 5.24.0's two modules built alone, KimiLinearDeltaAttention
(low-rank gates) and BailingHybridDeltaAttention (full-rank gates): its tensors (names, shapes, order), the state a
DynamicCache holds after a prompt, and the FLOPs torch counts for one decoded token.  The part is not wired into
designs yet (docs/notes/coverage-set-c.md), so each module is built by itself rather than through a family, and the
part reads its path from a stand-in for the Naming field its MIXER declares."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from _part_reference import module_tensors, part_tensors
from hypothesis import given, settings
from hypothesis import strategies as st

from paramledger._exceptions import ArchitectureError
from paramledger.parts.kda import MIXER, KimiDeltaAttention

pytest.importorskip("transformers")

NAMING = SimpleNamespace(kda=MIXER.names.kda, conv1d=False)  # what Naming holds once MIXER is listed
sizes = st.fixed_dictionaries({
    "heads": st.sampled_from([1, 2, 3, 4]),
    "width": st.sampled_from([2, 4, 8]),  # hidden_size = heads × width
    "head_dim": st.sampled_from([2, 4, 6, 8]),
    "kernel": st.integers(2, 4),
    "layers": st.integers(1, 3),
    "full_rank_gates": st.booleans(),  # Bailing-Hybrid's module, else Kimi Linear's
})


def _module(drawn: dict):
    heads, layers = drawn["heads"], drawn["layers"]
    common = {"hidden_size": heads * drawn["width"], "num_attention_heads": heads, "num_key_value_heads": heads,
              "num_hidden_layers": layers, "layer_types": ["linear_attention"] * layers, "vocab_size": 16,
              "intermediate_size": 4, "moe_intermediate_size": 4, "num_local_experts": 2, "num_experts_per_tok": 1,
              "pad_token_id": 0, "eos_token_id": 0}
    if drawn["full_rank_gates"]:
        from transformers import BailingHybridConfig
        from transformers.models.bailing_hybrid.modeling_bailing_hybrid import BailingHybridDeltaAttention

        # BailingHybridConfig reads the KDA heads from num_attention_heads, their width from head_dim
        config = BailingHybridConfig(**common, head_dim=drawn["head_dim"], short_conv_kernel_size=drawn["kernel"],
                                     first_k_dense_replace=0, n_group=1, topk_group=1)
        return config, BailingHybridDeltaAttention(config, layer_idx=layers - 1)
    from transformers import KimiLinearConfig
    from transformers.models.kimi_linear.modeling_kimi_linear import KimiLinearDeltaAttention

    config = KimiLinearConfig(**common, linear_num_heads=heads, linear_head_dim=drawn["head_dim"],
                              linear_conv_kernel_dim=drawn["kernel"])
    return config, KimiLinearDeltaAttention(config, layer_idx=layers - 1)


def _part(config, full_rank_gates: bool) -> KimiDeltaAttention:
    return KimiDeltaAttention(config.hidden_size, config.linear_num_heads, config.linear_head_dim,
                              config.linear_conv_kernel_dim, full_rank_gates)


@given(drawn=sizes)
def test_tensors_are_the_modules_in_its_order(drawn):
    config, module = _module(drawn)
    assert part_tensors(_part(config, drawn["full_rank_gates"]), NAMING) == module_tensors("self_attn.", module)
    assert not list(module.named_buffers())  # and the part registers none


@pytest.mark.parametrize("full_rank_gates", [False, True])
def test_class_defaults(full_rank_gates):
    """Kimi Linear's 32 heads of 128 over 2304 channels, Bailing-Hybrid's 32 of 128 over 2560, a 4-tap conv."""
    import torch
    from transformers import BailingHybridConfig, KimiLinearConfig
    from transformers.models.bailing_hybrid.modeling_bailing_hybrid import BailingHybridDeltaAttention
    from transformers.models.kimi_linear.modeling_kimi_linear import KimiLinearDeltaAttention

    config = BailingHybridConfig() if full_rank_gates else KimiLinearConfig()
    with torch.device("meta"):
        module = (BailingHybridDeltaAttention if full_rank_gates else KimiLinearDeltaAttention)(config, 0)
    part = _part(config, full_rank_gates)
    assert (part.num_heads, part.head_dim, part.conv_kernel) == (32, 128, 4)
    ours = part_tensors(part, NAMING)
    assert ours == module_tensors("self_attn.", module)
    total = sum(p.numel() for p in module.parameters())  # as transformers 5.24.0 builds it
    assert sum(math.prod(shape) for _, shape in ours) == total == (63_049_888 if full_rank_gates else 39_514_272)


@settings(max_examples=25, deadline=None)
@given(drawn=sizes, prompt=st.integers(1, 6))
def test_state_and_decoding_flops_are_what_transformers_holds_and_counts(drawn, prompt):
    import torch
    from torch.utils.flop_counter import FlopCounterMode
    from transformers import DynamicCache

    config, module = _module(drawn)
    part = _part(config, drawn["full_rank_gates"])
    hidden = torch.randn(1, prompt, config.hidden_size, generator=torch.Generator().manual_seed(prompt))
    cache = DynamicCache(config=config)
    layer = cache.layers[module.layer_idx]
    with torch.no_grad():
        module(hidden, cache=cache)  # the prompt
        assert type(layer).__name__ == "LinearAttentionLayer"
        held = layer.conv_states[0].numel() + layer.recurrent_states[0].numel()
        assert held == part.state_values()  # batch 1: one sequence
        with FlopCounterMode(display=False) as counter:
            module(hidden[:, -1:], cache=cache)  # one decoded token from the state
    linear = sum(p.numel() for name, p in module.named_parameters() if name.endswith("proj.weight"))
    conv = module.conv1d.weight.numel()
    # causal_conv1d_update's torch path convolves the kernel-wide state and the new token: two outputs, one kept
    assert counter.get_total_flops() == 2 * linear + 2 * 2 * conv + part.attention_flops(prompt)
    assert part.kv_values_per_token() == 0


def _design(**changed) -> SimpleNamespace:
    """The KDA keys of a design, as the Architecture will hold them once MIXER is listed."""
    keys = {"kda_layers": (0,), "kda_num_heads": 2, "kda_head_dim": 4, "kda_conv_kernel_dim": 4,
            "kda_full_rank_gates": False, "kda_flat_a_log": False, **changed}
    return SimpleNamespace(hidden_size=8, **keys)


def test_sizes_are_refused_without_the_layers_and_required_with_them():
    assert MIXER.engaged(_design()) and not MIXER.engaged(_design(kda_layers=(), kda_num_heads=None, kda_head_dim=None,
                                                                   kda_conv_kernel_dim=None))
    with pytest.raises(ArchitectureError, match="kda_num_heads: set without kda_layers"):
        MIXER.check(_design(kda_layers=()), "spec.yaml")
    with pytest.raises(ArchitectureError, match="kda_full_rank_gates: set without kda_layers"):
        MIXER.check(_design(kda_layers=(), kda_num_heads=None, kda_head_dim=None, kda_conv_kernel_dim=None,
                            kda_full_rank_gates=True), "spec.yaml")
    with pytest.raises(ArchitectureError, match="kda_head_dim: required with kda_layers"):
        MIXER.check(_design(kda_head_dim=None), "spec.yaml")
    MIXER.check(_design(), "spec.yaml")  # every size given: nothing to refuse
    assert MIXER.build(_design(kda_full_rank_gates=True)) == KimiDeltaAttention(8, 2, 4, 4, True)

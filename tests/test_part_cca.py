"""ZAYA's compressed convolutional attention part against transformers 5.24.0's ZayaAttention built alone: its tensors
(names, shapes, order), the keys and values a DynamicCache holds per token, the convolution and value state it holds per
sequence, and the FLOPs torch counts for one decoded token.  The part is not wired into designs yet
(docs/notes/coverage-set-d.md), so the module is built by itself rather than through a family."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from _part_reference import module_tensors, part_tensors
from paramledger.parts.cca import CompressedConvolutionalAttention


@st.composite
def sizes(draw) -> dict:
    heads = draw(st.sampled_from([1, 2, 4, 6]))
    return {
        "num_attention_heads": heads,
        "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 3, 4, 6) if heads % k == 0])),
        "head_dim": draw(st.sampled_from([2, 4, 8])),  # even: the two value halves
        "hidden_size": draw(st.sampled_from([8, 16, 24])),
        "cca_time0": draw(st.integers(1, 4)),
        "cca_time1": draw(st.integers(1, 4)),
        "attention_bias": draw(st.booleans()),
    }


def _module(drawn: dict):
    from transformers import ZayaConfig
    from transformers.models.zaya.modeling_zaya import ZayaAttention

    config = ZayaConfig(vocab_size=16, num_hidden_layers=1, num_experts=2, moe_intermediate_size=4,
                        router_hidden_size=4, **drawn)
    config._attn_implementation = "eager"  # every matmul visible to the FLOP counter
    return config, ZayaAttention(config, 0).eval()


def _part(config) -> CompressedConvolutionalAttention:
    return CompressedConvolutionalAttention(config.hidden_size, config.num_attention_heads, config.num_key_value_heads,
                                            config.head_dim, config.cca_time0, config.cca_time1, config.attention_bias)


@given(drawn=sizes())
def test_tensors_are_the_modules_in_its_order(drawn):
    config, module = _module(drawn)
    assert part_tensors(_part(config)) == module_tensors("self_attn.", module)


def test_class_defaults_match_the_module():
    config, module = _module({})
    part = _part(config)
    assert (part.conv_channels, part.conv_state_width) == (1280, 2)  # (8 + 2) heads × 128; (2 − 1) + (2 − 1)
    assert part_tensors(part) == module_tensors("self_attn.", module)


@given(drawn=sizes(), prompt=st.integers(1, 8))
def test_cache_and_decoding_flops_are_what_transformers_holds_and_counts(drawn, prompt):
    import torch
    from torch.utils.flop_counter import FlopCounterMode
    from transformers.cache_utils import DynamicCache
    from transformers.models.zaya.modeling_zaya import ZayaRotaryEmbedding

    config, module = _module(drawn)
    part, rotary = _part(config), ZayaRotaryEmbedding(config)
    hidden = torch.randn(1, prompt + 1, config.hidden_size, generator=torch.Generator().manual_seed(prompt))
    cache = DynamicCache(config=config)  # "hybrid": LinearAttentionAndFullAttentionLayer
    with torch.no_grad():
        module(hidden[:, :prompt], None, cache, rotary(hidden[:, :prompt], torch.arange(prompt)[None], "hybrid"))
        layer = cache.layers[0]
        assert layer.keys.numel() + layer.values.numel() == prompt * part.kv_values_per_token()
        state = [*layer.conv_states.values(), *layer.recurrent_states.values()]
        assert sum(s.numel() for s in state) == part.state_values()
        position = torch.tensor([[prompt]])
        with FlopCounterMode(display=False) as counter:
            module(hidden[:, prompt:], None, cache, rotary(hidden[:, prompt:], position, "hybrid"))
    weights = sum(p.numel() for name, p in module.named_parameters() if name.endswith(".weight"))
    assert counter.get_total_flops() == 2 * weights + part.attention_flops(prompt + 1)

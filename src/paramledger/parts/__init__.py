"""The parts a layer is made of, one module per kind (parts/_protocol.py is the protocol they answer).

``MIXERS``: the token mixers other than self-attention, each declared by its module's ``MIXER`` (its flat
keys, names, placement, part and refusals), in the order their keys follow the Architecture's own, or by its
``MIXERS`` where one module declares several (parts/scaled_mla.py).  A new mixer kind is its module and its name
here."""

from __future__ import annotations

from importlib import import_module

from ._protocol import MixerKind

MIXER_MODULES = ("deltanet", "mamba", "conv", "lightning", "kda", "rglru", "local_attention", "rwkv", "xlstm",
                 "gate_bias_attention", "gated_norm_mla", "gated_input_norm_mla", "relative_segment_attention",
                 "hyper_gate", "ngpt_scales", "gated_cross_attention",
                 "block_indexed_attention", "span_conv_attention", "grouped_conv_layer", "fourier", "relative_bias",
                 "cca", "dual_sublayer", "ngram_attention", "head_gated_mla", "indexed_head_gated_mla",
                 "sliding_head_gated_mla", "mobile_bottleneck_layer", "biased_gate_attention", "qsa_attention",
                 "funnel_layer", "shared_kv_attention", "scaled_mla", "inkling_attention",
                 "inkling_sliding_attention", "inkling2_layer", "inkling2_sliding_layer", "inkling2_first_layer",
                 "inkling2_loop_layer", "inkling2_loop_sliding_layer", "reformer_layer", "aligned_attention",
                 "disentangled_v2_attention")


def _declared(name: str) -> tuple[MixerKind, ...]:
    module = import_module(f"{__name__}.{name}")
    return getattr(module, "MIXERS", None) or (module.MIXER,)


MIXERS: tuple[MixerKind, ...] = tuple(kind for name in MIXER_MODULES for kind in _declared(name))

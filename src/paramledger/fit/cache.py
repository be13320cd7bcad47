"""The KV cache on each device, in vLLM's paged blocks.

vLLM allocates the cache in blocks of ``block_size`` tokens (vllm/config/cache.py CacheConfig.DEFAULT_BLOCK_SIZE
= 16; an attention backend may ask for more, FlashMLA for 64: give --block-size).  Per sequence and layer
(vllm/v1/kv_cache_interface.py):
- a full-attention layer holds ``cdiv(context, block_size)`` blocks (FullAttentionSpec.max_memory_usage_bytes);
- a sliding-window layer ``cdiv(min(sliding_window - 1 + max_in_flight_tokens, context), block_size) + 1``
  (SlidingWindowSpec.max_admission_blocks_per_request; max_in_flight_tokens = pp × max_num_batched_tokens,
  VllmConfig.max_in_flight_tokens);
- a block holds ``block_size`` tokens of the layer's keys and values on this device: the KV heads tp leaves it
  (one when tp >= the KV heads: QKVParallelLinear), or MLA's whole latent, which every device caches in full
  (models/deepseek_v2.py builds its MLA attention with ``num_kv_heads=1``, replicated, not split by tp);
- a recurrent layer (Mamba, Gated DeltaNet, short conv) holds its fixed state, its heads split by tp.
Values per token and state come from kvcache.kv_cache (each part's own figure); the paging and the split here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..architecture import Architecture
from ..kvcache import KVCache, kv_cache

DEFAULT_BLOCK_SIZE = 16  # vllm/config/cache.py CacheConfig.DEFAULT_BLOCK_SIZE


@dataclass(frozen=True)
class StageCache:
    """One device's cache for one sequence: the layers it holds, each (values per token, window, state)."""

    full_values: int  # values per token over the full-attention layers on the device
    sliding: tuple[tuple[int, int], ...]  # (window, values per token) per sliding layer kind
    state_values: int  # recurrent state per sequence on the device
    bytes_per_value: int
    # of state_values, those vLLM keeps in float32 whatever the cache's dtype: KDA's recurrent state
    # (layers/mamba/mamba_utils.py MambaStateDtypeCalculator.kda_state_dtype, mamba_ssm_cache_dtype "auto")
    state_float32_values: int = 0

    def bytes(self, context: int, batch: int, block_size: int, in_flight_tokens: int) -> int:
        """KV cache bytes (recurrent state apart) for ``batch`` sequences of ``context`` tokens."""
        tokens = -(-context // block_size) * block_size
        values = self.full_values * tokens
        for window, per_token in self.sliding:
            held = min(window - 1 + in_flight_tokens, context)
            values += per_token * (-(-held // block_size) + 1) * block_size
        return batch * values * self.bytes_per_value

    def state_bytes(self, batch: int) -> int:
        float32 = self.state_float32_values
        return batch * ((self.state_values - float32) * self.bytes_per_value + float32 * 4)


def stage_caches(arch: Architecture, kv_dtype: str, tp: int, stages: list[tuple[int, int]]) -> list[StageCache]:
    """Each pipeline stage's cache on one of its devices (every tp rank of a stage holds the same)."""
    kv: KVCache = kv_cache(arch, 1, 1, kv_dtype)
    if any(layer.sequence_values is not None for layer, _ in kv.runs):  # a compressing cache (DeepSeek-V4's)
        from .._exceptions import OptionError

        raise OptionError("source", "fit pages a cache of values per token; this design's layers also hold "
                          "compressed entries (DeepSeek-V4's compressors), whose vLLM layout is not modelled: "
                          "see paramledger memory for transformers' cache")
    held = []  # each run's (window, KV values per token, state) on one tp rank: a run's layers are alike
    for layer, _ in kv.runs:
        per_token = layer.values_per_token
        if per_token and not arch.is_mla:
            kv_heads = _kv_heads(arch, layer.layer, layer.window is not None)
            per_token = per_token * max(1, kv_heads // tp) // kv_heads
        held.append((layer.window, per_token, -(-layer.state_values // tp), -(-layer.state_float32_values // tp)))
    out = []
    for start, end in stages:  # each run's layers in the stage counted in C, never a step per layer
        if len(kv.runs) == 1 or (start, end) == (0, kv.layer_count):  # the whole model: each run's own count
            layers = {0: end - start} if len(kv.runs) == 1 else {run: n for run, (_, n) in enumerate(kv.runs)}
        else:
            layers = Counter(kv.kinds[start:end])
        full = state = float32 = 0
        sliding: dict[int, int] = {}
        for run, count in layers.items():
            window, per_token, state_values, float32_values = held[run]
            if window is None:
                full += per_token * count
            elif per_token:
                sliding[window] = sliding.get(window, 0) + per_token * count
            state += state_values * count
            float32 += float32_values * count
        out.append(StageCache(full, tuple(sorted(sliding.items())), state, kv.bytes_per_value, float32))
    return out

def _kv_heads(arch: Architecture, layer: int, sliding: bool) -> int:
    if arch.num_key_value_heads_per_layer and arch.num_key_value_heads_per_layer[layer]:
        return arch.num_key_value_heads_per_layer[layer]
    if sliding and arch.sliding_num_key_value_heads:
        return arch.sliding_num_key_value_heads
    return arch.kv_heads

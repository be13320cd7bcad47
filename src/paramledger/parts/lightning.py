"""MiniMax's lightning attention (transformers 5.24.0 modeling_minimax.py MiniMaxLightningAttention, lines 126-274):
linear attention in place of self-attention on the layers whose layer_types entry is "linear_attention", caching no
keys or values but one head_dim × head_dim state per head.

Declared whole as ``MIXER`` but not yet listed in parts/__init__.py's MIXER_MODULES (docs/notes/coverage-set-d.md has
the minimax family that would use it); tests/test_part_lightning.py checks it against the transformers module built
alone."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import BufferCollector, Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class LightningAttention(NamedTuple):
    """An RMSNorm over the heads' output (a scale only, whatever the block norms are), one fused qkv_proj
    (3 × heads × head_dim rows), out_proj back to the hidden size, and output_gate, a sigmoid gate on
    every output channel projected from the block's input; no biases on any of them."""
    hidden_size: int
    num_heads: int  # num_attention_heads: the lightning layers have no KV heads of their own
    head_dim: int  # head_dim, else hidden_size // num_attention_heads
    block_size: int  # lightning_block_size (MiniMax's block_size): the prefill's block length, sizing the buffers

    @property
    def inner(self) -> int:
        return self.num_heads * self.head_dim

    def tensors(self, c: Collector) -> None:
        path, d, inner = c.naming.lightning + ".", self.hidden_size, self.inner
        c.add(path + "norm.weight", (inner,), "norm")  # MiniMaxRMSNorm(head_dim × heads)
        c.linear(path + "qkv_proj", 3 * inner, d, "mixer")
        c.linear(path + "out_proj", d, inner, "mixer")
        c.linear(path + "output_gate", inner, d, "mixer")

    def buffers(self, c: BufferCollector) -> None:
        """The per-head decay rates and the block decays made from them (get_slope_rate, decay_factors):
        persistent buffers at the model's dtype."""
        path, heads, block = c.naming.lightning + ".", self.num_heads, self.block_size
        c.buffer(path + "slope_rate", (heads, 1, 1))
        c.buffer(path + "query_decay", (heads, block, 1))
        c.buffer(path + "key_decay", (heads, block, 1))
        c.buffer(path + "diagonal_decay", (1, heads, block, block))

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 0

    def state_values(self) -> int:
        """K^T V of every head so far, decayed (MiniMaxCache.linear_cache: batch × heads × head_dim × head_dim)."""
        return self.num_heads * self.head_dim * self.head_dim

    def attention_flops(self, keys: int) -> int:
        """One decoded token, whatever the context: the state's update k^T v and its read q · state, head_dim²
        multiply-adds each per head (the decay is elementwise)."""
        return 4 * self.num_heads * self.head_dim * self.head_dim

    def mixer_label(self) -> tuple[str, str | None]:
        return "lightning attention", "linear"

    def state_label(self) -> str:
        return "linear-attention (lightning)"


class Keys:
    """The flat keys: the lightning layers (layer_types "linear_attention") and block_size, which only its buffers
    read; its heads are the attention's (num_attention_heads of head_dim)."""
    lightning_attention_layers: tuple[int, ...] = ()
    lightning_block_size: int | None = None


class Names:
    lightning: str = "self_attn"  # the mixer's module path: MiniMax keeps self-attention's name


def _check(arch: Any, where: str | None) -> None:
    if not arch.lightning_attention_layers:
        raise ArchitectureError("lightning_block_size", "set without lightning_attention_layers (the "
                                "lightning-attention layers)", where)
    if arch.lightning_block_size is None:
        raise ArchitectureError("lightning_block_size", "required with lightning_attention_layers (the "
                                "lightning-attention layers)", where)


def _build(arch: Any) -> LightningAttention:
    return _new(LightningAttention, (arch.hidden_size, arch.num_attention_heads, arch.attention_head_dim,
                                     arch.lightning_block_size))


MIXER = MixerKind("lightning_attention_layers", Keys, Names, _build,
                  lambda arch: bool(arch.lightning_attention_layers or arch.lightning_block_size is not None), _check,
                  positive_or_null=("lightning_block_size",))

"""Griffin's recurrent block, the RG-LRU (transformers 5.24.0 modeling_recurrent_gemma.py RecurrentGemmaRecurrentBlock,
lines 392-466, and RecurrentGemmaRglru, lines 281-299): in place of self-attention on the layers whose block_types
entry is "recurrent".  It caches no keys or values but, per sequence, the conv's last conv1d_width - 1 inputs and
one lru_width state."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, part

_new = tuple.__new__


@part
class RecurrentBlock(NamedTuple):
    """linear_y (the gate branch) and linear_x (the recurrent branch) from the hidden size to lru_width, linear_out
    back, all biased; a depthwise conv1d over x (conv1d_width taps, biased); the RG-LRU: a's parameter per channel
    and its input and recurrence gates, each block-diagonal (one lru_width / heads square block per head) with a
    bias (RecurrentGemmaRglru registers recurrent_param, input_gate_weight, input_gate_bias, recurrent_gate_weight,
    recurrent_gate_bias in that order)."""
    hidden_size: int
    lru_width: int  # lru_width (None in the config: hidden_size)
    conv_width: int  # conv1d_width
    num_heads: int  # num_attention_heads: the gates' diagonal blocks

    def tensors(self, c: Collector) -> None:
        path, d, width, heads = c.naming.rglru + ".", self.hidden_size, self.lru_width, self.num_heads
        block = width // heads
        c.linear(path + "linear_y", width, d, "mixer", None, True)
        c.linear(path + "linear_x", width, d, "mixer", None, True)
        c.linear(path + "linear_out", d, width, "mixer", None, True)
        c.add(path + "conv_1d.weight", (width, 1, self.conv_width), "mixer")  # (channels, 1, kernel)
        c.add(path + "conv_1d.bias", (width,), "mixer")
        lru = path + "rg_lru."
        c.add(lru + "recurrent_param", (width,), "mixer")
        for gate in ("input_gate", "recurrent_gate"):
            c.add(lru + gate + "_weight", (heads, block, block), "mixer")  # (heads, in, out) per head
            c.add(lru + gate + "_bias", (heads, block), "mixer")

    def state_values(self) -> int:
        """conv1d_state (lru_width, conv1d_width - 1) after a prompt, and rg_lru.recurrent_states (lru_width), which
        transformers keeps at float32 whatever the model's dtype (RecurrentGemmaRecurrentBlock._setup_cache): both
        held on the modules, not in the Cache object."""
        return self.lru_width * (self.conv_width - 1) + self.lru_width

    def mixer_label(self) -> tuple[str, str | None]:
        return "RG-LRU", "linear"

    def state_label(self) -> str:
        return "recurrent (RG-LRU)"


class Keys:
    """The flat keys: the recurrent layers (block_types "recurrent"), the recurrence's width lru_width (None:
    hidden_size) and the conv's conv1d_width taps; its heads are num_attention_heads."""
    rglru_layers: tuple[int, ...] = ()
    lru_width: int | None = None
    conv1d_width: int | None = None


class Names:
    rglru: str = "temporal_block"  # the mixer's module path: Griffin's temporal block


def _engaged(arch: Any) -> bool:
    return bool(arch.rglru_layers or arch.lru_width is not None or arch.conv1d_width is not None)


def _check(arch: Any, where: str | None) -> None:
    if not arch.rglru_layers:
        key = "lru_width" if arch.lru_width is not None else "conv1d_width"
        raise ArchitectureError(key, "set without rglru_layers (the RG-LRU recurrent layers)", where)
    if arch.conv1d_width is None:
        raise ArchitectureError("conv1d_width", "required with rglru_layers (the RG-LRU recurrent layers)", where)
    width = arch.lru_width or arch.hidden_size
    if width % arch.num_attention_heads:  # RecurrentGemmaRglru.forward reshapes lru_width into the heads' blocks
        raise ArchitectureError("lru_width", f"{width} is not a multiple of num_attention_heads="
                                f"{arch.num_attention_heads} (the RG-LRU gates' blocks)", where)


def _build(arch: Any) -> RecurrentBlock:
    return _new(RecurrentBlock, (arch.hidden_size, arch.lru_width or arch.hidden_size, arch.conv1d_width,
                                 arch.num_attention_heads))


MIXER = MixerKind("rglru_layers", Keys, Names, _build, _engaged, _check,
                  positive_or_null=("lru_width", "conv1d_width"))

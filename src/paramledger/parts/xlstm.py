"""The xLSTM-7B block (transformers 5.24.0 modeling_xlstm.py, the implementation it uses without the xlstm package:
xLSTMBlock, lines 1173-1192; xLSTMLayer, the mLSTM, lines 1037-1105; xLSTMFeedForward, lines 990-1024), one part for
the whole block: its RMSNorms carry a bias with use_bias, which no block norm builds, and weight_mode "fused" fuses
the FFN's gate and up projections under a name of its own, so the part holds the norms, the mLSTM and the FFN, with
the layer's FFN and block norms none.

It caches no keys or values: per sequence and head, the mLSTM's matrix memory (qk head × v head), its normalizer
(qk head) and its running maximum (one value): xLSTMCache.rnn_state, lines 1355-1367."""

from __future__ import annotations

from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ._collector import Collector
from ._protocol import MixerKind, holds_its_own_ffn, part

_new = tuple.__new__


@part
class XLSTMBlock(NamedTuple):
    """norm_mlstm; the mLSTM: q and k to qk_dim, v and the output gate's pre-activation to v_dim, the input and
    forget gates' pre-activations (one per head, always biased), a per-head LayerNorm over v_dim, out_proj; norm_ffn;
    the gated FFN (SiLU) intermediate_size wide.  use_bias biases every other projection and every norm."""
    hidden_size: int
    num_heads: int  # xlstm_num_heads: num_heads
    qk_dim: int  # xlstm_qk_dim: int(hidden_size × qk_dim_factor)
    v_dim: int  # xlstm_v_dim: int(hidden_size × v_dim_factor)
    intermediate_size: int  # intermediate_size: hidden_size × ffn_proj_factor rounded up (xlstm family)
    use_bias: bool = False  # xlstm_use_bias: use_bias
    fused: bool = False  # xlstm_fused_projections: weight_mode "fused" (qkv_opreact, ifgate_preact, proj_up_gate_z)

    def tensors(self, c: Collector) -> None:
        path, d, heads, bias = c.naming.xlstm_block, self.hidden_size, self.num_heads, self.use_bias
        qk, v, ffn = self.qk_dim, self.v_dim, self.intermediate_size
        _norm(c, path + "norm_mlstm", d, bias)
        mlstm = path + "mlstm_layer."
        if self.fused:
            c.linear(mlstm + "qkv_opreact", 2 * qk + 2 * v, d, "mixer", None, bias)
            c.linear(mlstm + "ifgate_preact", 2 * heads, d, "mixer", None, True)
        else:
            c.linear(mlstm + "q", qk, d, "mixer", None, bias)
            c.linear(mlstm + "k", qk, d, "mixer", None, bias)
            c.linear(mlstm + "v", v, d, "mixer", None, bias)
            c.linear(mlstm + "ogate_preact", v, d, "mixer", None, bias)
            c.linear(mlstm + "igate_preact", heads, d, "mixer", None, True)
            c.linear(mlstm + "fgate_preact", heads, d, "mixer", None, True)
        _norm(c, mlstm + "multihead_norm", heads * (v // heads), bias)  # xLSTMMultiHeadLayerNorm: heads × head_dim
        c.linear(mlstm + "out_proj", d, v, "mixer", None, bias)
        _norm(c, path + "norm_ffn", d, bias)
        if self.fused:
            c.linear(path + "ffn.proj_up_gate_z", 2 * ffn, d, "ffn", None, bias)
        else:
            c.linear(path + "ffn.proj_up_gate", ffn, d, "ffn", None, bias)
            c.linear(path + "ffn.proj_up", ffn, d, "ffn", None, bias)
        c.linear(path + "ffn.proj_down", d, ffn, "ffn", None, bias)

    def state_values(self) -> int:
        """Per head: the matrix memory C (qk head × v head), the normalizer n (qk head) and the maximum m (1)."""
        heads, qk_head, v_head = self.num_heads, self.qk_dim // self.num_heads, self.v_dim // self.num_heads
        return heads * (qk_head * v_head + qk_head + 1)

    def attention_flops(self, keys: int) -> int:
        """One decoded token, whatever the context (mlstm_recurrent_step_native's bmm): per head the memory's
        update k ⊗ v and its read C q (qk head × v head multiply-adds each) and the normalizer's n · q."""
        heads, qk_head, v_head = self.num_heads, self.qk_dim // self.num_heads, self.v_dim // self.num_heads
        return 2 * heads * qk_head * (2 * v_head + 1)

    def mixer_label(self) -> tuple[str, str | None]:
        return "mLSTM", "linear"

    def state_label(self) -> str:
        return "recurrent (mLSTM)"


def _norm(c: Collector, path: str, size: int, bias: bool) -> None:
    """An xLSTM norm (xLSTMRMSNorm, xLSTMMultiHeadLayerNorm): a weight, and a bias with use_bias."""
    c.add(path + ".weight", (size,), "norm")
    if bias:
        c.add(path + ".bias", (size,), "norm")


class Keys:
    """The flat keys: the xLSTM layers, their heads, the mLSTM's query-key and value widths (None: half the hidden
    size, and the hidden size: qk_dim_factor 0.5 and v_dim_factor 1.0), biases and the fused projections; the FFN is
    intermediate_size wide."""
    xlstm_layers: tuple[int, ...] = ()
    xlstm_num_heads: int | None = None
    xlstm_qk_dim: int | None = None
    xlstm_v_dim: int | None = None
    xlstm_use_bias: bool = False
    xlstm_fused_projections: bool = False


class Names:
    xlstm_block: str = ""  # the block's path in its layer, ending in "." ("": the layer itself, backbone.blocks.{i})


def _check(arch: Any, where: str | None) -> None:
    if not arch.xlstm_layers:
        raise ArchitectureError("xlstm_num_heads", "set without xlstm_layers (the xLSTM layers)", where)
    if arch.xlstm_num_heads is None:
        raise ArchitectureError("xlstm_num_heads", "required with xlstm_layers (the xLSTM layers)", where)
    holds_its_own_ffn(arch, "xlstm_layers", "the xLSTM block's own", where)


def _build(arch: Any) -> XLSTMBlock:
    d = arch.hidden_size
    return _new(XLSTMBlock, (d, arch.xlstm_num_heads, arch.xlstm_qk_dim or d // 2, arch.xlstm_v_dim or d,
                             arch.ffn_size, arch.xlstm_use_bias, arch.xlstm_fused_projections))


MIXER = MixerKind("xlstm_layers", Keys, Names, _build, lambda arch: bool(arch.xlstm_layers
                                                                         or arch.xlstm_num_heads is not None), _check,
                  positive_or_null=("xlstm_num_heads", "xlstm_qk_dim", "xlstm_v_dim"))

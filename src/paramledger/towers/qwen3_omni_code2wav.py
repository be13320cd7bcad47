"""Qwen3-Omni-MoE's code2wav (Qwen3OmniMoeCode2Wav, transformers 5.24.0 models/qwen3_omni_moe/
modeling_qwen3_omni_moe.py lines 3895-3930, from code2wav_config, Qwen3OmniMoeCode2WavConfig,
configuration_qwen3_omni_moe.py lines 480-533), under the whole model's "code2wav.": speech codes to a waveform.

- pre_transformer (Qwen3OmniMoeCode2WavTransformerModel, lines 3709-3725): num_hidden_layers layers (lines
  3645-3655: q, k, v, o unbiased unless attention_bias, head_dim hidden_size // num_attention_heads floored (read by
  getattr; the class declares none), no q/k norms (nn.Identity); a gated MLP at intermediate_size; two RMSNorms; two
  layer scales, a (hidden,) ``scale`` each), the final norm, a rotary (head_dim // 2 rounded up, float32, not
  persistent);
- code_embedding, an nn.Embedding (codebook_size × num_quantizers, hidden_size), and the int64 buffer code_offset
  (1, num_quantizers, 1), not persistent (line 3904);
- upsample: per upsampling_ratios factor, a CausalTransConvNet (ConvTranspose1d hidden -> hidden, kernel factor) and
  a ConvNeXtBlock (lines 3484-3500: gamma first (its own parameter), a depthwise conv (hidden, 1, 7), a LayerNorm,
  pwconv1 hidden -> 4 × hidden, pwconv2 back);
- decoder: a causal conv hidden -> decoder_dim (kernel 7), one DecoderBlock per upsample_rates entry (lines
  3868-3885: SnakeBeta, a CausalTransConvNet decoder_dim // 2**i -> // 2**(i+1), kernel 2 × rate, three residual
  units of SnakeBeta, conv (7), SnakeBeta, conv (1)), SnakeBeta and a causal conv to 1 channel (kernel 7).
  Every conv biased."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TOWER_LAYERS, TowerKind, positive

_new = tuple.__new__
COMPONENT = "vocoder"
SECTION = "code2wav_config"

# configuration_qwen3_omni_moe.py (Qwen3OmniMoeCode2WavConfig, lines 506-524)
CODE2WAV = {"codebook_size": 2048, "hidden_size": 1024, "num_attention_heads": 16, "num_key_value_heads": 16,
            "attention_bias": False, "intermediate_size": 3072, "num_hidden_layers": 8, "num_quantizers": 16,
            "upsample_rates": [8, 5, 4, 3], "upsampling_ratios": [2, 2], "decoder_dim": 1536}


class Code2Wav(NamedTuple):
    listed: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...]
    table: str  # code_embedding, an nn.Embedding

    def tensors(self) -> list[Tensor]:
        return list(self.listed)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)

    def embedding_tables(self) -> list[str]:
        return [self.table]


def _rates(config: Mapping[str, Any], key: str, where: str | None) -> tuple[int, ...]:
    value = config.get(key)
    if not isinstance(value, (list, tuple)) or len(value) > TOWER_LAYERS or not all(
            type(rate) is int and 1 <= rate <= 1 << 20 for rate in value):
        raise ArchitectureError(f"{SECTION}.{key}", f"must be a list of at most {TOWER_LAYERS:,} positive whole "
                                f"numbers, got {value!r}"[:200], where)
    return tuple(value)


def make_code2wav(prefix: str, config: Mapping[str, Any], where: str | None) -> Code2Wav:
    from .qwen2_5_omni_talker import odd_rotary
    from .qwen3_omni_talker import _head_dim

    sizes = {key: positive(config, key, SECTION, where) for key in (
        "codebook_size", "hidden_size", "num_attention_heads", "num_key_value_heads", "intermediate_size",
        "num_hidden_layers", "num_quantizers", "decoder_dim")}
    if sizes["num_hidden_layers"] > TOWER_LAYERS:
        raise ArchitectureError(f"{SECTION}.num_hidden_layers", f"{sizes['num_hidden_layers']:,} is past the bound "
                                f"of {TOWER_LAYERS:,} (docs/limits.md)", where)
    if sizes["num_attention_heads"] % sizes["num_key_value_heads"]:
        raise ArchitectureError(f"{SECTION}.num_key_value_heads", f"{sizes['num_key_value_heads']} does not divide "
                                f"num_attention_heads {sizes['num_attention_heads']}", where)
    head_dim = _head_dim(config, SECTION, where)
    odd_rotary(config, head_dim, SECTION, where)
    bias = config.get("attention_bias")
    if not isinstance(bias, bool):
        raise ArchitectureError(f"{SECTION}.attention_bias", f"must be true or false, got {bias!r}"[:200], where)
    rates = _rates(config, "upsample_rates", where)
    ratios = _rates(config, "upsampling_ratios", where)
    if sizes["decoder_dim"] >> len(rates) == 0:  # the last block's channels: decoder_dim // 2**len(upsample_rates)
        raise ArchitectureError(f"{SECTION}.upsample_rates", f"{len(rates)} blocks halve decoder_dim="
                                f"{sizes['decoder_dim']} to 0 channels", where)
    return _code2wav(prefix, tuple(sorted(sizes.items())), head_dim, bias, rates, ratios)


@lru_cache(maxsize=32)
def _code2wav(prefix: str, items: tuple[tuple[str, int], ...], head_dim: int, bias: bool, rates: tuple[int, ...],
              ratios: tuple[int, ...]) -> Code2Wav:
    s = dict(items)
    hidden, heads, kv = s["hidden_size"], s["num_attention_heads"], s["num_key_value_heads"]
    out: list[Tensor] = []

    def add(name: str, shape: tuple[int, ...]) -> None:
        out.append(_new(Tensor, (name, shape, COMPONENT, None, False, 0)))

    def linear(name: str, out_size: int, in_size: int, biased: bool = True) -> None:
        add(name + ".weight", (out_size, in_size))
        if biased:
            add(name + ".bias", (out_size,))

    def conv(name: str, shape: tuple[int, int, int], out_size: int) -> None:
        add(name + ".weight", shape)
        add(name + ".bias", (out_size,))

    def snake(name: str, width: int) -> None:
        add(name + ".alpha", (width,))
        add(name + ".beta", (width,))

    p = prefix + "pre_transformer."
    for i in range(s["num_hidden_layers"]):
        layer = f"{p}layers.{i}."
        linear(layer + "self_attn.q_proj", heads * head_dim, hidden, bias)
        linear(layer + "self_attn.k_proj", kv * head_dim, hidden, bias)
        linear(layer + "self_attn.v_proj", kv * head_dim, hidden, bias)
        linear(layer + "self_attn.o_proj", hidden, heads * head_dim, bias)
        linear(layer + "mlp.gate_proj", s["intermediate_size"], hidden, False)
        linear(layer + "mlp.up_proj", s["intermediate_size"], hidden, False)
        linear(layer + "mlp.down_proj", hidden, s["intermediate_size"], False)
        for name in ("input_layernorm.weight", "post_attention_layernorm.weight", "self_attn_layer_scale.scale",
                     "mlp_layer_scale.scale"):
            add(layer + name, (hidden,))
    add(p + "norm.weight", (hidden,))
    buffers = [Buffer(f"{p}rotary_emb.{which}", ((head_dim + 1) // 2,), "float32", False)
               for which in ("inv_freq", "original_inv_freq")]
    table = prefix + "code_embedding.weight"
    add(table, (s["codebook_size"] * s["num_quantizers"], hidden))
    buffers.insert(0, Buffer(prefix + "code_offset", (1, s["num_quantizers"], 1), "int64", False))
    for i, factor in enumerate(ratios):
        block = f"{prefix}upsample.{i}."
        conv(block + "0.conv", (hidden, hidden, factor), hidden)  # ConvTranspose1d: weight (in, out, kernel)
        add(block + "1.gamma", (hidden,))
        conv(block + "1.dwconv.conv", (hidden, 1, 7), hidden)
        linear(block + "1.norm", hidden, hidden)  # (the LayerNorm's weight and bias: (hidden,) each)
        out[-2:] = [t._replace(shape=(hidden,)) for t in out[-2:]]
        linear(block + "1.pwconv1", 4 * hidden, hidden)
        linear(block + "1.pwconv2", hidden, 4 * hidden)
    dim = s["decoder_dim"]
    conv(prefix + "decoder.0.conv", (dim, hidden, 7), dim)
    for i, rate in enumerate(rates):
        block, wide, narrow = f"{prefix}decoder.{i + 1}.block.", dim >> i, dim >> i + 1
        snake(block + "0", wide)
        conv(block + "1.conv", (wide, narrow, 2 * rate), narrow)
        for j in range(3):  # residual units at dilations 1, 3, 9
            unit = f"{block}{j + 2}."
            snake(unit + "act1", narrow)
            conv(unit + "conv1.conv", (narrow, narrow, 7), narrow)
            snake(unit + "act2", narrow)
            conv(unit + "conv2.conv", (narrow, narrow, 1), narrow)
    last = dim >> len(rates)
    snake(f"{prefix}decoder.{len(rates) + 1}", last)
    conv(f"{prefix}decoder.{len(rates) + 2}.conv", (1, last, 7), 1)
    return Code2Wav(tuple(out), tuple(buffers), table)


CODE2WAV_KIND = TowerKind(CODE2WAV, make_code2wav)

"""Qwen2.5-Omni's token2wav (Qwen2_5OmniToken2WavModel, transformers 5.24.0 models/qwen2_5_omni/
modeling_qwen2_5_omni.py lines 3647-3673), under the whole model's "token2wav.": speech codes to a mel spectrogram
(code2wav_dit_model, from token2wav_config.dit_config) and the mel spectrogram to a waveform (code2wav_bigvgan_model,
from token2wav_config.bigvgan_config).  The whole model casts it to float32 when it builds it
(Qwen2_5OmniForConditionalGeneration.enable_talker, line 3740: ``self.token2wav.float()``).

- The DiT (Qwen2_5OmniToken2WavDiTModel, lines 3476-3508): time_embed.time_mlp.0 and .2, biased Linears 256 ->
  hidden -> hidden (DiTTimestepEmbedding); text_embed.codec_embed, an nn.Embedding of (num_embeds + 1, emb_dim);
  input_embed.proj, a biased Linear from mel_dim + enc_dim + enc_emb_dim + emb_dim to hidden, then
  input_embed.spk_encoder (ECAPA_TimeDelayNet, lines 2752-2810: a TDNN block, a SE-Res2Net block per middle channel,
  mfa, asp, fc; every conv biased); a rotary (inv_freq and original_inv_freq, head_dim // 2, float32, not
  persistent); transformer_blocks (DiTDecoderLayer: attn_norm.linear hidden -> 6 × hidden, to_q, to_k, to_v
  hidden -> heads × head_dim and to_out.0 back, ff.ff.0 and ff.ff.3 through int(hidden × ff_mult), all biased; its
  ff_norm has no affine); norm_out.linear hidden -> 2 × hidden and proj_out hidden -> mel_dim, biased.
- The vocoder (Qwen2_5OmniToken2WavBigVGANModel, lines 3338-3381): conv_pre (mel_dim -> upsample_initial_channel,
  7), ups.{i}.0 ConvTranspose1d (channels halved each step, weight (in, out, kernel)), one AMPBlock per step and
  resblock kernel (three convs1 and three convs2 of the step's channels, six SnakeBeta activations of alpha and
  beta, each with an up- and a down-sampling filter buffer of (1, 1, 12), float32, not persistent),
  activation_post and conv_post (no bias)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TOWER_LAYERS, TowerKind, positive

_new = tuple.__new__
COMPONENT = "vocoder"
SECTION = "token2wav_config"

# transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniDiTConfig, lines 428-450)
DIT = {"hidden_size": 1024, "num_hidden_layers": 22, "num_attention_heads": 16, "ff_mult": 2, "emb_dim": 512,
       "head_dim": 64, "num_embeds": 8193, "mel_dim": 80, "enc_emb_dim": 192, "enc_dim": 128,
       "enc_channels": [256, 256, 256, 256, 768], "enc_kernel_sizes": [5, 3, 3, 3, 1],
       "enc_dilations": [1, 2, 3, 4, 1], "enc_attention_channels": 64, "enc_res2net_scale": 2, "enc_se_channels": 64}
# (Qwen2_5OmniBigVGANConfig, lines 473-478)
BIGVGAN = {"mel_dim": 80, "upsample_initial_channel": 1536, "resblock_kernel_sizes": [3, 7, 11],
           "resblock_dilation_sizes": [[1, 3, 5], [1, 3, 5], [1, 3, 5]], "upsample_rates": [5, 3, 2, 2, 2, 2],
           "upsample_kernel_sizes": [11, 7, 4, 4, 4, 4]}
FILTER = (1, 1, 12)  # kaiser_sinc_filter1d of the 12 taps Qwen2_5OmniAntiAliasedActivation1d gives both samplers


class Token2Wav(NamedTuple):
    listed: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...]
    table: str  # the DiT's codec_embed, an nn.Embedding

    def tensors(self) -> list[Tensor]:
        return list(self.listed)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)

    def embedding_tables(self) -> list[str]:
        return [self.table]


def _section(config: Mapping[str, Any], key: str, defaults: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    given = config.get(key)
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise ArchitectureError(f"{SECTION}.{key}", "must be a JSON object", where)
    return {**defaults, **given}


def _sizes(config: Mapping[str, Any], key: str, section: str, where: str | None, low: int = 1) -> tuple[int, ...]:
    """A list of whole numbers from ``low``, at most TOWER_LAYERS long (docs/limits.md), refused in one line."""
    value = config.get(key)
    if not isinstance(value, (list, tuple)) or not 0 < len(value) <= TOWER_LAYERS or not all(
            type(size) is int and low <= size <= 1 << 40 for size in value):
        raise ArchitectureError(f"{section}.{key}", f"must be a list of 1 to {TOWER_LAYERS:,} whole numbers from "
                                f"{low}, got {value!r}"[:200], where)
    return tuple(value)


def make_token2wav(prefix: str, token2wav: Mapping[str, Any], where: str | None) -> Token2Wav:
    dit = _section(token2wav, "dit_config", DIT, where)
    vocoder = _section(token2wav, "bigvgan_config", BIGVGAN, where)
    d, b = f"{SECTION}.dit_config", f"{SECTION}.bigvgan_config"
    dit_sizes = tuple(positive(dit, key, d, where) for key in (
        "hidden_size", "num_hidden_layers", "num_attention_heads", "head_dim", "ff_mult", "emb_dim", "mel_dim",
        "enc_emb_dim", "enc_dim", "enc_attention_channels", "enc_res2net_scale", "enc_se_channels"))
    from .qwen2_5_omni_talker import odd_rotary

    odd_rotary(dit, dit_sizes[3], d, where)
    num_embeds = dit.get("num_embeds")
    if type(num_embeds) is not int or not 0 <= num_embeds <= 1 << 40:
        raise ArchitectureError(f"{d}.num_embeds", f"must be a whole number from 0, got {num_embeds!r}"[:200], where)
    channels, kernels, dilations = (_sizes(dit, key, d, where) for key in (
        "enc_channels", "enc_kernel_sizes", "enc_dilations"))
    if not len(channels) == len(kernels) == len(dilations):  # ECAPA_TimeDelayNet's ValueError
        raise ArchitectureError(f"{d}.enc_channels", "enc_channels, enc_kernel_sizes and enc_dilations must be "
                                "as long as each other", where)
    if dit_sizes[1] > TOWER_LAYERS:
        raise ArchitectureError(f"{d}.num_hidden_layers", f"{dit_sizes[1]:,} is past the bound of {TOWER_LAYERS:,} "
                                "(docs/limits.md)", where)
    scale = dit_sizes[10]
    if any(size < scale for size in channels[1:-1]):  # Res2NetBlock's channels // scale: 0-wide convs
        raise ArchitectureError(f"{d}.enc_res2net_scale", f"{scale} is more than a middle enc_channels entry "
                                f"{min(channels[1:-1])}: its Res2Net convs would be 0 channels wide", where)
    upsample_channel = positive(vocoder, "upsample_initial_channel", b, where)
    mel = positive(vocoder, "mel_dim", b, where)
    res_kernels = _sizes(vocoder, "resblock_kernel_sizes", b, where)
    res_dilations = vocoder.get("resblock_dilation_sizes")
    if not isinstance(res_dilations, (list, tuple)) or not 0 < len(res_dilations) <= TOWER_LAYERS or not all(
            isinstance(entry, (list, tuple)) and len(entry) >= 3 for entry in res_dilations):
        raise ArchitectureError(f"{b}.resblock_dilation_sizes", "must be a list of lists of at least 3 dilations "
                                f"(an AMPBlock reads three), got {res_dilations!r}"[:200], where)
    rates = _sizes(vocoder, "upsample_rates", b, where)
    up_kernels = _sizes(vocoder, "upsample_kernel_sizes", b, where)
    if upsample_channel >> len(rates) == 0:  # the last step's channels: upsample_initial_channel // 2**steps
        raise ArchitectureError(f"{b}.upsample_rates", f"{len(rates)} steps halve upsample_initial_channel="
                                f"{upsample_channel} to 0 channels", where)
    # zip(resblock_kernel_sizes, resblock_dilation_sizes): the AMPBlocks of each step
    return _token2wav(prefix, dit_sizes, num_embeds, channels, kernels, upsample_channel, mel,
                      res_kernels[:len(res_dilations)], rates, up_kernels)


@lru_cache(maxsize=32)
def _token2wav(prefix: str, dit_sizes: tuple[int, ...], num_embeds: int, channels: tuple[int, ...],
               kernels: tuple[int, ...], upsample_channel: int, mel_vocoder: int, res_kernels: tuple[int, ...],
               rates: tuple[int, ...], up_kernels: tuple[int, ...]) -> Token2Wav:
    (hidden, layers, heads, head_dim, ff_mult, emb_dim, mel, enc_emb_dim, enc_dim, attention_channels, scale,
     se_channels) = dit_sizes
    out: list[Tensor] = []

    def add(name: str, shape: tuple[int, ...]) -> None:
        out.append(_new(Tensor, (name, shape, COMPONENT, None, False, 0)))

    def linear(name: str, out_size: int, in_size: int, bias: bool = True) -> None:
        add(name + ".weight", (out_size, in_size))
        if bias:
            add(name + ".bias", (out_size,))

    def conv(name: str, out_size: int, in_size: int, kernel: int, bias: bool = True) -> None:
        add(name + ".weight", (out_size, in_size, kernel))
        if bias:
            add(name + ".bias", (out_size,))

    p = prefix + "code2wav_dit_model."
    linear(p + "time_embed.time_mlp.0", hidden, 256)  # DiTTimestepEmbedding(freq_embed_dim=256)
    linear(p + "time_embed.time_mlp.2", hidden, hidden)
    add(p + "text_embed.codec_embed.weight", (num_embeds + 1, emb_dim))
    linear(p + "input_embed.proj", hidden, mel + enc_dim + enc_emb_dim + emb_dim)
    spk = p + "input_embed.spk_encoder."
    conv(spk + "blocks.0.conv", channels[0], mel, kernels[0])
    for i in range(1, len(channels) - 1):  # SqueezeExcitationRes2NetBlock(channels[i - 1], channels[i], ...)
        block, width = f"{spk}blocks.{i}.", channels[i]
        conv(block + "tdnn1.conv", width, channels[i - 1], 1)
        for j in range(scale - 1):  # Res2NetBlock: scale - 1 convs of width // scale channels
            conv(f"{block}res2net_block.blocks.{j}.conv", width // scale, width // scale, kernels[i])
        conv(block + "tdnn2.conv", width, width, 1)
        conv(block + "se_block.conv1", se_channels, width, 1)
        conv(block + "se_block.conv2", width, se_channels, 1)
    last = channels[-1]
    conv(spk + "mfa.conv", last, last, kernels[-1])
    conv(spk + "asp.tdnn.conv", attention_channels, last * 3, 1)
    conv(spk + "asp.conv", last, attention_channels, 1)
    conv(spk + "fc", enc_dim, last * 2, 1)
    inner, ff = heads * head_dim, int(hidden * ff_mult)
    for i in range(layers):
        block = f"{p}transformer_blocks.{i}."
        linear(block + "attn_norm.linear", hidden * 6, hidden)
        for name in ("to_q", "to_k", "to_v"):
            linear(block + "attn." + name, inner, hidden)
        linear(block + "attn.to_out.0", hidden, inner)
        linear(block + "ff.ff.0", ff, hidden)
        linear(block + "ff.ff.3", hidden, ff)
    linear(p + "norm_out.linear", hidden * 2, hidden)
    linear(p + "proj_out", mel, hidden)
    buffers = [Buffer(f"{p}rotary_embed.{which}", ((head_dim + 1) // 2,), "float32", False)
               for which in ("inv_freq", "original_inv_freq")]

    v = prefix + "code2wav_bigvgan_model."
    conv(v + "conv_pre", upsample_channel, mel_vocoder, 7)
    for i, (_, kernel) in enumerate(zip(rates, up_kernels)):  # ConvTranspose1d: weight (in, out, kernel)
        add(f"{v}ups.{i}.0.weight", (upsample_channel >> i, upsample_channel >> i + 1, kernel))
        add(f"{v}ups.{i}.0.bias", (upsample_channel >> i + 1,))
    for i in range(len(rates)):  # one step per rate (the ups above stop at the shorter list)
        width = upsample_channel >> i + 1
        for j, kernel in enumerate(res_kernels):
            block = f"{v}resblocks.{i * len(res_kernels) + j}."
            for which in ("convs1", "convs2"):
                for k in range(3):
                    conv(f"{block}{which}.{k}", width, width, kernel)
            for k in range(6):
                add(f"{block}activations.{k}.act.alpha", (width,))
                add(f"{block}activations.{k}.act.beta", (width,))
                buffers += [Buffer(f"{block}activations.{k}.{which}.filter", FILTER, "float32", False)
                            for which in ("upsample", "downsample")]
    width = upsample_channel >> len(rates)
    add(v + "activation_post.act.alpha", (width,))
    add(v + "activation_post.act.beta", (width,))
    buffers += [Buffer(f"{v}activation_post.{which}.filter", FILTER, "float32", False)
                for which in ("upsample", "downsample")]
    conv(v + "conv_post", 1, width, 7, bias=False)
    return Token2Wav(tuple(out), tuple(buffers), p + "text_embed.codec_embed.weight")


TOKEN2WAV = TowerKind({"dit_config": {}, "bigvgan_config": {}}, make_token2wav)  # (each section over its defaults)
TOWERS = {"qwen2_5_omni_token2wav": TOKEN2WAV}

"""WavTokenizer's encoder and quantizer (WavTokenizerEncoderModel: audio_config model_type "wavtokenizer_encoder"),
Apertus 1.5's audio tokenizer under model.audio_tokenizer (transformers 5.24.0
models/wavtokenizer/modeling_wavtokenizer.py: WavTokenizerConv1d, WavTokenizerLSTM, WavTokenizerResnetBlock,
WavTokenizerEncoder, WavTokenizerEuclideanCodebook, WavTokenizerEncoderModel; configuration_wavtokenizer.py).

- encoder.layers, one nn.ModuleList: a conv (audio_channels -> num_filters, kernel_size); per ratio of reversed
  upsampling_ratios, num_residual_layers resnet blocks at width c (block.1: c -> c // compress, residual_kernel_size;
  block.3: back, kernel 1; a kernel-1 shortcut conv with use_conv_shortcut), an ELU, a conv doubling the channels
  (kernel 2 × ratio); the LSTM (``lstm``: num_lstm_layers layers at the last width, biased); an ELU; a conv to
  hidden_size (last_kernel_size).  ELUs hold nothing but take their index.
- Every WavTokenizerConv1d is an nn.Conv1d (biased) under ``conv``: with norm_type "weight_norm" its weight is
  parametrized (conv.bias, conv.parametrizations.weight.original0 (out, 1, 1), original1 (out, in, kernel)); with
  "time_group_norm" a plain conv and a GroupNorm(1, out) ``norm``.  Each holds three int64 scalars (stride,
  kernel_size, padding_total; non-persistent).
- quantizer.codebook: buffers only, persistent (inited (1,), cluster_size (codebook_size,), embed and embed_avg
  (codebook_size, codebook_dim)).
Apertus1p5Model casts the tokenizer to float32: its float buffers are float32."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TOWER_LAYERS, TowerKind, flag, positive, whole_number

_new = tuple.__new__
KEY = "audio_config"
SIZES = ("audio_channels", "num_filters", "dilation_growth_rate", "compress", "kernel_size", "last_kernel_size",
         "residual_kernel_size", "hidden_size", "codebook_size", "codebook_dim")

DEFAULTS = {"model_type": "wavtokenizer_encoder", "sampling_rate": 24000, "audio_channels": 1, "num_filters": 32,
            "upsampling_ratios": [6, 5, 5, 4], "num_residual_layers": 1, "dilation_growth_rate": 2, "compress": 2,
            "use_conv_shortcut": True, "use_causal_conv": False, "pad_mode": "reflect", "norm_type": "weight_norm",
            "kernel_size": 7, "last_kernel_size": 7, "residual_kernel_size": 3, "num_lstm_layers": 2,
            "hidden_size": 512, "codebook_size": 4096, "codebook_dim": 512, "decoder_hidden_size": 768,
            "decoder_attention_num_groups": 32}
"""transformers 5.24.0 models/wavtokenizer/configuration_wavtokenizer.py (WavTokenizerConfig's fields the encoder
reads; WavTokenizerEncoderConfig shares them)."""


class WavTokenizerEncoder(NamedTuple):
    prefix: str  # "model.audio_tokenizer."
    sizes: tuple[int, ...]  # SIZES, in order
    ratios: tuple[int, ...]  # upsampling_ratios
    residual_layers: int  # num_residual_layers
    lstm_layers: int  # num_lstm_layers
    shortcut: bool  # use_conv_shortcut
    weight_norm: bool  # norm_type "weight_norm" (else "time_group_norm")

    def tensors(self) -> list[Tensor]:
        return [_new(Tensor, (self.prefix + name, shape, "audio", None, False, 0)) for name, shape in self.listed()[0]]

    def buffers(self) -> list[Buffer]:
        return self.listed()[1]

    def listed(self) -> tuple[list[tuple[str, tuple[int, ...]]], list[Buffer]]:
        (channels, filters, growth, compress, kernel, last_kernel, residual_kernel, hidden, codebook_size,
         codebook_dim) = self.sizes
        named: list[tuple[str, tuple[int, ...]]] = []
        buffers: list[Buffer] = []

        def conv(path: str, out: int, into: int, width: int) -> None:  # WavTokenizerConv1d
            path = "encoder.layers." + path
            if self.weight_norm:
                named.extend(((path + ".conv.bias", (out,)),
                              (path + ".conv.parametrizations.weight.original0", (out, 1, 1)),
                              (path + ".conv.parametrizations.weight.original1", (out, into, width))))
            else:
                named.extend(((path + ".conv.weight", (out, into, width)), (path + ".conv.bias", (out,)),
                              (path + ".norm.weight", (out,)), (path + ".norm.bias", (out,))))
            buffers.extend(Buffer(self.prefix + path + "." + name, (), "int64", False)
                           for name in ("stride", "kernel_size", "padding_total"))

        conv("0", filters, channels, kernel)
        index, width = 1, filters
        for ratio in reversed(self.ratios):
            for _ in range(self.residual_layers):
                inner = width // compress
                conv(f"{index}.block.1", inner, width, residual_kernel)
                conv(f"{index}.block.3", width, inner, 1)
                if self.shortcut:
                    conv(f"{index}.shortcut", width, width, 1)
                index += 1
            conv(str(index + 1), 2 * width, width, 2 * ratio)  # after its ELU
            index, width = index + 2, 2 * width
        for layer in range(self.lstm_layers):  # nn.LSTM(width, width, num_lstm_layers)
            lstm = f"encoder.layers.{index}.lstm."
            named.extend(((f"{lstm}weight_ih_l{layer}", (4 * width, width)),
                          (f"{lstm}weight_hh_l{layer}", (4 * width, width)),
                          (f"{lstm}bias_ih_l{layer}", (4 * width,)), (f"{lstm}bias_hh_l{layer}", (4 * width,))))
        conv(str(index + 2), hidden, width, last_kernel)  # after the LSTM and an ELU
        codebook = self.prefix + "quantizer.codebook."
        buffers.extend((Buffer(codebook + "inited", (1,), "float32", True),
                        Buffer(codebook + "cluster_size", (codebook_size,), "float32", True),
                        Buffer(codebook + "embed", (codebook_size, codebook_dim), "float32", True),
                        Buffer(codebook + "embed_avg", (codebook_size, codebook_dim), "float32", True)))
        return named, buffers


def make(prefix: str, audio: Mapping[str, Any], where: str | None) -> WavTokenizerEncoder:
    """The encoder of ``audio`` (audio_config over WavTokenizerConfig's defaults), its refusals said in one line
    naming the key."""
    sizes = tuple(positive(audio, key, KEY, where) for key in SIZES)
    try:
        residual_layers = whole_number(audio, "num_residual_layers", KEY, 0)
        lstm_layers = whole_number(audio, "num_lstm_layers", KEY, 1)  # nn.LSTM refuses num_layers 0
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None
    ratios = audio.get("upsampling_ratios")
    if not isinstance(ratios, (list, tuple)) or not all(type(r) is int and 0 < r <= 2**20 for r in ratios):
        raise ArchitectureError(f"{KEY}.upsampling_ratios", f"must be a list of positive whole numbers, got "
                                f"{str(ratios)[:80]}", where)
    if (len(ratios) + 1) * (residual_layers + 2) + lstm_layers > TOWER_LAYERS or len(ratios) > 48:
        raise ArchitectureError(f"{KEY}.upsampling_ratios", f"{len(ratios)} ratios of {residual_layers} blocks "
                                f"are beyond the bound of 48 ratios and {TOWER_LAYERS:,} layers (docs/limits.md)",
                                where)
    width = sizes[1] << len(ratios)  # the channels double at each ratio
    if width > 2**40:
        raise ArchitectureError(f"{KEY}.num_filters", f"doubled {len(ratios)} times gives {width:,} channels, "
                                "beyond the bound of 2^40 (docs/limits.md)", where)
    if residual_layers and sizes[1] // sizes[3] == 0:
        raise ArchitectureError(f"{KEY}.compress", f"{sizes[3]} leaves no channels of num_filters {sizes[1]} in "
                                "the resnet blocks (width // compress is 0)", where)
    if sizes[9] != sizes[7]:  # WavTokenizerConfig.validate_architecture: no projections around the quantizer
        raise ArchitectureError(f"{KEY}.codebook_dim", f"must equal hidden_size ({sizes[7]}): WavTokenizer has no "
                                f"projection around its quantizer, got {sizes[9]}", where)
    # the decoder's keys, which the encoder never builds but WavTokenizerConfig.validate_architecture checks
    if positive(audio, "decoder_hidden_size", KEY, where) % positive(audio, "decoder_attention_num_groups", KEY, where):
        raise ArchitectureError(f"{KEY}.decoder_hidden_size", "must be a multiple of decoder_attention_num_groups "
                                f"({audio['decoder_attention_num_groups']}), got {audio['decoder_hidden_size']}", where)
    norm = audio.get("norm_type")
    if norm not in ("weight_norm", "time_group_norm"):
        raise ArchitectureError(f"{KEY}.norm_type", f"must be \"weight_norm\" or \"time_group_norm\", got "
                                f"{norm!r}"[:200], where)
    return WavTokenizerEncoder(prefix, sizes, tuple(ratios), residual_layers, lstm_layers,
                               flag(audio, "use_conv_shortcut", KEY, where), norm == "weight_norm")


TOWERS = {"wavtokenizer_encoder": TowerKind(DEFAULTS, make)}

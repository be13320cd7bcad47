"""Granite Speech's audio tower, a Conformer CTC encoder (GraniteSpeechCTCEncoder under model.encoder, read from the
config's encoder_config), and its projector, a BLIP-2 Q-Former over windows of the encoder's output.

transformers 5.24.0 models/granite_speech/modeling_granite_speech.py: input_linear (input_dim to hidden_dim, biased);
num_layers Conformer blocks (GraniteSpeechConformerBlock): ff1 and ff2 (a LayerNorm pre_norm, a biased up_proj to
hidden_dim × feedforward_mult and down_proj back), attn (a LayerNorm, to_q and to_kv without bias, inner width
num_heads × dim_head, a biased to_out, rel_pos_emb an nn.Embedding of 2 × max_pos_emb + 1 rows dim_head wide), conv
(a LayerNorm, a biased pointwise up_conv to twice hidden_dim × conv_expansion_factor, a depthwise conv without bias
of conv_kernel_size, a BatchNorm1d with its running statistics, a biased pointwise down_conv), a LayerNorm
post_norm; then out (to output_dim) and out_mid (back), biased.  The encoder registers attention_dists, the relative
distances of one context window (context_size², int64, non-persistent).  GraniteSpeechEncoderConfig: dim_head null is
hidden_dim // num_heads; a context_size outside 1..max_pos_emb is refused by the attention.

GraniteSpeechEncoderProjector (the projector, under model.projector): query, window_size // downsample_rate learned
queries (1, queries, width); the Q-Former, AutoModel of projector_config (a Blip2QFormerModel: towers/qformer.py's
qformer_model), its cross-attention reading projector_config's own encoder_hidden_size (GraniteSpeechConfig does not
set it to the encoder's width); linear, the Q-Former's width to the decoder's, biased."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, head_width
from ._kind import section as config_section
from .audio import sized
from .qformer import QFORMER_DEFAULTS, qformer_model

_new = tuple.__new__
KEY = "encoder_config"
SIZES = ("input_dim", "num_layers", "hidden_dim", "feedforward_mult", "num_heads", "output_dim", "context_size",
         "max_pos_emb", "conv_kernel_size", "conv_expansion_factor")


class ConformerEncoder(NamedTuple):
    """One GraniteSpeechCTCEncoder as its encoder_config gives it, under its module path."""
    prefix: str
    input_dim: int
    num_layers: int
    hidden_dim: int
    feedforward_mult: int
    num_heads: int
    output_dim: int
    context_size: int
    max_pos_emb: int
    conv_kernel_size: int
    conv_expansion_factor: int
    dim_head: int
    # Granite Speech Plus: how many of the layers' outputs the projector reads beside the last (cat_hidden_layers'
    # entries; None: the list not given, nothing to check the projector's width against)
    concatenated: int | None = None

    @property
    def hidden_size(self) -> int:
        return self.hidden_dim

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p = self.hidden_dim, self.prefix
        ffn, inner, conv = d * self.feedforward_mult, self.num_heads * self.dim_head, d * self.conv_expansion_factor
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "audio", None, False, 0)))

        def norm(name: str) -> None:
            add(name + ".weight", (d,))
            add(name + ".bias", (d,))

        def feed_forward(name: str) -> None:
            norm(name + ".pre_norm")
            for proj, shape in (("up_proj", (ffn, d)), ("down_proj", (d, ffn))):
                add(f"{name}.{proj}.weight", shape)
                add(f"{name}.{proj}.bias", shape[:1])

        add("input_linear.weight", (d, self.input_dim))
        add("input_linear.bias", (d,))
        for i in range(self.num_layers):
            layer = f"layers.{i}."
            feed_forward(layer + "ff1")
            norm(layer + "attn.pre_norm")
            for name, shape in (("attn.to_q.weight", (inner, d)), ("attn.to_kv.weight", (2 * inner, d)),
                                ("attn.to_out.weight", (d, inner)), ("attn.to_out.bias", (d,)),
                                ("attn.rel_pos_emb.weight", (2 * self.max_pos_emb + 1, self.dim_head))):
                add(layer + name, shape)
            norm(layer + "conv.norm")
            for name, shape in (("conv.up_conv.weight", (2 * conv, d, 1)), ("conv.up_conv.bias", (2 * conv,)),
                                ("conv.depth_conv.conv.weight", (conv, 1, self.conv_kernel_size)),
                                ("conv.batch_norm.weight", (conv,)), ("conv.batch_norm.bias", (conv,)),
                                ("conv.down_conv.weight", (d, conv, 1)), ("conv.down_conv.bias", (d,))):
                add(layer + name, shape)
            feed_forward(layer + "ff2")
            norm(layer + "post_norm")
        for name, shape in (("out.weight", (self.output_dim, d)), ("out.bias", (self.output_dim,)),
                            ("out_mid.weight", (d, self.output_dim)), ("out_mid.bias", (d,))):
            add(name, shape)
        return tuple(out)

    def buffers(self) -> list[Buffer]:
        """attention_dists (int64, non-persistent), then each BatchNorm1d's running mean and variance (the model's
        dtype) and its num_batches_tracked (int64, a scalar), all three in the state dict."""
        conv, p = self.hidden_dim * self.conv_expansion_factor, self.prefix
        out = [Buffer(p + "attention_dists", (self.context_size, self.context_size), "int64", False)]
        for i in range(self.num_layers):
            norm = f"{p}layers.{i}.conv.batch_norm."
            out += [Buffer(norm + "running_mean", (conv,)), Buffer(norm + "running_var", (conv,)),
                    Buffer(norm + "num_batches_tracked", (), "int64")]
        return out

    def embedding_tables(self) -> list[str]:
        """Each attention's rel_pos_emb, an nn.Embedding (num_parameters(exclude_embeddings) drops them)."""
        return [f"{self.prefix}layers.{i}.attn.rel_pos_emb.weight" for i in range(self.num_layers)]


@lru_cache(maxsize=64)
def _listed(tower: ConformerEncoder) -> tuple[Tensor, ...]:
    return tower.listed()


def make(prefix: str, encoder: Mapping[str, Any], where: str | None) -> ConformerEncoder:
    sizes = dict(zip(SIZES, (sized(encoder, name, (name,), {}, KEY, where) for name in SIZES)))
    head = encoder.get("dim_head")
    head = head_width(sizes["hidden_dim"], sizes["num_heads"], f"{KEY}.num_heads", where, "hidden_dim") if (
        head is None) else sized(encoder, "dim_head", ("dim_head",), {}, KEY, where)
    if sizes["context_size"] > sizes["max_pos_emb"]:  # GraniteSpeechConformerAttention raises
        raise ArchitectureError(f"{KEY}.context_size", f"{sizes['context_size']} exceeds max_pos_emb="
                                f"{sizes['max_pos_emb']}", where)
    return ConformerEncoder(prefix, *sizes.values(), head)


def make_plus(prefix: str, encoder: Mapping[str, Any], where: str | None) -> ConformerEncoder:
    """GraniteSpeechPlusEncoderConfig: Granite Speech's encoder (the same tensors) with cat_hidden_layers, each a
    layer index within num_layers (GraniteSpeechPlusConfig.__post_init__ refuses any other)."""
    tower = make(prefix, encoder, where)
    listed = encoder.get("cat_hidden_layers")
    if listed is None:
        return tower
    if not isinstance(listed, list) or not all(type(i) is int and 0 <= i < tower.num_layers for i in listed):
        raise ArchitectureError(f"{KEY}.cat_hidden_layers", "must be a list of layer indices in "
                                f"0..{tower.num_layers - 1}, got {str(listed)[:80]}", where)
    return tower._replace(concatenated=len(listed))


ENCODER_DEFAULTS = {"input_dim": 160, "num_layers": 10, "hidden_dim": 1024, "feedforward_mult": 4, "num_heads": 8,
                    "dim_head": None, "output_dim": 42, "context_size": 200, "max_pos_emb": 512,
                    "conv_kernel_size": 15, "conv_expansion_factor": 2}
"""transformers 5.24.0 models/granite_speech/configuration_granite_speech.py (GraniteSpeechEncoderConfig)."""

TOWERS = {"granite_speech_encoder": TowerKind(ENCODER_DEFAULTS, make),
          "granite_speech_plus_encoder": TowerKind({**ENCODER_DEFAULTS, "cat_hidden_layers": None}, make_plus)}


def projector(config: Mapping[str, Any], encoder: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """GraniteSpeechEncoderProjector: the queries, the Q-Former and linear (names under the projector's prefix)."""
    section = config_section(config, "projector_config", {**QFORMER_DEFAULTS, "encoder_hidden_size": 1408})
    merged = {"window_size": 15, "downsample_rate": 5, **config}  # (GraniteSpeechConfig's defaults)
    window, rate = (sized(merged, key, (key,), {}, "", None) for key in ("window_size", "downsample_rate"))
    keys_from = sized(section, "encoder_hidden_size", ("encoder_hidden_size",), {}, "projector_config", None)
    if encoder.concatenated is not None and keys_from != encoder.hidden_dim * (encoder.concatenated + 1):
        # GraniteSpeechPlusConfig.__post_init__: the Q-Former reads the last output and the listed ones side by side
        raise ArchitectureError("projector_config.encoder_hidden_size", f"{keys_from} must be encoder_config's "
                                f"hidden_dim × {encoder.concatenated + 1} = "
                                f"{encoder.hidden_dim * (encoder.concatenated + 1)} (cat_hidden_layers' outputs "
                                "beside the last)")
    width, layers = qformer_model(section, "projector_config", keys_from)
    return [("query", (1, window // rate, width)), *layers, ("linear.weight", (hidden, width)),
            ("linear.bias", (hidden,))]

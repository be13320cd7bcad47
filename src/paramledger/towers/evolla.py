"""Evolla's protein encoder (transformers 5.24.0 models/evolla/modeling_evolla.py; docs/notes/multimodal-evolla.md):
EvollaProteinEncoder under model.protein_encoder, registered after embed_tokens and before the decoder layers: the
SaProt encoder (EvollaSaProtProteinEncoder, lines 562-567: ESM's layout, read from protein_encoder_config) and the
sequence compressor resampler (EvollaSequenceCompressorResampler, lines 686-706: latents, resampler_depth blocks of
a perceiver attention and a GELU feed-forward at the encoder's width, then protein_projector to the decoder's
hidden_size and its LayerNorm).  The component is ``vision``, the nearest name of a tower that feeds the decoder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ..limits import big
from ._kind import TOWER_LAYERS, positive, section

_new = tuple.__new__
PREFIX = "model.protein_encoder."
SAPROT_DEFAULTS = {"vocab_size": 446, "hidden_size": 1280, "num_hidden_layers": 33, "num_attention_heads": 20,
                   "intermediate_size": 5120, "max_position_embeddings": 1026, "position_embedding_type": "rotary",
                   "emb_layer_norm_before": False, "is_decoder": False, "add_cross_attention": False}
"""transformers 5.24.0 models/evolla/configuration_evolla.py (SaProtConfig)."""
RESAMPLER_DEFAULTS = {"resampler_depth": 6, "resampler_dim_head": 64, "resampler_heads": 8,
                      "resampler_num_latents": 64, "resampler_ff_mult": 4}
"""EvollaConfig's resampler keys, at the whole config's top."""


class ProteinEncoder(NamedTuple):
    """The protein encoder's tensors under their full names (the family's model_order places them)."""
    tensors_: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...] = ()
    untraced = ("its protein encoder and resampler (towers/evolla.py) are made beside the decoder by a rule of "
                "their own, which the builder cannot trace symbolically")

    def tensors(self) -> list[Tensor]:
        return list(self.tensors_)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)

    def embedding_tables(self) -> list[str]:
        """Its nn.Embedding tables (num_parameters(exclude_embeddings) drops them): SaProt's token table and, with
        absolute positions, its position table."""
        return [t.name for t in self.tensors_ if t.name.endswith(("word_embeddings.weight",
                                                                   "position_embeddings.weight"))]

    def aliases(self) -> dict[str, str]:
        return {}

    def looked_up(self) -> dict[str, str]:
        return {}


def _flag(config: Mapping[str, Any], key: str, where: str) -> bool:
    value = config[key]
    if not isinstance(value, bool):
        raise ArchitectureError(f"{where}.{key}", f"must be true or false, got {value!r}"[:200])
    return value


def _saprot(given: Mapping[str, Any]) -> tuple[list[tuple[str, tuple[int, ...], str]], int, int]:
    """EvollaSaProtProteinEncoder's tensors (names relative to model.protein_encoder.model.), its width and its
    rotary's inv_freq length."""
    where = "protein_encoder_config"
    vocab, width, depth, heads, inner = (positive(given, key, where) for key in (
        "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size"))
    if depth > TOWER_LAYERS:
        raise ArchitectureError(f"{where}.num_hidden_layers", f"{big(depth)} is beyond the bound of "
                                f"{TOWER_LAYERS:,} a tower's layers are named to (docs/limits.md)")
    if width % heads:  # EvollaSaProtSelfAttention raises ValueError
        raise ArchitectureError(f"{where}.num_attention_heads", f"{heads} heads do not divide hidden_size={width} "
                                "(EvollaSaProtSelfAttention)")
    kind = given["position_embedding_type"]
    if kind not in ("rotary", "absolute"):
        raise ArchitectureError(f"{where}.position_embedding_type", f"must be \"rotary\" or \"absolute\", got "
                                f"{kind!r}"[:200])
    cross = _flag(given, "add_cross_attention", where)
    if cross and not _flag(given, "is_decoder", where):  # EvollaSaProtLayer raises RuntimeError
        raise ArchitectureError(f"{where}.add_cross_attention", "needs is_decoder true (EvollaSaProtLayer)")
    out = [("embeddings.word_embeddings.weight", (vocab, width), "embedding")]
    if _flag(given, "emb_layer_norm_before", where):
        out += [("embeddings.layer_norm.weight", (width,), "norm"), ("embeddings.layer_norm.bias", (width,), "norm")]
    if kind == "absolute":
        out.append(("embeddings.position_embeddings.weight",
                    (positive(given, "max_position_embeddings", where), width), "embedding"))

    def attention(path: str) -> list[tuple[str, tuple[int, ...], str]]:
        rows = [(f"{path}self.{which}.{part}", shape, "attention") for which in ("query", "key", "value")
                for part, shape in (("weight", (width, width)), ("bias", (width,)))]
        return rows + [(path + "output.dense.weight", (width, width), "attention"),
                       (path + "output.dense.bias", (width,), "attention"),
                       (path + "LayerNorm.weight", (width,), "norm"), (path + "LayerNorm.bias", (width,), "norm")]

    for i in range(depth):
        layer = f"encoder.layer.{i}."
        out += attention(layer + "attention.")
        if cross:
            out += attention(layer + "crossattention.")
        out += [(layer + "intermediate.dense.weight", (inner, width), "ffn"),
                (layer + "intermediate.dense.bias", (inner,), "ffn"),
                (layer + "output.dense.weight", (width, inner), "ffn"), (layer + "output.dense.bias", (width,), "ffn"),
                (layer + "LayerNorm.weight", (width,), "norm"), (layer + "LayerNorm.bias", (width,), "norm")]
    out += [("encoder.emb_layer_norm_after.weight", (width,), "norm"),
            ("encoder.emb_layer_norm_after.bias", (width,), "norm")]
    # EvollaSaProtRotaryEmbedding (lines 188-193): arange(0, dim, 2), dim the config's head_dim attribute where it
    # has one (SaProtConfig declares none; it sizes nothing else), else hidden // heads
    head_dim = given.get("head_dim") or width // heads
    if type(head_dim) is not int or head_dim <= 0:
        raise ArchitectureError(f"{where}.head_dim", f"must be a positive whole number or null, got {head_dim!r}"[:200])
    return out, width, (head_dim + 1) // 2


def _resampler(config: Mapping[str, Any], width: int, hidden: int) -> list[tuple[str, tuple[int, ...], str]]:
    latents, depth, dim_head, heads, mult = (positive(config, key, "") for key in (
        "resampler_num_latents", "resampler_depth", "resampler_dim_head", "resampler_heads", "resampler_ff_mult"))
    if depth > TOWER_LAYERS:
        raise ArchitectureError("resampler_depth", f"{big(depth)} is beyond the bound of {TOWER_LAYERS:,} a tower's "
                                "layers are named to (docs/limits.md)")
    inner, ff = dim_head * heads, width * mult
    out = [("latents", (latents, width), "vision")]
    for i in range(depth):
        attn, mlp = f"layers.{i}.0.", f"layers.{i}.1."
        out += [(attn + "norm_media.weight", (width,), "norm"), (attn + "norm_media.bias", (width,), "norm"),
                (attn + "norm_latents.weight", (width,), "norm"), (attn + "norm_latents.bias", (width,), "norm"),
                (attn + "to_q.weight", (inner, width), "attention"),
                (attn + "to_kv.weight", (2 * inner, width), "attention"),
                (attn + "to_out.weight", (width, inner), "attention"),
                (mlp + "norm.weight", (width,), "norm"), (mlp + "norm.bias", (width,), "norm"),
                (mlp + "fc1.weight", (ff, width), "ffn"), (mlp + "fc2.weight", (width, ff), "ffn")]
    return out + [("norm.weight", (hidden,), "norm"), ("norm.bias", (hidden,), "norm"),
                  ("protein_projector.weight", (hidden, width), "vision"),
                  ("protein_projector.bias", (hidden,), "vision")]


def protein_encoder(config: Mapping[str, Any], where: str | None, decoder: Any) -> list[ProteinEncoder]:
    """Whole.made: the SaProt encoder and the resampler, the resampler's output sized by the decoder's design."""
    try:
        given = section(config, "protein_encoder_config", SAPROT_DEFAULTS)
        saprot, width, rotary = _saprot(given)
        resampler = _resampler({**RESAMPLER_DEFAULTS, **{key: config[key] for key in RESAMPLER_DEFAULTS
                                                         if key in config}}, width, decoder.hidden_size)
    except ArchitectureError as error:  # said about this config
        raise ArchitectureError(error.key, error.message, where) from None
    # every tensor of the tower is the component vision (its own kinds are not the decoder's)
    tensors = tuple(_new(Tensor, (PREFIX + "model." + name, shape, "vision", None, False, 0))
                    for name, shape, _ in saprot)
    tensors += tuple(_new(Tensor, (PREFIX + "sequence_compressor_resampler." + name, shape, "vision", None, False, 0))
                     for name, shape, _ in resampler)
    # EvollaSaProtRotaryEmbedding.inv_freq: nn.Buffer(...), persistent (line 173)
    return [ProteinEncoder(tensors, (Buffer(PREFIX + "model.rotary_embeddings.inv_freq", (rotary,), "float32",
                                             True),))]

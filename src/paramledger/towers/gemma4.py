"""Gemma 4's own towers (transformers 5.24.0 models/gemma4/modeling_gemma4.py), each optional: Gemma4Model builds a
tower only for a sub-config the config gives (``AutoModel.from_config(config.vision_config) if config.vision_config is
not None``, lines 2231 and 2235), so the default each is read over carries the sentinel ABSENT: no tower.

The vision tower (Gemma4VisionModel, gemma4_vision): patch_embedder (its own position_embedding_table Parameter,
(2, position_embedding_size, hidden_size), listed before input_proj, an unbiased Linear from 3 × patch_size² pixels),
then encoder.layers: Gemma 3's sandwich layer (attention with q_norm and k_norm over head_dim and a v_norm without a
scale; a gated MLP; four RMSNorms), every Linear a Gemma4ClippableLinear (the weight under ``.linear``; with
use_clipped_linears, four 0-D persistent buffers of the model's dtype beside it: input_min, input_max, output_min,
output_max).  Buffers: encoder.rotary_emb's axial inv_freq pair (float32, (head_dim // 2 + 1) // 2 long) and, with
standardize, std_bias and std_scale ((hidden_size,), persistent, the model's dtype).  The pooler holds nothing.

The audio tower (Gemma4AudioModel, gemma4_audio: a Conformer): subsample_conv_projection (two 3×3 Conv2d without
bias, each with a bias-free LayerNorm over its channels, then input_proj_linear from (channels[0] // 4) ×
channels[1] to hidden_size), then layers of feed_forward1 and feed_forward2 (ffw_layer_1 to 4 × hidden_size,
ffw_layer_2 back, a pre and a post RMSNorm), self_attn (per_dim_scale (head_dim,) first, then q/k/v and post
clippable, a bias-free relative_k_proj), lconv1d (linear_start to 2 × hidden_size, linear_end, a depthwise
conv1d of conv_kernel_size, pre_layer_norm and conv_norm) and three RMSNorms; then output_proj (biased, to
output_proj_dims).  Buffers: rel_pos_enc.inv_timescales ((1, 1, hidden_size // 2), the model's dtype,
non-persistent), each attention's softcap (0-D, non-persistent) and the clippable linears' four (use_clipped_linears
defaults to True here).

The embedders (Gemma4MultimodalEmbedder, the "projector" component, registered after the language model and the
audio tower): embed_vision and embed_audio, each one unbiased embedding_projection from the tower's output width
(output_proj_dims where its config has one, else hidden_size) to the decoder's; their RMSNorm has no scale."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, flag, odd_rotary, positive, stamped

_new = tuple.__new__
ABSENT = "_absent"  # the key of the default sub-config a config without one gets: no tower
CLIP_BOUNDS = ("input_min", "input_max", "output_min", "output_max")  # Gemma4ClippableLinear's buffers


class NoTower(NamedTuple):
    """A sub-config the config does not give: no tower."""

    def tensors(self) -> list[Tensor]:
        return []

    def buffers(self) -> list[Buffer]:
        return []


def _clip_buffers(prefixes: list[str], linears: tuple[str, ...]) -> list[Buffer]:
    return [Buffer(f"{prefix}{linear}.{bound}", (), None, True) for prefix in prefixes for linear in linears
            for bound in CLIP_BOUNDS]


class Gemma4VisionTower(NamedTuple):
    prefix: str  # "model.vision_tower."
    hidden_size: int  # vision_config hidden_size
    intermediate_size: int  # vision_config intermediate_size
    num_hidden_layers: int  # vision_config num_hidden_layers
    num_attention_heads: int  # vision_config num_attention_heads
    num_key_value_heads: int  # vision_config num_key_value_heads
    head_dim: int  # vision_config head_dim
    patch_size: int  # vision_config patch_size
    position_embedding_size: int  # vision_config position_embedding_size
    use_clipped_linears: bool  # vision_config use_clipped_linears
    standardize: bool  # vision_config standardize
    output_width: int  # what embed_vision reads: output_proj_dims if the config has one, else hidden_size

    def _layers(self) -> list[str]:
        return [f"{self.prefix}encoder.layers.{i}." for i in range(self.num_hidden_layers)]

    def tensors(self) -> list[Tensor]:
        p, d, head, inner = self.prefix, self.hidden_size, self.head_dim, self.intermediate_size
        q, kv = self.num_attention_heads * head, self.num_key_value_heads * head
        out = [_new(Tensor, (p + "patch_embedder.position_embedding_table", (2, self.position_embedding_size, d),
                             "vision", None, False, 0)),
               _new(Tensor, (p + "patch_embedder.input_proj.weight", (d, 3 * self.patch_size ** 2), "vision", None,
                             False, 0))]
        block = [("self_attn.q_proj.linear.weight", (q, d)), ("self_attn.k_proj.linear.weight", (kv, d)),
                 ("self_attn.v_proj.linear.weight", (kv, d)), ("self_attn.o_proj.linear.weight", (d, q)),
                 ("self_attn.q_norm.weight", (head,)), ("self_attn.k_norm.weight", (head,)),
                 ("mlp.gate_proj.linear.weight", (inner, d)), ("mlp.up_proj.linear.weight", (inner, d)),
                 ("mlp.down_proj.linear.weight", (d, inner)), ("input_layernorm.weight", (d,)),
                 ("post_attention_layernorm.weight", (d,)), ("pre_feedforward_layernorm.weight", (d,)),
                 ("post_feedforward_layernorm.weight", (d,))]
        return out + stamped(self._layers(), block)

    def buffers(self) -> list[Buffer]:
        p = self.prefix
        out = [Buffer(p + "std_bias", (self.hidden_size,)), Buffer(p + "std_scale", (self.hidden_size,))
               ] if self.standardize else []
        rotary = ((self.head_dim // 2 + 1) // 2,)  # arange(0, head_dim // 2, 2)
        out += [Buffer(f"{p}encoder.rotary_emb.{name}", rotary, "float32", False)
                for name in ("inv_freq", "original_inv_freq")]
        if self.use_clipped_linears:
            out += _clip_buffers(self._layers(), ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                                                  "self_attn.o_proj", "mlp.gate_proj", "mlp.up_proj",
                                                  "mlp.down_proj"))
        return out


class Gemma4AudioTower(NamedTuple):
    prefix: str  # "model.audio_tower."
    hidden_size: int  # audio_config hidden_size
    num_hidden_layers: int  # audio_config num_hidden_layers
    num_attention_heads: int  # audio_config num_attention_heads
    channels: tuple[int, int]  # audio_config subsampling_conv_channels
    conv_kernel_size: int  # audio_config conv_kernel_size
    output_proj_dims: int  # audio_config output_proj_dims
    use_clipped_linears: bool  # audio_config use_clipped_linears

    @property
    def output_width(self) -> int:
        return self.output_proj_dims

    def _layers(self) -> list[str]:
        return [f"{self.prefix}layers.{i}." for i in range(self.num_hidden_layers)]

    def tensors(self) -> list[Tensor]:
        p, d = self.prefix, self.hidden_size
        first, second = self.channels
        head = d // self.num_attention_heads
        width = self.num_attention_heads * head
        sub = [("layer0.conv.weight", (first, 1, 3, 3)), ("layer0.norm.weight", (first,)),
               ("layer1.conv.weight", (second, first, 3, 3)), ("layer1.norm.weight", (second,)),
               ("input_proj_linear.weight", (d, (first // 4) * second))]
        out = stamped((p + "subsample_conv_projection.",), sub, "audio")
        block = [(f"{ffn}.{name}", shape) for ffn in ("feed_forward1", "feed_forward2") for name, shape in (
            ("ffw_layer_1.linear.weight", (4 * d, d)), ("ffw_layer_2.linear.weight", (d, 4 * d)),
            ("pre_layer_norm.weight", (d,)), ("post_layer_norm.weight", (d,)))]
        block += [("self_attn.per_dim_scale", (head,)), ("self_attn.q_proj.linear.weight", (width, d)),
                  ("self_attn.k_proj.linear.weight", (width, d)), ("self_attn.v_proj.linear.weight", (width, d)),
                  ("self_attn.post.linear.weight", (d, d)), ("self_attn.relative_k_proj.weight", (width, d)),
                  ("lconv1d.linear_start.linear.weight", (2 * d, d)), ("lconv1d.linear_end.linear.weight", (d, d)),
                  ("lconv1d.depthwise_conv1d.weight", (d, 1, self.conv_kernel_size)),
                  ("lconv1d.pre_layer_norm.weight", (d,)), ("lconv1d.conv_norm.weight", (d,)),
                  ("norm_pre_attn.weight", (d,)), ("norm_post_attn.weight", (d,)), ("norm_out.weight", (d,))]
        out += stamped(self._layers(), block, "audio")
        out += stamped((p,), [("output_proj.weight", (self.output_proj_dims, d)),
                              ("output_proj.bias", (self.output_proj_dims,))], "audio")
        return out

    def buffers(self) -> list[Buffer]:
        layers = self._layers()
        out = [Buffer(self.prefix + "rel_pos_enc.inv_timescales", (1, 1, self.hidden_size // 2), None, False)]
        out += [Buffer(layer + "self_attn.softcap", (), None, False) for layer in layers]
        if self.use_clipped_linears:
            out += _clip_buffers(layers, ("feed_forward1.ffw_layer_1", "feed_forward1.ffw_layer_2",
                                          "feed_forward2.ffw_layer_1", "feed_forward2.ffw_layer_2",
                                          "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                                          "self_attn.post", "lconv1d.linear_start", "lconv1d.linear_end"))
        return out


def vision(prefix: str, config: Mapping[str, Any], where: str | None) -> Gemma4VisionTower | NoTower:
    if config.get(ABSENT):
        return NoTower()
    sizes = {key: positive(config, key, "vision_config", where) for key in (
        "hidden_size", "intermediate_size", "num_attention_heads", "num_key_value_heads", "head_dim", "patch_size",
        "position_embedding_size")}
    layers = config.get("num_hidden_layers")
    if type(layers) is not int or layers < 0:  # an nn.ModuleList of none builds
        raise ArchitectureError("vision_config.num_hidden_layers", f"must be a whole number, got {layers!r}"[:200],
                                where)
    odd_rotary(config, sizes["head_dim"], "vision_config", where)  # (validate_rope: 65 was counted)
    output = config.get("output_proj_dims", sizes["hidden_size"])  # getattr(vision_config, "output_proj_dims", ...)
    if output != sizes["hidden_size"]:
        output = positive(config, "output_proj_dims", "vision_config", where)
    return Gemma4VisionTower(prefix, sizes["hidden_size"], sizes["intermediate_size"], layers,
                             sizes["num_attention_heads"], sizes["num_key_value_heads"], sizes["head_dim"],
                             sizes["patch_size"], sizes["position_embedding_size"],
                             flag(config, "use_clipped_linears", "vision_config", where),
                             flag(config, "standardize", "vision_config", where), output)


def audio(prefix: str, config: Mapping[str, Any], where: str | None) -> Gemma4AudioTower | NoTower:
    if config.get(ABSENT):
        return NoTower()
    sizes = {key: positive(config, key, "audio_config", where) for key in (
        "hidden_size", "num_attention_heads", "conv_kernel_size", "output_proj_dims")}
    layers = config.get("num_hidden_layers")
    if type(layers) is not int or layers < 0:
        raise ArchitectureError("audio_config.num_hidden_layers", f"must be a whole number, got {layers!r}"[:200],
                                where)
    if sizes["num_attention_heads"] > sizes["hidden_size"]:
        raise ArchitectureError("audio_config.num_attention_heads", f"{sizes['num_attention_heads']} heads of "
                                f"hidden_size={sizes['hidden_size']} would be 0 wide", where)
    channels = config.get("subsampling_conv_channels")
    if (not isinstance(channels, (list, tuple)) or len(channels) != 2
            or not all(type(c) is int and 0 < c <= 1 << 20 for c in channels)):
        raise ArchitectureError("audio_config.subsampling_conv_channels", "must list two positive channel counts, "
                                f"got {channels!r}"[:200], where)
    return Gemma4AudioTower(prefix, sizes["hidden_size"], layers, sizes["num_attention_heads"], tuple(channels),
                            sizes["conv_kernel_size"], sizes["output_proj_dims"],
                            flag(config, "use_clipped_linears", "audio_config", where))


VISION_DEFAULTS = {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 16, "num_attention_heads": 12,
                   "num_key_value_heads": 12, "head_dim": 64, "patch_size": 16, "position_embedding_size": 10 * 1024,
                   "use_clipped_linears": False, "standardize": False}
"""transformers 5.24.0 models/gemma4/configuration_gemma4.py (Gemma4VisionConfig)."""
AUDIO_DEFAULTS = {"hidden_size": 1024, "num_hidden_layers": 12, "num_attention_heads": 8,
                  "subsampling_conv_channels": [128, 32], "conv_kernel_size": 5, "output_proj_dims": 1536,
                  "use_clipped_linears": True}
"""transformers 5.24.0 models/gemma4/configuration_gemma4.py (Gemma4AudioConfig)."""

TOWERS = {"gemma4_vision": TowerKind(VISION_DEFAULTS, vision), "gemma4_audio": TowerKind(AUDIO_DEFAULTS, audio)}


def embedders(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Gemma4Model's embed_vision and embed_audio (under "model."), each beside the tower it embeds; ``tower`` is
    the first one read (the vision tower), so the audio tower is read again from audio_config."""
    named = []
    if not isinstance(tower, NoTower):
        named.append(("embed_vision.embedding_projection.weight", (hidden, tower.output_width)))
    given = config.get("audio_config")
    if given is not None:
        sound = audio("", {**AUDIO_DEFAULTS, **given}, None)
        named.append(("embed_audio.embedding_projection.weight", (hidden, sound.output_width)))
    return named

"""Phi-4-multimodal's towers: everything Phi4MultimodalModel registers under model.embed_tokens_extend (a
Phi4MultimodalFeatureEmbedding), after the decoder's norm.  transformers 5.24.0
models/phi4_multimodal/modeling_phi4_multimodal.py.

image_embed (Phi4MultimodalImageEmbedding): its own two Parameters first (global_img_feature_extensor (1, 1, width),
sub_img_feature_extensor (1, 1, 1, width): named_parameters() lists a module's own before its children's), then
img_processor, a Phi4MultimodalVisionModel from vision_config: SigLIP's tower (towers/vision.py's SIGLIP layout,
head always built, no position_ids buffer; every head hidden_size // heads wide, whatever head_dim says), then the
biased img_projection_up (vision width to the decoder's) and img_projection_down (the decoder's width, square).

audio_embed (Phi4MultimodalAudioEmbedding): encoder, a Phi4MultimodalAudioModel from audio_config (a conformer), then
up_proj_for_speech and up_proj_for_vision_speech (audio hidden_size × downsample_rate to the decoder's width), each
followed by its square down_proj_..., all biased.  The conformer: encoder_embedding (global_mean and global_invstd,
input_size each: persistent buffers, the model's dtype), embed (Phi4MultimodalAudioNemoConvSubsampling: a Conv2d 1 to
nemo_conv_channels, kernel 3, then int(log2(time_reduction)) - 1 pairs of a depthwise 3×3 and a pointwise 1×1 Conv2d
at modules 2, 3, 5, 6, ... of its list, the activations between; then out, a Linear from channels × nemo_final_size),
relative_attention_bias_layer.bias_values (an nn.Embedding of bias_max_distance rows, twice that unless
bias_symmetric, num_attention_heads wide), then num_blocks layers: feed_forward_in and feed_forward_out (a LayerNorm,
gate_up_proj to twice intermediate_size, down_proj), self_attn (biased q/k/v/o, heads × head_dim, head_dim
hidden_size // heads unless audio_config gives one: the attention reads it with getattr), conv (a LayerNorm; glu: its
b1 and b2 (1, ext_pw_out_channel, 1) before ext_pw_conv_1d to twice ext_pw_out_channel; dw_sep_conv_1d: a depthwise
dw_conv to hidden × depthwise_multiplier of kernel_size and a pointwise pw_conv to depthwise_separable_out_channel;
ext_pw_conv_1d, hidden_size to ext_pw_out_channel), layer_norm_att and layer_norm.  Every conv and LayerNorm biased.
The image and audio projections are the "projector" component; img_processor "vision", the conformer "audio"."""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, flag, head_width, positive, section, stamped
from .vision import SIGLIP, VISION_SIZES, VisionTower, vit

_new = tuple.__new__
AUDIO = "audio_config"
AUDIO_SIZES = ("hidden_size", "intermediate_size", "num_blocks", "num_attention_heads", "ext_pw_out_channel",
               "depthwise_separable_out_channel", "depthwise_multiplier", "kernel_size", "input_size",
               "time_reduction", "bias_max_distance", "nemo_conv_channels", "downsample_rate")


class Phi4Vision(NamedTuple):
    """img_processor: a SigLIP tower whose embeddings register no position_ids (Phi4MultimodalVisionEmbeddings)."""
    vit: VisionTower

    @property
    def hidden_size(self) -> int:
        return self.vit.hidden_size

    @property
    def text_only_note(self) -> str:
        """What --text-only says (towers.text_only asks the first tower): the config has no text_config."""
        return ("phi4_multimodal is multimodal: counting its text decoder (the config's top-level keys, "
                "Phi3ForCausalLM's tensors) only")

    def tensors(self) -> list[Tensor]:
        return self.vit.tensors()

    def buffers(self) -> list[Buffer]:
        return []

    def embedding_tables(self) -> list[str]:
        return self.vit.embedding_tables()


_siglip = vit(SIGLIP)


def vision(prefix: str, config: Mapping[str, Any], where: str | None) -> Phi4Vision:
    """The head is built whatever the config says; head_dim is read by no module of the tower."""
    for key in VISION_SIZES:  # within MAX_INTEGER (vit() leaves them unbounded; towers.depth_bounded the layers)
        positive(config, key, "vision_config", where)
    given = {key: value for key, value in config.items() if key != "head_dim"}
    return Phi4Vision(_siglip(prefix, {**given, "vision_use_head": True}, where))


class Conformer(NamedTuple):
    """Phi4MultimodalAudioModel as its audio_config gives it, under its module path."""
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_blocks: int
    num_attention_heads: int
    ext_pw_out_channel: int
    depthwise_separable_out_channel: int
    depthwise_multiplier: int
    kernel_size: int
    input_size: int
    time_reduction: int
    bias_max_distance: int
    nemo_conv_channels: int
    downsample_rate: int
    head_dim: int
    bias_symmetric: bool
    nemo_final_size: int = 0  # the config's own (a given one wins: __post_init__ derives it first); 0: derived

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, heads, channels = self.hidden_size, self.num_attention_heads, self.nemo_conv_channels
        inner, ext, wide = heads * self.head_dim, self.ext_pw_out_channel, d * self.depthwise_multiplier
        top: list[tuple[str, tuple[int, ...]]] = [("embed.conv.0.weight", (channels, 1, 3, 3)),
                                                   ("embed.conv.0.bias", (channels,))]
        for j in range(1, int(math.log2(self.time_reduction))):  # sampling_num - 1 pairs, an activation after each
            top += [(f"embed.conv.{3 * j - 1}.weight", (channels, 1, 3, 3)), (f"embed.conv.{3 * j - 1}.bias",
                                                                                (channels,)),
                    (f"embed.conv.{3 * j}.weight", (channels, channels, 1, 1)), (f"embed.conv.{3 * j}.bias",
                                                                                  (channels,))]
        buckets = self.bias_max_distance * (1 if self.bias_symmetric else 2)
        top += [("embed.out.weight", (d, channels * _nemo_final_size(self))), ("embed.out.bias", (d,)),
                ("relative_attention_bias_layer.bias_values.weight", (buckets, heads))]
        block: list[tuple[str, tuple[int, ...]]] = []

        def biased(name: str, shape: tuple[int, ...]) -> None:
            block.extend(((name + ".weight", shape), (name + ".bias", shape[:1])))

        def feed_forward(name: str) -> None:
            biased(name + ".layer_norm", (d,))
            biased(name + ".gate_up_proj", (2 * self.intermediate_size, d))
            biased(name + ".down_proj", (d, self.intermediate_size))

        feed_forward("feed_forward_in")
        for proj in ("q_proj", "k_proj", "v_proj"):
            biased("self_attn." + proj, (inner, d))
        biased("self_attn.o_proj", (d, inner))
        biased("conv.layer_norm", (d,))
        block += [("conv.glu.b1", (1, ext, 1)), ("conv.glu.b2", (1, ext, 1))]
        biased("conv.glu.ext_pw_conv_1d", (2 * ext, d, 1))
        biased("conv.dw_sep_conv_1d.dw_conv", (wide, 1, self.kernel_size))
        biased("conv.dw_sep_conv_1d.pw_conv", (self.depthwise_separable_out_channel, wide, 1))
        biased("conv.ext_pw_conv_1d", (ext, d, 1))
        feed_forward("feed_forward_out")
        biased("layer_norm_att", (d,))
        biased("layer_norm", (d,))
        p = self.prefix
        return (*(_new(Tensor, (p + name, shape, "audio", None, False, 0)) for name, shape in top),
                *stamped([f"{p}encoders.{i}." for i in range(self.num_blocks)], block, "audio"))

    def buffers(self) -> list[Buffer]:
        """Phi4MultimodalAudioMeanVarianceNormLayer's statistics: in the state dict, the model's dtype."""
        return [Buffer(f"{self.prefix}encoder_embedding.{name}", (self.input_size,))
                for name in ("global_mean", "global_invstd")]

    def embedding_tables(self) -> list[str]:
        """The relative attention bias, an nn.Embedding (num_parameters(exclude_embeddings) drops it)."""
        return [self.prefix + "relative_attention_bias_layer.bias_values.weight"]


def _nemo_final_size(tower: Conformer) -> int:
    """Phi4MultimodalAudioConfig.__post_init__: the mel bins after each stride-2 conv, as it computes them before
    super().__post_init__ sets the kwargs (configuration_phi4_multimodal.py lines 145-150): a given one wins."""
    if tower.nemo_final_size:
        return tower.nemo_final_size
    size = tower.input_size
    for _ in range(int(math.log2(tower.time_reduction))):
        size = math.floor((size - 1) / 2 + 1)
    return size


@lru_cache(maxsize=64)
def _listed(tower: Conformer) -> tuple[Tensor, ...]:
    return tower.listed()


def audio(prefix: str, config: Mapping[str, Any], where: str | None) -> Conformer:
    sizes = [positive(config, key, AUDIO, where) for key in AUDIO_SIZES]  # (num_blocks: towers.depth_bounded too)
    reduction = config["time_reduction"]
    if reduction % 2:  # Phi4MultimodalAudioConfig.validate_architecture
        raise ArchitectureError(f"{AUDIO}.time_reduction", f"must be a multiple of 2, got {reduction}", where)
    if "head_dim" in config:  # Phi4MultimodalAudioAttention: getattr(config, "head_dim", hidden // heads)
        head_dim = positive(config, "head_dim", AUDIO, where)
    else:
        head_dim = head_width(config["hidden_size"], config["num_attention_heads"], f"{AUDIO}.num_attention_heads",
                              where)
    final = positive(config, "nemo_final_size", AUDIO, where) if "nemo_final_size" in config else 0
    return Conformer(prefix, *sizes, head_dim, flag(config, "bias_symmetric", AUDIO, where), final)


VISION_DEFAULTS = {"hidden_size": 1152, "intermediate_size": 4304, "num_hidden_layers": 27, "num_attention_heads": 16,
                   "num_channels": 3, "image_size": 448, "patch_size": 14}
"""transformers 5.24.0 models/phi4_multimodal/configuration_phi4_multimodal.py (Phi4MultimodalVisionConfig)."""
AUDIO_DEFAULTS = {"hidden_size": 1024, "intermediate_size": 1536, "num_blocks": 24, "num_attention_heads": 16,
                  "ext_pw_out_channel": 1024, "depthwise_separable_out_channel": 1024, "depthwise_multiplier": 1,
                  "kernel_size": 3, "input_size": 80, "time_reduction": 8, "bias_max_distance": 1000,
                  "bias_symmetric": False, "nemo_conv_channels": 1024, "downsample_rate": 1}
"""The same file (Phi4MultimodalAudioConfig): the keys that size a tensor."""

TOWERS = {"phi4_multimodal_vision": TowerKind(VISION_DEFAULTS, vision),
          "phi4_multimodal_audio": TowerKind(AUDIO_DEFAULTS, audio)}


def projector(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """The image embedding's Parameters and projections, then the audio embedding's (names under
    model.embed_tokens_extend.); ``tower`` is the vision tower, the audio width is read from audio_config (its
    tower, made before this, has checked it)."""
    width = tower.hidden_size
    sound = section(config, AUDIO, AUDIO_DEFAULTS)
    heard = sound["hidden_size"] * sound["downsample_rate"]
    out = [("image_embed.global_img_feature_extensor", (1, 1, width)),
           ("image_embed.sub_img_feature_extensor", (1, 1, 1, width)),
           ("image_embed.img_projection_up.weight", (hidden, width)), ("image_embed.img_projection_up.bias", (hidden,)),
           ("image_embed.img_projection_down.weight", (hidden, hidden)),
           ("image_embed.img_projection_down.bias", (hidden,))]
    for kind in ("speech", "vision_speech"):
        out += [(f"audio_embed.up_proj_for_{kind}.weight", (hidden, heard)),
                (f"audio_embed.up_proj_for_{kind}.bias", (hidden,)),
                (f"audio_embed.down_proj_for_{kind}.weight", (hidden, hidden)),
                (f"audio_embed.down_proj_for_{kind}.bias", (hidden,))]
    return out

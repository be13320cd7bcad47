"""RADIO's vision tower (RadioModel, C-RADIO as Nemotron-H Omni builds it) and Nemotron-H Omni's projector.

The tower: a learned position table as a raw Parameter (1, (max_img_size // patch_size)², width), the class and
register tokens (num_cls_tokens + num_registers, width), a bias-free Linear patch projection over the flattened
patch (num_channels × patch_size²) and, where video_temporal_patch_size is set, a second one over
video_temporal_patch_size stacked frames; then num_hidden_layers ViT layers (LayerNorms, q/k/v biased by
qkv_bias, o_proj always biased, a layer-scale vector after each half, a biased GELU MLP int(width × mlp_ratio)
wide or, with use_swiglu_ffn, a biased SwiGLU rounded to a multiple of 8), and no final norm.  Its one buffer is
summary_idxs (int64, persistent); the input conditioner's norm_mean and norm_std go with the module
make_preprocessor_external() swaps for an nn.Identity (Nemotron-H Omni's __init__ calls it).
transformers 5.24.0 models/radio/modeling_radio.py (RadioModel, RadioPatchEmbeddings, RadioLayer, RadioAttention,
RadioMLP, RadioSwiGLUFFN, RadioLayerScale) and configuration_radio.py (RadioConfig)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, flag, stamped
from .parakeet import PARAKEET_DEFAULTS
from .parakeet import make as parakeet
from .qwen_vl import _size as positive  # a vision_config size, refused in one line unless a positive whole number

_new = tuple.__new__


class RadioTower(NamedTuple):
    """One RADIO tower as its vision_config gives it, under its module path ("vision_model.")."""
    prefix: str
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    head_dim: int
    mlp_width: int  # int(hidden_size * mlp_ratio), SwiGLU's rounded width where use_swiglu_ffn
    use_swiglu_ffn: bool
    qkv_bias: bool
    num_channels: int
    patch_size: int
    max_img_size: int
    prefix_tokens: int  # num_cls_tokens + num_registers
    video_temporal_patch_size: int | None
    summary_idxs: int  # how many class tokens the summary gathers (the buffer's length)

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        d, p, inner = self.hidden_size, self.prefix, self.mlp_width
        attention = self.num_attention_heads * self.head_dim
        patch = self.num_channels * self.patch_size ** 2  # RadioConfig.__post_init__: patch_dim
        out: list[Tensor] = []

        def add(name: str, shape: tuple[int, ...]) -> None:
            out.append(_new(Tensor, (p + name, shape, "vision", None, False, 0)))

        # the module's own Parameters before its Linears (named_parameters lists _parameters first)
        add("embeddings.position_embedding", (1, (self.max_img_size // self.patch_size) ** 2, d))
        add("embeddings.cls_register_token", (self.prefix_tokens, d))
        add("embeddings.patch_projection.weight", (d, patch))
        if self.video_temporal_patch_size is not None:
            add("embeddings.video_patch_projection.weight", (d, self.video_temporal_patch_size * patch))
        block: list[tuple[str, tuple[int, ...]]] = [("norm1.weight", (d,)), ("norm1.bias", (d,))]
        for name in ("q_proj", "k_proj", "v_proj"):
            block.append((f"attention.{name}.weight", (attention, d)))
            if self.qkv_bias:
                block.append((f"attention.{name}.bias", (attention,)))
        block += [("attention.o_proj.weight", (d, attention)), ("attention.o_proj.bias", (d,)),
                  ("layer_scale1.lambda1", (d,)), ("norm2.weight", (d,)), ("norm2.bias", (d,))]
        if self.use_swiglu_ffn:
            block += [("mlp.gate_proj.weight", (inner, d)), ("mlp.gate_proj.bias", (inner,)),
                      ("mlp.up_proj.weight", (inner, d)), ("mlp.up_proj.bias", (inner,)),
                      ("mlp.down_proj.weight", (d, inner)), ("mlp.down_proj.bias", (d,))]
        else:
            block += [("mlp.fc1.weight", (inner, d)), ("mlp.fc1.bias", (inner,)),
                      ("mlp.fc2.weight", (d, inner)), ("mlp.fc2.bias", (d,))]
        block.append(("layer_scale2.lambda1", (d,)))
        out += stamped([f"{p}encoder.layer.{i}." for i in range(self.num_hidden_layers)], block)
        return tuple(out)

    def embedding_tables(self) -> list[str]:
        """None: the position table is a raw Parameter (HF's non-embedding count keeps it)."""
        return []

    def buffers(self) -> list[Buffer]:
        return [Buffer(self.prefix + "summary_idxs", (self.summary_idxs,), "int64", True)]


@lru_cache(maxsize=64)
def _listed(tower: RadioTower) -> tuple[Tensor, ...]:
    return tower.listed()


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> RadioTower:
    """A RADIO tower of ``vision``, its sizes and switches checked, one line each."""
    sizes = {key: positive(vision, key, where) for key in ("hidden_size", "num_hidden_layers", "num_attention_heads",
                                                            "num_channels", "patch_size", "max_img_size")}
    width, heads = sizes["hidden_size"], sizes["num_attention_heads"]
    head_dim = vision.get("head_dim")  # RadioAttention: getattr(config, "head_dim", hidden_size // heads)
    if head_dim is None:
        if width % heads:
            raise ArchitectureError("vision_config.num_attention_heads", f"{heads} heads do not divide "
                                    f"hidden_size={width}", where)
        head_dim = width // heads
    elif type(head_dim) is not int or head_dim <= 0:
        raise ArchitectureError("vision_config.head_dim", f"must be a positive whole number, got {head_dim!r}",
                                where)
    if sizes["max_img_size"] < sizes["patch_size"]:
        raise ArchitectureError("vision_config.patch_size", f"{sizes['patch_size']} is larger than max_img_size="
                                f"{sizes['max_img_size']}", where)
    ratio, swiglu = vision.get("mlp_ratio"), flag(vision, "use_swiglu_ffn", "vision_config", where)
    inner = int(width * ratio) if type(ratio) in (int, float) and 0 < ratio < 2 ** 20 else 0
    if swiglu:  # RadioSwiGLUFFN
        inner = (int(inner * 2 / 3) + 7) // 8 * 8
    if inner <= 0:
        raise ArchitectureError("vision_config.mlp_ratio", f"must be a number above 0 giving an MLP at least one "
                                f"wide, got {ratio!r}", where)
    prefix_tokens = [positive(vision, key, where) if vision.get(key) != 0 else 0
                     for key in ("num_cls_tokens", "num_registers")]
    if sum(prefix_tokens) == 0:
        raise ArchitectureError("vision_config.num_cls_tokens", "no class or register token: the summary reads "
                                "class tokens", where)
    video = vision.get("video_temporal_patch_size")
    if video is not None and (type(video) is not int or video < 2):  # RadioConfig.validate_architecture
        raise ArchitectureError("vision_config.video_temporal_patch_size", f"must be at least 2 or null, got "
                                f"{video!r}", where)
    summary = vision.get("summary_idxs")
    summary = [0, 1] if summary is None else summary  # RadioConfig.__post_init__
    if not isinstance(summary, list) or not all(type(index) is int for index in summary):
        raise ArchitectureError("vision_config.summary_idxs", f"must be a list of whole numbers, got {summary!r}",
                                where)
    return RadioTower(prefix, width, sizes["num_hidden_layers"], heads, head_dim, inner, swiglu,
                      flag(vision, "qkv_bias", "vision_config", where), sizes["num_channels"], sizes["patch_size"],
                      sizes["max_img_size"], sum(prefix_tokens), video, len(summary))


RADIO_DEFAULTS = {"hidden_size": 1280, "num_hidden_layers": 32, "num_attention_heads": 16, "mlp_ratio": 4.0,
                  "use_swiglu_ffn": False, "qkv_bias": True, "num_channels": 3, "patch_size": 16, "max_img_size": 2048,
                  "num_cls_tokens": 3, "num_registers": 7, "video_temporal_patch_size": None, "summary_idxs": None}
"""transformers 5.24.0 models/radio/configuration_radio.py (RadioConfig)."""

TOWERS = {"radio": TowerKind(RADIO_DEFAULTS, make)}


def _number(config: Mapping[str, Any], key: str, default: Any) -> Any:
    value = config.get(key)
    return default if value is None else value


def nemotron_h_omni(config: Mapping[str, Any], vision: RadioTower,
                    hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """NemotronH_Omni_Reasoning_V3's own modules beside its towers (and embed_audio where audio_config is given:
    towers/parakeet.py): vision_final_layernorm (a biased LayerNorm over
    vision_hidden_size, built only where text_config.num_nextn_predict_layers > 0), then multi_modal_projector: an
    RMSNorm over int(1 / downsample_ratio)² × vision_hidden_size, linear_1 to projector_hidden_size and linear_2 to
    the decoder's width, both bias-free.  vision_hidden_size is the config's own (not the tower's width), its legacy
    name vit_hidden_size read where it is at its default, as __post_init__ does.  transformers 5.24.0
    models/nemotron_h_omni/modeling_nemotron_h_omni.py (NemotronH_Omni_Reasoning_V3.__init__)."""
    kind = (config.get("vision_config") or {}).get("model_type", "radio")
    if kind != "radio":  # __init__ calls make_preprocessor_external(), which only RadioModel has
        raise ArchitectureError("vision_config.model_type", f"{kind!r} is not radio, the one tower "
                                "NemotronH_Omni_Reasoning_V3 builds")
    for legacy, key in (("llm_config", "text_config"), ("sound_config", "audio_config")):
        if config.get(legacy) is not None and config.get(key) is None:
            raise ArchitectureError(legacy, f"the legacy name of {key}: paramledger reads {key}; rename it")
    temporal = config.get("video_temporal_patch_size", 2)
    if temporal != vision.video_temporal_patch_size:  # NemotronH_Omni_Reasoning_V3_Config.validate_architecture
        raise ArchitectureError("vision_config.video_temporal_patch_size", f"{vision.video_temporal_patch_size!r} "
                                f"is not the whole config's video_temporal_patch_size={temporal!r}")
    width = config.get("vision_hidden_size", 1280)
    if config.get("vit_hidden_size") is not None and width == 1280:
        width = config["vit_hidden_size"]
    projector = _number(config, "projector_hidden_size", 4096)
    for key, value in (("vision_hidden_size", width), ("projector_hidden_size", projector)):
        if type(value) is not int or value <= 0:
            raise ArchitectureError(key, f"must be a positive whole number, got {value!r}")
    ratio = config.get("downsample_ratio", 0.5)
    if type(ratio) not in (int, float) or ratio <= 0 or int(1 / ratio) == 0:
        raise ArchitectureError("downsample_ratio", f"must be a number above 0 and at most 1, got {ratio!r}")
    folded = width * int(1 / ratio) ** 2
    text = config.get("text_config") or {}
    mtp = text.get("num_nextn_predict_layers") if isinstance(text, Mapping) else None
    if mtp is not None and type(mtp) is not int:
        raise ArchitectureError("text_config.num_nextn_predict_layers", f"must be a whole number, got {mtp!r}")
    final = ([("vision_final_layernorm.weight", (width,)), ("vision_final_layernorm.bias", (width,))]
             if mtp is not None and mtp > 0 else [])
    audio = config.get("audio_config")
    embed_audio = [] if audio is None else parakeet("audio_tower.", {**PARAKEET_DEFAULTS, **audio}, None)
    return [*final, ("multi_modal_projector.layer_norm.weight", (folded,)),
            ("multi_modal_projector.linear_1.weight", (projector, folded)),
            ("multi_modal_projector.linear_2.weight", (hidden, projector)),
            *(embed_audio.embed_audio(hidden) if embed_audio else [])]

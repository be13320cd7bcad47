"""Dots 3 Note's vision and audio towers (transformers 5.24.0 models/dots3_note/modeling_dots3_note.py), each with its
adapter to the text width inside it (the whole model has no projector of its own).

Dots3NoteVisionModel (lines 1514-1565): patch_embed (a biased Conv2d of patch_size², then an RMSNorm), blocks (norm1;
attn: a fused qkv and proj, biased by attention_bias, RMSNorms q_norm and k_norm over the head; norm2; mlp: a gated
MLP biased by mlp_bias on "dense" layers, else routed experts (Dots3NoteExperts: gate_up_proj, down_proj) and a
float32 router weight, the e_score_correction_bias buffer beside them, num_local_experts each layer's own:
per_layer_config, from pyramid_num_routed by default), then merger (ln_q, a LayerNorm with bias over adapter_in_dim;
mlp.0 and mlp.2, biased, over adapter_in_dim × adapter_merge_size²) and the final norm.  Its axial rotary's inv_freq:
arange(0, head_dim // 2, 2).

Dots3NoteAudioModel (lines 1138-1181): conv_stem (three biased 3×3 Conv2d of downsample_hidden_size channels, the
first from one, and conv_out, unbiased, from downsample_hidden_size × ((feature_size + 7) // 8)), layers (self_attn:
q, v and o biased by attention_bias, k never; input_layernorm; mlp: a fused gate_up_proj and down_proj, both
biased; post_attention_layernorm), layer_norm, then adapter (norm, a LayerNorm with bias, fc1 to adapter_out_dim and
fc2, biased).  Its rotary: int(head_dim × partial_rotary_factor) channels, the factor 0.5 unless rope_parameters says."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, flag

_new = tuple.__new__

# transformers 5.24.0 models/dots3_note/configuration_dots3_note.py (Dots3NoteVisionConfig, Dots3NoteAudioConfig)
VISION = {"model_type": "dots3_note_vision_encoder", "hidden_size": 1536, "intermediate_size": 4224,
          "num_hidden_layers": 42, "num_attention_heads": 24, "num_channels": 3, "patch_size": 14,
          "moe_intermediate_size": 2112, "spatial_merge_size": 2, "attention_bias": False, "mlp_bias": False,
          "mlp_layer_types": None, "num_local_experts": 64, "adapter_in_dim": 1536, "adapter_out_dim": 5120,
          "adapter_merge_size": 2}
AUDIO = {"model_type": "dots3_note_audio_encoder", "hidden_size": 1280, "intermediate_size": 5120,
         "num_hidden_layers": 32, "num_attention_heads": 20, "feature_size": 128, "downsample_hidden_size": 480,
         "attention_bias": True, "adapter_input_size": 1280, "adapter_out_dim": 5120}
# Dots3NoteAudioConfig.__post_init__: the released whisper_config's names
WHISPER = {"d_model": "hidden_size", "encoder_attention_heads": "num_attention_heads",
           "encoder_layers": "num_hidden_layers", "encoder_ffn_dim": "intermediate_size", "num_mel_bins": "feature_size"}


def _size(config: Mapping[str, Any], key: str, section: str, where: str | None) -> int:
    value = config.get(key)
    if type(value) is not int or value <= 0:
        raise ArchitectureError(f"{section}.{key}", f"must be a positive whole number, got {value!r}"[:200], where)
    return value


class Dots3NoteVision(NamedTuple):
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_attention_heads: int
    num_channels: int
    patch_size: int
    moe_intermediate_size: int
    attention_bias: bool
    mlp_bias: bool
    adapter_in_dim: int
    adapter_out_dim: int
    adapter_merge_size: int
    experts: tuple[int, ...]  # each block's routed experts; 0: a dense MLP

    def tensors(self) -> list[Tensor]:
        return list(_vision(self))

    def buffers(self) -> list[Buffer]:
        rows = (self.hidden_size // self.num_attention_heads // 2 + 1) // 2  # arange(0, head_dim // 2, 2)
        out = [Buffer(self.prefix + "rotary_pos_emb." + name, (rows,), "float32", False)
               for name in ("inv_freq", "original_inv_freq")]
        return out + [Buffer(f"{self.prefix}blocks.{i}.mlp.e_score_correction_bias", (count,), "float32", True)
                      for i, count in enumerate(self.experts) if count]


@lru_cache(maxsize=64)
def _vision(tower: Dots3NoteVision) -> tuple[Tensor, ...]:
    d, p, head = tower.hidden_size, tower.prefix, tower.hidden_size // tower.num_attention_heads
    out: list[Tensor] = []

    def add(name: str, shape: tuple[int, ...], bias: bool = False) -> None:
        out.append(_new(Tensor, (p + name + (".weight" if bias is not None else ""), shape, "vision", None, False, 0)))
        if bias:
            out.append(_new(Tensor, (p + name + ".bias", shape[:1], "vision", None, False, 0)))

    add("patch_embed.proj", (d, tower.num_channels, tower.patch_size, tower.patch_size), True)
    add("patch_embed.norm", (d,))
    ffn, expert, bias = tower.intermediate_size, tower.moe_intermediate_size, tower.mlp_bias
    for i, count in enumerate(tower.experts):
        block = f"blocks.{i}."
        add(block + "norm1", (d,))
        add(block + "attn.qkv", (3 * d, d), tower.attention_bias)
        add(block + "attn.proj", (d, d), tower.attention_bias)
        add(block + "attn.q_norm", (head,))
        add(block + "attn.k_norm", (head,))
        add(block + "norm2", (d,))
        if count:
            add(block + "mlp.experts.gate_up_proj", (count, 2 * expert, d), None)
            add(block + "mlp.experts.down_proj", (count, d, expert), None)
            add(block + "mlp.gate", (count, d))
        else:
            add(block + "mlp.gate_proj", (ffn, d), bias)
            add(block + "mlp.up_proj", (ffn, d), bias)
            add(block + "mlp.down_proj", (d, ffn), bias)
    merged = tower.adapter_in_dim * tower.adapter_merge_size ** 2
    add("merger.ln_q", (tower.adapter_in_dim,), True)
    add("merger.mlp.0", (merged, merged), True)
    add("merger.mlp.2", (tower.adapter_out_dim, merged), True)
    add("norm", (d,))
    return tuple(out)


def _experts(vision: Mapping[str, Any], layers: int, where: str | None) -> tuple[int, ...]:
    """Each block's routed experts (0: dense): Dots3NoteVisionConfig.__post_init__'s pyramid_num_routed (by default
    25 dense blocks, then 4, 8, ..., 64, 64: 42 blocks), else mlp_layer_types with per_layer_config's
    num_local_experts over the config's."""
    pyramid = vision.get("pyramid_num_routed")
    kinds = vision.get("mlp_layer_types")
    if pyramid is None and kinds is None:
        pyramid = [-1] * 25 + list(range(4, 65, 4)) + [64]
    if pyramid is not None:
        if not isinstance(pyramid, (list, tuple)) or len(pyramid) != layers or any(type(n) is not int
                                                                                   for n in pyramid):
            raise ArchitectureError("vision_config.pyramid_num_routed", f"must list an expert count (or -1: dense) "
                                    f"for each of the {layers} blocks, got {pyramid!r}"[:300], where)
        return tuple(max(n, 0) for n in pyramid)
    if not isinstance(kinds, (list, tuple)) or len(kinds) != layers or any(k not in ("dense", "sparse")
                                                                          for k in kinds):
        raise ArchitectureError("vision_config.mlp_layer_types", f"must list 'dense' or 'sparse' for each of the "
                                f"{layers} blocks, got {kinds!r}"[:300], where)
    overrides = vision.get("per_layer_config") or {}
    if not isinstance(overrides, Mapping):
        raise ArchitectureError("vision_config.per_layer_config", "must be an object of block index -> overrides",
                                where)
    own = {}
    for index, values in overrides.items():
        try:
            block = int(index)
        except (TypeError, ValueError):
            raise ArchitectureError("vision_config.per_layer_config", f"{index!r} is not a block index"[:200],
                                    where) from None
        if not 0 <= block < layers or not isinstance(values, Mapping) or set(values) - {"num_local_experts",
                                                                                        "num_experts_per_tok"}:
            raise ArchitectureError("vision_config.per_layer_config", f"block {index}: only num_local_experts and "
                                    f"num_experts_per_tok of blocks 0..{layers - 1} are read, got {values!r}"[:300],
                                    where)
        own[block] = values.get("num_local_experts", vision.get("num_local_experts"))
    experts = []
    for i, kind in enumerate(kinds):
        count = own.get(i, vision.get("num_local_experts"))
        if kind == "sparse" and (type(count) is not int or count <= 0):
            raise ArchitectureError("vision_config.num_local_experts", f"must be a positive whole number, got "
                                    f"{count!r}"[:200], where)
        experts.append(count if kind == "sparse" else 0)
    return tuple(experts)


def vision(prefix: str, config: Mapping[str, Any], where: str | None) -> Dots3NoteVision:
    config = {**config, **{own: config[legacy] for legacy, own in (("embed_dim", "hidden_size"),
                                                                   ("num_heads", "num_attention_heads"),
                                                                   ("use_bias", "attention_bias")) if legacy in config}}
    s = "vision_config"
    sizes = {key: _size(config, key, s, where) for key in ("hidden_size", "intermediate_size", "num_hidden_layers",
                                                           "num_attention_heads", "num_channels", "patch_size",
                                                           "moe_intermediate_size", "adapter_in_dim",
                                                           "adapter_out_dim", "adapter_merge_size",
                                                           "spatial_merge_size")}
    # Dots3NoteVisionConfig.validate_architecture
    if sizes["hidden_size"] % sizes["num_attention_heads"]:
        raise ArchitectureError(f"{s}.num_attention_heads", f"{sizes['num_attention_heads']} heads do not divide "
                                f"hidden_size={sizes['hidden_size']}", where)
    if sizes["adapter_in_dim"] != sizes["hidden_size"]:
        raise ArchitectureError(f"{s}.adapter_in_dim", f"{sizes['adapter_in_dim']} is not hidden_size="
                                f"{sizes['hidden_size']} (Dots3NoteVisionConfig.validate_architecture)", where)
    if sizes["adapter_merge_size"] != sizes["spatial_merge_size"]:
        raise ArchitectureError(f"{s}.adapter_merge_size", f"{sizes['adapter_merge_size']} is not spatial_merge_size="
                                f"{sizes['spatial_merge_size']} (Dots3NoteVisionConfig.validate_architecture)", where)
    experts = _experts(config, sizes["num_hidden_layers"], where)
    mlp_bias = flag(config, "mlp_bias", s, where)
    if mlp_bias and any(experts):
        raise ArchitectureError(f"{s}.mlp_bias", "true beside routed experts (Dots3NoteVisionConfig."
                                "validate_architecture: stacked experts require mlp_bias false)", where)
    return Dots3NoteVision(prefix, sizes["hidden_size"], sizes["intermediate_size"], sizes["num_attention_heads"],
                           sizes["num_channels"], sizes["patch_size"], sizes["moe_intermediate_size"],
                           flag(config, "attention_bias", s, where), mlp_bias, sizes["adapter_in_dim"],
                           sizes["adapter_out_dim"], sizes["adapter_merge_size"], experts)


class Dots3NoteAudio(NamedTuple):
    prefix: str
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    feature_size: int
    downsample_hidden_size: int
    attention_bias: bool
    adapter_out_dim: int
    rotary_dim: int  # int(head_dim × partial_rotary_factor)
    conv_output_size: int  # conv_out's input: downsample_hidden_size × ((feature_size + 7) // 8) unless given

    def tensors(self) -> list[Tensor]:
        return list(_audio(self))

    def buffers(self) -> list[Buffer]:
        rows = (self.rotary_dim + 1) // 2
        return [Buffer(self.prefix + "rotary_embedding." + name, (rows,), "float32", False)
                for name in ("inv_freq", "original_inv_freq")]


@lru_cache(maxsize=64)
def _audio(tower: Dots3NoteAudio) -> tuple[Tensor, ...]:
    d, p, down, ffn, out_dim = (tower.hidden_size, tower.prefix, tower.downsample_hidden_size,
                                tower.intermediate_size, tower.adapter_out_dim)
    out: list[Tensor] = []

    def add(name: str, shape: tuple[int, ...], bias: bool = False) -> None:
        out.append(_new(Tensor, (p + name + ".weight", shape, "audio", None, False, 0)))
        if bias:
            out.append(_new(Tensor, (p + name + ".bias", shape[:1], "audio", None, False, 0)))

    for i, channels in enumerate((1, down, down)):
        add(f"conv_stem.convs.{i}", (down, channels, 3, 3), True)
    add("conv_stem.conv_out", (d, tower.conv_output_size))
    bias = tower.attention_bias
    for i in range(tower.num_hidden_layers):
        layer = f"layers.{i}."
        add(layer + "self_attn.q_proj", (d, d), bias)
        add(layer + "self_attn.k_proj", (d, d))
        add(layer + "self_attn.v_proj", (d, d), bias)
        add(layer + "self_attn.o_proj", (d, d), bias)
        add(layer + "input_layernorm", (d,))
        add(layer + "mlp.gate_up_proj", (2 * ffn, d), True)
        add(layer + "mlp.down_proj", (d, ffn), True)
        add(layer + "post_attention_layernorm", (d,))
    add("layer_norm", (d,))
    add("adapter.norm", (d,), True)
    add("adapter.fc1", (out_dim, d), True)
    add("adapter.fc2", (out_dim, out_dim), True)
    return tuple(out)


def audio(prefix: str, config: Mapping[str, Any], where: str | None) -> Dots3NoteAudio:
    s = "audio_config"
    whisper = config.get("whisper_config") or {}
    if not isinstance(whisper, Mapping):
        raise ArchitectureError(f"{s}.whisper_config", "must be a JSON object", where)
    config = {**config, **{own: whisper[legacy] for legacy, own in WHISPER.items() if legacy in whisper}}
    for legacy in ("whisper_adapter_in_dim", "whisper_adapter_out_dim", "adapter_output_size"):
        if legacy in config:
            config[{"whisper_adapter_in_dim": "adapter_input_size"}.get(legacy, "adapter_out_dim")] = config[legacy]
    sizes = {key: _size(config, key, s, where) for key in ("hidden_size", "intermediate_size", "num_hidden_layers",
                                                           "num_attention_heads", "feature_size",
                                                           "downsample_hidden_size", "adapter_input_size",
                                                           "adapter_out_dim")}
    width, heads = sizes["hidden_size"], sizes["num_attention_heads"]
    if width % heads:  # Dots3NoteAudioConfig.validate_architecture
        raise ArchitectureError(f"{s}.num_attention_heads", f"{heads} heads do not divide hidden_size={width}", where)
    if sizes["adapter_input_size"] != width:
        raise ArchitectureError(f"{s}.adapter_input_size", f"{sizes['adapter_input_size']} is not hidden_size={width} "
                                "(Dots3NoteAudioConfig.validate_architecture)", where)
    rope = config.get("rope_parameters")
    factor = rope.get("partial_rotary_factor") if isinstance(rope, Mapping) else None
    factor = config.get("partial_rotary_factor", 0.5) if factor is None else factor
    if type(factor) not in (int, float) or not 0 < factor <= 1:
        raise ArchitectureError(f"{s}.partial_rotary_factor", f"must be a number in (0, 1], got {factor!r}"[:200],
                                where)
    # Dots3NoteAudioConfig.__post_init__ derives conv_output_size before super().__post_init__ sets the kwargs, so a
    # given one wins (configuration_dots3_note.py line 175): conv_out is that wide (0 builds 193, was counted 195)
    conv = (_size(config, "conv_output_size", s, where) if "conv_output_size" in config
            else sizes["downsample_hidden_size"] * ((sizes["feature_size"] + 7) // 8))
    return Dots3NoteAudio(prefix, width, sizes["intermediate_size"], sizes["num_hidden_layers"], heads,
                          sizes["feature_size"], sizes["downsample_hidden_size"],
                          flag(config, "attention_bias", s, where), sizes["adapter_out_dim"],
                          int(width // heads * factor), conv)


TOWERS = {"dots3_note_vision_encoder": TowerKind(VISION, vision), "dots3_note_audio_encoder": TowerKind(AUDIO, audio)}

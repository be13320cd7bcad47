"""DeepSeek-VL-Hybrid's high-resolution tower and its aligner (its low-resolution tower is SigLIP's, vision.py).
transformers 5.24.0 models/deepseek_vl_hybrid/modeling_deepseek_vl_hybrid.py (DeepseekVLHybridModel,
DeepseekVLSamVisionNeck, DeepseekVLSamVisionProj, DeepseekVLHybridAligner).

The high-resolution path, read from high_res_vision_config (a SamVisionConfig) and registered first: the model's own
high_res_vision_alpha (one scalar, a Parameter of DeepseekVLHybridModel itself, so listed before its children), SAM's
vision encoder (SamVisionModel.vision_encoder: GOT-OCR 2's tower, got_ocr2.py, the same modules), a second neck
(1×1 and 3×3 convs without bias, channels-first LayerNorms) and two strided 3×3 convs without bias, output_channels
to twice and four times that."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind
from .got_ocr2 import SamTower
from .got_ocr2 import make as sam

_new = tuple.__new__
KEY = "high_res_vision_config"


class HighResTower(NamedTuple):
    """The high-resolution path under "model." (``prefix``): alpha, SAM's encoder, the neck, the projection."""
    prefix: str
    sam: SamTower  # under prefix + "high_res_vision_model.vision_encoder."

    def tensors(self) -> list[Tensor]:
        d, out_c, p = self.sam.hidden_size, self.sam.output_channels, self.prefix
        before = [(p + "high_res_vision_alpha", (1,))]
        after = [(p + "high_res_vision_neck.conv1.weight", (out_c, d, 1, 1)),
                 (p + "high_res_vision_neck.layer_norm1.weight", (out_c,)),
                 (p + "high_res_vision_neck.layer_norm1.bias", (out_c,)),
                 (p + "high_res_vision_neck.conv2.weight", (out_c, out_c, 3, 3)),
                 (p + "high_res_vision_neck.layer_norm2.weight", (out_c,)),
                 (p + "high_res_vision_neck.layer_norm2.bias", (out_c,)),
                 (p + "high_res_vision_proj.conv1.weight", (2 * out_c, out_c, 3, 3)),
                 (p + "high_res_vision_proj.conv2.weight", (4 * out_c, 2 * out_c, 3, 3))]

        def made(named: list[tuple[str, tuple[int, ...]]]) -> list[Tensor]:
            return [_new(Tensor, (name, shape, "vision", None, False, 0)) for name, shape in named]

        return made(before) + self.sam.tensors() + made(after)

    def buffers(self) -> list[Buffer]:
        return []


def make(prefix: str, config: Mapping[str, Any], where: str | None) -> HighResTower:
    kind = config.get("model_type", "sam_vision_model")
    if kind != "sam_vision_model":  # the neck and projection read SamVisionConfig's keys
        raise ArchitectureError(f"{KEY}.model_type", f"{kind!r} is a high-resolution tower paramledger does not "
                                "build (it builds sam_vision_model); --text-only counts the text decoder alone", where)
    given = dict(config)
    if given.get("mlp_dim") is None:  # SamVisionConfig.__post_init__
        ratio = given.get("mlp_ratio", 4.0)
        if not isinstance(ratio, (int, float)) or isinstance(ratio, bool) or ratio <= 0:
            raise ArchitectureError(f"{KEY}.mlp_ratio", f"must be a number above 0, got {ratio!r}", where)
        width = given.get("hidden_size")
        given["mlp_dim"] = int(width * ratio) if type(width) is int else width
    try:
        tower = sam(prefix + "high_res_vision_model.vision_encoder.", given, where)
    except ArchitectureError as error:  # said under this sub-config's key, not vision_config's
        raise ArchitectureError(error.key.replace("vision_config.", f"{KEY}.", 1), error.message, where) from None
    if not given["global_attn_indexes"]:  # DeepseekVLHybridModel reads its first
        raise ArchitectureError(f"{KEY}.global_attn_indexes", "must name at least one layer: DeepseekVLHybridModel "
                                "reads the first", where)
    return HighResTower(prefix, tower)


def aligner(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """DeepseekVLHybridAligner: the low- and high-resolution features each to half the decoder's width (floored),
    then one Linear at it; all biased."""
    high = config.get(KEY) or {}
    out_c = high.get("output_channels", SAM_DEFAULTS["output_channels"])
    half = hidden // 2
    return [("vision_proj.weight", (half, vision.hidden_size)), ("vision_proj.bias", (half,)),
            ("high_res_vision_proj.weight", (half, 4 * out_c)), ("high_res_vision_proj.bias", (half,)),
            ("proj.weight", (hidden, hidden)), ("proj.bias", (hidden,))]


SAM_DEFAULTS = {"model_type": "sam_vision_model", "hidden_size": 768, "output_channels": 256,
                "num_hidden_layers": 12, "num_attention_heads": 12, "num_channels": 3, "image_size": 1024,
                "patch_size": 16, "qkv_bias": True, "mlp_ratio": 4.0, "use_abs_pos": True, "use_rel_pos": True,
                "window_size": 14, "global_attn_indexes": [2, 5, 8, 11], "mlp_dim": None}
"""transformers 5.24.0 models/sam/configuration_sam.py (SamVisionConfig; DeepseekVLHybridConfig builds it with no
init_kwargs)."""

TOWERS = {"deepseek_vl_hybrid_high_res": TowerKind(SAM_DEFAULTS, make)}

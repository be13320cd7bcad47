"""Pixtral's vision tower (Mistral Small 3.1's, Pixtral-12B's): a ViT of RMSNorms and a gated FFN without
biases, no learned positions (a 2-D axial RoPE, whose frequency tables are its only buffers), an RMSNorm
before the layers and none after.  transformers 5.24.0 models/pixtral/modeling_pixtral.py
(PixtralVisionModel, PixtralAttentionLayer, PixtralVisionRotaryEmbedding)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..design.values import positive
from ..inventory import Buffer
from ..naming import Naming
from ._kind import TowerKind
from .projectors import flag
from .vision import VisionLayout, VisionTower, vit

PIXTRAL = VisionLayout(
    naming=Naming(layer="transformer.layers.{i}", q="attention.q_proj", k="attention.k_proj", v="attention.v_proj",
                  o="attention.o_proj", gate="feed_forward.gate_proj", up="feed_forward.up_proj",
                  down="feed_forward.down_proj", attn_pre_norm="attention_norm", ffn_pre_norm="ffn_norm",
                  layer_order=("attention_norm", "feed_forward", "attention.k_proj", "attention.v_proj",
                               "attention.q_proj", "attention.o_proj", "ffn_norm")),
    patch="patch_conv", patch_bias=False, positions=None, pre_norm="ln_pre", post_norm=None, norm_type="rmsnorm",
    gated=True, bias=False)

PIXTRAL_DEFAULTS = {"hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24, "num_attention_heads": 16,
                    "num_channels": 3, "image_size": 1024, "patch_size": 16}
"""transformers 5.24.0 models/pixtral/configuration_pixtral.py (PixtralVisionConfig)."""


class PixtralTower(VisionTower):
    """A Pixtral tower: VisionTower's tensors; its buffers are the axial RoPE's two float32 tables."""

    def buffers(self) -> list[Buffer]:
        # compute_axial_rope_parameters: arange(0, head_dim, 2), head_dim = hidden_size // num_attention_heads
        width = (self.hidden_size // self.num_attention_heads + 1) // 2
        return [Buffer(f"{self.prefix}patch_positional_embedding.{which}", (width,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]


_vit = vit(PIXTRAL)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> PixtralTower:
    # PixtralVisionConfig.__post_init__ sets head_dim to hidden_size // num_attention_heads, whatever is given.
    tower = PixtralTower(*_vit(prefix, {k: v for k, v in vision.items() if k != "head_dim"}, where))
    if tower.hidden_size // tower.num_attention_heads % 2:  # its validate_rope: the 2-D RoPE rotates pairs
        raise ArchitectureError("vision_config.num_attention_heads", f"{tower.num_attention_heads} heads of "
                                f"hidden_size={tower.hidden_size} are {tower.hidden_size // tower.num_attention_heads}"
                                " wide: Pixtral's RoPE needs an even head width", where)
    return tower


TOWERS = {"pixtral": TowerKind(PIXTRAL_DEFAULTS, make)}


def mistral3(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Mistral3MultiModalProjector (models/mistral3/modeling_mistral3.py): an RMSNorm over the vision width, the
    patch merger (spatial_merge_size² patches into one, no bias), then LLaVA's two Linears, linear_1 from the
    vision width times the feature layers; biased by multimodal_projector_bias (Mistral3Config: False)."""
    merge = positive(config.get("spatial_merge_size", 2), "spatial_merge_size", None)
    layers = config.get("vision_feature_layer", -1)
    width = vision.hidden_size * (len(layers) if isinstance(layers, list) else 1)
    bias = flag(config, "multimodal_projector_bias", False)
    out = [("norm.weight", (vision.hidden_size,)),
           ("patch_merger.merging_layer.weight", (vision.hidden_size, vision.hidden_size * merge * merge))]
    for name, shape in (("linear_1", (hidden, width)), ("linear_2", (hidden, hidden))):
        out.append((f"{name}.weight", shape))
        if bias:
            out.append((f"{name}.bias", (hidden,)))
    return out

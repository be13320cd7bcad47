"""The Idefics vision transformer (Idefics2's, Idefics3's, SmolVLM's: SigLIP's layers with CLIP's registration
order, learned positions computed per image so no position_ids buffer, no pooling head) and the connectors
that carry it into the decoder: Idefics3's pixel shuffle and one Linear, Idefics2's gated MLP and perceiver
resampler.  transformers 5.24.0 models/idefics3/modeling_idefics3.py (Idefics3VisionTransformer,
Idefics3Connector), models/idefics2/modeling_idefics2.py (Idefics2Connector, Idefics2PerceiverResampler),
models/smolvlm/modeling_smolvlm.py (the same as Idefics3's)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..inventory import Buffer
from ._kind import TowerKind
from .vision import CLIP, VisionLayout, VisionTower, vit

IDEFICS = VisionLayout(naming=CLIP.naming, head=None)  # SIGLIP's names, CLIP's order, no head


class IdeficsTower(VisionTower):
    """An Idefics vision transformer: VisionTower's tensors; Idefics3VisionEmbeddings registers no buffer."""

    def buffers(self) -> list[Buffer]:
        return []


_vit = vit(IDEFICS)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> IdeficsTower:
    return IdeficsTower(*_vit(prefix, {k: v for k, v in vision.items() if k != "vision_use_head"}, where))


IDEFICS_DEFAULTS = {"hidden_size": 1152, "intermediate_size": 3072, "num_hidden_layers": 12, "num_attention_heads": 16,
                    "num_channels": 3, "image_size": 224, "patch_size": 32}
"""transformers 5.24.0 models/idefics3/configuration_idefics3.py (Idefics3VisionConfig); SmolVLMVisionConfig
(models/smolvlm/configuration_smolvlm.py) has the same defaults."""
IDEFICS2_DEFAULTS = {**IDEFICS_DEFAULTS, "hidden_size": 768, "num_attention_heads": 12}
"""transformers 5.24.0 models/idefics2/configuration_idefics2.py (Idefics2VisionConfig)."""

TOWERS = {"idefics3_vision": TowerKind(IDEFICS_DEFAULTS, make), "smolvlm_vision": TowerKind(IDEFICS_DEFAULTS, make),
          "idefics2_vision": TowerKind(IDEFICS2_DEFAULTS, make),
          # Idefics2Config.__post_init__ drops vision_config's model_type, which Idefics2's releases spell as
          # the whole model's: "idefics2" names this tower too.
          "idefics2": TowerKind(IDEFICS2_DEFAULTS, make)}


def _positive(section: Mapping[str, Any], key: str, default: int, under: str = "") -> int:
    value = section.get(key, default)
    if type(value) is not int or value <= 0:
        raise ArchitectureError(under + key, f"must be a positive whole number, got {value!r}")
    return value


def idefics3(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Idefics3Connector: the pixel shuffle folds scale_factor² patches into one (Idefics3Config: 2), then one
    Linear without bias into the decoder's width."""
    scale = _positive(config, "scale_factor", 2)
    return [("connector.modality_projection.proj.weight", (hidden, vision.hidden_size * scale * scale))]


PERCEIVER_DEFAULTS = {"resampler_n_latents": 64, "resampler_depth": 3, "resampler_n_heads": 16,
                      "resampler_head_dim": 96, "num_key_value_heads": 4}
"""transformers 5.24.0 models/idefics2/configuration_idefics2.py (Idefics2PerceiverConfig)."""


def idefics2(text_inner: int) -> Any:
    """Idefics2Connector: a gated MLP from the vision width to the decoder's, as wide as the decoder's FFN
    (text_config's intermediate_size, ``text_inner`` its class default), then the perceiver resampler at the
    decoder's width (Idefics2Config sets perceiver_config.hidden_size to it): learned latents, resampler_depth
    layers of cross-attention (GQA, RMSNorms on latents and context) and a 4x gated MLP, a final RMSNorm."""
    def projector(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
        inner = (config.get("text_config") or {}).get("intermediate_size", text_inner)
        given = config.get("perceiver_config") or {}
        if not isinstance(given, Mapping):
            raise ArchitectureError("perceiver_config", "must be a JSON object")
        p = {key: _positive(given, key, default, "perceiver_config.") for key, default in PERCEIVER_DEFAULTS.items()}
        heads, kv, head_dim = p["resampler_n_heads"], p["num_key_value_heads"], p["resampler_head_dim"]
        if kv > heads:
            raise ArchitectureError("perceiver_config.num_key_value_heads", f"{kv} is more than resampler_n_heads="
                                    f"{heads}")
        out = [("connector.modality_projection.gate_proj.weight", (inner, vision.hidden_size)),
               ("connector.modality_projection.up_proj.weight", (inner, vision.hidden_size)),
               ("connector.modality_projection.down_proj.weight", (hidden, inner)),
               ("connector.perceiver_resampler.latents", (p["resampler_n_latents"], hidden))]
        for i in range(p["resampler_depth"]):
            layer = f"connector.perceiver_resampler.layers.{i}."
            out += [(layer + "input_latents_norm.weight", (hidden,)), (layer + "input_context_norm.weight", (hidden,)),
                    (layer + "self_attn.q_proj.weight", (heads * head_dim, hidden)),
                    (layer + "self_attn.k_proj.weight", (kv * head_dim, hidden)),
                    (layer + "self_attn.v_proj.weight", (kv * head_dim, hidden)),
                    (layer + "self_attn.o_proj.weight", (hidden, heads * head_dim)),
                    (layer + "post_attention_layernorm.weight", (hidden,)),
                    (layer + "mlp.gate_proj.weight", (4 * hidden, hidden)),
                    (layer + "mlp.up_proj.weight", (4 * hidden, hidden)),
                    (layer + "mlp.down_proj.weight", (hidden, 4 * hidden))]
        out.append(("connector.perceiver_resampler.norm.weight", (hidden,)))
        return out
    return projector

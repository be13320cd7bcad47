"""Llama 4's vision tower (Llama4VisionModel) and its projector: a ViT whose patches are unfolded and embedded by one
Linear without bias (num_channels × patch_size² pixels in), a class token and a learned position row per patch
(raw Parameters, not an nn.Embedding), LayerNorms before and after the layers (both before them in registration
order), num_hidden_layers pre-norm layers of biased attention and a biased GELU MLP (fc1, fc2), and the vision
adapter: the pixel shuffle, then Llama4VisionMLP2's two Linears without bias (fc1: intermediate_size to
projector_input_dim, fc2: projector_output_dim square), inside the tower but its "projector" component as
Qwen2-VL's merger is.  Its 2-D RoPE is one complex64 table (freqs_ci).  The
projector is one Linear without bias from vision_output_dim to the decoder's width.  transformers 5.24.0
models/llama4/modeling_llama4.py (Llama4VisionModel, Llama4VisionEncoderLayer, Llama4UnfoldConvolution,
Llama4VisionRotaryEmbedding, Llama4VisionPixelShuffleMLP, Llama4MultiModalProjector)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from ..inventory import Buffer, Tensor
from ..naming import Naming
from ._kind import TowerKind
from .qwen_vl import _size as positive  # a vision_config size, refused in one line unless a positive whole number
from .vision import VisionLayout, VisionTower, vit

_new = tuple.__new__

LLAMA4 = VisionLayout(
    naming=Naming(layer="model.layers.{i}", up="mlp.fc1", down="mlp.fc2",
                  layer_order=("self_attn", "mlp", "input_layernorm", "post_attention_layernorm")),
    patch="patch_embedding.linear", patch_bias=False, positions=None, post_norm=None)

LLAMA4_DEFAULTS = {"hidden_size": 768, "num_hidden_layers": 34, "num_attention_heads": 16, "num_channels": 3,
                   "intermediate_size": 5632, "vision_output_dim": 7680, "image_size": 448, "patch_size": 14,
                   "projector_input_dim": 4096, "projector_output_dim": 4096}
"""transformers 5.24.0 models/llama4/configuration_llama4.py (Llama4VisionConfig)."""

ADAPTER_SIZES = ("vision_output_dim", "projector_input_dim", "projector_output_dim")
"""The vision_config keys of the adapter and projector widths, each a positive whole number."""


class Llama4Tower(NamedTuple):
    """A Llama 4 vision tower as its vision_config gives it, under its module path ("vision_model.")."""
    vit: VisionTower  # the layers' sizes (its patch conv and norms are not Llama 4's: tensors() lists its own)
    vision_output_dim: int
    projector_input_dim: int
    projector_output_dim: int

    @property
    def hidden_size(self) -> int:
        return self.vit.hidden_size

    @property
    def patches(self) -> int:
        """Patches of one image: (image_size // patch_size)², as Llama4VisionModel floors them."""
        return self.vit.patches

    def tensors(self) -> list[Tensor]:
        return list(_listed(self))

    def listed(self) -> tuple[Tensor, ...]:
        tower, p = self.vit, self.vit.prefix
        d = tower.hidden_size

        def made(name: str, shape: tuple[int, ...], component: str = "vision") -> Tensor:
            return _new(Tensor, (p + name, shape, component, None, False, 0))

        head = [made("class_embedding", (d,)), made("positional_embedding_vlm", (tower.patches + 1, d)),
                made("patch_embedding.linear.weight", (d, tower.num_channels * tower.patch_size ** 2))]
        for norm in ("layernorm_pre", "layernorm_post"):
            head += [made(norm + ".weight", (d,)), made(norm + ".bias", (d,))]
        layers = [t for t in tower.tensors() if not t.name.startswith(p + LLAMA4.patch + ".")]
        adapter = [made("vision_adapter.mlp.fc1.weight", (self.projector_input_dim, tower.intermediate_size),
                        "projector"),
                   made("vision_adapter.mlp.fc2.weight", (self.projector_output_dim, self.projector_output_dim),
                        "projector")]
        return (*head, *layers, *adapter)

    def buffers(self) -> list[Buffer]:
        """Llama4VisionRotaryEmbedding's freqs_ci: one complex row per patch and the class token, 2 × (head_dim //
        4) wide, complex64, non-persistent."""
        width = 2 * (self.vit.hidden_size // self.vit.num_attention_heads // 2 // 2)
        return [Buffer(self.vit.prefix + "rotary_embedding.freqs_ci", (self.patches + 1, 1, width), "complex64",
                       False)]


@lru_cache(maxsize=64)
def _listed(tower: Llama4Tower) -> tuple[Tensor, ...]:
    return tower.listed()


_vit = vit(LLAMA4)


def make(prefix: str, vision: Mapping[str, Any], where: str | None) -> Llama4Tower:
    # Llama4VisionAttention: head_dim is hidden_size // num_attention_heads, whatever the config says.
    tower = _vit(prefix, {k: v for k, v in vision.items() if k not in ("head_dim", "vision_use_head")}, where)
    return Llama4Tower(tower, *(positive(vision, key, where) for key in ADAPTER_SIZES))


# (its MLPs build nn.GELU() whatever hidden_act says, modeling_llama4.py lines 674 and 815: no learned activation)
TOWERS = {"llama4_vision_model": TowerKind(LLAMA4_DEFAULTS, make, learned=False)}


def llama4(config: Mapping[str, Any], vision: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """Llama4MultiModalProjector: linear_1, no bias, from vision_output_dim to the decoder's width."""
    return [("linear_1.weight", (hidden, vision.vision_output_dim))]

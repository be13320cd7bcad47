"""Dots 3 Note's sliding-window layers (transformers 5.24.0 modeling_dots3_note.py Dots3NoteTextAttention, built from
``config.per_layer_config[layer_idx]``): parts/head_gated_mla.py's part at latent sizes of their own, never with an
indexer.  Dots3NoteTextConfig.__post_init__ gives every "sliding_attention" layer the released checkpoint's swa_*
sizes (64 heads, q and kv ranks 1024, nope 192, rope swa_head_dim - nope, v 128) unless per_layer_config says
otherwise; the keys here are those swa_* names.  swa_head_dim sizes only the sliding rotary's inv_freq."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ._protocol import MixerKind
from .head_gated_mla import HeadGatedLatentAttention, head_gated

SIZES = ("swa_num_attention_heads", "swa_q_lora_rank", "swa_kv_lora_rank", "swa_qk_nope_head_dim",
         "swa_qk_rope_head_dim", "swa_v_head_dim", "swa_head_dim")


class Keys:
    """The flat keys: the sliding layers and their latent sizes."""
    sliding_head_gated_mla_layers: tuple[int, ...] = ()
    swa_num_attention_heads: int | None = None
    swa_q_lora_rank: int | None = None
    swa_kv_lora_rank: int | None = None
    swa_qk_nope_head_dim: int | None = None
    swa_qk_rope_head_dim: int | None = None
    swa_v_head_dim: int | None = None
    swa_head_dim: int | None = None  # the sliding rotary's head width (its inv_freq), no tensor's


class Names:
    """No path of its own: head_gated_mla's."""


def _build(arch: Any) -> HeadGatedLatentAttention:
    return head_gated(arch, arch.swa_num_attention_heads, arch.swa_q_lora_rank, arch.swa_kv_lora_rank,
                      arch.swa_qk_nope_head_dim, arch.swa_qk_rope_head_dim, arch.swa_v_head_dim, False)


def _check(arch: Any, where: str | None) -> None:
    for key in SIZES:
        if not arch.sliding_head_gated_mla_layers:  # engaged by a size alone
            if getattr(arch, key) is not None:
                raise ArchitectureError(key, "set without sliding_head_gated_mla_layers (the sliding latent "
                                        "attention layers)", where)
        elif getattr(arch, key) is None:
            raise ArchitectureError(key, "required with sliding_head_gated_mla_layers (the sliding layers' latent "
                                    "size)", where)


MIXER = MixerKind("sliding_head_gated_mla_layers", Keys, Names, _build,
                  lambda arch: bool(arch.sliding_head_gated_mla_layers) or any(
                      getattr(arch, key) is not None for key in SIZES), _check, positive_or_null=SIZES)

"""Dots 3 Note's "indexed_attention" layers (transformers 5.24.0 modeling_dots3_note.py Dots3NoteTextAttention with
Dots3NoteTextIndexer): parts/head_gated_mla.py's part at the design's own latent sizes with DeepSeek-V3.2's lightning
indexer (index_n_heads, index_head_dim), registered after g_proj, its key cached beside the latent."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ._protocol import MixerKind
from .head_gated_mla import HeadGatedLatentAttention, build, check


class Keys:
    """The flat key: the indexed layers (the indexer's sizes are the design's index_* keys)."""
    indexed_head_gated_mla_layers: tuple[int, ...] = ()


class Names:
    """No path of its own: head_gated_mla's and the indexer's (Naming.indexer_*)."""


def _build(arch: Any) -> HeadGatedLatentAttention:
    return build(arch, indexer=True)


def _check(arch: Any, where: str | None) -> None:
    check(arch, where, "indexed_head_gated_mla_layers")
    for key in ("index_n_heads", "index_head_dim"):
        if getattr(arch, key) is None:
            raise ArchitectureError(key, "required with indexed_head_gated_mla_layers (the lightning indexer's "
                                    "size)", where)


MIXER = MixerKind("indexed_head_gated_mla_layers", Keys, Names, _build,
                  lambda arch: bool(arch.indexed_head_gated_mla_layers), _check)

"""A block's own norms, by placement, before and after the sublayers the layer holds."""

from __future__ import annotations

from typing import NamedTuple

from ._collector import Collector
from ._protocol import part


@part
class BlockNorms(NamedTuple):
    """pre: one before each sublayer; post: one after each; sandwich: both (Gemma 2/3); parallel: one
    shared by parallel branches (GPT-J); parallel_split: one per parallel branch (Falcon-40B); none.
    A layer without a mixer or without an FFN (Nemotron-H, Mamba) has no norms for what it lacks:
    its single pre-norm goes by the attention's name."""
    hidden_size: int
    placement: str  # norm_placement
    mixer: bool = True  # the layer holds a token mixer
    ffn: bool = True  # the layer holds an FFN
    attn_pre_norm: bool = True  # False: no norm before the attention (layers_without_attn_pre_norm)

    def tensors(self, c: Collector) -> None:
        n, d, placement = c.naming, self.hidden_size, self.placement
        mixer, ffn = self.mixer, self.ffn
        if placement in ("pre", "sandwich", "parallel") and (mixer or placement == "parallel") and self.attn_pre_norm:
            c.norm(n.attn_pre_norm, d)
        if placement in ("post", "sandwich") and mixer:
            c.norm(n.attn_post_norm, d)
        if placement in ("pre", "sandwich") and ffn:
            c.norm(n.ffn_pre_norm if mixer else n.attn_pre_norm, d)
        if placement in ("post", "sandwich") and ffn:
            c.norm(n.ffn_post_norm, d)
        if placement == "parallel_split":
            c.norm(n.attn_branch_norm, d)
            c.norm(n.ffn_branch_norm, d)

"""Hypothesis strategies: random small configs for Kosmos-2.5 (issue #16), typed here.

Each spells the keys the way the family's config classes do (tests/_family_configs.py's style)."""

from __future__ import annotations

from _family_configs_ko import kosmos2_text, pix2struct_vision
from _family_configs_l import whole
from hypothesis import strategies as st


def _kosmos2_5_vision(config: dict) -> dict:
    """Pix2Struct's tower keys as Kosmos2_5VisionConfig spells them."""
    renamed = {"d_ff": "intermediate_size", "d_kv": "head_dim", "seq_len": "max_num_patches"}
    return {**{renamed.get(key, key): value for key, value in config.items()}, "model_type": "kosmos_2_5_vision_model"}


CONFIGS_K25: dict[str, st.SearchStrategy] = {
    "kosmos-2.5": whole("kosmos-2.5", "kosmos_2_5_text_model", kosmos2_text(), pix2struct_vision().map(_kosmos2_5_vision),
                        latent_query_num=st.integers(1, 8)),
}

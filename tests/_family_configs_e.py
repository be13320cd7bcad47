"""Hypothesis strategies: random small configs for the whole multimodal families of set E (issue #16).

Each strategy spells the keys the way the family's config class does (tests/_family_configs.py's style: see its
siglip() for a vision_config) and is typed here already (model_type set)."""

from __future__ import annotations

from hypothesis import strategies as st

CONFIGS_E: dict[str, st.SearchStrategy] = {}

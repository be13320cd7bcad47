"""Hypothesis strategies: random small configs for the decoder families of set C (issue #15).

Each strategy spells the keys the way the family's config class does (tests/_family_configs.py's style)
and is typed here already (model_type set)."""

from __future__ import annotations

from hypothesis import strategies as st

CONFIGS_C: dict[str, st.SearchStrategy] = {}

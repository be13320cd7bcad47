"""Hypothesis strategies: random small configs for the families of set Q (decoder-only types), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

CONFIGS_Q: dict[str, st.SearchStrategy] = {}

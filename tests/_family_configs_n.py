"""Hypothesis strategies: random small configs for the families of set N (seq2seq models (BART and T5 lineages)), typed here.

Each spells the keys the way the family's config class does (tests/_family_configs.py's style)."""

from __future__ import annotations

from hypothesis import strategies as st

CONFIGS_N: dict[str, st.SearchStrategy] = {}

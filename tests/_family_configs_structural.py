"""Random small configs for families that needed new architecture fields or builder structure: model_type -> strategy (see _family_configs.py for the shared helpers)."""

from __future__ import annotations

CONFIGS: dict = {}

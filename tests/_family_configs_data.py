"""Random small configs for families that are data only (new tables over the existing builder): model_type -> strategy (see _family_configs.py for the shared helpers)."""

from __future__ import annotations

CONFIGS: dict = {}

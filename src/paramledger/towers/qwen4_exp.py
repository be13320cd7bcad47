"""Qwen4-Exp's vision tower: Qwen3.5-MoE's (towers/qwen3_5.py), the same module and config (transformers 5.24.0
models/qwen4_exp/modular_qwen4_exp.py: Qwen4ExpVisionModel(Qwen3_5MoeVisionModel), Qwen4ExpVisionConfig(
Qwen3_5MoeVisionConfig) with only its model_type changed)."""

from __future__ import annotations

from .qwen3_5 import TOWERS as QWEN3_5_TOWERS

# Qwen4ExpConfig.__post_init__ reads an old checkpoint's vision_config model_type, the whole model's, as its tower.
TOWERS = {"qwen4_exp_vision": QWEN3_5_TOWERS["qwen3_5_moe_vision"], "qwen4_exp": QWEN3_5_TOWERS["qwen3_5_moe_vision"]}

"""Adapters: LoRA and its kin (DoRA, target_parameters), counted exactly as PEFT 0.21.2 counts them.

    >>> import paramledger
    >>> from paramledger.adapters import lora_inventory
    >>> inv = lora_inventory(paramledger.inventory("Llama-3.2-1B"), "r=16,target_modules=q_proj+v_proj")
    >>> inv.trainable, inv.total
    (1703936, 1237518336)
"""

from __future__ import annotations

from .config import LoraSpec, read_adapter
from .lora import apply_lora
from .source import check_base, lora_inventory

__all__ = ["LoraSpec", "apply_lora", "check_base", "lora_inventory", "read_adapter"]

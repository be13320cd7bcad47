"""The checks a traced closed form must pass (formula.py): it gives the inventory's total, embedding and active
counts at the design and at perturbed designs, every size moved at once, their new layers placed as the traced
stand-in places them."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ._exceptions import OptionError
from .architecture import Architecture
from .design.values import repeating_lists

if TYPE_CHECKING:
    from .formula import ClosedForm


def verify(form: ClosedForm, arch: Architecture) -> None:
    """The form must give the inventory's total at the design and at perturbed designs
    (every size moved at once): a builder step read as a constant would show here."""
    from . import inventory

    for arch_at in itertools.chain((arch,), _perturbed(arch)):  # one design at a time: each holds its layers
        expected = inventory(arch_at)
        for name, expr, value in (("total", form.total, expected.total),
                                  ("embedding", form.embedding, expected.embedding),
                                  ("active", form.active, expected.active)):
            for got in (form.evaluate(expr, arch_at), form.evaluate(form.substitute(expr), arch_at)):
                if got != value:
                    raise OptionError("formula", f"the traced {name} gives {got:,} but the inventory counts "
                                                 f"{value:,} for {arch_at.source}; this design has no closed form")
        del expected, arch_at  # one design's layers alive at a time


def lists_at_depth(arch: Architecture) -> tuple[list[str], list[int]]:
    """The per-layer lists that name every layer of a family's config (a state-space model's mixers: a new depth
    repeats them, Architecture.replace; a design's own lists stay as declared), and the last layer each other list
    names (mlp_only_layers only in an MoE design: without experts it means nothing)."""
    every, fixed, repeating = [], [], repeating_lists(arch)
    for key in dict.fromkeys([*repeating, "mlp_only_layers"]):  # first-k dense layers too
        listed = getattr(arch, key)
        if len(listed) == arch.num_hidden_layers and key in repeating and arch.model_type != "paramledger":
            every.append(key)
        elif listed and (key != "mlp_only_layers" or arch.is_moe):
            fixed.append(max(listed))
    return every, fixed


def _perturbed(arch: Architecture) -> Iterator[Architecture]:
    """Valid designs with every size moved (heads and width scaled together so that heads
    still divide the width); count-neutral per-layer patterns are dropped."""
    for bump in (1, 3):
        changes: dict[str, Any] = {
            "vocab_size": arch.vocab_size + 2 * bump + 1,
            "num_hidden_layers": arch.num_hidden_layers + bump,
            "num_attention_heads": 2 * arch.num_attention_heads,
            "hidden_size": 2 * (arch.hidden_size + bump * arch.num_attention_heads),
            "max_position_embeddings": arch.max_position_embeddings + bump,
            "layer_types": (),
        }
        if arch.num_key_value_heads is not None:
            changes["num_key_value_heads"] = 2 * arch.num_key_value_heads
        for key in ("head_dim", "intermediate_size", "moe_intermediate_size", "shared_expert_intermediate_size",
                    "q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
            if getattr(arch, key) is not None:
                changes[key] = getattr(arch, key) + bump
        if arch.is_moe:
            changes["num_experts"] = arch.num_experts + bump
        for key in ("head_dim_per_layer", "num_key_value_heads_per_layer"):
            if getattr(arch, key):  # kept as declared (no symbol per layer; the new layers are full-attention ones)
                changes[key] = getattr(arch, key)
        every, _ = lists_at_depth(arch)
        for key in repeating_lists(arch):  # as the stand-in reads them: the new layers unlisted, but where a
            if listed := getattr(arch, key):  # list names every layer
                changes[key] = tuple(range(arch.num_hidden_layers + bump)) if key in every else listed
        try:
            yield arch.replace(where=f"{arch.source} (perturbed)", **changes)
        except ValueError:  # an unusual design the perturbation breaks: the design itself still checks
            continue

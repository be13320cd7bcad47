"""Which tensors of an inventory a quantization method replaces, as transformers 5.24.0 picks them.

A method swaps modules, not tensors: ``nn.Linear`` modules (each a ``.weight`` of shape (out, in)),
some also the fused experts modules (a 3-D ``(experts, out, in)`` parameter under ``.experts``).
An inventory names its tensors as transformers does (tests/test_families.py), so a tensor's module
is its name less the last part, and what the module is follows from the tensor:

- a 2-D ``.weight`` outside the token and position tables and the norms is an ``nn.Linear``, but a
  router: transformers 5's ``*TopKRouter`` modules hold a bare Parameter, except the families in
  LINEAR_ROUTERS (tests/test_quantization_select.py checks every family against the built model);
- GPT-2's lineage builds ``Conv1D`` (pytorch_utils.py), a Linear stored transposed (in, out).

The skip lists match as transformers' ``should_convert_module`` (quantizers/quantizers_utils.py):
a pattern matches a module from its start up to a module boundary, as a regex with that boundary,
or as a suffix of its name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..inventory import Tensor

# model_types whose router is an nn.Linear (or a subclass), not a bare Parameter
LINEAR_ROUTERS = frozenset({"afmoe", "dbrx", "gemma3n", "gemma3n_text", "gemma4", "gemma4_text", "hunyuan_v1_moe",
                            "jetmoe", "llama4", "llama4_text", "phimoe"})
# ... of which the router's class subclasses nn.Linear (Llama4Router, PhimoeTopKRouter): FP8Linear
# swaps only ``type(module) is nn.Linear`` (integrations/finegrained_fp8.py replace_with_fp8_linear)
LINEAR_SUBCLASS_ROUTERS = frozenset({"llama4", "llama4_text", "phimoe"})
# ... and the model_types whose decoder layers build every linear as an nn.Linear subclass (FalconLinear), which
# FP8Linear leaves as it is (the output head is a plain nn.Linear)
LINEAR_SUBCLASS_LAYERS = frozenset({"falcon"})
CONV1D = frozenset({"gpt2", "gpt-sw3", "openai-gpt"})  # transformers.pytorch_utils.Conv1D
NOT_LINEAR = frozenset({"embedding", "positions", "norm"})


def module_of(name: str) -> str:
    return name.rpartition(".")[0]


def kind_of(t: Tensor, model_type: str) -> str | None:
    """"linear", "linear_subclass" (a router subclassing nn.Linear), "conv1d", "experts" (a fused 3-D
    expert tensor under ``.experts``) or None (an embedding, a norm, a bias, a bare parameter)."""
    shape = t[1]
    if t.experts:
        if len(shape) == 3 and module_of(t[0]).endswith(".experts") and not t[0].endswith("bias"):
            return "experts"
        return None
    if len(shape) != 2 or not t[0].endswith(".weight") or t[2] in NOT_LINEAR:
        return None
    if t[2] == "router":
        if model_type not in LINEAR_ROUTERS:
            return None
        return "linear_subclass" if model_type in LINEAR_SUBCLASS_ROUTERS else "linear"
    if model_type in LINEAR_SUBCLASS_LAYERS and t[2] != "lm_head":  # every linear but the head
        return "linear_subclass"
    return "conv1d" if model_type in CONV1D else "linear"


_BOUNDARY = r"(?:(?<=\.)|(?=\.|$))"


def compile_skips(patterns: Iterable[str] | None) -> tuple[re.Pattern[str], tuple[str, ...]] | None:
    """``modules_to_not_convert`` ready to match (None: nothing skipped)."""
    if patterns is None:
        return None
    patterns = tuple(patterns)
    if not patterns:
        return re.compile(r"(?!x)x"), ()
    try:
        return re.compile("|".join(f"(?:(?:{p}){_BOUNDARY})" for p in patterns)), patterns
    except re.error:  # a pattern that is no regex still matches as a prefix or suffix
        escaped = "|".join(f"(?:(?:{re.escape(p)}){_BOUNDARY})" for p in patterns)
        return re.compile(escaped), patterns


def skipped(module: str, skips: tuple[re.Pattern[str], tuple[str, ...]] | None) -> bool:
    """``not should_convert_module(module, patterns)``."""
    if skips is None:
        return False
    regex, patterns = skips
    return regex.match(module) is not None or any(module.endswith(p) for p in patterns)

"""PEFT's renaming of LoRA targets onto transformers 5's fused experts (peft 0.21.2,
utils/transformers_weight_conversion.py: convert_peft_config_for_transformers, _convert_peft_config_moe,
_resolve_string_target_modules).

transformers 5 fused the per-expert Linears of these families into 3-D parameters and turned the router into a
raw-weight module; PEFT, before injecting, moves a target naming a v4 expert projection or the router onto the
parameter that now holds it (target_parameters), and doubles the rank and alpha of the fused gate_up_proj when
both halves are targeted.  A target named this way leaves target_modules altogether: ``gate_proj`` then adapts
the experts only, not a dense layer's or a shared expert's gate_proj.
"""

from __future__ import annotations

import re

from .._exceptions import AdapterError
from .config import ALL_LINEAR, LoraSpec
from .modules import Module

# _MOE_TARGET_MODULE_MAPPING and _MOE_FUSED_TARGETS, by the pattern transformers' _MODEL_TO_CONVERSION_PATTERN
# (peft's copy, mixtral added) gives each supported family
_MIXTRAL = ({"gate": "gate.weight", "w1": "gate_up_proj", "w3": "gate_up_proj", "w2": "down_proj"},
            {"gate_up_proj": ("w1", "w3")})
_QWEN2_MOE = ({"gate": "gate.weight", "gate_proj": "gate_up_proj", "up_proj": "gate_up_proj",
               "down_proj": "down_proj"}, {"gate_up_proj": ("gate_proj", "up_proj")})
CONVERTED = {
    "mixtral": _MIXTRAL, "minimax_m2": _MIXTRAL,
    **dict.fromkeys(("qwen3_moe", "deepseek_v3", "olmoe", "flex_olmo", "deepseek_v2", "glm4_moe_lite", "glm4_moe",
                     "exaone_moe", "solar_open", "mellum", "sarvam_mla", "hunyuan_v1_moe", "ernie4_5_moe",
                     "cohere2_moe", "deepseek_v32", "glm_moe_dsa", "afmoe", "dots1", "qwen3_next"), _QWEN2_MOE),
}


def convert_moe_targets(model_type: str, spec: LoraSpec, targets, table: dict[str, Module], lm_head: str,
                        excluded) -> tuple[object, tuple[str, ...], dict[str, int], dict[str, int | float]]:
    """(target_modules, target_parameters, rank_pattern and alpha_pattern additions) as PEFT injects them."""
    if model_type not in CONVERTED:
        return targets, spec.target_parameters, {}, {}
    mapping, fused = CONVERTED[model_type]
    original = spec.target_modules
    if isinstance(original, str):
        resolved = _resolve(original, spec, table, lm_head, mapping, excluded)
        if not resolved:  # nothing matched: left for the standard not-found error
            return targets, spec.target_parameters, {}, {}
        targets = resolved
    parameters = set(spec.target_parameters)
    remaining: set[str] = set()
    matched: dict[str, set[str]] = {name: set() for name in fused}
    for target in targets or ():
        old = next((old for old in mapping if target == old or target.endswith(f".{old}")), None)
        if old is None:
            remaining.add(target)
            continue
        parameters.add(mapping[old])
        if mapping[old] in fused:
            matched[mapping[old]].add(old)
    ranks: dict[str, int] = {}
    alphas: dict[str, int | float] = {}
    for name, halves in fused.items():
        present = matched[name]
        if 0 < len(present) < len(halves):
            missing = ", ".join(sorted(set(halves) - present))
            raise AdapterError("target_modules", f"Cannot convert PEFT target(s) {', '.join(sorted(present))} "
                                                 f"without also targeting {missing} because they are fused into "
                                                 f"{name}", spec.where)
        if len(present) == len(halves) > 1:
            ranks[rf".*\.{re.escape(name)}"] = spec.r * len(halves)
            alphas[rf".*\.{re.escape(name)}"] = spec.lora_alpha * len(halves)
    return tuple(sorted(remaining)), tuple(sorted(parameters)), ranks, alphas


def _resolve(pattern: str, spec: LoraSpec, table: dict[str, Module], lm_head: str, mapping: dict[str, str],
             excluded) -> set[str]:
    """_resolve_string_target_modules: a regex or "all-linear" as the leaf names it reaches."""
    if pattern.lower() == ALL_LINEAR:
        return {path.rpartition(".")[2] for path, m in table.items()
                if m.kind == "linear" and path != lm_head} | set(mapping)
    keys = list(table) + [t.name for m in table.values() for t in m.parameters]

    def hit(key: str) -> bool:
        return not excluded(spec, key) and re.fullmatch(pattern, key) is not None

    matched = {key.rpartition(".")[2] for key in keys if hit(key)}
    containers: dict[str, set[str]] = {}
    for m in table.values():
        for t in m.parameters:
            containers.setdefault(t.name.rpartition(".")[2], set()).add(m.path)
    for old, new in mapping.items():
        if old not in matched and any(hit(f"{container}.{old}") for container in containers.get(new, ())):
            matched.add(old)
    return matched

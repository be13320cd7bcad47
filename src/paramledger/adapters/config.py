"""A LoRA adapter as PEFT 0.21.2 declares it: its adapter_config.json, the folder holding it, or an inline spec
(``r=16,lora_alpha=32,target_modules=q_proj+v_proj``).

The fields and their defaults are LoraConfig's (peft/tuners/lora/config.py, the dataclass), checked as its
``__post_init__`` checks them.  Fields that change no count are read and left alone; fields that build tensors
paramledger does not model are refused by name rather than counted wrong.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._exceptions import AdapterError, did_you_mean

INLINE = "--lora"
ALL_LINEAR = "all-linear"  # peft/utils/constants.py INCLUDE_LINEAR_LAYERS_SHORTHAND

# LoraConfig fields that change no tensor (dropout, initialisation, bookkeeping): read, never counted.
COUNT_NEUTRAL = {
    "task_type": None, "peft_type": "LORA", "auto_mapping": None, "peft_version": None, "revision": None,
    "inference_mode": False, "lora_dropout": 0.0, "use_rslora": False, "init_lora_weights": True,
    "loftq_config": {}, "eva_config": None, "corda_config": None, "lora_ga_config": None,
    "megatron_core": "megatron.core", "runtime_config": None, "use_qalora": False, "qalora_group_size": 16,
}
# LoraConfig fields that add or move tensors paramledger does not model: refused unless left at their default.
NOT_MODELLED = {
    "megatron_config": None, "trainable_token_indices": None, "velora_config": None, "alora_invocation_tokens": None,
    "monteclora_config": None, "layer_replication": None, "use_bdlora": None, "arrow_config": None,
    "kasa_config": None, "ensure_weight_tying": False,
}
COUNTED = ("base_model_name_or_path", "r", "target_modules", "exclude_modules", "lora_alpha", "fan_in_fan_out",
           "bias", "modules_to_save", "layers_to_transform", "layers_pattern", "rank_pattern", "alpha_pattern",
           "use_dora", "lora_bias", "target_parameters")
FIELDS = (*COUNTED, *COUNT_NEUTRAL, *NOT_MODELLED)
BIASES = ("none", "all", "lora_only")  # LoraConfig.bias; BaseTuner._mark_only_adapters_as_trainable
_REGEX_MARKS = set("*()[]{}|\\^$?")  # an inline target written with these is one regex, not a list


@dataclass(frozen=True)
class LoraSpec:
    """LoraConfig's counted fields.  ``target_modules``/``exclude_modules``: None, one regex (a str, matched
    whole: re.fullmatch) or names (a tuple, each matching a module whose path ends with ``.name``)."""

    r: int = 8
    lora_alpha: int | float = 8
    target_modules: str | tuple[str, ...] | None = None
    exclude_modules: str | tuple[str, ...] | None = None
    fan_in_fan_out: bool = False
    bias: str = "none"
    modules_to_save: tuple[str, ...] = ()
    layers_to_transform: int | tuple[int, ...] | None = None
    layers_pattern: str | tuple[str, ...] | None = None
    rank_pattern: dict[str, int] = field(default_factory=dict)
    alpha_pattern: dict[str, int | float] = field(default_factory=dict)
    use_dora: bool = False
    lora_bias: bool = False
    target_parameters: tuple[str, ...] = ()
    base_model_name_or_path: str | None = None
    where: str = INLINE  # the file it came from, for messages


def read_adapter(adapter: str | os.PathLike | dict[str, Any]) -> LoraSpec:
    """An adapter_config.json, the folder holding one, a mapping of LoraConfig fields, or an inline spec."""
    if isinstance(adapter, dict):
        return spec_from_mapping(adapter, "adapter")
    text = os.fspath(adapter)
    path = Path(text)
    if path.is_dir():
        path = path / "adapter_config.json"
        if not path.is_file():
            raise AdapterError("adapter_config.json", "not found in the folder", text)
    if path.suffix == ".json" or path.is_file():
        try:
            values = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise AdapterError("file", "not found", text) from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise AdapterError("file", f"not a readable JSON file ({error.__class__.__name__})", text) from None
        if not isinstance(values, dict):
            raise AdapterError("file", "the JSON is not an object of LoraConfig fields", text)
        return spec_from_mapping(values, str(path))
    return spec_from_mapping(parse_inline(text), INLINE)


def parse_inline(text: str) -> dict[str, Any]:
    """``r=16,lora_alpha=32,target_modules=q_proj+v_proj,rank_pattern=q_proj:8`` -> LoraConfig fields.
    Lists are joined with "+", mappings written key:value; a value holding regex marks stays one string."""
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not key:
            raise AdapterError("spec", f"expected KEY=VALUE, got {item!r} (or give an adapter_config.json)", INLINE)
        values[key] = _inline_value(key, raw)
    return values


def _inline_value(key: str, raw: str) -> Any:
    if key in ("rank_pattern", "alpha_pattern"):
        pairs = [pair.rpartition(":") for pair in raw.split("+") if pair]
        if any(not sep for _, sep, _ in pairs):
            raise AdapterError(key, f"expected PATTERN:VALUE joined with '+', got {raw!r}", INLINE)
        return {name: _scalar(value) for name, _, value in pairs}
    if key in ("target_modules", "exclude_modules", "layers_pattern") and (
            raw.lower() == ALL_LINEAR or _REGEX_MARKS & set(raw)):
        return raw
    if key in ("target_modules", "exclude_modules", "modules_to_save", "target_parameters", "layers_pattern",
               "layers_to_transform") and ("+" in raw or key != "layers_to_transform"):
        return [_scalar(part) if key == "layers_to_transform" else part for part in raw.split("+") if part]
    return _scalar(raw)


def _scalar(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def spec_from_mapping(values: dict[str, Any], where: str) -> LoraSpec:
    """LoraConfig's fields, checked as LoraConfig.__post_init__ and LoraLayer.update_layer check them."""
    for key in values:
        if key not in FIELDS:
            raise AdapterError(key, f"not a LoraConfig field{did_you_mean(key, FIELDS)}", where)
    peft_type = values.get("peft_type") or "LORA"
    if str(peft_type).upper() != "LORA":
        raise AdapterError("peft_type", f"{peft_type!r}: only LoRA adapters are counted", where)
    for key, default in NOT_MODELLED.items():
        if values.get(key, default) not in (default, None, False, {}, []):
            raise AdapterError(key, "adds tensors paramledger does not model; not counted", where)
    r = _integer(values.get("r", 8), "r", where)
    targets = _targets(values.get("target_modules"), "target_modules", where)
    if isinstance(targets, str) and values.get("layers_to_transform") is not None:
        raise AdapterError("layers_to_transform", "cannot be used when target_modules is a str", where)
    if isinstance(targets, str) and values.get("layers_pattern") is not None:
        raise AdapterError("layers_pattern", "cannot be used when target_modules is a str", where)
    if values.get("layers_pattern") and values.get("layers_to_transform") is None:
        raise AdapterError("layers_pattern", "needs layers_to_transform as well", where)
    bias = values.get("bias", "none")
    if bias not in BIASES:
        raise AdapterError("bias", f"{bias!r} is not implemented; one of {', '.join(BIASES)}", where)
    if values.get("lora_bias") and values.get("use_dora"):
        raise AdapterError("lora_bias", "is not supported with use_dora", where)
    parameters = values.get("target_parameters") or ()
    if isinstance(parameters, str):
        raise AdapterError("target_parameters", "must be a list of names, not one string", where)
    layers = values.get("layers_to_transform")
    if layers is not None:
        layers = (_integer(layers, "layers_to_transform", where, minimum=0) if not isinstance(layers, list)
                  else tuple(_integer(i, "layers_to_transform", where, minimum=0) for i in layers))
    pattern = values.get("layers_pattern")
    return LoraSpec(
        r=r, lora_alpha=values.get("lora_alpha", 8), target_modules=targets,
        exclude_modules=_targets(values.get("exclude_modules"), "exclude_modules", where),
        fan_in_fan_out=bool(values.get("fan_in_fan_out", False)), bias=bias,
        modules_to_save=tuple(values.get("modules_to_save") or ()), layers_to_transform=layers,
        layers_pattern=tuple(pattern) if isinstance(pattern, list) else pattern,
        rank_pattern={k: _integer(v, f"rank_pattern {k}", where) for k, v in (values.get("rank_pattern") or {}).items()},
        alpha_pattern=dict(values.get("alpha_pattern") or {}), use_dora=bool(values.get("use_dora", False)),
        lora_bias=bool(values.get("lora_bias", False)), target_parameters=tuple(parameters),
        base_model_name_or_path=values.get("base_model_name_or_path"), where=where)


def _targets(value: Any, key: str, where: str) -> str | tuple[str, ...] | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, set)) and all(isinstance(v, str) for v in value):
        return tuple(sorted(value)) if isinstance(value, set) else tuple(value)
    raise AdapterError(key, f"expected a list of module names or one regex, got {value!r}", where)


def _integer(value: Any, key: str, where: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise AdapterError(key, f"expected a whole number, got {value!r}", where)
    if value < minimum:  # LoraLayer.update_layer: "`r` should be a positive integer value"
        raise AdapterError(key, f"should be a positive integer value but the value passed is {value}"
                           if minimum else f"must be at least {minimum}, got {value}", where)
    return value

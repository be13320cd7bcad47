"""What every method shares: the stored tensor, its element sizes, the Method record and the readers
of a quantization_config's values (each bad value one ArchitectureError naming its key)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted


class StoredTensor(NamedTuple):
    """One tensor a checkpoint stores: its name, shape and torch dtype (without "torch.")."""

    name: str
    shape: tuple[int, ...]
    dtype: str


DTYPE_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2, "float8_e4m3fn": 1, "float8_e5m2": 1,
               "float8_e8m0fnu": 1, "uint8": 1, "int8": 1, "int32": 4, "uint32": 4, "int64": 8}
TORCH_NAMES = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}  # paramledger's -> torch's
OUR_NAMES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32", "float8_e4m3fn": "fp8_e4m3",
             "float8_e5m2": "fp8_e5m2", "float8_e8m0fnu": "e8m0"}  # torch's -> the names memory reports


def stored_bytes(tensor: StoredTensor) -> int:
    count = 1
    for size in tensor.shape:
        count *= size
    return count * DTYPE_BYTES[tensor.dtype]


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class Method:
    """A quantization method's reading of one config: which modules it converts (``kinds``,
    _select.kind_of), which it leaves (``skip``, from ``skip_key``; None: transformers' default of
    the LM head, ``default_skips``: that default added to the list), and what it stores for each."""

    quant_method: str
    label: str  # "fp8 e4m3, 128×128 block scales"
    skip: tuple[str, ...] | None
    skip_key: str
    kinds: frozenset[str]
    default_skips: bool = False
    in_layers_only: bool = False  # GPTQ: only the decoder layers' modules (optimum's block_name_to_quantize)

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        raise NotImplementedError

    @property
    def description(self) -> str:
        if self.skip is None:
            kept = "lm_head kept unquantized (transformers' default)"
        elif not self.skip:
            kept = f"nothing kept unquantized ({self.skip_key} empty)"
        else:
            shown = ", ".join(self.skip[:6]) + (f" and {len(self.skip) - 6} more" if len(self.skip) > 6 else "")
            kept = f"{shown} kept unquantized ({self.skip_key})"
            if self.default_skips:
                kept += " with lm_head (transformers' default)"
        return f"{self.label} (quantization_config), {kept}"

    def to_json(self) -> dict[str, Any]:
        return {"quant_method": self.quant_method, "label": self.label, self.skip_key: list(self.skip or [])}


class Reader:
    """A quantization_config's values, each checked as read; errors name ``quantization_config.KEY``."""

    def __init__(self, config: Mapping[str, Any], where: str, section: str = "quantization_config") -> None:
        self.config, self.where, self.section = config, where, section

    def error(self, key: str, message: str) -> ArchitectureError:
        return ArchitectureError(f"{self.section}.{key}", message, self.where)

    def choice(self, key: str, choices: tuple[Any, ...], default: Any) -> Any:
        value = self.config.get(key, default)
        if value is None:
            value = default
        if isinstance(value, str):
            value = value.lower()
        if value not in choices:
            raise self.error(key, f"{quoted(value)} is not one of {', '.join(map(str, choices))}")
        return value

    def integer(self, key: str, default: int | None, low: int, high: int, *, allow: tuple[int, ...] = ()) -> Any:
        value = self.config.get(key, default)
        if value is None or value in allow and type(value) is int:
            return value
        if type(value) is not int or not low <= value <= high:
            raise self.error(key, f"must be a whole number from {low:,} to {high:,}, got {quoted(value)}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.config.get(key, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, got {quoted(value)}")
        return value

    def names(self, *keys: str) -> tuple[tuple[str, ...] | None, str]:
        """The first of ``keys`` the config gives (a list of module names or patterns) and its key."""
        for key in keys:
            value = self.config.get(key)
            if value is None:
                continue
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise self.error(key, f"must be a list of module names, got {quoted(value)}")
            if len(value) > 100_000:
                raise self.error(key, f"{len(value):,} names: beyond the bound of 100,000")
            return tuple(value), key
        return None, keys[0]

    def mapping(self, key: str) -> Mapping[str, Any] | None:
        value = self.config.get(key)
        if value is not None and not isinstance(value, Mapping):
            raise self.error(key, f"must be a JSON object, got {quoted(value)}")
        return value


GROUP_BOUND = 1 << 20  # a group of more values than any row holds is a typo, not a format

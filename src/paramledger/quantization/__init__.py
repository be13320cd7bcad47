"""How a checkpoint stores its weights, read from its config (issue #18).

A config says it in two places: ``quantization_config`` (or MLX's ``quantization``) for the
matrices a method packs, and ``torch_dtype`` / ``dtype`` for everything else.  ``stored_format``
reads both into a ``StoredFormat``; memory.weight_bytes prices each tensor by it when no
``--dtype`` is given.  The methods' layouts live in methods.py (imported only for a config that
has a quantization_config: a plain config costs a few dict look-ups and returns one of the
prebuilt formats below).

A config with no dtype at all: bf16 is assumed and said so.  transformers 5.24.0 loads such a
checkpoint at the dtype its safetensors hold (``dtype="auto"``), which the config does not say;
bf16 is what nearly every release of the last years stores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# torch's names (what torch_dtype / dtype hold) -> paramledger's (dtypes.DTYPES)
CONFIG_DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32", "half": "fp16", "float": "fp32",
                 "bf16": "bf16", "fp16": "fp16", "fp32": "fp32"}
NO_DTYPE = "bf16"  # a config that names no dtype (the module docstring says why)


@dataclass(frozen=True)
class StoredFormat:
    """The stored format of a checkpoint: ``dtype`` for every tensor the method leaves alone,
    ``method`` (methods.Method, None when unquantized) for the ones it packs.

    ``dtype_from`` names the config key the dtype came from ("torch_dtype", "dtype"; None: assumed);
    ``unread`` is the one line saying why a quantization_config was not read (every weight then
    at ``dtype``, said so)."""

    dtype: str  # paramledger's name: bf16, fp16, fp32
    dtype_from: str | None
    method: Any = None  # methods.Method
    unread: str | None = None

    @property
    def dtype_text(self) -> str:
        if self.dtype_from is None and self.unread is not None and self.unread.startswith(("torch_dtype", "dtype")):
            return f"{self.dtype} assumed"
        if self.dtype_from is None:
            return (f"{self.dtype} assumed (the config names no torch_dtype or dtype; transformers would load "
                    "the dtype the checkpoint's files hold)")
        return f"{self.dtype} ({self.dtype_from})"

    @property
    def description(self) -> str:
        """What memory assumed and where it came from, one line."""
        if self.method is not None:
            return f"{self.method.description}; everything else in {self.dtype_text}"
        if self.unread is not None:
            return f"{self.unread}: every weight sized at {self.dtype_text}, as if unquantized"
        return f"every weight in {self.dtype_text}"

    @property
    def quantized(self) -> bool:
        return self.method is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dtype": self.dtype, "dtype_from": self.dtype_from,
                               "quant_method": None if self.method is None else self.method.quant_method,
                               "description": self.description}
        if self.method is not None:
            out["quantization"] = self.method.to_json()
        if self.unread is not None:
            out["unread"] = self.unread
        return out


# One prebuilt format per (key, value): a plain config's format costs a look-up, not an object.
_PLAIN: dict[tuple[str | None, Any], StoredFormat] = {}
for _key in ("torch_dtype", "dtype"):
    for _value, _name in CONFIG_DTYPES.items():
        _PLAIN[(_key, _value)] = StoredFormat(_name, _key)
ASSUMED = _PLAIN[("torch_dtype", None)] = StoredFormat(NO_DTYPE, None)


def config_dtype(config: Mapping[str, Any], text_config: Mapping[str, Any], where: str) -> StoredFormat:
    """The plain format a config's dtype keys declare ("dtype" is transformers 5's name and wins over
    "torch_dtype"); the whole model's, else its text decoder's."""
    for source in (config, text_config):
        for key in ("dtype", "torch_dtype"):
            value = source.get(key)
            if value is None:
                continue
            found = _PLAIN.get((key, value)) if isinstance(value, str) else None
            if found is None:
                from .._exceptions import ArchitectureError, quoted

                if isinstance(value, str) and value.startswith("torch.") and (key, value[6:]) in _PLAIN:
                    return _PLAIN[(key, value[6:])]
                if isinstance(value, str):  # a real dtype name a release might give (float8_e4m3fn): said, not refused
                    return StoredFormat(NO_DTYPE, None, unread=f"{key} {quoted(value, 40)} is not a dtype paramledger "
                                                               "reads (bfloat16, float16, float32)")
                raise ArchitectureError(key, f"{quoted(value)} is not a dtype a checkpoint is stored in "
                                             "(bfloat16, float16, float32)", where)
            return found
    return ASSUMED


def stored_format(config: Mapping[str, Any], text_config: Mapping[str, Any], where: str) -> StoredFormat:
    """The stored format a config declares: its dtype and quantization_config (Architecture.stored), the text
    decoder's where the top holds none (Kimi K2.5's, in text_config: transformers' get_hf_quantizer reads
    config.get_text_config(decoder=True)'s then)."""
    if "quantization_config" not in config and "quantization" not in config:  # the hot path: no method
        if text_config is not config and "quantization_config" in text_config:
            from .methods import read_method

            return read_method(text_config, config_dtype(config, text_config, where), where)
        if text_config is config:
            value = config.get("dtype")
            try:
                found = _PLAIN.get(("dtype", value) if value else ("torch_dtype", config.get("torch_dtype")))
            except TypeError:  # a list or an object: config_dtype says what is wrong with it
                found = None
            if found is not None:  # a str of the table, or no dtype at all (ASSUMED under (torch_dtype, None))
                return found
        return config_dtype(config, text_config, where)
    from .methods import read_method

    plain = config_dtype(config, text_config, where)
    return read_method(config, plain, where)

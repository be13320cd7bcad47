"""The methods whose stored tensors transformers 5.24.0 builds itself: fp8, mxfp4, bitsandbytes, bitnet,
and the dispatch from a quant_method to its reader (the packed integer formats: packed.py).

Each layout cites the module that allocates the tensors; tests/test_quantization*.py compares them
with the quantizer's own ``preprocess_model`` on the meta device, or with the library's files."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._exceptions import quoted
from . import StoredFormat
from ._base import GROUP_BOUND, Method, Reader, StoredTensor, cdiv

LINEAR = frozenset({"linear"})
ANY_LINEAR = frozenset({"linear", "linear_subclass"})  # isinstance(module, nn.Linear)


@dataclass(frozen=True)
class FineGrainedFP8(Method):
    """quant_method "fp8" (FineGrainedFP8Config): integrations/finegrained_fp8.py.  FP8Linear.__init__: the
    weight in float8_e4m3fn, ``weight_scale_inv`` fp32 per block (ceil(out/b0), ceil(in/b1)) or one per
    tensor, ``activation_scale`` for a static scheme; FP8Experts._alloc_expert_proj: the same per expert,
    the fused gate_up's scale rows floored at 2 (min_sf_out)."""

    block: tuple[int, int] | None = (128, 128)
    static: bool = False
    scale_dtype: str = "float32"

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        if kind == "experts":
            experts, out, width = shape
            base = name.rpartition(".")[0] + "." + name.rpartition(".")[2]
            rows = max(cdiv(out, self.block[0]) if self.block else 1, 2 if name.endswith("gate_up_proj") else 1)
            cols = cdiv(width, self.block[1]) if self.block else 1
            out_tensors = [StoredTensor(name, shape, "float8_e4m3fn"),
                           StoredTensor(base + "_scale_inv", (experts, rows, cols), self.scale_dtype)]
            if self.static:
                out_tensors.append(StoredTensor(base + "_activation_scale", (experts,), "float32"))
            return tuple(out_tensors)
        out, width = shape
        module = name.removesuffix(".weight")
        scale = (cdiv(out, self.block[0]), cdiv(width, self.block[1])) if self.block else ()
        tensors = [StoredTensor(name, shape, "float8_e4m3fn"), StoredTensor(module + ".weight_scale_inv", scale,
                                                                             self.scale_dtype)]
        if self.static:
            tensors.append(StoredTensor(module + ".activation_scale", (), "float32"))
        return tuple(tensors)


def read_fp8(config: Mapping[str, Any], reader: Reader) -> Method:
    reader.choice("fmt", ("e4m3",), "e4m3")
    scheme = reader.choice("activation_scheme", ("dynamic", "static"), "dynamic")
    scale_fmt = reader.choice("scale_fmt", ("float", "ue8m0"), "float")
    block: tuple[int, int] | None = (128, 128)  # FineGrainedFP8Config's default
    if "weight_block_size" in config:
        given = config["weight_block_size"]
        if given is None:
            block = None
        elif (not isinstance(given, list) or len(given) != 2
              or not all(type(v) is int and 1 <= v <= GROUP_BOUND for v in given)):
            raise reader.error("weight_block_size", f"must be [rows, columns] of positive whole numbers, "
                                                    f"got {quoted(given)}")
        else:
            block = (given[0], given[1])
    skip, key = reader.names("modules_to_not_convert")
    scales = f"{block[0]}×{block[1]} block scales" if block else "one scale per tensor"
    label = f"fp8 e4m3, {scales}" + (", static activation scales" if scheme == "static" else "")
    return FineGrainedFP8("fp8", label, skip, key, frozenset({"linear", "experts"}), block=block,
                          static=scheme == "static",
                          scale_dtype="float8_e8m0fnu" if scale_fmt == "ue8m0" else "float32")


@dataclass(frozen=True)
class Mxfp4(Method):
    """quant_method "mxfp4" (gpt-oss): integrations/mxfp4.py Mxfp4GptOssExperts.__init__: each expert matrix
    as ``*_blocks`` uint8 (experts, out, in/32, 16), two E2M1 values a byte, and ``*_scales`` uint8
    (experts, out, in/32), one E8M0 exponent per 32 values; the biases stay in the model dtype."""

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        experts, width, out = shape  # GptOssExperts holds (experts, in, out)
        groups = cdiv(width, 32)
        return (StoredTensor(name + "_blocks", (experts, out, groups, 16), "uint8"),
                StoredTensor(name + "_scales", (experts, out, groups), "uint8"))


def read_mxfp4(config: Mapping[str, Any], reader: Reader) -> Method:
    skip, key = reader.names("modules_to_not_convert")
    return Mxfp4("mxfp4", "mxfp4 experts (E2M1 values, an E8M0 scale per 32)", skip, key,
                 frozenset({"experts"}))


@dataclass(frozen=True)
class Bnb4bit(Method):
    """bitsandbytes 4-bit (Params4bit, bitsandbytes/nn/modules.py; QuantState.as_dict(packed=True),
    bitsandbytes/functional.py): the weight packed two values a byte as (ceil(n/2), 1) uint8, an absmax per
    block of ``blocksize`` values (fp32, or uint8 with double quantization, which adds an fp32 absmax per
    256 blocks and its 256-entry code), the 16-entry code, and the quant_state's JSON as a uint8 tensor."""

    quant_type: str = "nf4"
    double: bool = False
    blocksize: int = 64

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        values = shape[0] * shape[1]
        blocks = cdiv(values, self.blocksize)
        state: dict[str, Any] = {"quant_type": self.quant_type, "blocksize": self.blocksize, "dtype": dtype,
                                 "shape": list(shape)}
        tensors = [StoredTensor(name, (cdiv(values, 2), 1), "uint8"),
                   StoredTensor(name + ".absmax", (blocks,), "uint8" if self.double else "float32"),
                   StoredTensor(name + ".quant_map", (16,), "float32")]
        if self.double:
            tensors += [StoredTensor(name + ".nested_absmax", (cdiv(blocks, 256),), "float32"),
                        StoredTensor(name + ".nested_quant_map", (256,), "float32")]
            # nested_offset is the mean absmax, a float whose repr's length varies with the data (12 to 20
            # characters): 17 stand for it, within 8 bytes of any tensor's quant_state
            state.update(nested_blocksize=256, nested_dtype="float32", nested_offset=0.012345678901234)
        packed = len(json.dumps(state).encode())
        return (*tensors, StoredTensor(name + ".quant_state.bitsandbytes__" + self.quant_type, (packed,), "uint8"))


@dataclass(frozen=True)
class Bnb8bit(Method):
    """bitsandbytes LLM.int8() (Linear8bitLt._save_to_state_dict, bitsandbytes/nn/modules.py): the weight in
    int8, ``SCB`` one fp32 scale per row, ``weight_format`` one uint8."""

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        module = name.removesuffix(".weight")
        return (StoredTensor(name, shape, "int8"), StoredTensor(module + ".SCB", (shape[0],), "float32"),
                StoredTensor(module + ".weight_format", (), "uint8"))


def read_bnb(config: Mapping[str, Any], reader: Reader) -> Method:
    four, eight = reader.flag("load_in_4bit", False), reader.flag("load_in_8bit", False)
    if four == eight:
        raise reader.error("load_in_4bit", "exactly one of load_in_4bit and load_in_8bit must be true")
    skip, key = reader.names("llm_int8_skip_modules")
    kinds = frozenset({"linear", "linear_subclass", "conv1d"})  # integrations/bitsandbytes.py replace_with_bnb_linear
    if eight:
        return Bnb8bit("bitsandbytes", "bitsandbytes int8 (LLM.int8(), an fp32 scale per row)", skip, key, kinds)
    quant_type = reader.choice("bnb_4bit_quant_type", ("nf4", "fp4"), "fp4")
    double = reader.flag("bnb_4bit_use_double_quant", False)
    storage = reader.choice("bnb_4bit_quant_storage", ("uint8",), "uint8")
    del storage
    label = f"bitsandbytes {quant_type}, an absmax per 64 values" + (" (double quantization)" if double else "")
    return Bnb4bit("bitsandbytes", label, skip, key, kinds, quant_type=quant_type, double=double)


@dataclass(frozen=True)
class BitNet(Method):
    """quant_method "bitnet", quantization_mode "offline" (integrations/bitnet.py BitLinear.__init__): the
    ternary weight packed four a byte as (ceil(out/4), in) uint8 and one ``weight_scale`` (1,)."""

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        return (StoredTensor(name, (cdiv(shape[0], 4), shape[1]), "uint8"),
                StoredTensor(name.removesuffix(".weight") + ".weight_scale", (1,), dtype))


def read_bitnet(config: Mapping[str, Any], reader: Reader) -> Method | None:
    mode = reader.choice("quantization_mode", ("offline", "online"), "offline")
    reader.choice("linear_class", ("bitlinear", "autobitlinear"), "bitlinear")
    if mode == "online":  # weights stored in full precision, quantized in the forward pass (AutoBitLinear)
        return None
    skip, key = reader.names("modules_to_not_convert")
    return BitNet("bitnet", "bitnet ternary weights, four a byte", skip, key, LINEAR)


def _readers() -> dict[str, Any]:
    from . import packed

    return {"fp8": read_fp8, "mxfp4": read_mxfp4, "bitsandbytes": read_bnb, "bitnet": read_bitnet,
            "awq": packed.read_awq, "gptq": packed.read_gptq, "compressed-tensors": packed.read_compressed,
            "modelopt": packed.read_modelopt, "hqq": packed.read_hqq}


def read_method(config: Mapping[str, Any], plain: StoredFormat, where: str) -> StoredFormat:
    """The stored format of a config with a quantization_config (or MLX's quantization)."""
    from . import packed

    if "quantization_config" not in config:
        method = packed.read_mlx(config["quantization"], Reader(config["quantization"] if isinstance(
            config["quantization"], Mapping) else {}, where, "quantization"))
        return StoredFormat(plain.dtype, plain.dtype_from, method)
    section = config["quantization_config"]
    if section is None:
        return plain
    if not isinstance(section, Mapping):
        return StoredFormat(plain.dtype, plain.dtype_from, unread=f"quantization_config is {quoted(section, 40)}, "
                                                                 "not an object paramledger can read")
    name = section.get("quant_method")
    if name is None and ("load_in_4bit" in section or "load_in_8bit" in section):
        name = "bitsandbytes"  # transformers' AutoQuantizationConfig.from_dict does the same
    reader = _readers().get(name.lower()) if isinstance(name, str) else None  # a list or object names none
    if reader is None:
        return StoredFormat(plain.dtype, plain.dtype_from,
                            unread=f"quantization_config: quant_method {quoted(name, 40)} is not one paramledger "
                                   "reads (fp8, mxfp4, bitsandbytes, awq, gptq, compressed-tensors, modelopt, hqq, "
                                   "bitnet)")
    method = reader(section, Reader(section, where))
    if method is None:
        return StoredFormat(plain.dtype, plain.dtype_from,
                            unread=f"quantization_config: {name} stores its weights unquantized")
    return StoredFormat(plain.dtype, plain.dtype_from, method)

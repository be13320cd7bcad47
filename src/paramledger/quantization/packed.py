"""Packed integer and FP4 formats: AWQ, GPTQ, compressed-tensors, NVIDIA ModelOpt, HQQ and MLX.

AWQ and GPTQ need gptqmodel to be prepared by transformers, and gptqmodel pulls another torch: their
layouts are the kernels' registered buffers, cited below, checked against hand-derived figures.
compressed-tensors and HQQ are checked against their own libraries (tests/test_quantization_libs.py)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._exceptions import quoted
from ._base import GROUP_BOUND, Method, Reader, StoredTensor, cdiv
from .methods import ANY_LINEAR


@dataclass(frozen=True)
class Awq(Method):
    """AWQ GEMM (gptqmodel's AwqGEMMQuantLinear, as AutoAWQ's WQLinear_GEMM): ``qweight`` int32 (in, out·bits/32),
    ``qzeros`` int32 (groups, out·bits/32), ``scales`` fp16 (groups, out), groups = in / group_size."""

    bits: int = 4
    group_size: int = 128

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        out, width = shape
        module, groups, packed = name.removesuffix(".weight"), cdiv(width, self.group_size), cdiv(out * self.bits, 32)
        return (StoredTensor(module + ".qweight", (width, packed), "int32"),
                StoredTensor(module + ".qzeros", (groups, packed), "int32"),
                StoredTensor(module + ".scales", (groups, out), "float16"))


def read_awq(config: Mapping[str, Any], reader: Reader) -> Method:
    bits = reader.integer("bits", 4, 2, 8)
    group = reader.integer("group_size", 128, 1, GROUP_BOUND, allow=(-1,))
    reader.choice("version", ("gemm", "gemv", "gemv_fast", "exllama", "ipex"), "gemm")
    skip, key = reader.names("modules_to_not_convert")
    # quantizer_awq.py: get_modules_to_not_convert(..., add_default_skips=True)
    return Awq("awq", f"awq int{bits}, an fp16 scale and a {bits}-bit zero per {group} values", skip, key, ANY_LINEAR,
               default_skips=True, bits=bits, group_size=group if group != -1 else GROUP_BOUND)


@dataclass(frozen=True)
class Gptq(Method):
    """GPTQ (gptqmodel's TorchQuantLinear, as AutoGPTQ's QuantLinear): ``qweight`` int32 (in·bits/32, out),
    ``qzeros`` int32 (groups, out·bits/32), ``scales`` fp16 (groups, out), ``g_idx`` int32 (in,): each input
    column's group (written with or without desc_act)."""

    bits: int = 4
    group_size: int = 128

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        out, width = shape
        module, groups = name.removesuffix(".weight"), cdiv(width, self.group_size)
        return (StoredTensor(module + ".qweight", (cdiv(width * self.bits, 32), out), "int32"),
                StoredTensor(module + ".qzeros", (groups, cdiv(out * self.bits, 32)), "int32"),
                StoredTensor(module + ".scales", (groups, out), "float16"),
                StoredTensor(module + ".g_idx", (width,), "int32"))


def read_gptq(config: Mapping[str, Any], reader: Reader) -> Method:
    bits = reader.integer("bits", 4, 2, 8)
    group = reader.integer("group_size", 128, 1, GROUP_BOUND, allow=(-1,))
    desc_act = reader.flag("desc_act", False)
    reader.flag("sym", True)
    skip, key = reader.names("modules_to_not_convert")
    per = "per row" if group == -1 else f"per {group} values"
    label = f"gptq int{bits}, an fp16 scale and a {bits}-bit zero {per}, g_idx" + (" (desc_act)" if desc_act else "")
    # optimum's GPTQQuantizer.convert_model: the Linear modules inside the decoder blocks only
    return Gptq("gptq", label, skip if skip is not None else (), key, ANY_LINEAR, in_layers_only=True, bits=bits,
                group_size=group if group != -1 else GROUP_BOUND)


@dataclass(frozen=True)
class Scheme:
    """One compressed-tensors config group: its targets and how its weights are stored."""

    targets: tuple[str, ...]
    format: str
    bits: int
    kind: str  # "int" or "float"
    symmetric: bool
    strategy: str  # tensor, channel, group, block, tensor_group
    group_size: int | None
    block: tuple[int, int] | None
    input_scale: bool  # a static input scale is stored
    input_global_scale: bool


@dataclass(frozen=True)
class CompressedTensors(Method):
    """compressed-tensors (compressed_tensors/compressors/: pack_quantized, int_quantized, float_quantized,
    nvfp4 packed; the scale shapes from quantization/lifecycle/initialize.py initialize_module_for_quantization)."""

    schemes: tuple[Scheme, ...] = ()
    ignore: tuple[str, ...] = ()

    def scheme_for(self, module: str) -> Scheme | None:
        if any(_ct_match(module, pattern) for pattern in self.ignore):
            return None
        return next((s for s in self.schemes if any(_ct_match(module, t) or t == "Linear" for t in s.targets)), None)

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...] | None:
        module = name.removesuffix(".weight")
        scheme = self.scheme_for(module)
        if scheme is None:
            return None
        out, width = shape
        if scheme.strategy == "tensor":
            scale: tuple[int, ...] = (1,)
        elif scheme.strategy == "channel":
            scale = (out, 1)
        elif scheme.strategy == "block":
            scale = (cdiv(out, scheme.block[0]), cdiv(width, scheme.block[1]))
        else:
            scale = (out, cdiv(width, scheme.group_size))
        if scheme.format == "nvfp4-pack-quantized":
            tensors = [StoredTensor(module + ".weight_packed", (out, cdiv(width, 2)), "uint8"),
                       StoredTensor(module + ".weight_scale", scale, "float8_e4m3fn"),
                       StoredTensor(module + ".weight_global_scale", (1,), "float32")]
            if scheme.input_global_scale:
                tensors.append(StoredTensor(module + ".input_global_scale", (1,), "float32"))
            return tuple(tensors)
        if scheme.format == "pack-quantized":
            # compressors/pack_quantized/base.py compress_weight: pack_to_int32 packs densely, ceil(E x bits / 32)
            # int32s along the packed dimension (helpers.py); an asymmetric group or channel zero point is packed the
            # same way along the output rows (PACK_ZP_STRATS), as the files the library writes hold it
            bits = scheme.bits
            tensors = [StoredTensor(module + ".weight_packed", (out, cdiv(width * bits, 32)), "int32"),
                       StoredTensor(module + ".weight_scale", scale, dtype),
                       StoredTensor(module + ".weight_shape", (2,), "int64")]
            if not scheme.symmetric and scheme.strategy in ("group", "channel"):
                tensors.append(StoredTensor(module + ".weight_zero_point", (cdiv(scale[0] * bits, 32), *scale[1:]),
                                            "int32"))
            elif not scheme.symmetric:
                tensors.append(StoredTensor(module + ".weight_zero_point", scale, "int8"))
            return tuple(tensors)
        weight = "int8" if scheme.kind == "int" else "float8_e4m3fn"
        tensors = [StoredTensor(name, shape, weight), StoredTensor(module + ".weight_scale", scale, dtype)]
        if not scheme.symmetric:
            tensors.append(StoredTensor(module + ".weight_zero_point", scale, "int8"))
        if scheme.input_scale:
            tensors.append(StoredTensor(module + ".input_scale", (1,), dtype))
        return tuple(tensors)


def _ct_match(module: str, target: str) -> bool:
    """compressed_tensors.utils.match: "re:" a regex matched from the start, else the name (or its end)."""
    if target.startswith("re:"):
        try:
            return re.match(target[3:], module) is not None
        except re.error:
            return False
    return module == target or module.endswith("." + target)


CT_FORMATS = ("pack-quantized", "int-quantized", "float-quantized", "naive-quantized", "nvfp4-pack-quantized")


def read_compressed(config: Mapping[str, Any], reader: Reader) -> Method | None:
    top_format = config.get("format", "dense")
    groups = reader.mapping("config_groups") or {}
    schemes = []
    for group_name, group in groups.items():
        if not isinstance(group, Mapping):
            raise reader.error(f"config_groups.{group_name}", f"must be a JSON object, got {quoted(group)}")
        inner = Reader(group, reader.where, f"quantization_config.config_groups.{group_name}")
        targets, _ = inner.names("targets")
        weights = inner.mapping("weights")
        if weights is None:
            continue
        w = Reader(weights, reader.where, f"{inner.section}.weights")
        kind = w.choice("type", ("int", "float"), "int")
        bits = w.integer("num_bits", 8, 1, 8)
        strategy = w.choice("strategy", ("tensor", "channel", "group", "block", "tensor_group"), "tensor")
        group_size = w.integer("group_size", None, 1, GROUP_BOUND)
        if strategy in ("group", "tensor_group") and group_size is None:
            raise w.error("group_size", f"the {strategy} strategy needs a group_size")
        block = weights.get("block_structure")
        if strategy == "block" and not (isinstance(block, list) and len(block) == 2
                                        and all(type(v) is int and 1 <= v <= GROUP_BOUND for v in block)):
            raise w.error("block_structure", f"must be [rows, columns] of positive whole numbers, got {quoted(block)}")
        fmt = group.get("format") or top_format
        if fmt not in CT_FORMATS:
            raise reader.error("format", f"{quoted(fmt)} is not a format paramledger reads ({', '.join(CT_FORMATS)})")
        if fmt == "naive-quantized":
            fmt = "int-quantized" if kind == "int" else "float-quantized"
        inputs = group.get("input_activations")
        static = isinstance(inputs, Mapping) and not inputs.get("dynamic", False)
        schemes.append(Scheme(targets or ("Linear",), fmt, bits, kind, w.flag("symmetric", True), strategy,
                              group_size, tuple(block) if strategy == "block" else None,
                              static and fmt != "nvfp4-pack-quantized", isinstance(inputs, Mapping)))
    if not schemes:
        return None
    ignore, key = reader.names("ignore")
    first = schemes[0]
    per = {"tensor": "per tensor", "channel": "per row", "group": f"per {first.group_size}",
           "tensor_group": f"per {first.group_size}", "block": f"per {first.block} block"}[first.strategy]
    label = f"compressed-tensors {first.format} {first.kind}{first.bits}, scales {per}"
    if len(schemes) > 1:
        label += f" (+{len(schemes) - 1} more config groups)"
    return CompressedTensors("compressed-tensors", label, ignore or (), key, ANY_LINEAR, schemes=tuple(schemes),
                             ignore=ignore or ())


@dataclass(frozen=True)
class ModelOpt(Method):
    """NVIDIA ModelOpt's export (modelopt/torch/export/unified_export_hf.py, quant_utils.py): NVFP4 packs two
    E2M1 values a byte with an fp8 ``weight_scale`` per 16 and fp32 ``weight_scale_2`` and ``input_scale``;
    FP8 stores fp8 weights with fp32 ``weight_scale`` and ``input_scale``."""

    algo: str = "NVFP4"
    group_size: int = 16

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        out, width = shape
        module = name.removesuffix(".weight")
        if self.algo == "FP8":
            return (StoredTensor(name, shape, "float8_e4m3fn"), StoredTensor(module + ".weight_scale", (), "float32"),
                    StoredTensor(module + ".input_scale", (), "float32"))
        return (StoredTensor(name, (out, cdiv(width, 2)), "uint8"),
                StoredTensor(module + ".weight_scale", (out, cdiv(width, self.group_size)), "float8_e4m3fn"),
                StoredTensor(module + ".weight_scale_2", (), "float32"),
                StoredTensor(module + ".input_scale", (), "float32"))


def read_modelopt(config: Mapping[str, Any], reader: Reader) -> Method:
    algo = config.get("quant_algo")
    if not isinstance(algo, str) or algo.upper() not in ("NVFP4", "FP8"):
        raise reader.error("quant_algo", f"{quoted(algo)} is not one paramledger reads (NVFP4, FP8)")
    group = reader.integer("group_size", 16, 1, GROUP_BOUND)
    skip, key = reader.names("exclude_modules", "ignore", "modules_to_not_convert")
    label = ("nvfp4 (E2M1 values, an fp8 scale per %d, ModelOpt)" % group) if algo.upper() == "NVFP4" else \
        "fp8 e4m3, one scale per tensor (ModelOpt)"
    return ModelOpt("modelopt", label, skip, key, ANY_LINEAR, algo=algo.upper(), group_size=group)


HQQ_PACKING = {8: ("8bit_u8", 1), 4: ("4bit_u8", 2), 3: ("3bit_32", 10), 2: ("2bit_u8", 4), 1: ("1bit_u8", 8)}


@dataclass(frozen=True)
class Hqq(Method):
    """HQQ (hqq/core/quantize.py Quantizer.quantize and HQQLinear.state_dict, encoded for safetensors by
    hqq/core/utils.py encode_safetensor_type): ``W_q`` packed (bitpack.py), ``scale`` and ``zero`` per group
    in the compute dtype, and the metadata each as a small tensor (ints int32, bools uint8, strings as
    their characters, the shape int64)."""

    nbits: int = 4
    group_size: int = 64
    axis: int = 1

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...]:
        module = name.removesuffix(".weight")
        values = shape[0] * shape[1]
        groups = cdiv(values, self.group_size)
        rows, cols = (groups, self.group_size) if self.axis == 1 else (self.group_size, groups)
        packing, per = HQQ_PACKING[self.nbits]
        packed = (cdiv(rows, per), cols)
        scale = (groups, 1) if self.axis == 1 else (1, groups)
        meta: list[tuple[str, tuple[int, ...], str]] = [
            ("W_q", packed, "int32" if packing == "3bit_32" else "uint8"), ("scale", scale, dtype),
            ("zero", scale, dtype), ("shape", (2,), "int64"), ("packing", (len(packing),), "uint8"),
            ("unpack_view_dtype", (len("torch.uint8" if packing != "3bit_32" else "torch.int32"),), "uint8"),
            ("compute_dtype", (len("torch." + dtype),), "uint8")]
        meta += [(key, (), "int32") for key in ("nbits", "group_size", "axis")]
        meta += [(key, (), "uint8") for key in ("view_as_float", "quant_scale", "quant_zero", "offload_meta",
                                                 "encoded_state_dict", "stores_quant_config", "channel_wise",
                                                 "optimize", "round_zero")]
        return tuple(StoredTensor(f"{module}.{key}", size, kind_) for key, size, kind_ in meta)


def read_hqq(config: Mapping[str, Any], reader: Reader) -> Method:
    section = reader.mapping("quant_config")
    params = section.get("weight_quant_params", section) if section is not None else config
    if not isinstance(params, Mapping):
        raise reader.error("quant_config.weight_quant_params", f"must be a JSON object, got {quoted(params)}")
    inner = Reader(params, reader.where, reader.section + (".quant_config.weight_quant_params" if section else ""))
    nbits = inner.integer("nbits", 4, 1, 8)
    if nbits not in HQQ_PACKING:
        raise inner.error("nbits", f"{nbits} is not one HQQ packs (1, 2, 3, 4, 8)")
    group = inner.integer("group_size", 64, 1, GROUP_BOUND)
    axis = inner.integer("axis", 1, 0, 1)
    skip, key = reader.names("skip_modules")
    return Hqq("hqq", f"hqq {nbits}-bit, a scale and a zero per {group} values", skip if skip is not None else
               ("lm_head",), key, ANY_LINEAR, nbits=nbits, group_size=group, axis=axis)


@dataclass(frozen=True)
class Mlx(Method):
    """MLX's ``quantization`` key (mlx/nn/layers/quantized.py QuantizedLinear, QuantizedEmbedding; mlx_lm's
    SwitchLinear for experts): affine packs ``bits`` per value in uint32 with a ``scales`` and ``biases`` per
    group in the model dtype; mxfp4 one uint8 scale per 32 and no biases.  mlx_lm quantizes every Linear and
    Embedding whose last dimension the group divides; ``overrides`` gives a module its own bits or none."""

    bits: int = 4
    group_size: int = 64
    mode: str = "affine"
    overrides: tuple[tuple[str, Any], ...] = ()

    def layout(self, name: str, shape: tuple[int, ...], kind: str, dtype: str) -> tuple[StoredTensor, ...] | None:
        module = name.removesuffix(".weight")
        bits, group = self.bits, self.group_size
        for path, value in self.overrides:
            if module == path or module.endswith("." + path):
                if value is False:
                    return None
                bits, group = value
        if shape[-1] % group:
            return None
        lead = shape[:-1]
        groups = shape[-1] // group
        tensors = [StoredTensor(name, (*lead, shape[-1] * bits // 32), "uint32")]
        if self.mode == "mxfp4":
            return (*tensors, StoredTensor(module + ".scales", (*lead, groups), "uint8"))
        return (*tensors, StoredTensor(module + ".scales", (*lead, groups), dtype),
                StoredTensor(module + ".biases", (*lead, groups), dtype))


def read_mlx(config: Any, reader: Reader) -> Method:
    if not isinstance(config, Mapping):
        raise reader.error("group_size", f"quantization must be a JSON object, got {quoted(config)}")
    mode = reader.choice("mode", ("affine", "mxfp4"), "affine")
    bits = reader.integer("bits", 4, 1, 8)
    group = reader.integer("group_size", 64 if mode == "affine" else 32, 1, GROUP_BOUND)
    overrides = []
    for key, value in config.items():
        if isinstance(value, Mapping):
            one = Reader(value, reader.where, f"quantization.{key}")
            overrides.append((key, (one.integer("bits", bits, 1, 8), one.integer("group_size", group, 1, GROUP_BOUND))))
        elif value is False:
            overrides.append((key, False))
    label = f"mlx {mode} {bits}-bit, a scale" + (" and a bias" if mode == "affine" else "") + f" per {group} values"
    return Mlx("mlx", label, (), "quantization", frozenset({"linear", "linear_subclass", "conv1d", "embedding",
                                                           "experts"}),
               bits=bits, group_size=group, mode=mode, overrides=tuple(overrides))

"""GGUF types as dtypes: llama.cpp's block types and the tensor types its named mixtures choose.

A GGML block type stores ``block_values`` values in ``block_bytes`` bytes (Q4_K: 256 in 144), along a
row (the innermost GGUF dim, a Linear weight's input features), so a row's length must be a multiple
of the block.  The table is gguf-py's ``constants.GGML_QUANT_SIZES`` when the gguf package is installed,
else the copy below (gguf 0.19.0; tests/test_gguf_types.py checks the two agree).

A mixture is a ``llama-quantize`` file type (Q4_K_M, Q8_0, IQ4_XS, ...).  Its types per tensor follow
llama.cpp at commit 007dbbf3fd17eefe9b47fee45f48f7ba5e62b714, src/llama-quant.cpp:
``tensor_allows_quantization`` (which tensors are quantized at all), ``llama_tensor_get_type_impl``
(the per-role rules), ``tensor_type_fallback`` (a row that the type's block does not divide),
``llama_ftype_get_default_type`` and ``init_quantize_state_counters``; the names from
tools/quantize/quantize.cpp ``QUANT_OPTIONS``; the order tensors are visited in (which numbers
attn_v and ffn_down) from src/llama-model-loader.h ``weight_name_comparer``: by layer, then by name.

Hugging Face names become the GGUF names convert_hf_to_gguf.py writes (gguf-py tensor_mapping.py): a
fused expert gate_up becomes ffn_gate_exps and ffn_up_exps, MLA's kv_b_proj attn_k_b and attn_v_b
(DeepseekV2Model.modify_tensors), a GPT-2 Conv1D weight is transposed.  Tensors llama-quantize leaves
alone keep the converted type: F32 for vectors, norms, biases, routers, convolutions, ``source_type``
otherwise.  Not modelled: --pure, --tensor-type, --output-tensor-type, --leave-output-tensor.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from .._exceptions import OptionError, did_you_mean

if TYPE_CHECKING:
    from ..inventory import Inventory

LLAMA_CPP_COMMIT = "007dbbf3fd17eefe9b47fee45f48f7ba5e62b714"


@dataclass(frozen=True, slots=True)
class GGMLType:
    name: str
    type_id: int  # ggml_type / GGMLQuantizationType
    block_values: int
    block_bytes: int

    @property
    def quantized(self) -> bool:  # ggml_is_quantized: a block of more than one value
        return self.block_values > 1

    def row_bytes(self, values: int, tensor: str = "tensor") -> int:
        """ggml_row_size: bytes of one row of ``values`` values."""
        if values % self.block_values:
            raise OptionError("gguf type", f"{tensor}: a row of {values:,} values is not a multiple of the "
                                           f"{self.name} block ({self.block_values} values)")
        return values // self.block_values * self.block_bytes

    def tensor_bytes(self, shape: tuple[int, ...], tensor: str = "tensor") -> int:
        """Bytes of a tensor of ``shape`` (outermost first; the last dim is the row)."""
        return math.prod(shape[:-1]) * self.row_bytes(shape[-1] if shape else 1, tensor)


# (type id, name, values per block, bytes per block): gguf 0.19.0 constants.GGML_QUANT_SIZES and
# GGMLQuantizationType.  Ids 4, 5, 31-33 and 36-38 were removed from ggml.
BUNDLED: tuple[tuple[int, str, int, int], ...] = (
    (0, "F32", 1, 4), (1, "F16", 1, 2), (2, "Q4_0", 32, 18), (3, "Q4_1", 32, 20), (6, "Q5_0", 32, 22),
    (7, "Q5_1", 32, 24), (8, "Q8_0", 32, 34), (9, "Q8_1", 32, 40), (10, "Q2_K", 256, 84), (11, "Q3_K", 256, 110),
    (12, "Q4_K", 256, 144), (13, "Q5_K", 256, 176), (14, "Q6_K", 256, 210), (15, "Q8_K", 256, 292),
    (16, "IQ2_XXS", 256, 66), (17, "IQ2_XS", 256, 74), (18, "IQ3_XXS", 256, 98), (19, "IQ1_S", 256, 50),
    (20, "IQ4_NL", 32, 18), (21, "IQ3_S", 256, 110), (22, "IQ2_S", 256, 82), (23, "IQ4_XS", 256, 136),
    (24, "I8", 1, 1), (25, "I16", 1, 2), (26, "I32", 1, 4), (27, "I64", 1, 8), (28, "F64", 1, 8),
    (29, "IQ1_M", 256, 56), (30, "BF16", 1, 2), (34, "TQ1_0", 256, 54), (35, "TQ2_0", 256, 66),
    (39, "MXFP4", 32, 17), (40, "NVFP4", 64, 36), (41, "Q1_0", 128, 18),
)


def bundled_types() -> dict[str, GGMLType]:
    return {name: GGMLType(name, type_id, values, size) for type_id, name, values, size in BUNDLED}


def package_types() -> dict[str, GGMLType] | None:
    """The table of the installed gguf package, None without it (imported here, never at import)."""
    try:
        from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType
    except ImportError:
        return None
    return {t.name: GGMLType(t.name, int(t.value), *map(int, GGML_QUANT_SIZES[t]))
            for t in GGMLQuantizationType if t in GGML_QUANT_SIZES}


@lru_cache(maxsize=1)
def ggml_types() -> dict[str, GGMLType]:
    """Name -> GGMLType: the gguf package's table when it is installed, else the bundled copy."""
    return package_types() or bundled_types()


def __getattr__(name: str) -> object:  # GGML_TYPES and GGML_TYPE_IDS (id -> GGMLType) are read on first use
    if name in ("GGML_TYPES", "GGML_TYPE_IDS"):
        return ggml_types() if name == "GGML_TYPES" else {t.type_id: t for t in ggml_types().values()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# llama-quantize's file types (quantize.cpp QUANT_OPTIONS) -> llama_ftype_get_default_type.  Q2_0 is
# left out: gguf 0.19.0 has no such type; COPY copies the input's types.
MIXTURES: dict[str, str] = {
    "Q1_0": "Q1_0", "Q4_0": "Q4_0", "Q4_1": "Q4_1", "MXFP4_MOE": "MXFP4", "Q5_0": "Q5_0", "Q5_1": "Q5_1",
    "IQ2_XXS": "IQ2_XXS", "IQ2_XS": "IQ2_XS", "IQ2_S": "IQ2_XS", "IQ2_M": "IQ2_S", "IQ1_S": "IQ1_S",
    "IQ1_M": "IQ1_M", "TQ1_0": "TQ1_0", "TQ2_0": "TQ2_0", "Q2_K": "Q2_K", "Q2_K_S": "Q2_K",
    "IQ3_XXS": "IQ3_XXS", "IQ3_S": "IQ3_S", "IQ3_M": "IQ3_S", "IQ3_XS": "IQ3_S", "Q3_K_S": "Q3_K",
    "Q3_K_M": "Q3_K", "Q3_K_L": "Q3_K", "IQ4_NL": "IQ4_NL", "IQ4_XS": "IQ4_XS", "Q4_K_S": "Q4_K",
    "Q4_K_M": "Q4_K", "Q5_K_S": "Q5_K", "Q5_K_M": "Q5_K", "Q6_K": "Q6_K", "Q8_0": "Q8_0", "F16": "F16",
    "BF16": "BF16", "F32": "F32",
}
ALIASES = {"Q3_K": "Q3_K_M", "Q4_K": "Q4_K_M", "Q5_K": "Q5_K_M"}  # QUANT_OPTIONS' "alias for ..."


def mixture_name(mixture: str) -> str:
    """The canonical name of a mixture, case-insensitive as try_parse_ftype is."""
    name = ALIASES.get(mixture.upper(), mixture.upper())
    if name not in MIXTURES:
        known = [*MIXTURES, *ALIASES]
        raise OptionError("mixture", f"unknown GGUF mixture {mixture!r}{did_you_mean(mixture.upper(), known)}; "
                                     f"one of {', '.join(known)}")
    return name


@dataclass(frozen=True)
class QuantContext:
    """What llama_tensor_get_type reads besides a tensor's name and shape (quantize_state_impl, hparams)."""

    layers: int  # hparams.n_layer_all (num_hidden_layers): n_ffn_down, n_ffn_gate, n_ffn_up
    gqa: int = 1  # hparams.n_gqa(): num_attention_heads // num_key_value_heads (0 with no KV heads)
    experts: int = 0  # hparams.n_expert (num_experts)
    arch: str = "llama"  # llama.cpp's arch name: "falcon" and "bailingmoe3" have rules of their own
    tied: bool = False  # no output.weight: token_embd takes the output tensor's rule (has_tied_embeddings)
    imatrix: bool = False  # an importance matrix was given (has_imatrix)
    is_70b: bool = False  # model.type == LLM_TYPE_70B
    source_type: str = "F16"  # the converted file's type of 2-D weights llama-quantize does not quantize
    attention_v: int | None = None  # n_attention_wv; None: ``layers``
    # GGUF name -> i_attention_wv / i_ffn_down / i_ffn_gate / i_ffn_up when that tensor is reached, counted
    # in the loader's order; a name missing here counts as its layer number.
    counters: Mapping[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- llama-quant.cpp, tensor by tensor
OUTPUT, TOKEN_EMBD, QKV, KV_B, ATTN_V, ATTN_K, ATTN_Q, ATTN_OUT, FFN_UP, FFN_GATE, FFN_DOWN, OTHER = range(12)
_ATTN_V_LIKE = (ATTN_V, QKV, KV_B)  # category_is_attn_v
_IQ2_GROUP = ("IQ2_XXS", "IQ2_XS", "IQ1_S", "IQ2_S", "IQ2_M", "IQ1_M")
_NOT_QUANTIZED = ("_norm.weight", "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight", "altup", "laurel",
                  "per_layer_model_proj", "ssm_conv1d", "shortconv.conv.weight", "indexer.k_proj.weight",
                  "indexer.q_proj.weight", "attn_rel_b.weight", ".position_embd", ".patch_embd",
                  *(f"time_mix_{w}.weight" for w in ("first", "w0", "w1", "w2", "v0", "v1", "v2", "a0", "a1", "a2",
                                                      "g1", "g2", "decay_w1", "decay_w2", "lerp_fused")))


def category(name: str) -> int:
    """tensor_get_category: substring matches, in its order."""
    if name == "output.weight":
        return OUTPUT
    if name in ("token_embd.weight", "per_layer_token_embd.weight"):
        return TOKEN_EMBD
    for needle, found in (("attn_qkv.weight", QKV), ("attn_kv_b.weight", KV_B), ("attn_v.weight", ATTN_V),
                          ("attn_k.weight", ATTN_K), ("attn_q.weight", ATTN_Q), ("attn_output.weight", ATTN_OUT),
                          ("ffn_up", FFN_UP), ("ffn_gate", FFN_GATE), ("ffn_down", FFN_DOWN)):
        if needle in name:
            return found
    return OTHER


def _n_dims(shape: tuple[int, ...]) -> int:
    """ggml_n_dims: dims up to the last one above 1 in GGUF order (leading 1s of ``shape`` do not count)."""
    ne = shape[::-1]
    return next((i + 1 for i in range(len(ne) - 1, 0, -1) if ne[i] > 1), 1)


def allows_quantization(name: str, shape: tuple[int, ...]) -> bool:
    """tensor_allows_quantization (default params: quantize_output_tensor, not only_copy)."""
    return (_n_dims(shape) >= 2 and name.endswith("weight") and not any(n in name for n in _NOT_QUANTIZED)
            and name not in ("position_embd.weight", "token_types.weight"))


def _use_more_bits(i_layer: int, n_layers: int) -> bool:  # llama_tensor_get_type_impl's use_more_bits
    return i_layer < n_layers // 8 or i_layer >= 7 * n_layers // 8 or (i_layer - n_layers // 8) % 3 == 2


def _layer_of(name: str) -> int:
    match = re.match(r"blk\.(\d+)\.", name)
    return int(match.group(1)) if match else 0


def _rules(ft: str, new: str, cat: int, name: str, ne: tuple[int, ...], c: QuantContext, counter: int) -> str:
    """llama_tensor_get_type_impl: the type for a tensor of category ``cat``; ``new`` is the default type,
    ``counter`` the i_attention_wv / i_ffn_* the tensor is reached at, ``ne`` its GGUF dims."""
    gqa, experts, falcon = c.gqa, c.experts, c.arch == "falcon"
    # layer_info: with experts the layer comes from the name (Mixtral's tensors are not in order)
    i_layer, n_layer = (_layer_of(name) if experts > 1 else counter), c.layers
    if cat == OUTPUT or (c.tied and cat == TOKEN_EMBD):
        if ft == "MXFP4_MOE" or falcon or ne[0] % ggml_types()[new].block_values:
            return "Q8_0"
        if ft in ("IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S", "IQ2_S", "IQ2_M", "IQ1_M"):
            return "Q5_K"
        return "Q6_K" if new != "Q8_0" else new
    if ft == "MXFP4_MOE":  # expert tensors (3-D) in MXFP4, the rest Q8_0
        bailing_expert = c.arch == "bailingmoe3" and cat in (FFN_UP, FFN_GATE, FFN_DOWN)
        return "MXFP4" if len(ne) > 2 and ne[2] > 1 and (c.arch != "bailingmoe3" or bailing_expert) else "Q8_0"
    if cat == TOKEN_EMBD:
        if ft in ("IQ2_XXS", "IQ2_XS", "IQ1_S", "IQ1_M"):
            return "Q2_K"
        if ft in ("IQ2_S", "IQ2_M", "IQ3_XXS"):
            return "IQ3_S"
        return "Q4_K" if ft in ("TQ1_0", "TQ2_0", "Q2_0") else new
    if ft in _IQ2_GROUP:
        low = "IQ3_S" if ft in ("IQ2_S", "IQ2_M") else "Q2_K"
        if cat in _ATTN_V_LIKE:
            return "Q4_K" if gqa >= 4 or experts >= 4 else low
        if experts == 8 and cat == ATTN_K:
            return "Q4_K"
        if cat == FFN_DOWN:  # the counter itself here, not layer_info
            return low if counter < n_layer // 8 else new
        if cat == ATTN_OUT:
            if experts == 8:
                return "Q5_K"
            return {"IQ1_S": "IQ2_XXS", "IQ1_M": "IQ2_XXS", "IQ2_S": "IQ3_S", "IQ2_M": "IQ3_S"}.get(ft, new)
        return new
    if cat in _ATTN_V_LIKE:  # attn_qkv lands here too: the ATTENTION_QKV branch below it is never reached
        n_wv = c.layers if c.attention_v is None else c.attention_v
        if ft == "Q2_K":
            new = "Q4_K" if gqa >= 4 else "Q3_K"
        elif ft == "Q2_K_S" and gqa >= 4:
            new = "Q4_K"
        elif ft == "IQ3_XXS":
            new = "Q4_K" if gqa >= 4 else "IQ3_XXS" if c.imatrix else "IQ3_S"
        elif ft in ("IQ3_XS", "IQ3_S") and gqa >= 4 or ft == "IQ3_M":
            new = "Q4_K"
        elif ft == "Q3_K_M":
            new = "Q5_K" if counter < 2 else "Q4_K"
        elif ft == "Q3_K_L" or ft in ("IQ4_NL", "IQ4_XS") and gqa >= 4:
            new = "Q5_K"
        elif ft in ("Q4_K_M", "Q5_K_M") and _use_more_bits(counter, n_wv):
            new = "Q6_K"
        elif ft == "Q4_K_S" and counter < 4:
            new = "Q5_K"
        if c.is_70b and new in ("Q3_K", "Q4_K"):  # 8 heads share attn_v: more bits for little size
            new = "Q5_K"
        return "Q8_0" if experts == 8 else new
    if cat in (ATTN_K, ATTN_Q):
        return "Q8_0" if cat == ATTN_K and experts == 8 else {"IQ3_XS": "IQ3_XXS", "IQ3_XXS": "IQ2_S"}.get(ft, new)
    if cat == FFN_DOWN:
        more = _use_more_bits(i_layer, n_layer)
        if ft in ("Q2_K", "Q2_K_S"):
            return "Q3_K" if ft == "Q2_K" else "Q4_K" if i_layer < n_layer // 8 else new
        if ft == "IQ3_XXS" and not c.imatrix:
            return "Q4_K" if i_layer < n_layer // 8 else "Q3_K"
        if ft == "Q3_K_M":
            return "Q5_K" if i_layer < n_layer // 16 else "Q4_K" if not falcon or more else "Q3_K"
        if ft == "IQ3_M" and (i_layer < n_layer // 8 or (experts == 8 and more)):
            return "Q4_K"
        if ft == "Q3_K_L":
            return "Q4_K" if falcon else "Q5_K"
        if ft == "Q4_K_M" and falcon:
            return "Q6_K" if i_layer < n_layer // 16 else "Q5_K" if more else "Q4_K"
        if ft == "Q4_K_M":
            return "Q6_K" if more else new
        if i_layer < n_layer // 8 and ft in ("IQ4_NL", "IQ4_XS") and not c.imatrix:
            return "Q5_K"
        if ft == "Q5_K_M" and more:
            return "Q6_K"
        if ft == "Q4_K_S" and not falcon and i_layer < n_layer // 8:
            return "Q5_K"
        if ft in ("Q4_0", "Q5_0") and c.imatrix and i_layer < n_layer // 8:
            return "Q4_1" if ft == "Q4_0" else "Q5_1"
        return new
    if cat == ATTN_OUT:
        if falcon:
            return "Q4_K" if ft == "Q3_K_L" else new
        if experts == 8:
            return "Q5_K" if ft in ("Q2_K", "IQ3_XS", "IQ3_XXS", "Q3_K_S", "Q3_K_M", "IQ4_NL", "Q4_K_S", "Q4_K_M",
                                    "IQ3_S", "IQ3_M", "IQ4_XS") else new
        return {"Q2_K": "Q3_K", "IQ3_XXS": "IQ3_S", "Q3_K_M": "Q4_K", "Q3_K_L": "Q5_K", "IQ3_M": "Q4_K"}.get(ft, new)
    if cat in (FFN_GATE, FFN_UP) and ft == "IQ3_XS" and n_layer // 8 <= i_layer < 7 * n_layer // 8:
        return "IQ3_XXS"
    return new


_FALLBACK = {"IQ1_S": "IQ4_NL", "IQ1_M": "IQ4_NL", "IQ2_XXS": "IQ4_NL", "IQ2_XS": "IQ4_NL", "IQ2_S": "IQ4_NL",
             "IQ3_XXS": "IQ4_NL", "IQ3_S": "IQ4_NL", "IQ4_XS": "IQ4_NL", "Q2_0": "Q4_0", "Q2_K": "Q4_0",
             "Q3_K": "Q4_0", "TQ1_0": "Q4_0", "TQ2_0": "Q4_0", "Q4_K": "Q5_0", "Q5_K": "Q5_1", "Q6_K": "Q8_0"}


def _fallback(name: str, ncols: int, target: str) -> str:
    """tensor_type_fallback: a type whose block divides the row, else F16."""
    types = ggml_types()
    if ncols % types[target].block_values == 0:
        return target
    if target not in _FALLBACK:  # llama.cpp throws "no tensor type fallback is defined for type ..."
        raise OptionError("mixture", f"{name}: a row of {ncols:,} values does not fit {target} blocks of "
                                     f"{types[target].block_values} and llama-quantize has no fallback for it")
    fallback = _FALLBACK[target]
    return fallback if ncols % types[fallback].block_values == 0 else "F16"


def converted_type(name: str, shape: tuple[int, ...], source_type: str = "F16") -> str:
    """The type convert_hf_to_gguf.py stores a tensor in (prepare_tensors): F32 for 1-D tensors, norms,
    routers, position tables, convolutions and anything not a weight; ``source_type`` otherwise."""
    f32 = (len(shape) <= 1 or name.endswith("_norm.weight") or not name.endswith(".weight")
           or any(n in name for n in ("ffn_gate_inp.", "position_embd.", "token_types.", "ssm_conv1d.",
                                      "shortconv.conv.", "time_mix_first.")))
    return "F32" if f32 else source_type


def tensor_type(name: str, shape: tuple[int, ...], mixture: str, context: QuantContext) -> str:
    """llama_tensor_get_type: the type llama-quantize gives the GGUF tensor ``name`` of ``shape``
    (outermost first, as gguf's reader and paramledger list it) under ``mixture``."""
    ft = mixture_name(mixture)
    shape = tuple(shape)
    if not allows_quantization(name, shape):
        return converted_type(name, shape, context.source_type)
    default = MIXTURES[ft]
    if not ggml_types()[default].quantized:
        return default
    counter = context.counters.get(name, _layer_of(name))
    chosen = _rules(ft, default, category(name), name, shape[::-1], context, counter)
    return _fallback(name, shape[-1], chosen)


# ---------------------------------------------------------------- an inventory as GGUF tensors
class GGUFTensor(NamedTuple):
    source: str  # the inventory's (Hugging Face) name
    name: str  # llama.cpp's
    shape: tuple[int, ...]  # as the converter stores it, outermost first


class TypedTensor(NamedTuple):
    source: str
    name: str
    shape: tuple[int, ...]
    type: str
    bytes: int


_LAYER_ROLES = (("q", "attn_q"), ("k", "attn_k"), ("v", "attn_v"), ("qkv", "attn_qkv"), ("o", "attn_output"),
                ("q_norm", "attn_q_norm"), ("k_norm", "attn_k_norm"), ("attn_pre_norm", "attn_norm"),
                ("attn_post_norm", "post_attention_norm"), ("ffn_pre_norm", "ffn_norm"),
                ("ffn_post_norm", "post_ffw_norm"), ("gate", "ffn_gate"), ("up", "ffn_up"), ("down", "ffn_down"),
                ("gate_up", "ffn_up"), ("router", "ffn_gate_inp"), ("q_a", "attn_q_a"), ("q_b", "attn_q_b"),
                ("kv_a", "attn_kv_a_mqa"), ("q_a_norm", "attn_q_a_norm"), ("kv_a_norm", "attn_kv_a_norm"),
                ("shared_expert_gate", "ffn_gate_inp_shexp"), ("shared_expert_gate_up", "ffn_up_shexp"),
                ("shared_expert_down", "ffn_down_shexp"), ("linear_conv", "ssm_conv1d"), ("sinks", "attn_sinks"))


@lru_cache(maxsize=64)
def _roles(naming: object) -> dict[str, str]:
    """A layer's module path (relative to the layer) -> its GGUF role, from the family's Naming."""
    roles = {getattr(naming, field_): role for field_, role in _LAYER_ROLES if getattr(naming, field_)}
    shared = naming.shared_expert  # type: ignore[attr-defined]
    roles.update({f"{shared}.gate_proj": "ffn_gate_shexp", f"{shared}.up_proj": "ffn_up_shexp",
                  f"{shared}.down_proj": "ffn_down_shexp", f"{naming.mamba}.conv1d": "ssm_conv1d",  # type: ignore
                  f"{naming.short_conv}.conv": "shortconv.conv"})  # type: ignore[attr-defined]
    return roles


def _naming(inventory: Inventory) -> object:
    from .. import families
    from ..naming import LLAMA

    arch = inventory.architecture
    return families.naming_of(arch) if arch is not None and families.get(arch.model_type) else LLAMA


def gguf_tensors(inventory: Inventory) -> tuple[GGUFTensor, ...]:
    """The tensors convert_hf_to_gguf.py writes for ``inventory``, in llama.cpp's loader order
    (weight_name_comparer: by layer, the tensors outside the layers first, then by name)."""
    naming, arch = _naming(inventory), inventory.architecture
    roles = _roles(naming)
    top = {naming.embed: "token_embd", naming.lm_head: "output", naming.final_norm: "output_norm",
           naming.positions: "position_embd", naming.embed_norm: "token_embd_norm",
           naming.embed_per_layer: "per_layer_token_embd"}
    out: list[GGUFTensor] = []
    for t in inventory.tensors:
        if t.layer is None:
            module, _, suffix = t.name.rpartition(".")
            role = top.get(module)
            name = f"{role}.{suffix}" if role else t.name + ("_norm.weight" if t.component == "norm" else "")
            out.append(GGUFTensor(t.name, name, t.shape))
            continue
        prefix = naming.layer.format(i=t.layer) + "."
        rel = t.name.removeprefix(prefix)
        out.extend(_layer_tensors(t, rel, f"blk.{t.layer}.", naming, roles, arch))
    return tuple(sorted(out, key=lambda g: (_layer_of(g.name) if g.name.startswith("blk.") else -1, g.name)))


def _layer_tensors(t, rel: str, blk: str, naming, roles: Mapping[str, str], arch) -> list[GGUFTensor]:
    shape, experts = t.shape, t.experts
    if rel in (naming.experts_gate_up, naming.experts_up, naming.experts_down):
        hidden = shape[1] if naming.experts_in_out else shape[-1]
        if naming.experts_flat:
            hidden = arch.hidden_size
        width = math.prod(shape) // (experts * hidden)
        if rel == naming.experts_down:  # (experts, hidden, width): ne = [width, hidden, experts]
            return [GGUFTensor(t.name, blk + "ffn_down_exps.weight", (experts, hidden, width))]
        if rel == naming.experts_up:
            return [GGUFTensor(t.name, blk + "ffn_up_exps.weight", (experts, width, hidden))]
        if naming.experts_up:  # the gate alone (DBRX's w1)
            return [GGUFTensor(t.name, blk + "ffn_gate_exps.weight", (experts, width, hidden))]
        half = (experts, width // 2, hidden)  # the converter stacks the experts' gate and up apart
        return [GGUFTensor(t.name, blk + "ffn_gate_exps.weight", half),
                GGUFTensor(t.name, blk + "ffn_up_exps.weight", half)]
    module, _, suffix = rel.rpartition(".")
    if suffix not in ("weight", "bias") or not module:
        module, suffix = rel, ""
    role = roles.get(module)
    dot_suffix = "." + suffix if suffix else ""
    if module == naming.kv_b and arch is not None and arch.kv_lora_rank and suffix == "weight":
        # DeepseekV2Model.modify_tensors: kv_b split per head into k_b (transposed) and v_b
        nope, value, rank = arch.qk_nope_head_dim, arch.v_head_dim, shape[1]
        heads = shape[0] // (nope + value)
        return [GGUFTensor(t.name, blk + "attn_k_b.weight", (heads, rank, nope)),
                GGUFTensor(t.name, blk + "attn_v_b.weight", (heads, value, rank))]
    if naming.conv1d and len(shape) == 2 and suffix == "weight" and t.component != "norm":
        shape = shape[::-1]  # GPT-2's Conv1D (in, out), transposed to a Linear's (out, in)
    if role is None:
        role = module + ("_norm" if t.component == "norm" else "")
    return [GGUFTensor(t.name, blk + role + dot_suffix, shape)]


_ARCHS = {"llama": "llama", "mistral": "llama", "mixtral": "llama", "falcon": "falcon"}  # llama.cpp's LLM_ARCH_*


def context_for(inventory: Inventory, tensors: Iterable[GGUFTensor] | None = None, **changes: object) -> QuantContext:
    """The QuantContext llama-quantize would read for ``inventory`` (``changes`` override any field)."""
    arch = inventory.architecture
    if arch is None:
        raise OptionError("mixture", "a GGUF mixture needs the inventory's architecture (layers, heads, experts)")
    tensors = tuple(gguf_tensors(inventory) if tensors is None else tensors)
    llama_arch = _ARCHS.get(arch.model_type, arch.model_type)
    kv_heads = arch.num_key_value_heads_per_layer[0] if arch.num_key_value_heads_per_layer else arch.kv_heads
    gqa = arch.num_attention_heads // kv_heads if kv_heads else 0  # n_gqa() of layer 0
    counts = dict.fromkeys((ATTN_V, FFN_DOWN, FFN_GATE, FFN_UP), 0)
    counters: dict[str, int] = {}
    attention_v = 0
    for g in tensors:
        cat = ATTN_V if category(g.name) in _ATTN_V_LIKE else category(g.name)
        attention_v += cat == ATTN_V  # init_quantize_state_counters counts every name
        if cat in counts and allows_quantization(g.name, g.shape):
            counters[g.name] = counts[cat]
            counts[cat] += 1
    names = {g.name for g in tensors}
    context = QuantContext(arch.num_hidden_layers, gqa, arch.num_experts, llama_arch, "output.weight" not in names,
                           attention_v=attention_v, counters=counters,
                           # llama's load_hparams: 80 layers with GQA is LLM_TYPE_70B (Mixtral's 8 experts are not)
                           is_70b=llama_arch == "llama" and arch.num_hidden_layers == 80 and gqa > 1
                           and arch.num_experts != 8)
    return replace(context, **changes) if changes else context  # type: ignore[arg-type]


@dataclass(frozen=True)
class MixtureBytes:
    """Every GGUF tensor of an inventory under a mixture: its type and bytes (whole blocks, integers)."""

    mixture: str
    context: QuantContext
    tensors: tuple[TypedTensor, ...]

    @property
    def total(self) -> int:
        return sum(t.bytes for t in self.tensors)

    @property
    def by_type(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for t in self.tensors:
            out[t.type] = out.get(t.type, 0) + t.bytes
        return out

    def by_source(self) -> dict[str, int]:
        """Bytes per inventory tensor (a fused expert gate_up is two GGUF tensors)."""
        out: dict[str, int] = {}
        for t in self.tensors:
            out[t.source] = out.get(t.source, 0) + t.bytes
        return out


def mixture_bytes(inventory: Inventory, mixture: str, context: QuantContext | None = None,
                  **changes: object) -> MixtureBytes:
    """Type and bytes of every tensor of ``inventory`` quantized by llama-quantize to ``mixture``."""
    name = mixture_name(mixture)
    tensors = gguf_tensors(inventory)
    context = context or context_for(inventory, tensors, **changes)
    types = ggml_types()
    typed = []
    for g in tensors:
        chosen = tensor_type(g.name, g.shape, name, context)
        typed.append(TypedTensor(g.source, g.name, g.shape, chosen, types[chosen].tensor_bytes(g.shape, g.name)))
    return MixtureBytes(name, context, tuple(typed))

"""Seed 002's family table, rebuilt from real configs, and checked cell by cell against the seed.

Seed 002 ("The families, side by side") lists six families along seven axes.  Each row here
is read from one release's config.json: the attention kind from its head counts, the norm,
positions and FFN from its family, tying and vocabulary from its keys, the totals from its
inventory.  Where the seed's cell and the config disagree, ``disagreements`` says so, e.g.
the seed gives Llama 2 "GQA (4×)", but Llama-2-7b-hf has 32 KV heads for 32 query heads
(only the 70B groups its heads).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from .architecture import Architecture
from .design.flat import layer_plan

BF16_BYTES = 2


@dataclass(frozen=True, slots=True)
class SeedRow:
    """One row of seed 002's table, as printed there."""

    family: str
    model_types: tuple[str, ...]  # the config model_types this row speaks for
    attention: str
    norm: str
    position: str
    activation: str
    tied: str
    vocab: str
    signature: str
    claims: tuple[str, ...] = ()  # what the signature cell says a config must show (SIGNATURE_CLAIMS)


# Seed 002, "The families, side by side" (shared/seeds/002_2456be05f934248b.txt), verbatim.
SEED_002_TABLE = (
    SeedRow("GPT-2", ("gpt2",), "MHA", "LayerNorm, pre", "Learned abs", "GELU", "Yes", "50K",
            "The baseline everyone moved off"),
    SeedRow("Llama 2/3", ("llama",), "GQA (4×)", "RMSNorm, pre", "RoPE", "SwiGLU", "No", "32K → 128K",
            "The reference recipe"),
    SeedRow("Mistral", ("mistral",), "GQA (4×)", "RMSNorm, pre", "RoPE", "SwiGLU", "No", "32K",
            "Sliding-window attention", ("sliding window",)),
    SeedRow("Phi-3", ("phi3",), "MHA", "RMSNorm, pre", "RoPE (LongRope)", "SwiGLU", "No", "32K",
            "Synthetic-data quality; keeps MHA", ("MHA",)),
    SeedRow("Gemma 2", ("gemma2",), "GQA", "RMSNorm, sandwich", "RoPE", "GeGLU", "Yes", "256K",
            "Huge vocab; local/global attn", ("sliding window",)),
    SeedRow("Qwen 2.5", ("qwen2",), "GQA (8×)", "RMSNorm, pre", "RoPE", "SwiGLU", "Yes (small)", "152K",
            "QKV bias; multilingual", ("QKV bias",)),
)

SEED_002_MODELS = ("gpt2", "Llama-2-7b-hf", "Mistral-7B-v0.1", "Phi-3-mini-4k-instruct", "gemma-2-2b", "Qwen2.5-3B")
"""The releases issue #3 checks the seed's table against, one per row."""

COLUMNS = ("attention", "norm", "position", "activation", "tied", "vocab", "signature")


@dataclass(frozen=True, slots=True)
class FamilyRow:
    """One release along seed 002's axes, every cell read from its config."""

    name: str
    model_type: str
    attention: str  # "MHA", "GQA (4×)", "MQA", "MLA"
    num_attention_heads: int
    num_key_value_heads: int
    norm: str  # "RMSNorm, pre"
    position: str  # "RoPE", "RoPE (llama3)", "Learned abs"
    activation: str  # "SwiGLU", "GeGLU", "GELU"
    activation_key: str  # the config's own name, e.g. "gelu_pytorch_tanh"
    mlp_gated: bool
    tied: bool
    vocab_size: int
    total: int
    embedding_share: Fraction
    kv_bytes_per_token: int  # bf16, every layer, one sequence
    sliding_window: int | None
    qkv_bias: bool
    rope_scaling: str | None  # the config's rope scaling type, if any


@dataclass(frozen=True, slots=True)
class Disagreement:
    column: str
    seed_cell: str
    fact: str  # what the config says, in words

    def line(self, row: FamilyRow, seed: SeedRow) -> str:
        return (f"{row.name}: {self.column}: the family table says {self.seed_cell!r} ({seed.family}); "
                f"the config: {self.fact}")


# ----------------------------------------------------------------------------- cells
def attention_cell(arch: Architecture) -> str:
    """MHA, GQA with its factor, MQA or MLA, as the layers' mixers name themselves; where layers differ
    (Gemma 4's full layers group 8 query heads per KV head, its sliding layers 2; Qwen3-Next's Gated
    DeltaNet layers hold no heads of keys), each with its layers: "GQA (2×) on 50 sliding, GQA (8×) on 10 full"."""
    plan = layer_plan(arch)
    labels = {id(layer): layer.mixer_label() or ("no mixer", "no mixer") for layer, _ in plan.kinds}
    if len(labels) == 1 and not arch.sliding_window:
        return next(iter(labels.values()))[0]
    mixed = arch.sliding_window or any(kind is not None for _, kind in labels.values())
    cells: dict[str, dict[str, int]] = {}  # cell -> layer kind -> layers, in order of appearance
    for layer, sliding in zip(plan.layers, arch.sliding_layers()):
        cell, kind = labels[id(layer)]
        if kind is None:  # attention: full or sliding
            kind = "sliding" if sliding else "full" if mixed else ""
        kinds = cells.setdefault(cell, {})
        kinds[kind] = kinds.get(kind, 0) + 1
    if len(cells) == 1:
        return next(iter(cells))
    return ", ".join(f"{cell} on " + " + ".join(f"{n} {kind or 'layers'}" for kind, n in kinds.items())
                     for cell, kinds in cells.items())


_NORM_NAMES = {"rmsnorm": "RMSNorm", "layernorm": "LayerNorm", "layernorm_nobias": "LayerNorm (no bias)",
               "nonparametric": "LayerNorm (no affine)"}


def norm_cell(arch: Architecture) -> str:
    return f"{_NORM_NAMES.get(arch.norm_type, arch.norm_type)}, {arch.norm_placement}"


def activation_key(arch: Architecture, config: Mapping[str, Any] | None) -> str:
    """The activation as the config names it: Gemma reads hidden_activation, GPT-2
    activation_function, the rest hidden_act (each family's transformers config class)."""
    if config:
        for key in ("hidden_activation", "activation_function", "hidden_act"):
            if isinstance(config.get(key), str):
                return config[key]
    return arch.hidden_act


def activation_cell(gated: bool, key: str) -> str:
    name = key.lower()
    if name in ("silu", "swish"):
        return "SwiGLU" if gated else "SiLU"
    if name.startswith("gelu"):
        return "GeGLU" if gated else "GELU"
    if name.startswith("relu"):
        return "ReGLU" if gated else "ReLU"
    return f"{key} (gated)" if gated else key


def rope_scaling_type(config: Mapping[str, Any] | None) -> str | None:
    if not config:
        return None
    scaling = config.get("rope_scaling") or config.get("rope_parameters")
    if isinstance(scaling, Mapping):
        kind = scaling.get("rope_type") or scaling.get("type")
        if isinstance(kind, str) and kind != "default":
            return kind
    return None


def position_cell(arch: Architecture, scaling: str | None) -> str:
    kind = arch.position_embedding_type
    if kind == "learned":
        return "Learned abs"
    if kind == "rope":
        return f"RoPE ({scaling})" if scaling else "RoPE"
    return {"alibi": "ALiBi", "sinusoidal": "Sinusoidal", "none": "None"}.get(kind, kind)


def kv_bytes_per_token(arch: Architecture, bytes_per_value: int = BF16_BYTES) -> int:
    """Keys and values one token leaves in the cache of one sequence, all layers.

    Seed 002: 2 × layers × kv_heads × head_dim values; MLA keeps its latent instead
    (kv_lora_rank + qk_rope_head_dim).  The per-layer rule is kvcache's, kept in one place."""
    from .kvcache import kv_values_per_token

    return kv_values_per_token(arch) * bytes_per_value


# ----------------------------------------------------------------------------- rows
def family_row(source: str | Path) -> FamilyRow:
    """Seed 002's axes for one source (a bundled model name, a config.json or its folder)."""
    from . import inventory, load

    arch = load(source)
    config = _raw_config(source)
    inv = inventory(arch)
    key = activation_key(arch, config)
    scaling = rope_scaling_type(config)
    return FamilyRow(
        name=_display_name(source), model_type=arch.model_type, attention=attention_cell(arch),
        num_attention_heads=arch.num_attention_heads, num_key_value_heads=arch.kv_heads,
        norm=norm_cell(arch), position=position_cell(arch, scaling),
        activation=activation_cell(arch.mlp_gated, key), activation_key=key, mlp_gated=arch.mlp_gated,
        tied=arch.tie_word_embeddings, vocab_size=arch.vocab_size, total=inv.total,
        embedding_share=inv.embedding_share, kv_bytes_per_token=kv_bytes_per_token(arch),
        sliding_window=arch.sliding_window, qkv_bias=arch.attention_bias, rope_scaling=scaling,
    )


def _display_name(source: str | Path) -> str:
    text = str(source)
    path = Path(text)
    if path.exists():
        return path.parent.name if path.name == "config.json" else path.name
    from . import registry
    from ._exceptions import UnknownModelError

    try:
        return registry.get(text).name
    except UnknownModelError:  # a design or spec file keeps the name it was given
        return text


def _raw_config(source: str | Path) -> Mapping[str, Any] | None:
    """The config.json behind a source, for the keys that change no count (activation name,
    rope scaling); None for a spec file or a design.  A multimodal config gives its text_config."""
    from . import registry
    from ._exceptions import UnknownModelError
    from .sources import read_json

    path = Path(str(source))
    config: Any = None
    if path.is_dir() and (path / "config.json").is_file():
        config = read_json(path / "config.json")
    elif path.is_file() and path.suffix == ".json":
        config = read_json(path)
    else:
        try:
            config = registry.get(str(source)).config
        except UnknownModelError:
            return None
    if isinstance(config, Mapping) and isinstance(config.get("text_config"), Mapping):
        config = config["text_config"]
    return config if isinstance(config, Mapping) else None


def seed_row_for(row: FamilyRow) -> SeedRow | None:
    for seed in SEED_002_TABLE:
        if row.model_type in seed.model_types:
            return seed
    return None


# ----------------------------------------------------------------------------- the comparison
def disagreements(row: FamilyRow, seed: SeedRow) -> list[Disagreement]:
    """Every cell of ``seed`` that ``row``'s config contradicts."""
    out = []
    if not _attention_agrees(seed.attention, row.attention):
        out.append(Disagreement("attention", seed.attention,
                                f"{row.num_key_value_heads} KV heads for {row.num_attention_heads} query heads: "
                                f"{row.attention}"))
    if seed.norm.lower() != row.norm.lower():
        out.append(Disagreement("norm", seed.norm, row.norm))
    if not _position_agrees(seed.position, row.position):
        scaling = f"rope_scaling type {row.rope_scaling!r}" if row.rope_scaling else "no rope_scaling"
        out.append(Disagreement("position", seed.position, f"{row.position} ({scaling})"))
    if seed.activation.lower() != row.activation.lower():
        gated = "gated" if row.mlp_gated else "not gated"
        out.append(Disagreement("activation", seed.activation, f"{row.activation_key}, {gated}: {row.activation}"))
    if seed.tied.lower().startswith("yes") != row.tied:
        fact = f"tie_word_embeddings is {str(row.tied).lower()}"
        if "(" in seed.tied:  # "Yes (small)": the seed itself limits its cell
            fact += f" (the seed limits its cell: {seed.tied!r})"
        out.append(Disagreement("tied", seed.tied, fact))
    if round(row.vocab_size / 1000) not in _thousands(seed.vocab):
        out.append(Disagreement("vocab", seed.vocab, f"vocab_size is {row.vocab_size:,}"))
    missing = [claim for claim in seed.claims if not _shows(row, claim)]
    if missing:
        out.append(Disagreement("signature", seed.signature, "; ".join(_claim_fact(row, c) for c in missing)))
    return out


def _shows(row: FamilyRow, claim: str) -> bool:
    """Whether the config shows a signature the seed names ("sliding window", "QKV bias", "MHA")."""
    if claim == "sliding window":
        return row.sliding_window is not None
    if claim == "QKV bias":
        return row.qkv_bias
    return row.attention == claim


def _claim_fact(row: FamilyRow, claim: str) -> str:
    if claim == "sliding window":
        return "sliding_window is null: every layer attends to the full context"
    if claim == "QKV bias":
        return "no bias on q, k and v"
    return f"{row.num_key_value_heads} KV heads for {row.num_attention_heads} query heads: {row.attention}"


def _attention_agrees(seed_cell: str, fact: str) -> bool:
    """'GQA' agrees with any grouping; 'GQA (4×)' only with a factor of 4."""
    return fact == seed_cell or (seed_cell == "GQA" and fact.startswith("GQA"))


def _position_agrees(seed_cell: str, fact: str) -> bool:
    """'RoPE' agrees with RoPE however scaled; 'RoPE (LongRope)' needs that scaling in the config."""
    if seed_cell.lower() == fact.lower():
        return True
    return "(" not in seed_cell and fact.split(" (")[0].lower() == seed_cell.lower()


def _thousands(cell: str) -> set[int]:
    """'32K → 128K' -> {32, 128}: the seed rounds vocabularies to thousands."""
    return {int(n) for n in re.findall(r"(\d+)K", cell)}


def compare(row: FamilyRow) -> tuple[SeedRow | None, list[Disagreement]]:
    seed = seed_row_for(row)
    return seed, (disagreements(row, seed) if seed else [])

"""Qwen3-Omni-MoE's talker (Qwen3OmniMoeTalkerForConditionalGeneration, transformers 5.24.0
models/qwen3_omni_moe/modeling_qwen3_omni_moe.py lines 3089-3120), under the whole model's "talker.": the thinker's
hidden states into speech codes.

It registers (from talker_config, Qwen3OmniMoeTalkerConfig, configuration_qwen3_omni_moe.py lines 401-475):
- ``model.`` (Qwen3OmniMoeTalkerModel, lines 2960-2985, from talker_config.text_config): num_hidden_layers
  Qwen3OmniMoeTalkerDecoderLayer (lines 2906-2920: Qwen3-MoE's attention with q/k norms per head, head_dim read by
  getattr, hidden_size // num_attention_heads floored; every layer's mlp replaced by
  Qwen3OmniMoeTalkerTextSparseMoeBlock, lines 2882-2890: router, packed experts, a gated SiLU shared expert of
  shared_expert_intermediate_size and its (1, hidden) sigmoid gate, whatever mlp_only_layers and
  decoder_sparse_step say), the final norm, a rotary (head_dim // 2 rounded up, float32, not persistent), then
  codec_embedding, an nn.Embedding (vocab_size, hidden_size) registered after the norm;
- text_projection and hidden_projection (Qwen3OmniMoeTalkerResizeMLP, lines 2389-2394: biased Linears
  thinker_hidden_size -> text intermediate_size -> text hidden_size);
- codec_head, an unbiased Linear hidden -> vocab_size, tied to model.codec_embedding by talker_config's
  tie_word_embeddings (``_tied_weights_keys``, line 3090; False by default; checked);
- ``code_predictor.`` (Qwen3OmniMoeTalkerCodePredictorModelForConditionalGeneration, lines 2703-2720, from
  code_predictor_config, lines 243-306): a Qwen3 dense decoder (q/k norms, head_dim 128) whose model holds
  num_code_groups - 1 codec_embedding tables (after its norm, lines 2635-2637) and lm_head, num_code_groups - 1
  unbiased Linears.  Its tie_word_embeddings true fails in transformers (its _tied_weights_keys names a
  model.embed_tokens it has not): refused.

Both decoders are built by the decoder's own parts (Qwen2-MoE's table with Qwen3's q/k norms; Qwen3's table)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TOWER_LAYERS, TowerKind, flag, positive

_new = tuple.__new__
COMPONENT = "talker"
SECTION = "talker_config"

# configuration_qwen3_omni_moe.py: Qwen3OmniMoeTalkerTextConfig (lines 365-388), Qwen3OmniMoeTalkerCodePredictorConfig
# (lines 269-291), Qwen3OmniMoeTalkerConfig (lines 456-475)
TEXT = {"vocab_size": 3072, "hidden_size": 1024, "intermediate_size": 2048, "num_hidden_layers": 20,
        "num_attention_heads": 16, "num_key_value_heads": 2, "moe_intermediate_size": 384, "num_experts_per_tok": 8,
        "num_experts": 128}
PREDICTOR = {"vocab_size": 2048, "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 5,
             "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128, "num_code_groups": 32,
             "tie_word_embeddings": False}
TALKER = {"text_config": {}, "code_predictor_config": {}, "thinker_hidden_size": 2048, "tie_word_embeddings": False}


class Talker(NamedTuple):
    """The talker's tensors, listed once, its rotary buffers, its tables and its tied head."""
    listed: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...]
    tables: tuple[str, ...]  # its nn.Embeddings: Hugging Face's non-embedding count drops them
    tied: tuple[tuple[str, str], ...]  # (alias, the tensor it is)

    def tensors(self) -> list[Tensor]:
        return list(self.listed)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)

    def embedding_tables(self) -> list[str]:
        return list(self.tables)

    def aliases(self) -> dict[str, str]:
        return dict(self.tied)


def _sub(config: Mapping[str, Any], key: str, defaults: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    given = config.get(key)
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise ArchitectureError(f"{SECTION}.{key}", f"must be a JSON object, got {given!r}"[:200], where)
    return {**defaults, **given}


def _head_dim(config: Mapping[str, Any], section: str, where: str | None) -> int:
    """head_dim read by getattr: the config's own, else hidden_size // num_attention_heads floored."""
    if config.get("head_dim") is not None:
        return positive(config, "head_dim", section, where)
    head_dim = config["hidden_size"] // config["num_attention_heads"]
    if head_dim < 1:
        raise ArchitectureError(f"{section}.num_attention_heads", f"{config['num_attention_heads']} is more than "
                                f"hidden_size {config['hidden_size']}: head_dim would be 0", where)
    return head_dim


def _decoder(config: Mapping[str, Any], section: str, keys: tuple[str, ...], where: str | None) -> dict[str, int]:
    from .qwen2_5_omni_talker import odd_rotary

    sizes = {key: positive(config, key, section, where) for key in keys}
    if sizes["num_hidden_layers"] > TOWER_LAYERS:
        raise ArchitectureError(f"{section}.num_hidden_layers", f"{sizes['num_hidden_layers']:,} is past the bound "
                                f"of {TOWER_LAYERS:,} (docs/limits.md)", where)
    if sizes["num_attention_heads"] % sizes["num_key_value_heads"]:
        raise ArchitectureError(f"{section}.num_key_value_heads", f"{sizes['num_key_value_heads']} does not divide "
                                f"num_attention_heads {sizes['num_attention_heads']}", where)
    sizes["head_dim"] = _head_dim(config, section, where)
    odd_rotary(config, sizes["head_dim"], section, where)
    return sizes


def make_talker(prefix: str, talker: Mapping[str, Any], where: str | None) -> Talker:
    """The talker of a talker_config over its class's defaults, each size refused in one line naming its key."""
    text_section, predictor_section = f"{SECTION}.text_config", f"{SECTION}.code_predictor_config"
    text = _sub(talker, "text_config", TEXT, where)
    predictor = _sub(talker, "code_predictor_config", PREDICTOR, where)
    if predictor.get("num_key_value_heads") is None:  # its __post_init__: None is num_attention_heads
        predictor["num_key_value_heads"] = predictor.get("num_attention_heads")
    # transformers 5.24.0 reads both and neither config class declares it (AttributeError): refused as it fails
    if "shared_expert_intermediate_size" not in text:
        raise ArchitectureError(f"{text_section}.shared_expert_intermediate_size", "is missing: "
                                "Qwen3OmniMoeTalkerTextSparseMoeBlock reads it and Qwen3OmniMoeTalkerTextConfig "
                                "declares no default (Qwen3-Omni gives 768)", where)
    if "spatial_merge_size" not in talker:
        raise ArchitectureError(f"{SECTION}.spatial_merge_size", "is missing: Qwen3OmniMoeTalkerForConditional"
                                "Generation reads it and Qwen3OmniMoeTalkerConfig declares no default "
                                "(Qwen3-Omni gives 2)", where)
    if "num_local_experts" in text:  # its attribute_map reads num_experts from it, and a given one is set last
        text["num_experts"] = text["num_local_experts"]
    text_sizes = _decoder(text, text_section, (*TEXT, "shared_expert_intermediate_size"), where)
    _sparse_step(text, text_sizes["num_hidden_layers"], text_section, where)
    predictor_sizes = _decoder(predictor, predictor_section, tuple(k for k in PREDICTOR if k not in (
        "num_code_groups", "tie_word_embeddings", "head_dim")), where)
    groups = positive(predictor, "num_code_groups", predictor_section, where)
    if groups > TOWER_LAYERS:
        raise ArchitectureError(f"{predictor_section}.num_code_groups", f"{groups:,} is past the bound of "
                                f"{TOWER_LAYERS:,} (docs/limits.md)", where)
    if predictor.get("tie_word_embeddings"):
        raise ArchitectureError(f"{predictor_section}.tie_word_embeddings", "true cannot be built: transformers "
                                "5.24.0 ties lm_head to a model.embed_tokens the code predictor has not", where)
    tie = talker.get("tie_word_embeddings")
    if tie is not None and not isinstance(tie, bool):
        raise ArchitectureError(f"{SECTION}.tie_word_embeddings", f"must be true or false, got {tie!r}"[:200], where)
    thinker_hidden = positive(talker, "thinker_hidden_size", SECTION, where)
    biases = tuple(flag({"attention_bias": False, **section}, "attention_bias", name, where)
                   for section, name in ((text, text_section), (predictor, predictor_section)))
    return _talker(prefix, tuple(sorted(text_sizes.items())), tuple(sorted(predictor_sizes.items())), groups,
                   thinker_hidden, bool(tie), where, biases)


def _sparse_step(text: Mapping[str, Any], layers: int, section: str, where: str | None) -> None:
    """Qwen3OmniMoeTalkerDecoderLayer first makes the thinker's block (lines 2909-2914), then replaces it with the
    talker's sparse block whatever it was: decoder_sparse_step sizes nothing, but a 0 divides by zero in a layer
    outside mlp_only_layers where num_experts > 0 (its condition reads them in that order)."""
    step, only = text.get("decoder_sparse_step", 1), text.get("mlp_only_layers") or []
    if step == 0 and text["num_experts"] > 0 and isinstance(only, list) and len(set(only) & set(range(layers))) < layers:
        raise ArchitectureError(f"{section}.decoder_sparse_step", "0 cannot be built: Qwen3OmniMoeTalkerDecoderLayer "
                                "computes (layer_idx + 1) % decoder_sparse_step (ZeroDivisionError)", where)


def _built(family: str, sizes: Mapping[str, int], switches: Mapping[str, Any], prefix: str, section: str,
           where: str | None) -> tuple[list[Tensor], Any]:
    """One decoder built by the decoder's own parts under ``prefix`` ("model." moved there), stamped the talker's."""
    from .._builder import build
    from ..architecture import Architecture
    from ..families import get
    from . import whole_naming

    table = get(family)
    try:
        arch = Architecture.from_mapping({**sizes, **table.switches, **switches, "tie_word_embeddings": False},
                                         where)
    except ArchitectureError as error:  # said under the section's own key
        raise ArchitectureError(f"{section}.{error.key}", error.message, where) from None
    names = dataclasses.replace(whole_naming(table.naming, prefix + "model."), lm_head=prefix + "lm_head")
    built = build(arch, names).tensors
    flat = built.restamped(COMPONENT) if hasattr(built, "restamped") else tuple(
        t._replace(component=COMPONENT, layer=None) for t in built)
    # (a tower's experts count whole, as every tower's tensors do: inventory.active scales the decoder's routed
    # experts by the decoder's num_experts_per_tok, which is not the talker's)
    return [t._replace(experts=0) if t.experts else t for t in flat], names


@lru_cache(maxsize=32)
def _talker(prefix: str, text_items: tuple[tuple[str, int], ...], predictor_items: tuple[tuple[str, int], ...],
            groups: int, thinker_hidden: int, tie: bool, where: str | None,
            biases: tuple[bool, bool] = (False, False)) -> Talker:
    text, predictor = dict(text_items), dict(predictor_items)

    def add(out: list[Tensor], name: str, shape: tuple[int, ...]) -> None:
        out.append(_new(Tensor, (name, shape, COMPONENT, None, False, 0)))

    # the talker's decoder: Qwen2-MoE's sparse block (router, experts, gated shared expert) with Qwen3's q/k norms
    # (q, k, v and o biased by each section's attention_bias: Qwen3OmniMoeThinkerTextAttention, lines 2447-2456;
    # the code predictor's, lines 3535-3544)
    flat, names = _built("qwen2_moe", text, {"qk_norm": "head", "attention_bias": biases[0],
                                              "attention_output_bias": biases[0]}, prefix,
                         f"{SECTION}.text_config", where)
    listed = [t for t in flat if t.name not in (names.embed + ".weight", names.lm_head + ".weight")]
    hidden, vocab, inner = text["hidden_size"], text["vocab_size"], text["intermediate_size"]
    table = prefix + "model.codec_embedding.weight"
    add(listed, table, (vocab, hidden))
    for which in ("text_projection", "hidden_projection"):
        add(listed, f"{prefix}{which}.linear_fc1.weight", (inner, thinker_hidden))
        add(listed, f"{prefix}{which}.linear_fc1.bias", (inner,))
        add(listed, f"{prefix}{which}.linear_fc2.weight", (hidden, inner))
        add(listed, f"{prefix}{which}.linear_fc2.bias", (hidden,))
    tied = ((prefix + "codec_head.weight", table),) if tie else ()
    if not tie:
        add(listed, prefix + "codec_head.weight", (vocab, hidden))
    buffers = [Buffer(f"{names.rotary}.{which}", ((text["head_dim"] + 1) // 2,), "float32", False)
               for which in ("inv_freq", "original_inv_freq")]

    # the code predictor: Qwen3's dense decoder, its tables and heads one per code group after the first
    p = prefix + "code_predictor."
    flat, names = _built("qwen3", predictor, {"attention_bias": biases[1], "attention_output_bias": biases[1]}, p,
                         f"{SECTION}.code_predictor_config", where)
    listed += [t for t in flat if t.name not in (names.embed + ".weight", names.lm_head + ".weight")]
    width, rows = predictor["hidden_size"], predictor["vocab_size"]
    tables = [f"{p}model.codec_embedding.{i}.weight" for i in range(groups - 1)]
    for name in tables:
        add(listed, name, (rows, width))
    for i in range(groups - 1):
        add(listed, f"{p}lm_head.{i}.weight", (rows, width))
    buffers += [Buffer(f"{names.rotary}.{which}", ((predictor["head_dim"] + 1) // 2,), "float32", False)
                for which in ("inv_freq", "original_inv_freq")]
    return Talker(tuple(listed), tuple(buffers), (table, *tables), tied)


TALKER_KIND = TowerKind(TALKER, make_talker)

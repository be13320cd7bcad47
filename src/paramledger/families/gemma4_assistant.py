"""Gemma 4's assistants (multi-token-prediction drafters: google/gemma-4-e2b-it-assistant): a Gemma 4 text decoder
every layer of which reads the main model's keys and values, between two projections from and to the main model's
width (transformers 5.24.0 models/gemma4_assistant/modeling_gemma4_assistant.py, Gemma4AssistantForCausalLM, and
models/gemma4_unified_assistant/, its copy over Gemma 4 unified's decoder).

Identical to the decoder its text_config names (gemma4_text, gemma4_unified_text) except (Gemma4AssistantConfig,
Gemma4UnifiedAssistantConfig): num_kv_shared_layers 0 becomes num_hidden_layers (__post_init__: every layer shares,
so none holds k_proj, v_proj or k_norm), read without per-layer inputs; tying is the assistant's own
tie_word_embeddings (text_config's is not read); after the head, pre_projection (hidden, 2 × backbone_hidden_size)
and post_projection (backbone_hidden_size, hidden), unbiased, and with use_ordered_embeddings
masked_embedding.centroids (num_centroids, hidden).  Gemma4AssistantConfig.validate_architecture refuses
per-layer inputs, the MoE block, the double-width FFN and partial sharing, so its class defaults (Gemma4TextConfig's
hidden_size_per_layer_input 256) do not build; the unified assistant checks nothing and keeps a partial sharing.

No tower: the projections ride as a tower-less whole model's projector (towers.read with no tower)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole
from ..towers.projectors import flag
from . import _rules as rules
from ._family import Family, derived_from
from .gemma4 import FAMILIES as GEMMA4
from .gemma4 import NAMING as GEMMA4_NAMING
from .gemma4 import gemma4_layers
from .gemma4_unified import FAMILIES as UNIFIED
from .gemma4_unified import unified_layers

# Gemma4AssistantForCausalLM registers model, lm_head, pre_projection, post_projection, masked_embedding
NAMING = dataclasses.replace(GEMMA4_NAMING, model_order=(*GEMMA4_NAMING.model_order, "lm_head", "pre_projection",
                                                            "post_projection", "masked_embedding"))
# validate_architecture: none of these in an assistant's text_config (0 or False, as it compares them)
_REFUSED = (("hidden_size_per_layer_input", 0), ("vocab_size_per_layer_input", 0), ("enable_moe_block", False),
            ("use_double_wide_mlp", False))
TOP_KEYS = frozenset({"backbone_hidden_size", "use_ordered_embeddings", "num_centroids", "centroid_intermediate_top_k"})


def assistant_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Gemma4AssistantConfig: every layer shares (0 becomes all of them; any other count is refused), without
    per-layer inputs, the MoE block or the double-width FFN."""
    for key, allowed in _REFUSED:
        if (config.get(key) or allowed) != allowed:
            raise ArchitectureError(f"text_config.{key}", f"must be {allowed} in a Gemma 4 assistant, got "
                                    f"{config[key]!r} (Gemma4AssistantConfig.validate_architecture: transformers "
                                    "5.24.0 cannot build it)")
    layers = config["num_hidden_layers"]
    shared = config.get("num_kv_shared_layers") or layers
    if shared != layers:
        raise ArchitectureError("text_config.num_kv_shared_layers", f"must be num_hidden_layers ({layers}) in a "
                                f"Gemma 4 assistant, got {shared} (Gemma4AssistantConfig.validate_architecture: every "
                                "layer shares)")
    return {**gemma4_layers({**config, "num_kv_shared_layers": 0}), "num_kv_shared_layers": layers}


def unified_assistant_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Gemma4UnifiedAssistantConfig.__post_init__: num_kv_shared_layers 0 becomes num_hidden_layers."""
    shared = config.get("num_kv_shared_layers") or config["num_hidden_layers"]
    return {**unified_layers({**config, "num_kv_shared_layers": shared}), "num_kv_shared_layers": shared}


def projections(backbone_default: int) -> Callable[[Mapping[str, Any], Any, int], list[tuple[str, tuple[int, ...]]]]:
    """The assistant's own Linears after the head: into the decoder from twice the main model's width, out to it,
    and the ordered embeddings' centroids."""
    def projector(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
        backbone = config.get("backbone_hidden_size")
        backbone = backbone_default if backbone is None else rules.positive("backbone_hidden_size", backbone)
        named = [("pre_projection.weight", (hidden, 2 * backbone)), ("post_projection.weight", (backbone, hidden))]
        if flag(config, "use_ordered_embeddings", False):
            centroids = rules.positive("num_centroids", config.get("num_centroids", 2048))
            named.append(("masked_embedding.centroids.weight", (centroids, hidden)))
        return named
    return projector


def ordering(config: Mapping[str, Any], hidden: int) -> list[tuple[str, tuple[int, ...], str, bool]]:
    """Gemma4AssistantMaskedEmbedder's token_ordering: one int64 per token of the vocabulary, persistent."""
    if not flag(config, "use_ordered_embeddings", False):
        return []
    vocab = (config.get("text_config") or {}).get("vocab_size", 262_144)  # Gemma4TextConfig's and the unified one's
    return [("masked_embedding.token_ordering", (rules.positive("text_config.vocab_size", vocab),), "int64", True)]


def _assistant(text: Family, model_type: str, causal_lm_class: str, source: str, backbone: int,
               rule: Callable[[Mapping[str, Any]], dict[str, Any]]) -> Family:
    """The assistant reads its text_config by a table of its own (``text``'s with ``rule``), its decoder at model."""
    whole = Whole({}, projections(backbone), projector_prefix="", decoder_prefix="model.", projector_buffers=ordering,
                  text_config={"model_type": text.model_type}, text_model_type=model_type)
    return derived_from(text, model_type=model_type, causal_lm_class=causal_lm_class, source=source, naming=NAMING,
                        text_config=True, whole=whole, count_neutral=text.count_neutral | TOP_KEYS,
                        derive=(rules.output_bias_follows("attention_bias"), rule))


ASSISTANTS = [
    _assistant(GEMMA4[0], "gemma4_assistant", "Gemma4AssistantForCausalLM",
               "transformers 5.24.0 models/gemma4_assistant/configuration_gemma4_assistant.py", 1536,
               assistant_layers),
    _assistant(UNIFIED[0], "gemma4_unified_assistant", "Gemma4UnifiedAssistantForCausalLM",
               "transformers 5.24.0 models/gemma4_unified_assistant/configuration_gemma4_unified_assistant.py", 3840,
               unified_assistant_layers),
]
FAMILIES = ASSISTANTS

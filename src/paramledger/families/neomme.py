"""NeoMME (transformers 5.24.0 models/neomme/, NeoMMEForMaskedLM; only in the masked-LM mapping): a bidirectional
encoder over text tokens and image patches, counted as NeoMMEForMaskedLM (modeling_neomme.py lines 611-623).

What the class builds: NeoMMEModel (lines 491-506) registers ``embed_tokens`` (NeoMMEEmbeddings: ALBERT-style
factorized, word_embeddings vocab × embedding_rank and an unbiased embedding_projection to hidden_size),
``patch_embeddings`` (NeoMMEPatchEmbeddings: an affine LayerNorm over 3 × patch_size² pixels, up_proj to 2 × hidden
without bias, down_proj to hidden with its bias), a rotary module (a pair of buffers per layer type, full layers
rotating 25% of each head by default), ``embedding_norm`` and ``final_norm`` (NeoMMERMSNorm with_scale=False: no
tensor), ``layers``, then ``value_embeddings`` (an nn.Embedding vocab × kv_heads·head_dim, added to the values of the
first and last full layers).  A layer (NeoMMEEncoderLayer, lines 380-417) holds ``lambdas`` (2,) first, then
self_attn: q/k/v_proj (attention_bias), q/k norms without scale (no tensor), exclusive_self_attention.alpha (one per
head: the sinks' place), output_projection.gate_proj (hidden -> heads·head_dim, no bias: a per-channel output gate)
and output_projection.o_proj (attention_bias); an ungated relu² MLP up/down (mlp_bias); its two norms hold no tensor.
The head: ``unembedding_projection`` (Linear(embedding_rank -> hidden), (hidden, rank)) and ``lm_head`` (rank ->
vocab), tied to embedding_projection and word_embeddings by tie_word_embeddings (default true)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS

FULL, SLIDING = "full_attention", "sliding_attention"
# NeoMMEConfig.default_partial_rotary_factor: the share of each head a layer type rotates
ROTARY_SHARE = {FULL: 0.25, SLIDING: 1.0}
NAMING = Naming(
    embed="model.embed_tokens.word_embeddings", embed_project="model.embed_tokens.embedding_projection",
    embed_project_always=True, embed_project_bias=False,
    o="self_attn.output_projection.o_proj", attn_gate="self_attn.output_projection.gate_proj",
    sinks="self_attn.exclusive_self_attention.alpha", final_norm="model.final_norm",
    value_embeddings="model.value_embeddings", unembed_project="unembedding_projection", rotary_per_layer_type=True,
    # NeoMMEEncoderLayer registers its own lambdas before its modules; NeoMMEAttention its exclusive attention's
    # alpha before the output projection's gate and o_proj
    layer_order=("lambdas", "self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                 "self_attn.exclusive_self_attention", "self_attn.output_projection.gate_proj",
                 "self_attn.output_projection.o_proj", "mlp"),
    model_order=("model.embed_tokens", "model.patch_embeddings", "model.layers", "model.value_embeddings",
                 "unembedding_projection", "lm_head"))


def _layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """The layer types (NeoMMEConfig.__post_init__: every sixth and the last layer full), the window, and each type's
    rotated share of a head (rope_parameters' partial_rotary_factor), refused where NeoMMEConfig refuses them."""
    for key in ("head_dim", "embedding_rank", "patch_size"):  # (positive_int_field: null is no default here)
        rules.positive(key, config.get(key))
    layers, types = config["num_hidden_layers"], config.get("layer_types")
    if types is None:
        types = [FULL if (i + 1) % 6 == 0 or i == layers - 1 else SLIDING for i in range(layers)]
    if not isinstance(types, list) or len(types) != layers or not set(types) <= {FULL, SLIDING}:
        raise ArchitectureError("layer_types", f"must list num_hidden_layers={layers} entries of {FULL} or "
                                f"{SLIDING}, got {types!r}")
    if FULL not in types:  # (NeoMMEModel reads the first and the last full layer for its value embeddings)
        raise ArchitectureError("layer_types", "must hold a full_attention layer (NeoMMEConfig refuses none)")
    window = config.get("sliding_window")
    if window is not None or SLIDING in types:  # (NeoMMEAttention adds 1 to a sliding layer's half-width)
        rules.positive("sliding_window", window)
    rope = config.get("rope_parameters") or {}
    if not isinstance(rope, Mapping):
        raise ArchitectureError("rope_parameters", f"must be a JSON object, got {rope!r}")
    share = {}
    for kind in sorted(set(types)):
        given = rope.get(kind) or {}
        factor = given.get("partial_rotary_factor", ROTARY_SHARE[kind]) if isinstance(given, Mapping) else None
        rotated = int(config["head_dim"] * factor) if isinstance(factor, (int, float)) and 0 < factor <= 1 else 0
        if rotated < 4 or rotated % 4:  # NeoMMEConfig._validate_rotary_dims (its M-RoPE's pairs of axes)
            raise ArchitectureError("rope_parameters", f"{kind}'s partial_rotary_factor {factor!r} rotates {rotated} "
                                    f"of head_dim={config['head_dim']}: NeoMMEConfig needs a positive multiple of 4")
        share[kind] = factor
    return {**rules.layer_pattern(window, [kind == SLIDING for kind in types], keep=True),
            "partial_rotary_factor": share.get(FULL, 1.0), "sliding_partial_rotary_factor": share.get(SLIDING)}


NEOMME = Family(
    model_type="neomme",
    causal_lm_class="NeoMMEForMaskedLM",
    source="transformers 5.24.0 models/neomme/configuration_neomme.py",
    naming=NAMING,
    keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "mlp_bias"), "embedding_rank": "embedding_size",
          "patch_size": "patch_stem_size"},
    # NeoMMEConfig's defaults (configuration_neomme.py lines 79-103)
    defaults={"vocab_size": 131072, "embedding_rank": 256, "hidden_size": 1024, "intermediate_size": 3584,
              "hidden_act": "relu2", "mlp_bias": False, "num_hidden_layers": 17, "num_attention_heads": 16,
              "num_key_value_heads": 4, "head_dim": 64, "max_position_embeddings": 16384, "attention_bias": False,
              "sliding_window": 256, "patch_size": 32, "tie_word_embeddings": True},
    # pre-norm without scales (NeoMMERMSNorm with_scale=False), an ungated MLP, RoPE, a per-head alpha, an output gate
    switches={"mlp_gated": False, "norm_type": "nonparametric", "norm_placement": "pre",
              "position_embedding_type": "rope", "attention_sinks": True, "attention_output_gate": "per_channel",
              "layer_lambdas": True},
    # the retrieval head's width, the muP residual scale, the token ids, what __post_init__ writes (per-layer windows)
    count_neutral=frozenset({"embedding_dim", "residual_multiplier", "document_token_id", "image_token_id",
                             "norm_eps", "per_layer_config"}),
    derive=(rules.output_bias_follows("attention_bias"), _layers),
)

FAMILIES = [NEOMME]

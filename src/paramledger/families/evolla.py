"""Evolla counted whole, as EvollaForProteinText2Text builds it (transformers 5.24.0 models/evolla/modeling_evolla.py;
docs/notes/multimodal-evolla.md).  No auto class builds it from an EvollaConfig (reference.auto_class builds the
class itself).

Identical to Llama (EvollaDecoderLayer: q/k/v/o biased by attention_bias, gated MLP biased by mlp_bias, RMSNorm
input_layernorm and post_attention_layernorm; model.norm, model.rotary_emb, an untied lm_head by EvollaConfig's
default) except: EvollaConfig is flat (the decoder's keys at its top, beside protein_encoder_config and the
resampler's and aligner's keys); EvollaModel registers the protein encoder (model.protein_encoder: SaProt and the
sequence compressor resampler, towers/evolla.py) after embed_tokens and before the layers; and every layer with
(i + 1) % max(num_hidden_layers // aligner_num_add_layers, 1) == 0 holds an adapter after its norms
(parts/aligned_attention.py).  The decoder alone is no class transformers builds: --text-only is refused."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers import Whole
from ..towers.evolla import protein_encoder
from ..towers.qwen_vl import none
from ._family import derived_from, multimodal
from .llama import FAMILIES as LLAMA_FAMILIES

LLAMA = LLAMA_FAMILIES[0]
ORDER = ("model.embed_tokens", "model.protein_encoder", "model.layers", "model.norm", "lm_head")
"""EvollaModel.__init__'s registration order (lines 1273-1285), then EvollaForProteinText2Text's lm_head."""
READ_BY_THE_TOWERS = frozenset({
    "protein_encoder_config", "resampler_depth", "resampler_dim_head", "resampler_heads", "resampler_num_latents",
    "resampler_ff_mult", "aligner_attention_probs_dropout_prob", "add_cross_attention"})
"""EvollaConfig's keys towers/evolla.py reads (the dropout changes no tensor; add_cross_attention is declared and
read by nothing EvollaModel builds)."""


def aligned_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """The layers holding an adapter (EvollaDecoderLayer, line 1174), and the adapter's own keys."""
    added, layers = config.get("aligner_num_add_layers", 8), config["num_hidden_layers"]
    if type(added) is not int or added <= 0:
        raise ArchitectureError("aligner_num_add_layers", f"must be a positive whole number, got {added!r}"[:200])
    mult, bias = config.get("aligner_ffn_mult", 4), config.get("aligner_enable_bias", True)
    if type(mult) is not int or mult <= 0:
        raise ArchitectureError("aligner_ffn_mult", f"must be a positive whole number, got {mult!r}"[:200])
    if not isinstance(bias, bool):
        raise ArchitectureError("aligner_enable_bias", f"must be true or false, got {bias!r}"[:200])
    every = max(layers // added, 1) if type(layers) is int and layers > 0 else 1
    return {"aligned_attention_layers": tuple(range(every - 1, layers if type(layers) is int else 0, every)),
            "aligner_ffn_mult": mult, "aligner_enable_bias": bias}


def ordered(naming: Naming) -> Naming:
    """The adapter after the layer's norms; the protein encoder between the table and the layers."""
    return dataclasses.replace(naming, model_order=ORDER, layer_order=(
        "self_attn", "mlp", "input_layernorm", "post_attention_layernorm", "adapter"))


# identical to llama except: read under the whole model's model_type, its aligner layers derived
TEXT = derived_from(
    LLAMA, model_type="evolla", causal_lm_class="EvollaForProteinText2Text",
    defaults={**LLAMA.defaults, "vocab_size": 128256, "hidden_size": 4096, "intermediate_size": 14336,
              "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
              "max_position_embeddings": 8192, "tie_word_embeddings": False},
    derive=(*LLAMA.derive, aligned_layers),
    count_neutral=LLAMA.count_neutral | READ_BY_THE_TOWERS | {"aligner_num_add_layers", "aligner_ffn_mult",
                                                              "aligner_enable_bias"})

FAMILIES = [multimodal(
    TEXT, "evolla", "transformers 5.24.0 models/evolla/configuration_evolla.py (EvollaConfig, protein_encoder_config "
    "SaProtConfig)",
    Whole({}, none, vision_prefix="model.protein_encoder.",
          projector_prefix="model.protein_encoder.sequence_compressor_resampler.", decoder_prefix="model.",
          # EvollaForProteinText2Text declares no _tied_weights_keys: its head is its own whatever
          # tie_word_embeddings says (no key ties it)
          tie_word_embeddings=False, tie_keys=(), text_at_top=True,
          described="evolla is multimodal: counting the whole model (SaProt protein encoder, sequence compressor "
          "resampler, aligner adapters and text decoder)", made=protein_encoder, renamed=ordered,
          decoder_alone_refused="its decoder alone is no class transformers 5.24.0 builds (EvollaModel always builds "
                                "the protein encoder and the adapters): count the whole model"),
    "EvollaForProteinText2Text")]

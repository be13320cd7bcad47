"""Perceiver IO for masked language modelling, as AutoModelForMaskedLM builds it (transformers 5.24.0
models/perceiver/modeling_perceiver.py PerceiverForMaskedLM, lines 806-834): the token and position tables at
d_model (PerceiverTextPreprocessor, lines 2661-2695), the latents and a cross-attention into them, the
self-attention layers over the latents (PerceiverEncoder.self_attends, lines 418-470), a decoder cross-attending
from every position back to the latents, and a head that reads the token table in forward with a bias of its own
(perceiver_tables.py has what lies outside the layers).

Each self-attention layer (PerceiverLayer, lines 354-416) is a pre-norm block: ``attention.self.layernorm1``,
query / key / value (qk_channels, v_channels; else d_latents), ``attention.output.dense``, ``layernorm``, then
``mlp.dense1`` / ``mlp.dense2`` (PerceiverMLP, ungated, self_attention_widening_factor × d_latents), every Linear
biased, no final norm.  The num_blocks passes reuse the same layers (PerceiverEncoder.forward loops over
self.self_attends num_blocks times): their weights are counted once."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..perceiver_tables import DECODER_HEADS
from ._family import Family
from .nllb_moe import ACTIVATIONS

TF = "transformers 5.24.0 models/perceiver/configuration_perceiver.py"
NAMING = Naming(
    embed="perceiver.input_preprocessor.embeddings", positions="perceiver.input_preprocessor.position_embeddings",
    layer="perceiver.encoder.self_attends.{i}", q="attention.self.query", k="attention.self.key",
    v="attention.self.value", o="attention.output.dense", attn_pre_norm="attention.self.layernorm1",
    ffn_pre_norm="layernorm", up="mlp.dense1", down="mlp.dense2", act="mlp.intermediate_act_fn",
    lm_head="embedding_decoder", lm_head_bias="embedding_decoder.bias", lm_head_linear_bias=False, rotary=None,
    layer_order=("attention.self.layernorm1", "attention.self.query", "attention.self.key", "attention.self.value",
                 "attention.output.dense", "layernorm", "mlp.dense1", "mlp.dense2"))


def _whole(key: str, value: Any, least: int = 1) -> int:
    if type(value) is not int or value < least:
        raise ArchitectureError(key, f"must be a {'positive ' if least else ''}whole number, got {value!r}")
    return value


def _split(key: str, channels: int, heads_key: str, heads: int, what: str) -> None:
    if channels % heads:
        raise ArchitectureError(key, f"{channels} {what} do not split over {heads_key}={heads} "
                                "(PerceiverSelfAttention's ValueError)")


def _perceiver(config: Mapping[str, Any]) -> dict[str, Any]:
    """The channels of each attention as PerceiverAttention chooses them, checked as transformers checks them."""
    latents, width = config["d_latents"], config["d_model"]
    heads, cross_heads = config["num_self_attention_heads"], _whole("num_cross_attention_heads",
                                                                    config["num_cross_attention_heads"])
    qk, v = config["qk_channels"], config["v_channels"]
    for key, value in (("qk_channels", qk), ("v_channels", v)):
        if value is not None:
            _whole(key, value)
    if latents % cross_heads:  # PerceiverEncoder's own check (line 431)
        raise ArchitectureError("num_cross_attention_heads", f"{cross_heads} heads do not divide d_latents={latents}")
    self_qk = qk or latents
    self_v = v or self_qk
    _split("qk_channels", self_qk, "num_self_attention_heads", heads, "query/key channels")
    if self_v != latents:  # (its output is v_channels wide, added to the d_latents-wide latents)
        raise ArchitectureError("v_channels", f"{self_v} values (v_channels, else qk_channels) are not d_latents="
                                f"{latents}: transformers builds a Perceiver whose self-attention layers cannot run")
    shape = config["cross_attention_shape_for_attention"]
    if qk is None and shape not in ("q", "kv"):  # (read only where qk_channels leaves it to choose)
        raise ArchitectureError("cross_attention_shape_for_attention", f"{shape!r} is not 'q' or 'kv'")
    cross_qk = qk or (latents if shape == "q" else width)
    cross_v = v or cross_qk
    # (the key whose value the channels are: qk_channels, else d_model or d_latents as the shape chooses)
    chosen = "qk_channels" if qk else "d_latents" if shape == "q" else "d_model"
    _split(chosen, cross_qk, "num_cross_attention_heads", cross_heads, "query/key channels of the cross-attention")
    _split("v_channels" if v else chosen, cross_v, "num_cross_attention_heads", cross_heads,
           "value channels of the cross-attention")
    # PerceiverForMaskedLM's decoder: d_model value channels over 8 heads (line 826)
    _split("d_model", width, "the decoder's heads", DECODER_HEADS, "value channels of the decoder (d_model)")
    act = config["hidden_act"]
    if act not in ACTIVATIONS:  # every PerceiverMLP's intermediate_act_fn is an ACT2FN module
        raise ArchitectureError("hidden_act", f"{act!r} is not counted: one of {', '.join(sorted(ACTIVATIONS))} "
                                "(ACT2FN, less prelu and xielu, whose modules hold weights)")
    wide = _whole("self_attention_widening_factor", config["self_attention_widening_factor"])
    cross_wide = _whole("cross_attention_widening_factor", config["cross_attention_widening_factor"])
    _whole("num_blocks", config["num_blocks"], least=0)
    # Sizes that follow d_latents and d_model are left to the design's couplings (None), so --set hidden_size counts
    # what the config with that d_latents builds: head_dim d_latents / heads, the FFNs the factor × d_latents, the
    # cross-attention's query/key channels d_model ("kv").
    return {"head_dim": None if qk is None else self_qk // heads,
            "v_head_dim": None if qk is None else latents // heads,
            "intermediate_size": None, "intermediate_ratio": Fraction(wide),
            "latent_cross_qk_channels": None if qk is None and shape == "kv" else cross_qk,
            "latent_cross_v_channels": v, "latent_cross_widening_factor": None if cross_wide == 1 else cross_wide}


def _blocks(arch: Any) -> str:
    return (f"{arch.model_type}: the self-attention layers run num_blocks times over the latents with the same "
            "weights (PerceiverEncoder.forward, line 496): counted once")


PERCEIVER = Family(
    model_type="perceiver",
    causal_lm_class="PerceiverForMaskedLM",
    source=TF,
    naming=NAMING,
    keys={"vocab_size": "vocab_size", "d_latents": "hidden_size", "d_model": "embedding_size",
          "num_self_attends_per_block": "num_hidden_layers", "num_self_attention_heads": "num_attention_heads",
          "max_position_embeddings": "max_position_embeddings", "hidden_act": "hidden_act",
          "num_latents": "num_latents"},
    defaults={"num_latents": 256, "d_latents": 1280, "d_model": 768, "num_blocks": 1, "num_self_attends_per_block": 26,
              "num_self_attention_heads": 8, "num_cross_attention_heads": 8, "qk_channels": None, "v_channels": None,
              "cross_attention_shape_for_attention": "kv", "self_attention_widening_factor": 1,
              "cross_attention_widening_factor": 1, "hidden_act": "gelu", "vocab_size": 262,
              "max_position_embeddings": 2048},
    switches={"mlp_gated": False, "norm_type": "layernorm", "norm_placement": "pre", "position_embedding_type": "learned",
              "attention_bias": True, "attention_output_bias": True, "mlp_bias": True, "final_norm": False,
              "tie_word_embeddings": False, "lm_head_bias": True},
    count_neutral=frozenset({
        "num_blocks", "num_cross_attention_heads", "qk_channels", "v_channels",  # (read by _perceiver)
        "cross_attention_shape_for_attention", "self_attention_widening_factor", "cross_attention_widening_factor",
        "use_query_residual", "attention_probs_dropout_prob",
        # the image, audio, video and optical-flow models' own (PerceiverConfig): no tensor of the masked LM
        "image_size", "train_size", "num_frames", "audio_samples_per_frame", "samples_per_patch", "output_shape",
        "output_num_channels", "_label_trainable_num_channels"}),
    derive=(_perceiver,),
    explain=(_blocks,),
)

FAMILIES = [PERCEIVER]

"""NLLB-MoE counted whole (transformers 5.24.0 models/nllb_moe: NllbMoeForConditionalGeneration; no CausalLM is
registered, the whole model is the reference).

Identical to M2M-100 (families/bart.py M2M_100: pre-norm, biased, sinusoidal positions as a non-persistent buffer of
max_position_embeddings + 2 rows, the embeddings scaled by a float, a final layer_norm in each stack, model.shared
tied to the head and both embed_tokens) except:
- each layer's names (modeling_nllb_moe.py NllbMoeEncoderLayer / NllbMoeDecoderLayer, lines 516-592): the
  cross-attention is ``cross_attention`` and its norm ``cross_attention_layer_norm``, the feed-forward ``ffn`` with
  its norm ``ff_layer_norm``;
- the feed-forward is NllbMoeDenseActDense (``ffn.fc1``, ``ffn.fc2``, biased) or, in the sparse layers,
  NllbMoeSparseMLP (lines 342-386): ``ffn.router.classifier`` (d_model -> num_experts, biased by router_bias) then
  ``ffn.experts.expert_{i}.fc1`` / ``.fc2``, one biased nn.Linear pair per expert (an nn.ModuleDict: parts/experts.py's
  ``experts_each``), two experts a token (NllbMoeTop2Router);
- layer i of a stack is sparse where ``(i + 1) % step == 0`` while step > 0 (NllbMoeEncoder / NllbMoeDecoder, lines
  701 and 784), the step being encoder_sparse_step / decoder_sparse_step;
- NllbMoeConfig's defaults (the 54B model's layout at 12 + 12 layers, 128 experts, every fourth layer sparse)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import bart
from ._family import derived_from
from ._rules import positive

TF = "transformers 5.24.0 models/nllb_moe/configuration_nllb_moe.py"
CROSS = "cross_attention"
# NllbMoeDecoderLayer registers self_attn (k, v, q, out_proj), its norm, cross_attention and its norm, ffn, its norm
LAYER_ORDER = ("self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj", "self_attn_layer_norm",
               f"{CROSS}.k_proj", f"{CROSS}.v_proj", f"{CROSS}.q_proj", f"{CROSS}.out_proj",
               f"{CROSS}_layer_norm", "ffn", "ff_layer_norm")
NAMING = dataclasses.replace(
    bart.M2M_100.naming, cross_q=f"{CROSS}.q_proj", cross_k=f"{CROSS}.k_proj", cross_v=f"{CROSS}.v_proj",
    cross_o=f"{CROSS}.out_proj", cross_attn_norm=f"{CROSS}_layer_norm", up="ffn.fc1", down="ffn.fc2",
    act="ffn.act", ffn_pre_norm="ff_layer_norm", ffn_post_norm="ff_layer_norm", router="ffn.router.classifier",
    experts_each=("ffn.experts.expert_{e}.fc1", "ffn.experts.expert_{e}.fc2"), layer_order=LAYER_ORDER)
# transformers 5.24.0 activations.py ACT2FN less PReLU and xIELU, whose modules hold weights of their own (in every
# expert too): not counted here
ACTIVATIONS = frozenset({
    "gelu", "gelu_10", "gelu_accurate", "gelu_fast", "gelu_new", "gelu_python", "gelu_python_tanh",
    "gelu_pytorch_tanh", "hardswish", "laplace", "leaky_relu", "linear", "mish", "quick_gelu", "relu", "relu2",
    "relu6", "sigmoid", "silu", "sqrtsoftplus", "swish", "tanh"})


def _dense_layers(config: Mapping[str, Any], layers: int, key: str) -> tuple[int, ...]:
    """The dense layers of a stack of ``layers``: every one but where (i + 1) % step == 0, step > 0."""
    step = config[key]
    if type(step) is not int:  # (null too: the stack compares it with 0)
        raise ArchitectureError(key, f"must be a whole number, got {step!r}")
    return tuple(i for i in range(layers) if not (step > 0 and (i + 1) % step == 0))


def _decoder(config: Mapping[str, Any]) -> dict[str, Any]:
    """The decoder's dense layers; two experts a token (one where there is one); the activation counted."""
    experts = positive("num_experts", config["num_experts"])
    act = config["activation_function"]
    if act not in ACTIVATIONS:
        raise ArchitectureError("activation_function", f"{act!r} is not counted: one of "
                                f"{', '.join(sorted(ACTIVATIONS))} (ACT2FN, less prelu and xielu, whose modules "
                                "hold weights)")
    return {"num_experts_per_tok": min(2, experts),
            "mlp_only_layers": _dense_layers(config, config["num_hidden_layers"], "decoder_sparse_step")}


def _encoder(config: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    """The encoder's dense layers at its own depth (encoder_layers) and step."""
    layers = config["encoder_layers"]
    if type(layers) is not int or layers <= 0:  # (towers/encoder.py's refusal, said before the step is read)
        raise ArchitectureError("encoder_layers", f"must be a positive whole number, got {layers!r}", where)
    try:
        return {"encoder_fields": {"mlp_only_layers": _dense_layers(config, layers, "encoder_sparse_step")}}
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None


# identical to m2m_100 except: its layers' names, sparse layers every encoder_sparse_step / decoder_sparse_step
# (a top-2 router and one biased Linear pair per expert), NllbMoeConfig's defaults (the module docstring)
NLLB_MOE = derived_from(
    bart.M2M_100, model_type="nllb-moe", causal_lm_class="NllbMoeForConditionalGeneration", source=TF,
    naming=NAMING,
    keys={**bart.DECODER_KEYS, "num_experts": "num_experts", "router_bias": "router_bias"},
    defaults={**bart.M2M_100.defaults, "num_experts": 128, "router_bias": False, "decoder_sparse_step": 4},
    count_neutral=bart.ENCODER_SIDE | {
        "encoder_sparse_step", "decoder_sparse_step",  # (read by _encoder and _decoder)
        "expert_capacity", "router_dtype", "router_ignore_padding_tokens", "router_z_loss_coef",
        "second_expert_policy", "normalize_router_prob_before_dropping", "batch_prioritized_routing",
        "moe_eval_capacity_token_fraction", "moe_token_dropout"},
    derive=(_decoder,),
    seq2seq=bart.M2M_100.seq2seq._replace(whole_class="NllbMoeForConditionalGeneration", defaults={
        **bart.M2M_100.seq2seq.defaults, "encoder_sparse_step": 4}, encoder_variant=_encoder),
)

FAMILIES = [NLLB_MOE]

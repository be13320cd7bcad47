"""Switch Transformers counted whole (transformers 5.24.0 models/switch_transformers:
SwitchTransformersForConditionalGeneration; no CausalLM is registered, the whole model is the reference).

Identical to T5 (families/t5.py, SwitchTransformersStack copies T5Stack) except:
- the feed-forward is ``layer.{1|2}.mlp``: SwitchTransformersDenseActDense (``mlp.wi``, ``mlp.wo``, never gated,
  the activation ``dense_act_fn`` itself) or, in the sparse blocks, SwitchTransformersSparseMLP
  (modeling_switch_transformers.py lines 161-198): ``mlp.router.classifier`` (d_model -> num_experts, biased by
  router_bias) then ``mlp.experts.expert_{i}.wi`` / ``.wo``, one nn.Linear pair per expert (an nn.ModuleDict, not
  stacked tensors: parts/experts.py's ``experts_each``), one expert per token (SwitchTransformersTop1Router);
- which blocks are sparse (SwitchTransformersStack, line 694): ``i % step == 1 or step == 1`` while step > 0, the
  step being ``encoder_sparse_step`` / ``decoder_sparse_step`` where the config gives it (released configs do:
  transformers' __post_init__ sets them first and the config's own values then win), else
  num_layers // num_sparse_encoder_layers (num_decoder_layers // num_sparse_decoder_layers), or the depth itself
  when that count is 0 (the config's "HACK": still layer 1 is sparse);
- the head tied by tie_word_embeddings as the config says (SwitchTransformersConfig does not force it; untied,
  5.24.0 ties none of the three tables to ``shared``);
- SwitchTransformersConfig's defaults (switch-base-8's sizes: 12 + 12 layers of 12 heads, d_model 768, 8 experts,
  3 sparse layers a stack)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..towers.encoder import Seq2Seq
from . import t5
from ._family import derived_from
from ._rules import positive

TF = "transformers 5.24.0 models/switch_transformers/configuration_switch_transformers.py"


def _ffn_names(sublayer: int) -> dict[str, Any]:
    """The feed-forward's paths in a block whose SwitchTransformersLayerFF is ``layer.{sublayer}``."""
    mlp = f"layer.{sublayer}.mlp"
    return {"up": f"{mlp}.wi", "up_ungated": f"{mlp}.wi", "down": f"{mlp}.wo", "act": f"{mlp}.act",
            "ffn_pre_norm": f"layer.{sublayer}.layer_norm", "router": f"{mlp}.router.classifier",
            "experts_each": (f"{mlp}.experts.expert_{{e}}.wi", f"{mlp}.experts.expert_{{e}}.wo")}


NAMING = Naming(**{**{f: getattr(t5.T5_NAMING, f) for f in (
    "embed", "layer", "q", "k", "v", "o", "relative_bias", "attn_pre_norm", "cross_q", "cross_k", "cross_v", "cross_o",
    "cross_attn_norm", "final_norm", "rotary", "model_order")}, **_ffn_names(2),
    # SwitchTransformersBlock: layer.0 (SelfAttention, layer_norm), layer.1 (EncDecAttention, layer_norm), layer.2
    # (mlp: its router before its experts, then layer_norm)
    "layer_order": (t5.ATTENTION, "layer.0.layer_norm", t5.CROSS, "layer.1.layer_norm", "layer.2.mlp",
                    "layer.2.layer_norm")})
ENCODER_NAMING = (*_ffn_names(1).items(),
                  ("layer_order", (t5.ATTENTION, "layer.0.layer_norm", "layer.1.mlp", "layer.1.layer_norm")))

# transformers 5.24.0 activations.py ACT2FN less PReLU (a weight of its own) and xIELU (alpha_p and alpha_n in each
# expert's own activation module): neither is counted here
ACTIVATIONS = t5.ACTIVATIONS - {"xielu"}


def _sparse_layers(config: Mapping[str, Any], layers: int, step_key: str, count_key: str) -> tuple[int, ...]:
    """The dense blocks of a stack of ``layers`` (SwitchTransformersConfig.__post_init__, SwitchTransformersStack)."""
    step = config.get(step_key)
    if step_key not in config:
        count = config[count_key]
        if type(count) is not int:
            raise ArchitectureError(count_key, f"must be a whole number, got {count!r}")
        step = layers // count if count > 0 else layers
    elif type(step) is not int:  # (null too: the stack compares it with 0)
        raise ArchitectureError(step_key, f"must be a whole number, got {step!r}")
    return tuple(i for i in range(layers) if not (step > 0 and (i % step == 1 or step == 1)))


def _activation(config: Mapping[str, Any]) -> dict[str, Any]:
    """dense_act_fn, an ACT2FN name (SwitchTransformersDenseActDense: never gated)."""
    act = config["dense_act_fn"]
    if act not in ACTIVATIONS:
        raise ArchitectureError("dense_act_fn", f"{act!r} is not counted: one of {', '.join(sorted(ACTIVATIONS))} "
                                "(ACT2FN, less prelu and xielu, whose modules hold weights)")
    return {"hidden_act": act, "mlp_gated": False}


def _decoder(config: Mapping[str, Any]) -> dict[str, Any]:
    """The decoder's depth, its first-block table, its dense blocks; one expert per token."""
    positive("num_experts", config["num_experts"])
    layers = t5._decoder_depth(config)
    return {"num_hidden_layers": layers, "relative_bias_layers": (0,), "num_experts_per_tok": 1,
            "mlp_only_layers": _sparse_layers(config, layers, "decoder_sparse_step", "num_sparse_decoder_layers")}


def _encoder(config: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    """The encoder's dense blocks at its own depth (num_layers) and step."""
    layers = positive("num_layers", config["num_layers"])
    try:
        dense = _sparse_layers(config, layers, "encoder_sparse_step", "num_sparse_encoder_layers")
    except ArchitectureError as error:
        raise ArchitectureError(error.key, error.message, where) from None
    return {"encoder_fields": {"relative_bias_layers": (0,), "mlp_only_layers": dense}}


DEFAULTS = {"vocab_size": 32128, "d_model": 768, "d_kv": 64, "d_ff": 2048, "num_layers": 12,
            "num_decoder_layers": 12, "num_heads": 12, "relative_attention_num_buckets": 32, "num_experts": 8,
            "router_bias": False, "dense_act_fn": "relu", "tie_word_embeddings": True,
            "num_sparse_encoder_layers": 3, "num_sparse_decoder_layers": 3}

SWITCH_TRANSFORMERS = derived_from(
    t5.T5, model_type="switch_transformers", causal_lm_class="SwitchTransformersForConditionalGeneration",
    source=TF, naming=NAMING,
    keys={**t5.KEYS, "num_experts": "num_experts", "router_bias": "router_bias",
          "tie_word_embeddings": "tie_word_embeddings"},
    defaults=DEFAULTS,
    switches={key: value for key, value in t5.SWITCHES.items() if key != "tie_word_embeddings"},
    count_neutral=(t5.COUNT_NEUTRAL - {"tie_word_embeddings", "scale_decoder_outputs"}) | {
        "num_sparse_encoder_layers", "num_sparse_decoder_layers", "encoder_sparse_step", "decoder_sparse_step",
        "expert_capacity", "router_dtype", "router_ignore_padding_tokens", "router_z_loss_coef", "add_router_probs",
        "add_cross_attention"},  # (read by _decoder and _encoder; routing arithmetic; SwitchTransformersStack
    # builds its cross-attention by is_decoder alone)
    derive=(_activation, _decoder),
    seq2seq=Seq2Seq("SwitchTransformersForConditionalGeneration", {"num_layers": "num_hidden_layers"},
                    {"num_layers": 12, "num_sparse_encoder_layers": 3, "tie_word_embeddings": True},
                    shared="shared", decoder=t5.DECODER, encoder=t5.ENCODER, head_buffers=(),
                    encoder_fields={"relative_bias_layers": (0,)}, encoder_naming=ENCODER_NAMING,
                    encoder_variant=_encoder),
)

FAMILIES = [SWITCH_TRANSFORMERS]

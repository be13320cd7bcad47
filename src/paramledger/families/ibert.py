"""I-BERT (transformers 5.24.0 models/ibert): RoBERTa's tensors (families/roberta.py) under "ibert", each quantized
module beside its weights holding integer copies and activation ranges as buffers (quant_modules.py: QuantEmbedding,
QuantLinear, QuantAct, IntLayerNorm). Only in the masked-LM mapping: the reference is IBertForMaskedLM."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ._family import derived_from
from .roberta import ROBERTA, roberta_naming

EMBEDDINGS = "ibert.embeddings"
ONE = (1,)


def quant_act(path: str) -> tuple[tuple, ...]:
    """QuantAct's range and scale: x_min, x_max, act_scaling_factor, one value each, persistent."""
    return tuple((f"{path}.{name}", ONE, None, True) for name in ("x_min", "x_max", "act_scaling_factor"))


def quant_linear(path: str, rows: str, columns: str) -> tuple[tuple, ...]:
    """QuantLinear's integer weight and bias and its per-row scale, persistent."""
    return ((f"{path}.weight_integer", (rows, columns), None, True), (f"{path}.fc_scaling_factor", (rows,), None, True),
            (f"{path}.bias_integer", (rows,), None, True))


def int_layer_norm(path: str) -> tuple[tuple, ...]:
    """IntLayerNorm's shift and its QuantAct."""
    return ((f"{path}.shift", ONE, None, True), *quant_act(f"{path}.activation"))


def quant_embedding(path: str, rows: str) -> tuple[tuple, ...]:
    """QuantEmbedding's scale and integer table, persistent."""
    return ((f"{path}.weight_scaling_factor", ONE, None, True),
            (f"{path}.weight_integer", (rows, "hidden_size"), None, True))


def gelu_only(config: Mapping[str, Any]) -> dict[str, Any]:
    """hidden_act "gelu": IBertIntermediate raises ValueError on any other (modeling_ibert.py lines 382-383), and
    IBertConfig refuses null (a str field of a strict dataclass)."""
    act = config.get("hidden_act")
    if act is None:
        raise ArchitectureError("hidden_act", "null is refused by transformers 5.24.0: IBertConfig's hidden_act is a "
                                "str, and only 'gelu' builds")
    if act != "gelu":
        raise ArchitectureError("hidden_act", f"{act!r} is refused by transformers 5.24.0: IBertIntermediate supports "
                                "only 'gelu' (ValueError)")
    return {}


HIDDEN, INNER = "hidden_size", "intermediate_size"
ATTENTION, LAYER = "{layer}attention", "{layer}"
QUANT_BUFFERS = (
    (f"{EMBEDDINGS}.position_ids", (1, "max_position_embeddings"), "int64", False),
    *quant_embedding(f"{EMBEDDINGS}.word_embeddings", "vocab_size"),
    *quant_embedding(f"{EMBEDDINGS}.token_type_embeddings", "type_vocab_size"),
    *quant_embedding(f"{EMBEDDINGS}.position_embeddings", "max_position_embeddings"),
    *quant_act(f"{EMBEDDINGS}.embeddings_act1"), *quant_act(f"{EMBEDDINGS}.embeddings_act2"),
    *int_layer_norm(f"{EMBEDDINGS}.LayerNorm"), *quant_act(f"{EMBEDDINGS}.output_activation"),
    *(buffer for which in ("query", "key", "value") for buffer in
      (*quant_linear(f"{ATTENTION}.self.{which}", HIDDEN, HIDDEN), *quant_act(f"{ATTENTION}.self.{which}_activation"))),
    *quant_act(f"{ATTENTION}.self.output_activation"), *quant_act(f"{ATTENTION}.self.softmax.act"),
    *quant_linear(f"{ATTENTION}.output.dense", HIDDEN, HIDDEN), *quant_act(f"{ATTENTION}.output.ln_input_act"),
    *int_layer_norm(f"{ATTENTION}.output.LayerNorm"), *quant_act(f"{ATTENTION}.output.output_activation"),
    *quant_linear(f"{LAYER}intermediate.dense", INNER, HIDDEN), *quant_act(f"{LAYER}intermediate.output_activation"),
    *quant_linear(f"{LAYER}output.dense", HIDDEN, INNER), *quant_act(f"{LAYER}output.ln_input_act"),
    *int_layer_norm(f"{LAYER}output.LayerNorm"), *quant_act(f"{LAYER}output.output_activation"),
    *quant_act(f"{LAYER}pre_intermediate_act"), *quant_act(f"{LAYER}pre_output_act"),
)

# identical to roberta except: IBertModel under "ibert", its embeddings registered word, token types, positions,
# then LayerNorm, no token_type_ids buffer but the quantized modules' (QUANT_BUFFERS; quant_mode and force_dequant
# change none of them), BertConfig's vocab_size 30522, and only GELU (IBertIntermediate refuses any other
# hidden_act) (configuration_ibert.py)
IBERT = derived_from(
    ROBERTA, model_type="ibert", causal_lm_class="IBertForMaskedLM",
    source="transformers 5.24.0 models/ibert/configuration_ibert.py",
    naming=roberta_naming(
        "ibert", model_buffers=QUANT_BUFFERS,
        model_order=(f"{EMBEDDINGS}.word_embeddings", f"{EMBEDDINGS}.token_type_embeddings",
                     f"{EMBEDDINGS}.position_embeddings", f"{EMBEDDINGS}.LayerNorm", "ibert.encoder.layer",
                     "lm_head.bias", "lm_head.dense", "lm_head.layer_norm", "lm_head.decoder")),
    defaults={**ROBERTA.defaults, "vocab_size": 30522, "quant_mode": False, "force_dequant": "none"},
    count_neutral=ROBERTA.count_neutral | {"quant_mode", "force_dequant"},
    requires={}, expects={}, derive=(*ROBERTA.derive, gelu_only))
MASKED_LM_ONLY = [IBERT]  # only in the masked-LM mapping: its reference is AutoModelForMaskedLM's model
FAMILIES = MASKED_LM_ONLY

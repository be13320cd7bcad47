"""PEGASUS-X (transformers 5.24.0 models/pegasus_x/), counted whole as PegasusXForConditionalGeneration: BART's
model (model.shared, the encoder and the decoder tied to it, lm_head; PegasusXModel._tied_weights_keys,
modeling_pegasus_x.py line 1075) with Pegasus's pre-norm layers, and

- attention without biases (PegasusXAttention and PegasusXGlobalLocalAttention: k, v, q, out_proj bias=False,
  lines 298-301, 620-640), the feed-forward's fc1 and fc2 biased;
- sinusoidal positions computed in forward (PegasusXSinusoidalPositionalEmbedding, lines 95-120: no tensor, no
  buffer), no embedding LayerNorm, no final_logits_bias;
- the encoder's global tokens: ``embed_global`` (nn.Embedding of num_global_tokens rows, line 750, after the
  token table) and in every encoder layer a ``global_self_attn_layer_norm`` after the self-attention's
  (PegasusXEncoderLayer, lines 503-520); staggered block-local attention (block_size, stagger_local_blocks) sizes
  nothing.

transformers 5.24.0 registers no PegasusXForCausalLM: the whole model is the reference."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from . import bart
from ._family import derived_from

ENCODER = "model.encoder"
# PegasusXEncoderLayer: self_attn (k, v, q, out), self_attn_layer_norm, global_self_attn_layer_norm, fc1, fc2,
# final_layer_norm
ENCODER_LAYER_ORDER = ("self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj",
                       "self_attn_layer_norm", "global_self_attn_layer_norm", "fc1", "fc2", "final_layer_norm")
NAMING = bart._naming(
    position_offset=0, embed_norm=None, token_types=f"{bart.DECODER}.embed_global",  # (the encoder's alone)
    model_order=(f"{bart.DECODER}.embed_tokens", f"{bart.DECODER}.embed_global", f"{bart.DECODER}.layers",
                 f"{bart.DECODER}.layer_norm"))


def _global_tokens(config: Mapping[str, Any], where: str | None) -> dict[str, Any]:
    """The encoder's embed_global table (num_global_tokens rows, the token-type table's place before the layers)
    and a global_self_attn_layer_norm in every encoder layer (Seq2Seq.encoder_variant)."""
    rows = config["num_global_tokens"]
    if type(rows) is not int or rows < 0:  # (0 rows: an empty table, as nn.Embedding builds it)
        raise ArchitectureError("num_global_tokens", f"must be a whole number of zero or more, got {rows!r}", where)
    return {"encoder_fields": {"type_vocab_size": rows, "global_input_norm": True}}


WHOLE = bart._seq2seq("PegasusXForConditionalGeneration", 16, 4096, 16, head_buffers=(),
                      encoder_variant=_global_tokens, encoder_naming=(
                          ("global_input_layer_norm", "global_self_attn_layer_norm"),
                          ("layer_order", ENCODER_LAYER_ORDER)))
WHOLE = WHOLE._replace(defaults={**WHOLE.defaults, "num_global_tokens": 32})  # PegasusXConfig's

# identical to pegasus except: no bias on any attention projection, sinusoidal positions that hold no tensor, no
# final_logits_bias, PegasusXConfig's defaults (pegasus-x-large's sizes), the encoder's global tokens
# (_global_tokens), and no CausalLM
PEGASUS_X = derived_from(
    bart.PEGASUS, model_type="pegasus_x", causal_lm_class="PegasusXForConditionalGeneration",
    source=bart.TF.format("pegasus_x"), naming=NAMING, seq2seq=WHOLE,
    defaults=bart._defaults(96103, 16384, 16, 4096, 16, 1024),
    switches={**bart.PRE, "attention_bias": False, "attention_output_bias": False,
              "position_embedding_type": "sinusoidal"},
    count_neutral=bart.ENCODER_SIDE | {"block_size", "stagger_local_blocks", "num_global_tokens"},
    expects={})

FAMILIES = [PEGASUS_X]

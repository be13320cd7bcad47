"""xLSTM (transformers 5.24.0 models/xlstm, NX-AI's xLSTM-7B): every block an mLSTM and a gated FFN, each behind
an RMSNorm (parts/xlstm.py holds the whole block), an RMSNorm (out_norm, never biased) and an untied head after
them, never tied; no attention, no positions (modeling_xlstm.py xLSTMModel, lines 1394-1400; xLSTMForCausalLM, lines
1518-1522).  Counted as transformers builds it without the xlstm package (is_xlstm_available() False: its own
copy of the block, modeling_xlstm.py lines 43-1228)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from ._family import Family, same

TF = "transformers 5.24.0 models/xlstm/configuration_xlstm.py"

NAMING = Naming(embed="backbone.embeddings", layer="backbone.blocks.{i}", final_norm="backbone.out_norm", rotary=None)
WEIGHT_MODES = ("single", "fused")


def _round_up(x: float, multiple_of: int) -> int:
    """configuration_xlstm.py round_up_to_next_multiple_of (lines 49-51), float arithmetic and all."""
    return int(((x + multiple_of - 1) // multiple_of) * multiple_of)


def xlstm_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """xLSTMConfig.__post_init__: num_blocks as given, else num_hidden_layers, is the depth; the embedding is
    embedding_dim wide (None: hidden_size).  xLSTMLayer's widths are int(hidden_size × qk_dim_factor) and
    int(hidden_size × v_dim_factor); xLSTMFeedForward's is hidden_size × ffn_proj_factor rounded up to
    ffn_round_up_to_multiple_of."""
    hidden = config["hidden_size"]
    blocks = config.get("num_blocks")
    layers = blocks if blocks is not None else config["num_hidden_layers"]
    width = config.get("embedding_dim")
    if width is not None and width != hidden:  # the blocks read hidden_size wide inputs from an embedding_dim table
        raise ArchitectureError("embedding_dim", f"{width} is not hidden_size={hidden}: transformers builds the "
                                "table that wide and runs the blocks at hidden_size, a model that cannot run")
    mode = config.get("weight_mode")
    if mode not in WEIGHT_MODES:
        raise ArchitectureError("weight_mode", f"must be 'single' or 'fused', got {mode!r}"[:200])
    factors = {}
    for key in ("qk_dim_factor", "v_dim_factor", "ffn_proj_factor"):
        factor = config.get(key)
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not factor > 0:
            raise ArchitectureError(key, f"must be a positive number, got {factor!r}"[:200])
        factors[key] = factor
    multiple = config.get("ffn_round_up_to_multiple_of")
    if isinstance(multiple, bool) or not isinstance(multiple, int) or multiple < 1:
        raise ArchitectureError("ffn_round_up_to_multiple_of", f"must be a positive whole number, got {multiple!r}"
                                [:200])
    if not isinstance(hidden, int) or isinstance(layers, bool) or not isinstance(layers, int):
        return {}  # the Architecture refuses these, naming the key
    widths = {}
    for key, factor in (("xlstm_qk_dim", "qk_dim_factor"), ("xlstm_v_dim", "v_dim_factor")):
        widths[key] = int(hidden * factors[factor])
        if widths[key] < 1:  # a zero-wide projection: no head to run
            raise ArchitectureError(factor, f"{factors[factor]} × hidden_size={hidden} gives the mLSTM a width of 0")
    every = tuple(range(max(layers, 0)))
    return {"num_hidden_layers": layers, "xlstm_layers": every, "layers_without_ffn": every, **widths,
            "intermediate_size": _round_up(hidden * factors["ffn_proj_factor"], multiple),
            "xlstm_fused_projections": mode == "fused"}


FAMILIES = [] if "xlstm" not in MIXER_MODULES else [
    Family(
        model_type="xlstm",
        causal_lm_class="xLSTMForCausalLM",
        source=TF,
        naming=NAMING,
        keys=same("vocab_size", "hidden_size", "num_hidden_layers", num_heads="xlstm_num_heads",
                  use_bias="xlstm_use_bias"),
        defaults={"vocab_size": 50304, "hidden_size": 4096, "embedding_dim": None, "num_hidden_layers": 32,
                  "num_blocks": None, "num_heads": 8, "use_bias": False, "tie_word_embeddings": False,
                  "qk_dim_factor": 0.5, "v_dim_factor": 1.0, "ffn_proj_factor": 2.667,
                  "ffn_round_up_to_multiple_of": 64, "weight_mode": "single"},
        # No attention: the design's one required head count is a placeholder no tensor reads; the block holds
        # its own norms (placement none), and the model's out_norm is an RMSNorm without a bias.
        # The head is never tied, whatever tie_word_embeddings says: xLSTMForCausalLM has no _tied_weights_keys.
        switches={"tie_word_embeddings": False, "num_attention_heads": 1, "norm_type": "rmsnorm",
                  "norm_placement": "none", "position_embedding_type": "none"},
        # Read by the rule: num_blocks, embedding_dim, the three factors, the rounding and weight_mode.  The
        # rest are kernels, numerics and inference chunking; add_out_norm is not read by transformers' own
        # block (xLSTMModel always builds out_norm).
        count_neutral=frozenset({"tie_word_embeddings", "num_blocks", "embedding_dim", "qk_dim_factor", "v_dim_factor",
                                 "ffn_proj_factor", "ffn_round_up_to_multiple_of", "weight_mode", "add_out_norm",
                                 "norm_reduction_force_float32", "chunkwise_kernel", "sequence_kernel",
                                 "step_kernel", "mode", "chunk_size", "return_last_states", "autocast_kernel_dtype",
                                 "eps", "inference_state_dtype", "gate_soft_cap", "output_logit_soft_cap",
                                 "max_inference_chunksize",
                                 # NX-AI/xLSTM-7b's config.json (the xlstm package's keys): read by no line of
                                 # configuration_xlstm.py or modeling_xlstm.py (head_dim there is a local argument).
                                 "add_embedding_dropout", "add_forward_backend_padding", "add_post_blocks_norm",
                                 "add_post_norm", "add_qk_norm", "cell_norm_eps", "force_bos_token_insert",
                                 "forward_backend_name", "head_dim", "igate_bias_init_range",
                                 "mlstm_round_up_to_multiple_of", "step_backend_name"}),
        derive=(xlstm_layers,),
    ),
]

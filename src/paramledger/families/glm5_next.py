"""GLM-5-Next (Glm5NextForConditionalGeneration, transformers 5.24.0 models/glm5_next/modeling_glm5_next.py) counted
whole: GLM-OCR's vision tower under "model.visual" with its merger projection_intermediate_size wide
(towers/glm_ocr.py's glm5_next_vision), the text decoder under "model.language_model", then an untied head.

The decoder (Glm5NextTextModel, lines 1436-1450) is GLM-5's (glm_moe_dsa: DeepSeek-V3.2's MLA with a lightning
indexer on its "full" layers, DeepSeek-V3's routed and shared experts) except:
- Kimi Delta Attention on the "linear_attention" layers (Glm5NextTextLinearAttention, lines 619-661): Kimi's layout
  with A_log 1-D (parts/kda.py, kda_flat_a_log); MLA on the "indexed_attention" ones ("full_attention" read so);
- no RoPE anywhere (qk_rope_head_dim 0: validate_architecture refuses another; the model has no rotary);
- the indexer's k-pools: index_kpool_compress_ape and _gate before wq_b (parts/latent.py, index_kpool);
- two hyper-connections attn_hc, ffn_hc on every layer, after its norms (parts/stream_hyper_connections.py), and
  hc_head, a mean with no parameters;
- mlp_layer_types default: three dense layers, then sparse (no first_k_dense_replace).
transformers registers no CausalLM for glm5_next_text (only Glm5NextTextModel), so, as GLM-OCR's, its table is this
module's TEXT, read from text_config, not a family of its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..towers import Whole
from ..towers.qwen_vl import none
from . import _rules as rules
from ._family import multimodal, same
from ._tables import LLAMA_SWITCHES, ROUTING_KEYS
from .deepseek import MLA_MOE_KEYS
from .dsa import FAMILIES as DSA, glm_indexer_types

TF = "transformers 5.24.0 models/glm5_next/configuration_glm5_next.py"
GLM5 = next(family for family in DSA if family.model_type == "glm_moe_dsa")
LINEAR, INDEXED = "linear_attention", "indexed_attention"
# Glm5NextTextConfig.__post_init__ reads these from a checkpoint's linear_attn_config, over the flat keys.
SECTION = {"head_dim": "linear_head_dim", "num_heads": "linear_num_heads",
           "short_conv_kernel_size": "linear_conv_kernel_dim"}
KDA_SIZES = ("kda_num_heads", "kda_head_dim", "kda_conv_kernel_dim")

DEFAULTS = {"vocab_size": 154880, "hidden_size": 4096, "intermediate_size": 12288, "moe_intermediate_size": 2048,
            "num_hidden_layers": 45, "num_attention_heads": 64, "num_key_value_heads": 64, "n_shared_experts": 1,
            "n_routed_experts": 288, "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_rope_head_dim": 0,
            "v_head_dim": 256, "qk_nope_head_dim": 256, "num_experts_per_tok": 8, "hidden_act": "silu",
            "max_position_embeddings": 1048576, "pad_token_id": 154820, "tie_word_embeddings": False,
            "mlp_layer_types": None, "attention_bias": False, "index_topk": 2048, "index_head_dim": 128,
            "index_n_heads": 32, "layer_types": None, "indexer_types": None, "linear_head_dim": 128,
            "linear_num_heads": 64, "linear_conv_kernel_dim": 4, "hc_mult": 4, "index_kpool": 16}


def _listed(config: Mapping[str, Any], key: str, allowed: tuple[str, ...], layers: int) -> list[str] | None:
    given = config.get(key)
    if given is None:
        return None
    if not isinstance(given, (list, tuple)) or len(given) != layers or any(kind not in allowed for kind in given):
        raise ArchitectureError(key, f"must list one of {', '.join(allowed)} for each of the {layers} layers, got "
                                f"{given!r}"[:300])
    return list(given)


def glm5_next_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """Glm5NextTextConfig.__post_init__ and validate_architecture: layer_types (default KDA where i % 4 != 3, MLA
    else; "full_attention" is MLA), the KDA sizes (linear_attn_config over the flat keys), mlp_layer_types (default
    three dense layers), and the config class's refusals: num_key_value_heads = num_attention_heads, no RoPE,
    index_topk a multiple of index_kpool."""
    layers = config["num_hidden_layers"]
    types = _listed(config, "layer_types", (LINEAR, INDEXED, "full_attention"), layers)
    if types is None:
        types = [LINEAR if i % 4 != 3 else INDEXED for i in range(layers)]
    kinds = _listed(config, "mlp_layer_types", ("dense", "sparse"), layers) or (
        ["dense"] * min(3, layers) + ["sparse"] * (layers - 3))
    heads, kv_heads = config["num_attention_heads"], config.get("num_key_value_heads")
    if kv_heads is not None and kv_heads != heads:
        raise ArchitectureError("num_key_value_heads", f"{kv_heads} is not num_attention_heads={heads} "
                                "(Glm5NextTextConfig.validate_architecture)")
    if config.get("qk_rope_head_dim"):
        raise ArchitectureError("qk_rope_head_dim", f"{config['qk_rope_head_dim']!r}: GLM-5-Next's MLA has no RoPE "
                                "(Glm5NextTextConfig.validate_architecture refuses any but 0)")
    pool, topk = config.get("index_kpool"), config.get("index_topk")
    if type(pool) is int and type(topk) is int and pool > 0 and topk % pool:
        raise ArchitectureError("index_topk", f"{topk} is not a multiple of index_kpool={pool} "
                                "(Glm5NextTextConfig.validate_architecture)")
    kda = tuple(i for i, kind in enumerate(types) if kind == LINEAR)
    out: dict[str, Any] = {"kda_layers": kda, "kda_flat_a_log": bool(kda), "sliding_window": None,
                           "layer_types": (), "mlp_only_layers": tuple(i for i, kind in enumerate(kinds)
                                                                        if kind == "dense")}
    section = config.get("linear_attn_config") or {}
    if not isinstance(section, Mapping):
        raise ArchitectureError("linear_attn_config", f"must map the KDA sizes, got {section!r}"[:200])
    sizes = []
    for inner, key in SECTION.items():
        value = section.get(inner, config.get(key))
        if kda and (type(value) is not int or value <= 0):
            raise ArchitectureError(f"linear_attn_config.{inner}" if inner in section else key,
                                    f"must be a positive whole number, got {value!r}"[:200])
        sizes.append(value)
    out.update(zip(KDA_SIZES, (sizes[1], sizes[0], sizes[2]) if kda else (None,) * 3))
    # indexer_types: each indexed layer's; a KDA layer's entry is never read (it builds no Glm5NextTextAttention)
    key = next((key for key in ("indexer_types", "index_topk_pattern") if config.get(key) is not None), None)
    if key is not None:  # (glm_indexer_types drops a list without "shared"; a short one is still refused here)
        given = config[key]
        listed = [{"F": "full", "S": "shared"}.get(c, c) for c in given] if isinstance(given, str) else given
        if not isinstance(listed, (list, tuple)) or len(listed) != layers or not set(listed) <= {"full", "shared"}:
            raise ArchitectureError(key, f"must give full (F) or shared (S) for each of the {layers} layers, got "
                                    f"{given!r}"[:300])
    indexers = glm_indexer_types(config)["indexer_types"]
    indexers = tuple("full" if kind == LINEAR else own for kind, own in zip(types, indexers))
    out["indexer_types"] = indexers if "shared" in indexers else ()
    return out


# Glm5NextTextDecoderLayer registers self_attn, mlp (experts before their router), the two norms, then attn_hc and
# ffn_hc (under none of these); no rotary module; the router's score correction a buffer.
NAMING = dataclasses.replace(GLM5.naming, rotary=None,
                             layer_order=("self_attn", "mlp.experts", "mlp", "input_layernorm",
                                          "post_attention_layernorm"))

TEXT = dataclasses.replace(
    GLM5, model_type="glm5_next", causal_lm_class="", naming=NAMING, source=TF,
    keys={**MLA_MOE_KEYS,
          **same("index_n_heads", "index_head_dim", "index_topk", "index_kpool", "hc_mult")},
    defaults=DEFAULTS,
    switches={**LLAMA_SWITCHES, "position_embedding_type": "none", "stream_hyper_connections": True},
    # Read by glm5_next_layers (types, KDA sizes, indexer modes and their legacy spellings) or numerics: the
    # clamp, the KDA gate's lower bound, the Sinkhorn iterations, the tail pool's selection.
    count_neutral=ROUTING_KEYS | {"mlp_layer_types", "head_dim", "qk_head_dim", "indexer_types",
                                  "index_topk_pattern", "index_topk_freq", "index_skip_topk_offset",
                                  "linear_head_dim", "linear_num_heads", "linear_conv_kernel_dim",
                                  "linear_lower_bound", "linear_attn_config", "swiglu_limit", "hc_eps",
                                  "hc_sinkhorn_iters", "index_kpool_always_select_tail"},
    derive=(rules.must_be_set("q_lora_rank"), rules.output_bias_follows("attention_bias"), glm5_next_layers),
)

FAMILIES = [
    multimodal(TEXT, "glm5_next", f"{TF} (Glm5NextConfig, Glm5NextTextConfig, Glm5NextVisionConfig)",
               Whole({"model_type": "glm5_next_vision"}, none, vision_prefix="model.visual.",
                     tie_word_embeddings=False, vision_kind="glm5_next_vision"),
               "Glm5NextForConditionalGeneration"),
]

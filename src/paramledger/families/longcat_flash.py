"""LongCat-Flash (transformers 5.24.0 models/longcat_flash, meituan-longcat's LongCat-Flash): DeepSeek-V3's latent
attention and a gated FFN, twice per layer, with a shortcut MoE whose router scores zero-compute experts beside the
computing ones (parts/dual_sublayer.py holds the layer, parts/zero_experts.py its MoE).

LongcatFlashModel (modeling_longcat_flash.py lines 560-576): embed_tokens, num_layers layers, norm;
LongcatFlashForCausalLM: an untied lm_head by default (_tied_weights_keys ties it with tie_word_embeddings).
LongcatFlashConfig's num_hidden_layers is a property, 2 × num_layers (the cache's layers); set, it sets num_layers
to half of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_REPEAT, big
from ..naming import Naming
from ..parts import MIXER_MODULES
from ._family import Family, same
from ._tables import LLAMA_SWITCHES, ROUTING_KEYS

TF = "transformers 5.24.0 models/longcat_flash/configuration_longcat_flash.py"

# The attention's and the FFNs' names relative to their ModuleList entry (self_attn.{s}., mlps.{s}.)
NAMING = Naming(q_a="q_a_proj", q_a_norm="q_a_layernorm", q_b="q_b_proj", kv_a="kv_a_proj_with_mqa",
                kv_a_norm="kv_a_layernorm", kv_b="kv_b_proj", o="o_proj", gate="gate_proj", up="up_proj",
                down="down_proj")


def longcat_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """num_layers layers (num_hidden_layers, where the config gives it, sets num_layers = num_hidden_layers // 2 as
    LongcatFlashConfig's setter does), every one two sublayer pairs without a design FFN; qk_head_dim (None:
    qk_nope_head_dim + qk_rope_head_dim) sizes q_b_proj and must be that sum for the attention to split its heads;
    top-k routing among the computing and zero experts (at most the computing ones run)."""
    if config.get("num_key_value_heads") == 0:  # (LongcatFlashMLA: heads // num_key_value_heads, line 337)
        raise ArchitectureError("num_key_value_heads", "0: transformers 5.24.0 cannot build it (LongcatFlashMLA "
                                                       "divides the heads by it)")
    layers = config.get("num_layers")
    given = config.get("num_hidden_layers")
    if given is not None:
        if type(given) is not int or given < 2:
            raise ArchitectureError("num_hidden_layers", f"must be a whole number of 2 or more (twice num_layers), "
                                    f"got {given!r}"[:200])
        layers = given // 2
    key = "num_layers" if given is None else "num_hidden_layers"
    if type(layers) is not int or layers < 1:
        raise ArchitectureError(key, f"must be a positive whole number, got {layers!r}"[:200])
    if layers > MAX_REPEAT:  # the layer lists are enumerated (docs/limits.md)
        raise ArchitectureError(key, f"gives {big(layers)} layers, beyond the bound of {MAX_REPEAT:,} "
                                "(docs/limits.md)")
    nope, rope, qk = config.get("qk_nope_head_dim"), config.get("qk_rope_head_dim"), config.get("qk_head_dim")
    if qk is not None and type(nope) is int and type(rope) is int and qk != nope + rope:
        raise ArchitectureError("qk_head_dim", f"{qk!r} is not qk_nope_head_dim + qk_rope_head_dim = {nope + rope}: "
                                "q_b_proj is that wide but the attention splits each head into the two"[:200])
    experts, topk = config.get("n_routed_experts"), config.get("moe_topk")
    if type(topk) is not int or topk < 1:
        raise ArchitectureError("moe_topk", f"must be a positive whole number, got {topk!r}"[:200])
    every = tuple(range(layers))
    return {"num_hidden_layers": layers, "dual_sublayer_layers": every, "layers_without_ffn": every,
            "num_experts_per_tok": min(topk, experts) if type(experts) is int and experts > 0 else 0}


def _zero_experts_note(arch: Any) -> str | None:
    if not arch.zero_expert_num:
        return None
    return (f"the router picks among {arch.num_experts} experts and {arch.zero_expert_num} zero-compute ones "
            f"(identities): active parameters and FLOPs count {arch.num_experts_per_tok} computing experts a token, "
            "a bound (a token routed to a zero expert runs none there)")


FAMILIES = [] if "dual_sublayer" not in MIXER_MODULES else [
    Family(
        model_type="longcat_flash",
        causal_lm_class="LongcatFlashForCausalLM",
        source=TF,
        naming=NAMING,
        keys=same("vocab_size", "hidden_size", "num_attention_heads", "q_lora_rank", "kv_lora_rank",
                  "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "attention_bias", "tie_word_embeddings",
                  "max_position_embeddings", "hidden_act", "zero_expert_num", "router_bias",
                  ffn_hidden_size="intermediate_size",
                  n_routed_experts="num_experts", expert_ffn_hidden_size="moe_intermediate_size"),
        defaults={"vocab_size": 131072, "hidden_size": 6144, "num_layers": 28, "num_attention_heads": 64,
                  "num_key_value_heads": None, "hidden_act": "silu", "max_position_embeddings": 131072,
                  "tie_word_embeddings": False, "attention_bias": False, "ffn_hidden_size": 12288,
                  "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                  "head_dim": 64, "v_head_dim": 128, "qk_head_dim": None, "moe_topk": 12, "n_routed_experts": 512,
                  "zero_expert_num": 256, "expert_ffn_hidden_size": 2048, "router_bias": False},
        # The layer holds its own FFNs and norms (placement none); the FFNs are gated, never biased (LongcatFlashMLP
        # reads no mlp_bias).  router_bias is no LongcatFlashConfig field: LongcatFlashTopkRouter reads it by getattr.
        switches={**LLAMA_SWITCHES, "norm_placement": "none"},
        # head_dim: the rotary's width (the forward pass needs it equal to qk_rope_head_dim); num_key_value_heads:
        # only a group count for MLA; moe_topk and routed_scaling_factor: routing; num_layers, num_hidden_layers and
        # qk_head_dim: read by the rule (no key is the depth field's: at another depth the layer lists repeat);
        # mlp_bias: not read
        # mla_scale_q_lora, mla_scale_kv_lora: the release's (remote code's) switches for the latents' scaling, which
        # LongcatFlashMLA always applies (lines 362-363): numerics
        count_neutral=ROUTING_KEYS | {"head_dim", "num_key_value_heads", "moe_topk", "routed_scaling_factor",
                                      "num_layers", "num_hidden_layers", "qk_head_dim", "mlp_bias", "mla_scale_q_lora",
                                      "mla_scale_kv_lora"},
        # the release's remote-code keys that transformers never reads, with the value that describes what it builds
        # (MLA attention; the zero experts are identities, LongcatFlashExperts' nn.Identity)
        expects={"attention_method": "mla", "zero_expert_type": "identity"},
        derive=(longcat_layers,),
        explain=(_zero_experts_note,),
    ),
]

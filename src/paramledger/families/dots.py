"""dots.llm1 (rednote hi lab): DeepSeek-V3's expert layout (the first first_k_dense_replace layers
dense, then routed experts plus n_shared_experts shared ones) over Qwen3's attention (per-head
q/k RMSNorms, GQA).  The router's e_score_correction_bias is a buffer, not a parameter."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, EXPERTS_FIRST, LLAMA_SWITCHES, ROUTING_KEYS

FAMILIES = [
    Family(
        model_type="dots1",
        causal_lm_class="Dots1ForCausalLM",
        naming=Naming(router_score_bias="mlp.gate.e_score_correction_bias", layer_order=EXPERTS_FIRST),
        source="transformers 5.24.0 models/dots1/configuration_dots1.py",
        # head_dim is no field of Dots1Config, but Dots1Attention reads it when a config.json
        # carries it (getattr(config, "head_dim", hidden_size // heads)).
        keys={**DECODER_KEYS, **same("head_dim", "attention_bias", "moe_intermediate_size", "n_shared_experts"),
              "n_routed_experts": "num_experts", "num_local_experts": "num_experts"},  # attribute_map
        defaults={"vocab_size": 152064, "hidden_size": 4608, "intermediate_size": 10944,
                  "moe_intermediate_size": 1408, "num_hidden_layers": 62, "num_attention_heads": 32,
                  "num_key_value_heads": 32, "n_shared_experts": None, "n_routed_experts": None,
                  "num_experts_per_tok": None, "first_k_dense_replace": 0, "hidden_act": "silu",
                  "max_position_embeddings": 2048, "tie_word_embeddings": False, "attention_bias": False,
                  "sliding_window": 4096, "max_window_layers": 62, "layer_types": None},
        switches={**LLAMA_SWITCHES, "qk_norm": "head"},
        count_neutral=ROUTING_KEYS | {"first_k_dense_replace", "n_group", "topk_group"},
        # Dots1Config leaves both expert counts None; Dots1Experts and Dots1MoE then fail
        # (torch.empty(None, ...), moe_intermediate_size * None): a config must give them.
        derive=(rules.must_be_set("n_routed_experts"), rules.must_be_set("n_shared_experts"),
                rules.output_bias_follows("attention_bias"), rules.top_k_or_all, rules.first_k_dense,
                # Dots1Config: with a sliding_window, the layers from max_window_layers on slide.
                rules.sliding_except(lambda i, config: i < config["max_window_layers"])),
    ),
]

"""Key tables and switches shared by many families (each family still lists its own)."""

from __future__ import annotations

from ._family import same

# The keys nearly every decoder config spells the Hugging Face way.
DECODER_KEYS = same("vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
                    "num_key_value_heads", "max_position_embeddings", "tie_word_embeddings", "hidden_act")

# Llama's block: RMSNorm before attention and before a gated (SwiGLU) FFN, RoPE.
LLAMA_SWITCHES = {"mlp_gated": True, "norm_type": "rmsnorm", "norm_placement": "pre",
                  "position_embedding_type": "rope"}
# Llama's switches for a family whose config says whether it rotates (a rule reads it): no position fixed
POSITION_BY_RULE = {key: value for key, value in LLAMA_SWITCHES.items() if key != "position_embedding_type"}

# transformers 5's MoE blocks that register their fused experts before the router (DeepseekV3MoE,
# Qwen3MoeSparseMoeBlock, ...): Naming.layer_order for a layer with the attention under self_attn.
EXPERTS_FIRST = ("self_attn", "mlp.experts")

# Config keys of mixture-of-experts families that only steer routing, never a tensor.
ROUTING_KEYS = frozenset({"num_experts_per_tok", "router_aux_loss_coef", "output_router_logits", "norm_topk_prob"})

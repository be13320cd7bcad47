"""Phi-3: Llama's block with fused qkv_proj and gate_up_proj tensors."""

from ..naming import Naming
from . import _rules as rules
from ._family import Family, same
from ._tables import DECODER_KEYS, LLAMA_SWITCHES

FAMILIES = [
    Family(
        model_type="phi3",
        causal_lm_class="Phi3ForCausalLM",
        source="transformers 5.24.0 models/phi3/configuration_phi3.py",
        naming=Naming(qkv="self_attn.qkv_proj", gate_up="mlp.gate_up_proj"),
        keys={**DECODER_KEYS, **same("head_dim")},  # modeling_phi3.py reads head_dim with getattr
        defaults={"vocab_size": 32064, "hidden_size": 3072, "intermediate_size": 8192, "num_hidden_layers": 32,
                  "num_attention_heads": 32, "num_key_value_heads": None, "hidden_act": "silu",
                  "max_position_embeddings": 4096, "tie_word_embeddings": False, "sliding_window": None},
        switches=LLAMA_SWITCHES,
        derive=(rules.sliding_all,),
    ),
]

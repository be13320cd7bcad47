"""Hypothesis strategies for random valid architectures (every axis the engine has)."""

from __future__ import annotations

from hypothesis import strategies as st

from paramledger import Architecture


@st.composite
def architectures(draw, moe: bool | None = None, mla: bool | None = None) -> Architecture:
    heads = draw(st.integers(1, 8))
    kv_heads = draw(st.sampled_from([h for h in range(1, heads + 1) if heads % h == 0]))
    head_dim = draw(st.integers(1, 16))
    explicit_head_dim = draw(st.booleans())
    hidden = heads * head_dim if not explicit_head_dim else draw(st.integers(1, 96))
    layers = draw(st.integers(1, 5))
    values = dict(
        vocab_size=draw(st.integers(1, 500)),
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        head_dim=head_dim if explicit_head_dim else None,
        intermediate_size=draw(st.integers(1, 128)),
        mlp_gated=draw(st.booleans()),
        attention_bias=draw(st.booleans()),
        attention_output_bias=draw(st.booleans()),
        mlp_bias=draw(st.booleans()),
        lm_head_bias=draw(st.booleans()),
        norm_type=draw(st.sampled_from(["rmsnorm", "layernorm", "layernorm_nobias", "nonparametric"])),
        norm_placement=draw(st.sampled_from(["pre", "post", "sandwich", "parallel", "none"])),
        qk_norm=draw(st.sampled_from(["none", "head", "full"])),
        final_norm=draw(st.booleans()),
        position_embedding_type=draw(st.sampled_from(["rope", "learned", "alibi", "sinusoidal", "none"])),
        max_position_embeddings=draw(st.integers(1, 256)),
        tie_word_embeddings=draw(st.booleans()),
        attention_sinks=draw(st.booleans()),
    )
    if moe if moe is not None else draw(st.booleans()):
        experts = draw(st.integers(1, 8))
        values.update(
            num_experts=experts,
            num_experts_per_tok=draw(st.integers(1, experts)),
            moe_intermediate_size=draw(st.integers(1, 64)),
            n_shared_experts=draw(st.integers(0, 2)),
            shared_expert_gate=draw(st.booleans()),
            router_bias=draw(st.booleans()),
            mlp_only_layers=tuple(sorted(draw(st.sets(st.integers(0, layers - 1), max_size=layers)))),
        )
    if mla if mla is not None else draw(st.booleans()):
        values.update(
            q_lora_rank=draw(st.one_of(st.none(), st.integers(1, 32))),
            kv_lora_rank=draw(st.integers(1, 32)),
            qk_nope_head_dim=draw(st.integers(1, 16)),
            qk_rope_head_dim=draw(st.integers(0, 16)),
            v_head_dim=draw(st.integers(1, 16)),
        )
    return Architecture.from_mapping(values, "hypothesis")


@st.composite
def small_decoder(draw, ffn_max: int = 64) -> dict:
    """A multimodal model's small text_config: vocab, width, depth, heads, KV heads dividing them, often a
    head_dim apart, the FFN width (up to ``ffn_max``), tying."""
    heads = draw(st.sampled_from([1, 2, 4]))
    config = {"vocab_size": draw(st.integers(4, 300)), "num_hidden_layers": draw(st.integers(1, 3)),
              "num_attention_heads": heads, "hidden_size": heads * draw(st.sampled_from([2, 4, 8])),
              "num_key_value_heads": draw(st.sampled_from([k for k in (1, 2, 4) if heads % k == 0])),
              "intermediate_size": draw(st.integers(1, ffn_max)), "tie_word_embeddings": draw(st.booleans())}
    if draw(st.booleans()):
        config["head_dim"] = draw(st.sampled_from([2, 4, 10]))
    return config


"""GLM-5-Next's parts against transformers 5.24.0's modules built alone (modeling_glm5_next.py): the KDA mixer
(Glm5NextTextLinearAttention), the k-pool indexer (Glm5NextTextIndexer) and the hyper-connections
(Glm5NextTextHyperConnection); the whole model's cache after a real forward pass at float32 and bfloat16 (the KDA
recurrent state float32 whatever the dtype); the count at the defaults; its refusals, one line each naming the key.
tests/test_families.py checks the whole model tensor by tensor (tests/_family_configs_glm5.py)."""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest
from _part_reference import module_tensors, part_tensors
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.cli import main
from paramledger.kvcache import kv_cache
from paramledger.naming import LLAMA
from paramledger.parts._collector import Collector
from paramledger.parts.kda import KimiDeltaAttention
from paramledger.parts.latent import PooledIndexer
from paramledger.parts.stream_hyper_connections import SUBLAYER, StreamHyperConnections

pytest.importorskip("transformers")

TOTAL, TENSORS = 313_786_889_214, 1_567  # Glm5NextForConditionalGeneration at Glm5NextConfig()'s defaults
TEXT = {"model_type": "glm5_next_text", "num_hidden_layers": 4, "hidden_size": 16, "intermediate_size": 8,
        "moe_intermediate_size": 4, "n_routed_experts": 3, "num_experts_per_tok": 2, "num_attention_heads": 2,
        "num_key_value_heads": 2, "kv_lora_rank": 4, "q_lora_rank": 6, "v_head_dim": 3, "qk_nope_head_dim": 5,
        "index_head_dim": 4, "index_n_heads": 2, "index_topk": 24, "index_kpool": 4, "linear_head_dim": 2,
        "linear_num_heads": 3, "vocab_size": 50, "pad_token_id": 0, "hc_mult": 2}
VISION = {"model_type": "glm5_next_vision", "depth": 1, "hidden_size": 8, "num_heads": 2, "intermediate_size": 6,
          "out_hidden_size": 10, "projection_intermediate_size": 7}
SMALL = {"model_type": "glm5_next", "text_config": TEXT, "vision_config": VISION}

sizes = st.fixed_dictionaries({"heads": st.integers(1, 4), "head_dim": st.sampled_from([2, 4, 8]),
                               "hidden": st.integers(1, 24), "kernel": st.integers(2, 4), "pool": st.integers(1, 4),
                               "index_heads": st.integers(1, 3), "index_dim": st.integers(1, 8),
                               "q_rank": st.integers(1, 8), "streams": st.integers(1, 4)})


def _text_config(drawn: dict):
    from transformers import Glm5NextTextConfig

    return Glm5NextTextConfig(hidden_size=drawn["hidden"], num_hidden_layers=1, linear_num_heads=drawn["heads"],
                              linear_head_dim=drawn["head_dim"], linear_conv_kernel_dim=drawn["kernel"],
                              index_kpool=drawn["pool"], index_topk=drawn["pool"] * 8,
                              index_n_heads=drawn["index_heads"], index_head_dim=drawn["index_dim"],
                              q_lora_rank=drawn["q_rank"], hc_mult=drawn["streams"], vocab_size=8, pad_token_id=0)


@settings(max_examples=25, deadline=None)
@given(drawn=sizes)
def test_parts_are_the_modules_in_their_order(drawn):
    import torch
    from transformers.models.glm5_next import modeling_glm5_next as glm

    config = _text_config(drawn)
    with torch.device("meta"):
        kda = glm.Glm5NextTextLinearAttention(config, 0)
        indexer = glm.Glm5NextTextIndexer(config, 0)
        streams = glm.Glm5NextTextHyperConnection(config)
    part = KimiDeltaAttention(drawn["hidden"], drawn["heads"], drawn["head_dim"], drawn["kernel"], False, True)
    assert part_tensors(part) == module_tensors("self_attn.", kda)
    pooled = PooledIndexer(drawn["index_heads"], drawn["index_dim"], drawn["pool"])
    c = Collector(LLAMA, "rmsnorm")
    pooled.tensors(c, drawn["hidden"], drawn["q_rank"])
    assert [(t.name, t.shape) for t in c.tensors] == module_tensors("self_attn.indexer.", indexer)
    hyper = part_tensors(StreamHyperConnections(drawn["hidden"], drawn["streams"]))
    assert hyper[:3] == module_tensors("attn_hc.", streams) and hyper[3:] == module_tensors("ffn_hc.", streams)


def test_the_kda_state_is_what_transformers_holds_at_both_dtypes():
    """Three KDA layers and one indexed layer with its k-pool indexer, a real forward pass: the latent and the
    indexer's packed keys (key, gate scores, valid flag) per token, and the KDA conv state at the model's dtype
    beside its recurrent state in float32."""
    import torch
    from transformers import AutoModelForImageTextToText, Glm5NextConfig

    arch = paramledger.load(SMALL)
    config = Glm5NextConfig(text_config={k: v for k, v in TEXT.items() if k != "model_type"},
                            vision_config={k: v for k, v in VISION.items() if k != "model_type"})
    for dtype, name in ((torch.float32, "fp32"), (torch.bfloat16, "bf16")):
        torch.manual_seed(0)
        model = AutoModelForImageTextToText.from_config(config, dtype=dtype, experts_implementation="eager").eval()
        ids = torch.randint(1, TEXT["vocab_size"], (2, 7), generator=torch.Generator().manual_seed(1))
        with torch.no_grad():
            cache = model(ids, use_cache=True).cache
        held = sum(layer.keys.nbytes + layer.values.nbytes + layer.indexer_keys.nbytes
                   for layer in cache.layers if hasattr(layer, "indexer_keys"))
        states = sum(state.nbytes for layer in cache.layers
                     for states in (getattr(layer, "conv_states", {}), getattr(layer, "recurrent_states", {}))
                     for state in states.values() if state is not None)
        ours = kv_cache(arch, 7, 2, name)
        assert (ours.bytes, ours.state_bytes) == (held, states)
    assert kv_cache(arch, 7, 2, "bf16").state_bytes == 3 * 2 * (2 * 3 * 6 * 4 + 4 * 3 * 2 * 2)


def test_defaults_count_through_the_cli(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "glm5_next"}))
    assert main(["count", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == TOTAL
    inv = paramledger.inventory(paramledger.load({"model_type": "glm5_next"}))
    assert len(inv.tensors) == TENSORS
    assert sum(math.prod(t.shape) for t in inv.tensors) == TOTAL
    assert main(["count", str(path), "--text-only", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == TOTAL - 410_524_160 - 49_548_288  # less tower, merger


@pytest.mark.parametrize("text, message", [
    ({"index_kpool": 0}, "text_config.index_kpool: must be positive"),
    ({"index_kpool": 5}, "text_config.index_topk: 2048 is not a multiple of index_kpool=5"),
    ({"qk_rope_head_dim": 8}, "text_config.qk_rope_head_dim: 8: GLM-5-Next's MLA has no RoPE"),
    ({"num_key_value_heads": 3}, "text_config.num_key_value_heads: 3 is not num_attention_heads=64"),
    ({"hc_mult": 0}, "text_config.hc_mult: must be positive"),
    ({"linear_num_heads": -1}, "text_config.linear_num_heads: must be a positive whole number"),
    ({"linear_attn_config": {"head_dim": 0}}, "text_config.linear_attn_config.head_dim: must be a positive"),
    ({"layer_types": ["x"]}, "text_config.layer_types: must list one of linear_attention"),
    ({"mlp_layer_types": ["dense"]}, "text_config.mlp_layer_types: must list one of dense, sparse"),
    ({"indexer_types": ["full"]}, "text_config.indexer_types: must give full"),
    ({"index_topk_pattern": "FX"}, "text_config.index_topk_pattern: must give full"),
    ({"q_lora_rank": None}, "text_config.q_lora_rank: missing"),
])
def test_bad_keys_are_refused_in_one_line(text, message):
    with pytest.raises(ArchitectureError, match=message) as caught:
        paramledger.load({"model_type": "glm5_next", "text_config": text})
    assert "\n" not in str(caught.value)


def test_bad_tower_size_is_refused():
    with pytest.raises(ArchitectureError, match="vision_config.projection_intermediate_size: must be a positive"):
        paramledger.inventory(paramledger.load({"model_type": "glm5_next",
                                                "vision_config": {"projection_intermediate_size": 0}}))


def test_the_hyper_connections_need_their_streams():
    design = SimpleNamespace(hc_mult=None, hyper_gate_beside_attention=False)
    with pytest.raises(ArchitectureError, match="hc_mult: required with stream_hyper_connections"):
        SUBLAYER.check(design, "spec.yaml")


@pytest.mark.parametrize("pool, kinds", [(1, ["indexed_attention"] * 3), (3, ["indexed_attention"] * 3),
                                         (4, ["linear_attention", "indexed_attention", "linear_attention"])])
def test_decoding_flops_are_what_torch_counts(pool, kinds):
    """Three layers (one dense FFN, two sparse), eager attention and experts, one decoded token: the weights, the
    hyper-connections' comb mixing, the indexer's scores of the whole pools and the attention over every key
    (index_topk at least the context: eager attention computes every key and masks the rest); a KDA layer's
    recurrence no matmul, its depthwise conv counted twice by causal_conv1d_update's torch path (two outputs, the
    last kept: tests/test_compute.py's conv_fallback_flops for the Gated DeltaNet), once by ours."""
    import torch
    from torch.utils.flop_counter import FlopCounterMode
    from transformers import AutoModelForImageTextToText, Glm5NextConfig

    from paramledger.compute import forward_flops_per_token

    text = {**TEXT, "num_hidden_layers": 3, "index_kpool": pool, "index_topk": 24 // pool * pool + pool,
            "layer_types": kinds, "mlp_layer_types": ["dense", "sparse", "sparse"]}
    arch = paramledger.load({**SMALL, "text_config": text})
    config = Glm5NextConfig(text_config={k: v for k, v in text.items() if k != "model_type"},
                            vision_config={k: v for k, v in VISION.items() if k != "model_type"})
    torch.manual_seed(0)
    model = AutoModelForImageTextToText.from_config(config, attn_implementation="eager",
                                                    experts_implementation="eager").eval()
    for context in (2, 5, 9, 17):
        ids = torch.randint(1, TEXT["vocab_size"], (1, context), generator=torch.Generator().manual_seed(context))
        with torch.no_grad():
            out = model(ids[:, :-1], use_cache=True)
            with FlopCounterMode(display=False) as counter:
                model(ids[:, -1:], cache=out.cache, use_cache=True)
        ours = forward_flops_per_token(paramledger.inventory(arch), context)
        conv = 3 * TEXT["linear_num_heads"] * TEXT["linear_head_dim"] * 4  # (3 × inner, 1, 4): the default kernel
        assert counter.get_total_flops() == ours.total + ours.mla_expansion_flops + kinds.count(
            "linear_attention") * 2 * conv

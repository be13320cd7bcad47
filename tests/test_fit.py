"""fit: each sharding rule derived by hand, the consistency of max_context and of the per-device weights."""

from __future__ import annotations

import pytest

import paramledger
from paramledger._exceptions import OptionError
from paramledger.fit import fit_plan, get_gpu, plan_json
from paramledger.fit.sharding import Parallel, Rules, pad_vocab_size, pipeline_stages, shard_shape
from paramledger.memory import weight_bytes

H100 = 81559 * 2**20  # nvidia-smi's total, what the catalog sizes an H100 by


@pytest.fixture(scope="module")
def llama70b():
    return paramledger.inventory("Llama-3.1-70B")


def _shapes(inv, tp, name):
    arch = inv.architecture
    from paramledger.naming import LLAMA

    rules = Rules(inv, LLAMA)
    t = inv[name]
    return shard_shape(t, rules.rule(t), arch, Parallel(tp), 0)


def test_column_and_row_parallel_split_by_hand(llama70b):
    # q_proj (8192 × 8192) column-parallel: 64 heads / 8 = 8 heads × 128 rows; o_proj row-parallel: its columns
    assert _shapes(llama70b, 8, "model.layers.0.self_attn.q_proj.weight") == (1024, 8192)
    assert _shapes(llama70b, 8, "model.layers.0.self_attn.o_proj.weight") == (8192, 1024)
    assert _shapes(llama70b, 8, "model.layers.0.mlp.gate_proj.weight") == (28672 // 8, 8192)
    assert _shapes(llama70b, 8, "model.layers.0.mlp.down_proj.weight") == (8192, 28672 // 8)
    assert _shapes(llama70b, 8, "model.layers.0.input_layernorm.weight") == (8192,)  # replicated


def test_kv_heads_split_then_replicated_when_tp_exceeds_them(llama70b):
    # 8 KV heads × 128: tp 4 gives 2 heads (256 rows); tp 16 one head each (128 rows), replicated twice
    assert _shapes(llama70b, 4, "model.layers.0.self_attn.k_proj.weight") == (256, 8192)
    assert _shapes(llama70b, 16, "model.layers.0.self_attn.v_proj.weight") == (128, 8192)


def test_vocabulary_padded_to_64_then_split():
    assert pad_vocab_size(50257) == 50304 and pad_vocab_size(128256) == 128256
    inv = paramledger.inventory("gpt2")
    from paramledger import families

    rules = Rules(inv, families.get("gpt2").naming)
    table = next(t for t in inv.tensors if t.component == "embedding")
    assert shard_shape(table, rules.rule(table), inv.architecture, Parallel(2), 0) == (50304 // 2, 768)
    plan = fit_plan(inv, gpu_memory=24 * 10**9, suggest=False)
    assert plan.weights_extra["vocabulary padding"] == (50304 - 50257) * 768 * 2  # bf16 rows


def test_pipeline_stages_as_get_pp_indices():
    assert pipeline_stages(80, 3) == [(0, 27), (27, 54), (54, 80)]  # the remainder before the last stage
    assert pipeline_stages(16, 3) == [(0, 5), (5, 11), (11, 16)]
    assert pipeline_stages(11, 4) == [(0, 3), (3, 6), (6, 9), (9, 11)]
    assert pipeline_stages(10, 2, (6, 4)) == [(0, 6), (6, 10)]
    with pytest.raises(OptionError, match="does not match"):
        pipeline_stages(10, 2, (6, 5))


def test_first_stage_holds_the_table_last_the_head_and_final_norm(llama70b):
    plan = fit_plan(llama70b, gpu_memory=H100, pp=2, context=4096, suggest=False)
    whole = weight_bytes(llama70b, "bf16")
    layer = (whole.parameters - whole.by_component["embedding"] - whole.by_component["lm_head"] - 8192 * 2) // 80
    first, last = plan.devices
    rotary = whole.by_component["buffers"]  # RoPE's two float32 tables, built on each device
    assert first.weights_bytes == whole.by_component["embedding"] + 40 * layer + rotary
    assert last.weights_bytes == whole.by_component["lm_head"] + 8192 * 2 + 40 * layer + rotary


def test_tied_table_copied_to_the_last_stage():
    inv = paramledger.inventory("Llama-3.2-1B")
    plan = fit_plan(inv, gpu_memory=24 * 10**9, pp=2, context=4096, suggest=False)
    assert plan.weights_extra["tied table's copy on the last stage"] == 128256 * 2048 * 2


def test_experts_split_by_ep_with_the_remainder_first():
    inv = paramledger.inventory("Mixtral-8x7B-v0.1")
    from paramledger import families

    rules = Rules(inv, families.get(inv.architecture.model_type).naming)
    experts = next(t for t in inv.tensors if t.experts)
    assert experts.shape[0] == 8
    parallel = Parallel(tp=3, expert_parallel=True)  # 8 experts over 3: 3, 3, 2
    assert [shard_shape(experts, rules.rule(experts), inv.architecture, parallel, r)[0] for r in range(3)] == [3, 3, 2]
    tp_only = shard_shape(experts, rules.rule(experts), inv.architecture, Parallel(tp=2), 0)
    assert tp_only[0] == 8 and sorted(tp_only[1:]) == sorted((4096, experts.shape[1] * experts.shape[2] // 4096 // 2))


def test_mla_latent_cache_is_not_split_by_tp():
    one = fit_plan("DeepSeek-V3", gpu_memory=10**13, tp=1, dtype="fp8_e4m3", context=4096, suggest=False)
    eight = fit_plan("DeepSeek-V3", gpu_memory=10**13, tp=8, dtype="fp8_e4m3", context=4096, suggest=False)
    # 61 layers × (512 + 64) latent values × 4096 tokens × 1 byte, on every device
    assert one.devices[0].kv_cache_bytes == eight.devices[0].kv_cache_bytes == 61 * 576 * 4096


def test_kv_cache_in_paged_blocks_and_replicated_kv_heads(llama70b):
    # 80 layers × 2 × 8 heads × 128 × 2 bytes per token; 100 tokens take 7 blocks of 16 = 112
    plan = fit_plan(llama70b, gpu_memory=10**12, context=100, suggest=False)
    assert plan.devices[0].kv_cache_bytes == 112 * 80 * 2 * 8 * 128 * 2
    plan16 = fit_plan(llama70b, gpu_memory=10**12, tp=16, context=100, suggest=False)
    assert plan16.devices[0].kv_cache_bytes == 112 * 80 * 2 * 1 * 128 * 2  # one KV head per device


def test_per_device_weights_are_the_whole_plus_the_replicated_tensors(llama70b):
    tp = 4
    plan = fit_plan(llama70b, gpu_memory=10**12, tp=tp, context=4096, suggest=False)
    # the norms (bf16) and RoPE's two float32 tables, which every device builds
    replicated = sum(t.count for t in llama70b.tensors if t.component == "norm") * 2 + 2 * 4 * 64
    assert plan.weights_extra["replicated tensors"] == replicated * (tp - 1)
    assert sum(d.weights_bytes for d in plan.devices) == plan.weights_bytes + replicated * (tp - 1)
    assert plan.weights_bytes == weight_bytes(llama70b, "bf16").total


def test_max_context_fits_and_one_block_more_does_not(llama70b):
    plan = fit_plan(llama70b, gpu="h100", dtype="int4", batch=4, suggest=False)
    assert plan.max_context_limit == "memory" and plan.max_context % 16 == 0
    assert fit_plan(llama70b, gpu="h100", dtype="int4", batch=4, context=plan.max_context, suggest=False).fits
    assert not fit_plan(llama70b, gpu="h100", dtype="int4", batch=4, context=plan.max_context + 16,
                        suggest=False).fits


def test_max_batch_fits_and_one_more_does_not(llama70b):
    plan = fit_plan(llama70b, gpu="h100", dtype="int4", context=32768, batch=4, suggest=False)
    best = plan.max_batch
    assert fit_plan(llama70b, gpu="h100", dtype="int4", context=32768, batch=best, suggest=False).fits
    assert not fit_plan(llama70b, gpu="h100", dtype="int4", context=32768, batch=best + 1, suggest=False).fits


def test_seed_example_does_not_fit_one_h100_once_overhead_counts(llama70b):
    # memory says weights + KV cache = 79.33 GB: under 80, but not under an H100 once the runtime is counted
    plan = fit_plan(llama70b, gpu="h100", dtype="int4", context=32768, batch=4)
    device = plan.devices[0]
    assert device.weights_bytes + device.kv_cache_bytes == 79_328_927_872 + 2 * 4 * 64  # and RoPE's buffers
    assert get_gpu("H100").memory_bytes == H100
    assert not plan.fits and device.total_bytes > H100
    assert any(s.startswith("--tp 2") for s in plan.suggestions)
    assert fit_plan(llama70b, gpu="h100", dtype="int4", context=32768, batch=4, tp=2, suggest=False).fits


def test_expert_parallel_must_span_the_tp_devices():
    with pytest.raises(OptionError, match="ep = tp = 4"):
        fit_plan("Mixtral-8x7B-v0.1", gpu="h100", tp=4, ep=2)


def test_training_fit_reuses_the_recipes_with_zero(llama70b):
    from paramledger.training import training_memory

    plan = fit_plan(llama70b, gpu="h100", gpus=8, training="bf16-mixed-adam", zero=3)
    expected = training_memory(llama70b, "bf16-mixed-adam", 3, 8)
    assert plan.devices[0].total_bytes == expected.total + 500 * 2**20 + 400 * 2**20
    assert not plan.fits and plan.max_context is None


def test_training_fit_with_lora():
    plan = fit_plan("Llama-3.2-1B", gpu="rtx-4090", training="bf16-mixed-adam", lora="r=16,target_modules=q_proj+v_proj",
                    dtype="nf4")
    assert plan.fits and plan.devices[0].optimizer_bytes == 1_703_936 * 12


def test_a_kda_recurrent_state_is_paged_in_float32_as_vllm_keeps_it():
    """vLLM keeps KDA's recurrent state in float32 whatever the cache dtype (layers/mamba/mamba_utils.py
    kda_state_dtype, mamba_ssm_cache_dtype "auto"), as transformers does: fit's state is memory's at tp 1 (it once
    priced it at bf16: 24,084,480 bytes for Kimi Linear's defaults, where 46,104,576 are held), split by tp."""
    from paramledger.kvcache import kv_cache
    from paramledger.reference import default_config

    arch = paramledger.load(default_config("kimi_linear"))
    held = kv_cache(arch, 4096, 1, "bf16").state_bytes
    assert held == 46_104_576
    for tp in (1, 2):
        plan = plan_json(fit_plan(arch, gpu="h100", gpus=tp, tp=tp, context=4096))
        assert plan["per_device"][0]["recurrent_state_bytes"] == held // tp

"""fit for whole multimodal models: each tower tensor split as vLLM 0.33.0 splits it (mm_encoder_tp_mode "weights"),
the components vLLM never loads left out, the towers on the first pipeline stage (fit/towers.py)."""

from __future__ import annotations

import json
import math

import pytest

import paramledger
from paramledger.cli import main
from paramledger.fit import fit_plan
from paramledger.fit.sharding import Parallel, Rules, pipeline_stages, shard_shape, stage_of

from _fit_ranks import check_sums, ranks

H100 = 81559 * 2**20


@pytest.fixture(scope="module")
def qwen25vl():
    return paramledger.inventory("Qwen2.5-VL-7B-Instruct")


@pytest.fixture(scope="module")
def gemma3():
    return paramledger.inventory("gemma-3-4b-it")


@pytest.fixture(scope="module")
def llava():
    return paramledger.inventory("llava-1.5-7b-hf")


def _ranks(inv, tp):
    return ranks(inv, tp)


def _check_sums(placed, prefix, tp):
    return check_sums(placed, prefix, tp, ("column", "row", "tower_qkv"), skip_absent=False)


@pytest.mark.parametrize("tp", [2, 4])
def test_qwen2_5_vl_tower_split_by_hand(qwen25vl, tp):
    ranks, rules = _ranks(qwen25vl, tp)
    block = "model.visual.blocks.0."
    # Qwen2_5_VisionAttention: qkv a QKVParallelLinear over 16 heads × 80; proj row-parallel, its bias whole
    assert ranks[block + "attn.qkv.weight"][1][0] == (3840 // tp, 1280)
    assert ranks[block + "attn.qkv.bias"][1][0] == (3840 // tp,)
    assert ranks[block + "attn.proj.weight"][1][0] == (1280, 1280 // tp)
    assert ranks[block + "attn.proj.bias"][0] == "replicated"
    # Qwen2_5_VisionMLP: gate_up a MergedColumnParallelLinear, down_proj row-parallel
    assert ranks[block + "mlp.gate_proj.weight"][1][0] == (3420 // tp, 1280)
    assert ranks[block + "mlp.down_proj.weight"][1][0] == (1280, 3420 // tp)
    # the patch merger: mlp.0 column, mlp.2 row; ln_q and the Conv3d patch embedding whole
    assert ranks["model.visual.merger.mlp.0.weight"][1][0] == (5120 // tp, 5120)
    assert ranks["model.visual.merger.mlp.2.weight"][1][0] == (3584, 5120 // tp)
    assert ranks["model.visual.patch_embed.proj.weight"][0] == "replicated"
    assert ranks["model.visual.blocks.0.norm1.weight"][0] == "replicated"
    assert _check_sums(ranks, "model.visual.", tp) == {"column", "row", "tower_qkv", "replicated"}
    assert rules.unclassified == []


@pytest.mark.parametrize("tp", [2, 4])
def test_gemma3_siglip_tower_split_projector_whole(gemma3, tp):
    ranks, rules = _ranks(gemma3, tp)
    layer = "model.vision_tower.encoder.layers.0."
    for name in ("q_proj", "k_proj", "v_proj"):  # one QKVParallelLinear (siglip.py SiglipAttention)
        assert ranks[layer + f"self_attn.{name}.weight"][1][0] == (1152 // tp, 1152)
    assert ranks[layer + "self_attn.out_proj.weight"][1][0] == (1152, 1152 // tp)
    assert ranks[layer + "mlp.fc1.weight"][1][0] == (4304 // tp, 1152)
    assert ranks[layer + "mlp.fc2.weight"][1][0] == (1152, 4304 // tp)
    # Gemma3MultiModalProjector: an nn.Parameter and a GemmaRMSNorm, whole on every rank
    assert ranks["model.multi_modal_projector.mm_input_projection_weight"][0] == "replicated"
    assert ranks["model.vision_tower.post_layernorm.weight"][0] == "replicated"  # every layer built: kept
    assert _check_sums(ranks, "model.vision_tower.", tp) == {"column", "row", "tower_qkv", "replicated"}
    assert _check_sums(ranks, "model.multi_modal_projector.", tp) == {"replicated"}
    assert rules.unclassified == []


@pytest.mark.parametrize("tp", [2, 4])
def test_llava_clip_tower_and_projector_split(llava, tp):
    ranks, rules = _ranks(llava, tp)
    layer = "model.vision_tower.encoder.layers.0."
    assert ranks[layer + "self_attn.q_proj.weight"][1][0] == (1024 // tp, 1024)
    assert ranks[layer + "mlp.fc1.weight"][1][0] == (4096 // tp, 1024)
    assert ranks[layer + "mlp.fc2.weight"][1][0] == (1024, 4096 // tp)
    # LlavaMultiModalProjector: linear_1 column, linear_2 row
    assert ranks["model.multi_modal_projector.linear_1.weight"][1][0] == (4096 // tp, 1024)
    assert ranks["model.multi_modal_projector.linear_2.weight"][1][0] == (4096, 4096 // tp)
    assert ranks["model.multi_modal_projector.linear_2.bias"][0] == "replicated"
    assert ranks["model.vision_tower.embeddings.class_embedding"][0] == "replicated"
    # vision_feature_layer -2: layers 0-22 of 24 built, the last and post_layernorm never loaded
    assert ranks["model.vision_tower.encoder.layers.22.mlp.fc1.weight"][0] == "column"
    assert ranks["model.vision_tower.encoder.layers.23.mlp.fc1.weight"][0] == "absent"
    assert ranks["model.vision_tower.post_layernorm.weight"][0] == "absent"
    built = {name: value for name, value in ranks.items() if value[0] != "absent"}
    assert _check_sums(built, "model.vision_tower.", tp) == {"column", "row", "tower_qkv", "replicated"}
    assert _check_sums(built, "model.multi_modal_projector.", tp) == {"column", "row", "replicated"}
    assert rules.unclassified == []


@pytest.mark.parametrize(("name", "tp"), [("Qwen2.5-VL-7B-Instruct", 2), ("gemma-3-4b-it", 4),
                                          ("llava-1.5-7b-hf", 2), ("Qwen3-VL-8B-Instruct", 4), ("Qwen3.5-9B", 2),
                                          ("Mistral-Small-3.1-24B-Instruct-2503", 4), ("LFM2.5-VL-1.6B", 2),
                                          ("granite-docling-258M", 1), ("blip2-opt-2.7b", 4),
                                          ("gemma-4-31B-it", 2), ("EXAONE-4.5-33B", 8),
                                          ({"model_type": "llava_next"}, 2),
                                          ({"model_type": "llava_onevision"}, 2), ({"model_type": "paligemma"}, 2),
                                          ({"model_type": "idefics3"}, 2), ({"model_type": "qwen2_vl"}, 2),
                                          ({"model_type": "internvl"}, 2), ({"model_type": "llama4"}, 4),
                                          ({"model_type": "smolvlm"}, 2), ({"model_type": "llava_next_video"}, 2),
                                          ({"model_type": "qwen2_audio"}, 2), ({"model_type": "glm4v"}, 4),
                                          ({"model_type": "cohere2_vision"}, 4), ({"model_type": "aria"}, 2)])
def test_devices_hold_the_model_plus_what_is_replicated_less_what_is_not_loaded(name, tp):
    source = paramledger.inventory(name) if isinstance(name, dict) else name
    plan = fit_plan(source, gpu_memory=H100, tp=tp, context=2048, suggest=False)
    held = sum(d.weights_bytes for d in plan.devices)
    left = sum(size for _, size, _ in plan.not_loaded)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values()) - left
    assert plan.unclassified == ()


def test_qwen2_5_vl_tower_no_longer_whole_on_each_rank(qwen25vl):
    plan = fit_plan(qwen25vl, gpu="l4", tp=2, suggest=False)
    # was 1,353,509,536 bytes: the 676M-parameter tower whole on both ranks; now its Conv3d, norms and row biases
    assert plan.weights_extra["replicated tensors"] < 10_000_000


def test_llava_layers_past_the_feature_layer_not_loaded(llava):
    plan = fit_plan(llava, gpu_memory=H100, tp=1, context=4096, suggest=False)
    (label, size, source), = plan.not_loaded
    layer = 4 * (1024 * 1024 + 1024) + 2 * (4096 * 1024) + 4096 + 1024 + 4 * 1024  # one CLIP layer's parameters
    assert size == (layer + 2 * 1024) * 2  # layer 23 and post_layernorm, bf16
    assert "vision_feature_layer" in label and "llava.py init_vision_tower_for_llava" in source


def test_towers_on_the_first_pipeline_stage(qwen25vl):
    from paramledger import families

    naming = families.naming_of(qwen25vl.architecture)
    stages = pipeline_stages(28, 2)
    tower = [t for t in qwen25vl.tensors if t.name.startswith("model.visual.")]
    assert tower and all(stage_of(t, naming, stages) == (0,) for t in tower)


def test_text_only_keeps_the_decoder_alone(capsys):
    code = main(["fit", "Qwen2.5-VL-7B-Instruct", "--gpu", "l4", "--tp", "2", "--text-only", "--json"])
    data = json.loads(capsys.readouterr().out)
    whole = fit_plan("Qwen2.5-VL-7B-Instruct", gpu="l4", tp=2, suggest=False)
    assert code == 0 and data["unclassified_tensors"] == [] and data["not_loaded"] == []
    assert not any(a["name"] == "multimodal encoder sharding" for a in data["assumptions"])
    assert data["weights_bytes"] < whole.weights_bytes


def _config(tmp_path, config):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    return str(path)


def test_omni_talker_and_token2wav_not_loaded(tmp_path, capsys):
    code = main(["fit", _config(tmp_path, {"model_type": "qwen2_5_omni"}), "--gpu", "h100", "--tp", "2",
                 "--context", "4096", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    left = {entry["component"]: entry for entry in data["not_loaded"]}
    assert set(left) == {"talker", "token2wav"} and all(entry["bytes"] > 10**9 or entry["component"] == "token2wav"
                                                        for entry in left.values())
    assert "registry.py maps Qwen2_5OmniModel" in left["talker"]["source"]
    assert any(a["name"] == "multimodal encoder sharding" and a["value"] == "weights" for a in data["assumptions"])
    plan = fit_plan(_config(tmp_path, {"model_type": "qwen2_5_omni"}), gpu="h100", tp=2, context=4096,
                    suggest=False)
    held = sum(d.weights_bytes for d in plan.devices)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values()) - sum(s for _, s, _ in plan.not_loaded)
    main(["fit", _config(tmp_path, {"model_type": "qwen2_5_omni"}), "--gpu", "h100", "--tp", "2", "--context", "4096"])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("not loaded by vLLM")]
    assert len(lines) == 1 and "talker" in lines[0] and "registry.py" in lines[0]


def test_a_tower_with_no_rule_is_listed(capsys):
    # Voxtral's Whisper encoder: vLLM makes its position table in float32 (whisper.py init_in_fp32), and at pp > 1
    # builds its layers by make_layers (by stage) in a tower held on stage 0 alone: neither priced, each listed
    plan = fit_plan("Voxtral-Mini-3B-2507", gpu="h100", tp=2, context=2048, suggest=False)
    assert plan.unclassified == ("model.audio_tower.embed_positions.weight",)
    plan = fit_plan("Voxtral-Mini-3B-2507", gpu="h100", tp=2, pp=2, context=2048, suggest=False)
    assert "model.audio_tower.conv1.weight" in plan.unclassified
    assert not any(name.startswith("model.language_model.") for name in plan.unclassified)
    main(["fit", "Voxtral-Mini-3B-2507", "--gpu", "h100", "--tp", "2", "--pp", "2", "--context", "2048"])
    assert f"{len(plan.unclassified)} tensors with no sharding rule are held whole" in capsys.readouterr().out


@pytest.mark.parametrize(("config", "argv", "message"), [
    # CLIP at 768 wide, 12 heads: tp 8 splits the decoder's 32 but not the tower's (QKVParallelLinear: divide())
    ({"model_type": "llava", "vision_config": {"model_type": "clip_vision_model", "hidden_size": 768,
                                               "num_attention_heads": 12, "intermediate_size": 3072}},
     ["--tp", "8"], r"--tp: 8 does not divide the 12 attention heads of the tower at model.vision_tower"),
    ({"model_type": "llava", "vision_feature_layer": 30}, [], r"vision_feature_layer: 30 needs 30 layers of the "
                                                             r"24-layer vision tower; vLLM refuses it"),
    ({"model_type": "llava", "vision_feature_layer": "last"}, [], r"vision_feature_layer: must be a layer index"),
    ({"model_type": "llava", "vision_feature_layer": []}, [], r"vision_feature_layer: must be a layer index"),
])
def test_bad_input_one_line_exit_2(tmp_path, capsys, config, argv, message):
    import re

    code = main(["fit", _config(tmp_path, config), "--gpu", "h100", "--context", "4096", *argv])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and re.search(message, err), err


@pytest.mark.parametrize(("name", "said"), [("Llama-3.2-90B-Vision-Instruct", "MllamaForConditionalGeneration"),
                                            ("Bamba-9B", "BambaForCausalLM"), ("Llama-3.1-8B", None)])
def test_an_architecture_vllm_no_longer_runs_is_said(name, said):
    notes = fit_plan(name, gpu="h100", tp=2, context=2048, suggest=False).notes
    retired = [note for note in notes if "_PREVIOUSLY_SUPPORTED_MODELS" in note]
    assert (retired == []) if said is None else (len(retired) == 1 and f"refuses {said}" in retired[0])


def test_exaone4_5_grouped_tower_qkv_replicates_its_kv_heads_past_tp():
    from paramledger import families

    inv = paramledger.inventory({"model_type": "exaone4_5", "vision_config": {"num_key_value_heads": 2}})
    rules = Rules(inv, families.naming_of(inv.architecture))
    rules.towers.tp = 4
    t = inv["model.visual.blocks.0.attn.qkv.weight"]  # 16 heads + 2 × 2 KV heads, of 224 rows each
    assert t.shape == (4480, 3584)
    # EXAONE4_5_VisionAttention: 16 / 4 query heads and max(1, 2 // 4) = 1 KV head each of k and v on every rank
    assert shard_shape(t, rules.rule(t), inv.architecture, Parallel(4), 0) == (224 * (4 + 2), 3584)
    plan = fit_plan(inv, gpu="h100", tp=4, context=2048, suggest=False)
    held = sum(d.weights_bytes for d in plan.devices)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values()) and plan.unclassified == ()


def test_llava_siglip_pooling_head_not_loaded():
    # transformers' SiglipVisionModel builds the head (vision_use_head True); vLLM's use_head=False does not
    inv = paramledger.inventory({"model_type": "llava", "vision_config": {"model_type": "siglip_vision_model"}})
    head = sum(math.prod(t.shape) for t in inv.tensors if t.name.startswith("model.vision_tower.head."))
    plan = fit_plan(inv, gpu="h100", tp=2, context=2048, suggest=False)
    left = {label: (size, source) for label, size, source in plan.not_loaded}
    assert head and left["vision tower pooling head"][0] == 2 * head and "siglip.py" in left[
        "vision tower pooling head"][1]
    assert plan.unclassified == ()


def test_llava_feature_layer_before_the_first_builds_no_tower_layer():
    # get_layer_index(-30, 24) = -5: vLLM builds range(-5), no layer (it does not refuse it)
    plan = fit_plan(paramledger.inventory({"model_type": "llava", "vision_feature_layer": -30}), gpu="h100",
                    context=2048, suggest=False)
    (label, size, _), = plan.not_loaded
    layer = 4 * (1024 * 1024 + 1024) + 2 * (4096 * 1024) + 4096 + 1024 + 4 * 1024
    assert size == (24 * layer + 2 * 1024) * 2

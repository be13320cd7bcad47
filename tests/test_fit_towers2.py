"""fit for the towers and encoders fit/tower_tables_more.py classifies: each tensor split as its vLLM 0.33.0 class
splits it (the shapes by hand), the shards of a split tensor summing to it and a whole one held tp times, and nothing
left unclassified."""

from __future__ import annotations

import json
import math
import re

import pytest

import paramledger
from paramledger.cli import main
from paramledger.fit import fit_plan

from _fit_ranks import check_sums, ranks

H100 = 81559 * 2**20


def _ranks(inv, tp, layers=False):
    return ranks(inv, tp, layers)


def _check_sums(placed, prefix, tp):
    return check_sums(placed, prefix, tp, ("column", "row", "tower_qkv", "tower_rows"), skip_absent=True)


def _inv(model_type, **config):
    return paramledger.inventory({"model_type": model_type, **config})


@pytest.mark.parametrize("tp", [2])
def test_whisper_encoder_and_cross_attention_split(tp):
    # whisper-tiny (WhisperConfig's defaults): 6 heads, 384 wide
    inv = _inv("whisper")
    ranks, rules = _ranks(inv, tp, layers=True)
    enc = "model.encoder.layers.0."
    # WhisperAttention: q/k/v one QKVParallelLinear, out_proj row; WhisperMLP fc1 column, fc2 row
    assert ranks[enc + "self_attn.q_proj.weight"][1][0] == (384 // tp, 384)
    assert ranks[enc + "self_attn.out_proj.weight"][1][0] == (384, 384 // tp)
    assert ranks[enc + "self_attn.out_proj.bias"][0] == "replicated"
    assert ranks[enc + "fc1.weight"][1][0] == (1536 // tp, 384)
    assert ranks[enc + "fc2.weight"][1][0] == (384, 1536 // tp)
    # the convs, norms and (WhisperModel: not init_in_fp32) the sinusoid table whole
    for name in ("conv1.weight", "conv2.weight", "embed_positions.weight", "layer_norm.weight"):
        assert ranks["model.encoder." + name][0] == "replicated"
    # WhisperDecoder: embed_tokens a plain nn.Embedding, whole; WhisperCrossAttention q column, k/v merged column,
    # out_proj row
    assert ranks["model.decoder.embed_tokens.weight"][0] == "replicated"
    dec = "model.decoder.layers.0.encoder_attn."
    assert ranks[dec + "q_proj.weight"][1][0] == (384 // tp, 384)
    assert ranks[dec + "k_proj.weight"][1][0] == (384 // tp, 384)
    assert ranks[dec + "v_proj.bias"][1][0] == (384 // tp,)
    assert ranks[dec + "out_proj.weight"][1][0] == (384, 384 // tp)
    assert _check_sums(ranks, "model.encoder.", tp) == {"column", "row", "tower_qkv", "replicated"}
    cross = {name: value for name, value in ranks.items() if ".encoder_attn." in name}
    assert _check_sums(cross, "model.decoder.layers.", tp) == {"column", "row", "replicated"}
    assert rules.unclassified == []


def test_granite_speech_conformer_split_projector_whole():
    ranks, rules = _ranks(_inv("granite_speech"), 2)
    layer = "model.encoder.layers.0."
    # GraniteSpeechConformerFeedForward: up_proj column, down_proj row; the attention and conv module plain torch
    assert ranks[layer + "ff1.up_proj.weight"][1][0] == (2048, 1024)
    assert ranks[layer + "ff2.down_proj.weight"][1][0] == (1024, 2048)
    assert ranks[layer + "ff2.down_proj.bias"][0] == "replicated"
    for name in ("attn.to_q.weight", "attn.to_kv.weight", "attn.rel_pos_emb.weight", "conv.up_conv.weight",
                 "conv.batch_norm.weight", "post_norm.weight"):
        assert ranks[layer + name][0] == "replicated", name
    # the CTC head: out column (42 rows), out_mid row
    assert ranks["model.encoder.out.weight"][1][0] == (21, 1024)
    assert ranks["model.encoder.out_mid.weight"][1][0] == (1024, 21)
    assert ranks["model.encoder.input_linear.weight"][0] == "replicated"
    assert _check_sums(ranks, "model.encoder.", 2) == {"column", "row", "replicated"}
    assert _check_sums(ranks, "model.projector.", 2) == {"replicated"}  # Blip2QFormerModel, nn.Linear, query
    assert rules.unclassified == []


def test_granite_speech_tp_that_does_not_divide_the_ctc_head_is_refused(tmp_path, capsys):
    # out is a ColumnParallelLinear of output_dim 42 rows: tp 4 does not divide it (vLLM: divide())
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "granite_speech"}))
    code = main(["fit", str(path), "--gpu", "h100", "--tp", "4", "--context", "2048"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "model.encoder.out.weight" in err


@pytest.mark.parametrize("model_type", ["minicpmv4_6", "minicpmv4_7", "minicpm_ocr"])
def test_minicpmv_tower_and_window_merger_split(model_type):
    ranks, rules = _ranks(_inv(model_type), 2)
    tower = "model.vision_tower."
    assert ranks[tower + "encoder.layers.0.self_attn.k_proj.weight"][1][0] == (384, 768)
    assert ranks[tower + "encoder.layers.0.mlp.fc2.weight"][1][0] == (768, 1536)
    # MiniCPMV4_6ViTWindowAttentionMerger: its attention split, its MLP plain nn.Linear
    assert ranks[tower + "vit_merger.self_attn.q_proj.weight"][1][0] == (384, 768)
    assert ranks[tower + "vit_merger.self_attn.out_proj.weight"][1][0] == (768, 384)
    assert ranks[tower + "vit_merger.linear_1.weight"][0] == "replicated"
    assert ranks[tower + "post_layernorm.weight"][0] == "replicated"
    assert _check_sums(ranks, tower, 2) == {"column", "row", "tower_qkv", "replicated"}
    assert _check_sums(ranks, "model.merger.", 2) == {"replicated"}  # MiniCPMV4_6DownsampleMLP: plain torch
    assert rules.unclassified == []


@pytest.mark.parametrize(("model_type", "dropped"), [("minicpmv4_6", True), ("minicpm_ocr", True),
                                                      ("minicpmv4_7", False)])
def test_minicpmv_drop_vision_last_layer(model_type, dropped):
    inv = _inv(model_type, drop_vision_last_layer=True)
    plan = fit_plan(inv, gpu_memory=H100, tp=2, context=2048, suggest=False)
    last = sum(math.prod(t.shape) for t in inv.tensors if t.name.startswith("model.vision_tower.encoder.layers.11."))
    held = sum(d.weights_bytes for d in plan.devices)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values()) - sum(s for _, s, _ in plan.not_loaded)
    if dropped:  # minicpmv4_6.py:1232; 4.7 keeps every layer (minicpmv4_7.py:129)
        (label, size, source), = plan.not_loaded
        assert label == "vision tower last layer" and size == 2 * last and "minicpmv4_6.py:1232" in source
    else:
        assert plan.not_loaded == ()


def test_minicpmv_drop_vision_last_layer_must_be_a_flag(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "minicpmv4_6", "drop_vision_last_layer": "yes"}))
    code = main(["fit", str(path), "--gpu", "h100", "--context", "2048"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "drop_vision_last_layer: must be true or false" in err


@pytest.mark.parametrize("tp", [2, 4])
def test_molmo2_tower_and_adapter_split(tp):
    ranks, rules = _ranks(_inv("molmo2"), tp)
    layer = "model.vision_tower.layers.0."
    assert ranks[layer + "self_attn.v_proj.weight"][1][0] == (1152 // tp, 1152)
    assert ranks[layer + "self_attn.o_proj.weight"][1][0] == (1152, 1152 // tp)
    assert ranks[layer + "mlp.fc1.weight"][1][0] == (4304 // tp, 1152)
    assert ranks["model.vision_tower.positional_embedding"][0] == "replicated"
    assert ranks["model.vision_tower.patch_embedding.weight"][0] == "replicated"  # an nn.Linear
    # ImagePoolingAttention: q column, k/v merged column, o row; ImageProjectorMLP gate/up merged column, down row
    adapter = "model.multi_modal_projector."
    assert ranks[adapter + "image_pooling_2d.k_proj.weight"][1][0] == (1152 // tp, 2304)
    assert ranks[adapter + "image_pooling_2d.o_proj.weight"][1][0] == (1152, 1152 // tp)
    assert ranks[adapter + "image_projector.up_proj.weight"][1][0] == (18944 // tp, 1152)
    assert ranks[adapter + "image_projector.down_proj.weight"][1][0] == (3584, 18944 // tp)
    assert _check_sums(ranks, "model.vision_tower.", tp) == {"column", "row", "tower_qkv", "tower_rows", "replicated"}
    assert _check_sums(ranks, adapter, tp) == {"column", "row", "replicated"}
    assert rules.unclassified == []


@pytest.mark.parametrize("tp", [2, 4])
def test_paddleocr_vl_siglip_split_projector_whole(tp):
    ranks, rules = _ranks(_inv("paddleocr_vl"), tp)
    layer = "model.visual.vision_model.encoder.layers.0."
    assert ranks[layer + "self_attn.q_proj.weight"][1][0] == (1152 // tp, 1152)
    assert ranks[layer + "self_attn.out_proj.weight"][1][0] == (1152, 1152 // tp)
    assert ranks[layer + "mlp.fc1.weight"][1][0] == (4304 // tp, 1152)
    assert ranks["model.visual.vision_model.embeddings.patch_embedding.weight"][0] == "replicated"
    assert _check_sums(ranks, "model.visual.", tp) == {"column", "row", "tower_qkv", "replicated"}
    assert _check_sums(ranks, "model.projector.", tp) == {"replicated"}  # Projector (mlp_AR): plain torch
    assert rules.unclassified == []


@pytest.mark.parametrize(("model_type", "tp"), [("whisper", 2), ("granite_speech", 2), ("granite_speech_plus", 2),
                                                ("minicpmv4_6", 4), ("minicpmv4_7", 2), ("minicpm_ocr", 2),
                                                ("molmo2", 4), ("paddleocr_vl", 2)])
def test_devices_hold_the_model_plus_what_is_replicated_and_nothing_is_unclassified(model_type, tp):
    plan = fit_plan(_inv(model_type), gpu_memory=H100, tp=tp, context=2048, suggest=False)
    held = sum(d.weights_bytes for d in plan.devices)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values()) - sum(s for _, s, _ in plan.not_loaded)
    assert plan.unclassified == ()


@pytest.mark.parametrize(("model_type", "cls"), [("whisper", "WhisperForConditionalGeneration"),
                                                 ("paddleocr_vl", "PaddleOCRVLForConditionalGeneration")])
def test_pipeline_stages_refused_where_vllm_has_no_supports_pp(tmp_path, capsys, model_type, cls):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": model_type}))
    code = main(["fit", str(path), "--gpu", "h100", "--pp", "2", "--context", "2048"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert re.search(rf"--pp: 2 stages: vLLM refuses them .*{cls} does not implement SupportsPP", err), err


def test_whisper_encoder_heads_tp_must_divide(tmp_path, capsys):
    # encoder_attention_heads 6 but decoder 8: tp 4 splits the decoder's heads, not the encoder's (whisper.py:173)
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "whisper", "decoder_attention_heads": 8, "d_model": 384}))
    code = main(["fit", str(path), "--gpu", "h100", "--tp", "4", "--context", "448"])
    err = capsys.readouterr().err
    assert code == 2 and "6 attention heads of the tower at model.encoder" in err, err


@pytest.mark.parametrize("model_type", ["gemma4", "gemma4_text", "gemma3n"])
def test_gemma_per_layer_inputs_split_as_vllm_builds_them(model_type):
    inv = _inv(model_type)
    ranks, rules = _ranks(inv, 2, layers=True)
    top = next(name for name in ranks if name.endswith("embed_tokens_per_layer.weight"))
    rows, cols = inv[top].shape
    # VocabParallelEmbedding: padded to 64 rows, split; per_layer_model_projection a ColumnParallelLinear
    assert ranks[top][0] == "vocab" and ranks[top][1][0] == (-(-rows // 64) * 64 // 2, cols)
    projection = top.replace("embed_tokens_per_layer", "per_layer_model_projection")
    assert ranks[projection][1][0] == (inv[projection].shape[0] // 2, inv[projection].shape[1])
    layer = top.replace("embed_tokens_per_layer.weight", "layers.0.")
    for name in ("per_layer_input_gate.weight", "per_layer_projection.weight"):  # ReplicatedLinear
        assert ranks[layer + name][0] == "replicated"
    if model_type == "gemma3n":  # the laurel block: linear_left column, linear_right row
        assert ranks[layer + "laurel.linear_left.weight"][0] == "column"
        assert ranks[layer + "laurel.linear_right.weight"][0] == "row"
        # altup.correct_output_scale: an nn.Parameter vLLM makes in float32 (gemma3n.py:122): listed, not priced
        assert {re.sub(r"\.\d+\.", ".N.", name) for name in rules.unclassified} == {
            "model.layers.N.altup.correct_output_scale"}
    else:
        assert rules.unclassified == []


def test_gemma4_per_layer_table_no_longer_whole_on_each_rank():
    plan = fit_plan(_inv("gemma4"), gpu_memory=H100, tp=2, context=2048, suggest=False)
    # was 4,133,435,456 bytes: the 262,144 x 7,680 per-layer table whole on both ranks
    assert plan.weights_extra["replicated tensors"] < 100_000_000 and plan.unclassified == ()


def test_lfm2_vl_tower_with_a_pooling_head_refused(tmp_path, capsys):
    # Siglip2VisionConfig's vision_use_head defaults to true; vLLM's Siglip2Model builds no head and its loader
    # refuses the weights: one line naming the key; without the head every tensor is classified
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "lfm2_vl"}))
    code = main(["fit", str(path), "--gpu", "h100", "--tp", "2", "--context", "2048"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "vision_config.vision_use_head: true" in err
    plan = fit_plan(_inv("lfm2_vl", vision_config={"vision_use_head": False}), gpu_memory=H100, tp=2, context=2048,
                    suggest=False)
    assert plan.unclassified == ()


def test_audioflamingo3_encoder_and_projector_whole():
    # AudioFlamingo3Encoder is transformers' Qwen2AudioEncoder as it is; its projector two nn.Linear
    ranks, rules = _ranks(_inv("audioflamingo3"), 2)
    assert _check_sums(ranks, "model.audio_tower.", 2) == {"replicated"}
    assert _check_sums(ranks, "model.multi_modal_projector.", 2) == {"replicated"}
    assert rules.unclassified == []


@pytest.mark.parametrize(("kv_heads", "tp", "kv_rows"), [(None, 2, 640), (2, 4, 64), (4, 2, 128)])
def test_glmasr_encoder_split_its_kv_heads_replicated_past_tp(kv_heads, tp, kv_rows):
    audio = {} if kv_heads is None else {"num_key_value_heads": kv_heads}
    ranks, rules = _ranks(_inv("glmasr", audio_config=audio), tp)
    layer = "model.audio_tower.layers.0."
    # GlmAsrEncoderAttention: one QKVParallelLinear with num_key_value_heads (20 heads of 64 at the defaults)
    assert ranks[layer + "self_attn.q_proj.weight"][1][0] == (1280 // tp, 1280)
    assert ranks[layer + "self_attn.k_proj.weight"][1][0] == (kv_rows, 1280)
    assert ranks[layer + "self_attn.v_proj.bias"][1][0] == (kv_rows,)
    assert ranks[layer + "self_attn.o_proj.weight"][1][0] == (1280, 1280 // tp)
    assert ranks[layer + "mlp.fc1.weight"][1][0] == (5120 // tp, 1280)
    assert ranks["model.audio_tower.conv1.weight"][0] == "replicated"
    # GlmAsrMultiModalProjector: linear_1 column, linear_2 row
    assert ranks["model.multi_modal_projector.linear_1.weight"][1][0] == (4096 // tp, 5120)
    assert ranks["model.multi_modal_projector.linear_2.weight"][1][0] == (2048, 4096 // tp)
    assert rules.unclassified == []
    plan = fit_plan(_inv("glmasr", audio_config=audio), gpu_memory=H100, tp=tp, context=2048, suggest=False)
    held = sum(d.weights_bytes for d in plan.devices)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values()) and plan.unclassified == ()
    if kv_heads == 2:  # k and v: 2 KV heads of 64 rows, one on each of 4 ranks: 128 more rows each held (v's bias
        # too; k has none), in 32 layers, bf16
        assert plan.weights_extra["replicated KV heads"] == 32 * (2 * 128 * 1280 + 128) * 2


def test_qwen3_asr_encoder_split_projector_whole():
    ranks, rules = _ranks(_inv("qwen3_asr"), 2)
    layer = "model.audio_tower.layers.0."
    assert ranks[layer + "self_attn.q_proj.weight"][1][0] == (512, 1024)  # 16 heads: tp 2 divides them
    assert ranks[layer + "fc2.weight"][1][0] == (1024, 2048)
    assert ranks["model.audio_tower.conv_out.weight"][0] == "replicated"  # ReplicatedLinear
    assert _check_sums(ranks, "model.multi_modal_projector.", 2) == {"replicated"}  # proj1/proj2 ReplicatedLinear
    assert rules.unclassified == []


def test_glm_ocr_tower_split():
    ranks, rules = _ranks(_inv("glm_ocr"), 2)
    block = "model.visual.blocks.0."
    assert ranks[block + "attn.qkv.weight"][1][0] == (1536, 1024)  # QKVParallelLinear over 16 heads
    assert ranks[block + "attn.proj.weight"][1][0] == (1024, 512)
    assert ranks[block + "attn.q_norm.weight"][0] == "replicated"  # RMSNorm
    assert ranks[block + "mlp.gate_proj.weight"][1][0] == (2048, 1024)
    assert ranks["model.visual.merger.proj.weight"][1][0] == (768, 1536)  # Glm4vPatchMerger: proj column
    assert ranks["model.visual.merger.down_proj.weight"][1][0] == (1536, 2304)
    assert ranks["model.visual.downsample.weight"][0] == "replicated"  # Conv2dLayer
    assert _check_sums(ranks, "model.visual.", 2) == {"column", "row", "tower_qkv", "replicated"}
    assert rules.unclassified == []


def test_lighton_ocr_pixtral_tower_and_mistral3_projector():
    ranks, rules = _ranks(_inv("lighton_ocr"), 2)
    layer = "model.vision_encoder.transformer.layers.0."
    assert ranks[layer + "attention.q_proj.weight"][1][0] == (512, 1024)
    assert ranks[layer + "feed_forward.down_proj.weight"][1][0] == (1024, 2048)
    assert ranks["model.vision_projection.linear_1.weight"][1][0] == (512, 1024)
    assert ranks["model.vision_projection.patch_merger.merging_layer.weight"][0] == "replicated"
    assert _check_sums(ranks, "model.vision_encoder.", 2) == {"column", "row", "tower_qkv", "replicated"}
    assert rules.unclassified == []
    # init_vision_tower_for_mistral3: layers up to vision_feature_layer (-2: 23 of 24 built)
    plan = fit_plan(_inv("lighton_ocr", vision_feature_layer=-2), gpu_memory=H100, tp=2, context=2048, suggest=False)
    (label, size, source), = plan.not_loaded
    layer_params = 4 * 1024 * 1024 + 3 * 4096 * 1024 + 2 * 1024  # q/k/v/o, gate/up/down, the two RMSNorms
    assert label.startswith("vision tower layers past vision_feature_layer") and size == 2 * layer_params


def test_moss_transcribe_diarize_whisper_encoder_split_adaptor_whole():
    ranks, rules = _ranks(_inv("moss_transcribe_diarize"), 2)
    layer = "model.audio_tower.layers.0."
    assert ranks[layer + "self_attn.v_proj.weight"][1][0] == (512, 1024)
    assert ranks[layer + "fc1.weight"][1][0] == (2048, 1024)
    assert ranks["model.audio_tower.embed_positions.weight"][0] == "replicated"  # no init_in_fp32: at the dtype
    assert _check_sums(ranks, "model.multi_modal_projector.", 2) == {"replicated"}
    assert rules.unclassified == []
    # at pp > 1 the encoder's layers are split by stage inside a tower held on stage 0: listed, as Voxtral's
    plan = fit_plan(_inv("moss_transcribe_diarize"), gpu_memory=H100, tp=2, pp=2, context=2048, suggest=False)
    assert plan.unclassified and all(name.startswith("model.audio_tower.") for name in plan.unclassified)


@pytest.mark.parametrize(("select_layer", "kept"), [(None, 24), (-2, 23), (3, 4)])
def test_qianfan_ocr_intern_vit_split_up_to_select_layer(select_layer, kept):
    config = {} if select_layer is None else {"select_layer": select_layer}
    inv = _inv("qianfan_ocr", **config)
    ranks, rules = _ranks(inv, 2)
    layer = "model.vision_tower.layers.0."
    # InternParallelAttention: 16 heads, tp 2 divides them: q/k/v one QKVParallelLinear, projection row
    assert ranks[layer + "attention.q_proj.weight"][1][0] == (512, 1024)
    assert ranks[layer + "attention.projection_layer.weight"][1][0] == (1024, 512)
    assert ranks[layer + "mlp.fc2.weight"][1][0] == (1024, 2048)
    assert ranks[layer + "lambda_1"][0] == "replicated"
    assert _check_sums(ranks, "model.multi_modal_projector.", 2) == {"replicated"}
    assert rules.unclassified == []
    built = {int(name.split(".")[3]) for name, value in ranks.items()
             if name.startswith("model.vision_tower.layers.") and value[0] != "absent"}
    assert built == set(range(kept))


def test_qianfan_ocr_heads_tp_does_not_divide_keep_the_attention_whole():
    # internvl: (heads + dummy heads) % tp != 0 sets disable_tp on the attention alone; the MLP is split all the same
    ranks, rules = _ranks(_inv("qianfan_ocr", vision_config={"num_attention_heads": 8, "hidden_size": 1024}), 16)
    layer = "model.vision_tower.layers.0."
    assert ranks[layer + "attention.q_proj.weight"][0] == "replicated"
    assert ranks[layer + "mlp.fc1.weight"][1][0] == (256, 1024)


@pytest.mark.parametrize(("source", "said"), [({"model_type": "t5"}, "T5ForConditionalGeneration"),
                                              ("mt5-base", "MT5ForConditionalGeneration"),
                                              ({"model_type": "ovis2"}, "Ovis2ForConditionalGeneration"),
                                              ({"model_type": "whisper"}, None), ({"model_type": "molmo2"}, None)])
def test_a_class_vllm_does_not_run_is_said(source, said):
    inv = paramledger.inventory(source)
    notes = fit_plan(inv, gpu="h100", tp=1, context=512, suggest=False).notes
    absent = [note for note in notes if "names no such architecture" in note]
    assert (absent == []) if said is None else (len(absent) == 1 and f"does not run {said}" in absent[0])


def test_cohere_compass_qwen3_style_tower_split():
    ranks, rules = _ranks(_inv("cohere_compass"), 2)
    block = "model.visual.blocks.0."
    assert ranks[block + "attn.qkv.weight"][1][0] == (1728, 1152)
    assert ranks[block + "mlp.linear_fc2.weight"][1][0] == (1152, 2152)
    assert ranks["model.visual.deepstack_merger_list.0.linear_fc1.weight"][1][0] == (2304, 4608)
    assert ranks["model.visual.pos_embed.weight"][0] == "replicated"
    assert _check_sums(ranks, "model.visual.", 2) == {"column", "row", "tower_qkv", "replicated"}
    assert rules.unclassified == []


def test_cosmos3_edge_siglip2_tower_and_merger_split():
    ranks, rules = _ranks(_inv("cosmos3_edge"), 2)
    layer = "model.visual.encoder.layers.0."
    assert ranks[layer + "self_attn.q_proj.weight"][1][0] == (576, 1152)
    assert ranks["model.visual.embeddings.patch_embedding.weight"][0] == "replicated"  # a ReplicatedLinear
    assert ranks["model.projector.linear_fc1.weight"][1][0] == (5760, 4608)
    assert ranks["model.projector.linear_fc2.weight"][1][0] == (2048, 5760)
    assert _check_sums(ranks, "model.visual.", 2) == {"column", "row", "tower_qkv", "replicated"}
    assert rules.unclassified == []


def test_ernie4_5_vl_tower_and_resampler_split():
    ranks, rules = _ranks(_inv("ernie4_5_vl_moe"), 2)
    block = "model.vision_tower.blocks.0."
    assert ranks[block + "attn.qkv.weight"][1][0] == (1920, 1280)
    assert ranks[block + "mlp.fc2.weight"][1][0] == (1280, 2560)
    assert ranks["model.vision_tower.patch_embed.proj.weight"][0] == "replicated"  # an nn.Linear
    # VariableResolutionResamplerModel: every Linear a ColumnParallelLinear (gather_output: the weight still split)
    resampler = "model.resampler_model."
    assert ranks[resampler + "spatial_linear.fc2.weight"][1][0] == (2560, 5120)
    assert ranks[resampler + "temporal_linear.fc1.weight"][1][0] == (2560, 10240)
    assert ranks[resampler + "mlp.weight"][1][0] == (1280, 5120)
    assert _check_sums(ranks, resampler, 2) == {"column", "replicated"}
    assert _check_sums(ranks, "model.vision_tower.", 2) == {"column", "row", "tower_qkv", "replicated"}
    assert rules.unclassified == []
    plan = fit_plan(_inv("ernie4_5_vl_moe"), gpu_memory=8 * H100, tp=2, context=2048, suggest=False)
    held = sum(d.weights_bytes for d in plan.devices)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values()) and plan.unclassified == ()


def test_step3p7_perception_encoder_and_projector_split():
    ranks, rules = _ranks(_inv("step3p7"), 2)
    layer = "model.vision_model.layers.0."
    assert ranks[layer + "self_attn.k_proj.weight"][1][0] == (768, 1536)  # one QKVParallelLinear (in_proj)
    assert ranks[layer + "self_attn.out_proj.weight"][1][0] == (1536, 768)
    assert ranks[layer + "mlp.fc1.weight"][1][0] == (4480, 1536)
    assert ranks[layer + "lambda_1"][0] == "replicated"
    assert ranks["model.vision_model.downsampler2.weight"][0] == "replicated"  # Conv2dLayer
    # vit_large_projector: a ColumnParallelLinear (gather_output: its weight still split)
    assert ranks["model.multi_modal_projector.weight"][1][0] == (2048, 6144)
    assert _check_sums(ranks, "model.vision_model.", 2) == {"column", "row", "tower_qkv", "replicated"}
    assert rules.unclassified == []


def test_step3p7_tower_heads_tp_must_divide(tmp_path, capsys):
    # the tower's heads read from vision_config (its record has none; 16 by default): 12 do not divide by tp 8
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "step3p7", "vision_config": {"num_attention_heads": 12}}))
    code = main(["fit", str(path), "--gpu", "h100", "--tp", "8", "--context", "2048"])
    err = capsys.readouterr().err
    assert code == 2 and "12 attention heads of the tower at model.vision_model" in err, err


def test_nemotron_h_omni_radio_tower_split_projector_whole():
    ranks, rules = _ranks(_inv("nemotron_h_omni"), 2)
    layer = "vision_model.encoder.layer.0."
    # RadioParallelAttention (an InternParallelAttention): 16 heads, tp 2 divides them
    assert ranks[layer + "attention.q_proj.weight"][1][0] == (640, 1280)
    assert ranks[layer + "attention.o_proj.weight"][1][0] == (1280, 640)
    assert ranks[layer + "mlp.fc1.weight"][1][0] == (2560, 1280)
    assert ranks["vision_model.embeddings.video_patch_projection.weight"][0] == "replicated"
    assert _check_sums(ranks, "vision_model.", 2) == {"column", "row", "tower_qkv", "replicated"}
    assert _check_sums(ranks, "multi_modal_projector.", 2) == {"replicated"}
    assert rules.unclassified == []
    plan = fit_plan(_inv("nemotron_h_omni"), gpu_memory=H100, tp=2, context=2048, suggest=False)
    held = sum(d.weights_bytes for d in plan.devices)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values()) and plan.unclassified == ()


@pytest.mark.parametrize(("tp", "split"), [(2, True), (32, False)])
def test_muse_glimmer_attention_split_where_tp_divides_its_heads_mlp_whole(tp, split):
    # 16 heads: is_vit_use_data_parallel(num_heads) holds the attention whole at tp 32; the MLP is plain nn.Linear
    ranks, rules = _ranks(_inv("muse_glimmer"), tp)
    layer = "model.vision_tower.layers.0."
    q = ranks[layer + "attn.q_proj.weight"]
    assert q[0] == ("tower_qkv" if split else "replicated")
    assert q[1][0] == ((1536 // tp, 1536) if split else (1536, 1536))
    assert ranks[layer + "mlp.fc1.weight"][0] == "replicated"
    assert _check_sums(ranks, "model.vision_adapter.", tp) == {"replicated"}
    assert ranks["model.vision_projection.weight"][0] == "replicated"
    assert rules.unclassified == []


def test_glm5_next_tower_split_as_glm_ocr():
    ranks, rules = _ranks(_inv("glm5_next"), 2)
    block = "model.visual.blocks.0."
    assert ranks[block + "attn.qkv.weight"][1][0] == (1536, 1024)
    assert ranks[block + "mlp.down_proj.weight"][1][0] == (1024, 2048)
    assert ranks["model.visual.merger.gate_proj.weight"][1][0] == (5120, 1536)
    assert _check_sums(ranks, "model.visual.", 2) == {"column", "row", "tower_qkv", "replicated"}
    # what stays listed is the decoder's own (its gated delta rule and hyper-connections), no tower tensor
    assert rules.unclassified == [] and not any(name.startswith("model.visual.") for name in fit_plan(
        _inv("glm5_next"), gpu_memory=8 * H100, tp=2, context=2048, suggest=False).unclassified)


def test_minimax_m3_vl_tower_projector_and_merger_split():
    ranks, rules = _ranks(_inv("minimax_m3_vl"), 2)
    layer = "model.vision_tower.layers.0."
    assert ranks[layer + "self_attn.q_proj.weight"][1][0] == (640, 1280)
    assert ranks[layer + "mlp.fc2.weight"][1][0] == (1280, 2560)
    assert ranks["model.vision_tower.embeddings.proj.weight"][0] == "replicated"  # Conv3dLayer
    projector = "model.multi_modal_projector."
    assert ranks[projector + "merge_linear_1.weight"][1][0] == (3072, 24576)  # MiniMaxVLPatchMerger.linear_1
    assert ranks[projector + "merge_linear_2.weight"][1][0] == (6144, 3072)
    assert _check_sums(ranks, projector, 2) == {"column", "row", "replicated"}
    assert _check_sums(ranks, "model.vision_tower.", 2) == {"column", "row", "tower_qkv", "replicated"}
    assert rules.unclassified == []

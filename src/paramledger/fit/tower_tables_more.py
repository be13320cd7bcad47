"""More of fit/towers.py's tables (tower_tables.py holds the first ones and the rule words): Whisper's own encoder and
decoder cross-attention, Granite Speech, MiniCPM-V 4.6 / 4.7 / MiniCPM-OCR, Molmo 2 and PaddleOCR-VL, each as vLLM
0.33.0 (commit 4ba787ec9) builds it; docs/notes/fit-towers.md has each rule's file and lines."""

from __future__ import annotations

from .tower_tables import (REFUSED, COLUMN, GLM4V_VISION, IDEFICS2_VISION, KV, MISTRAL3_PROJECTOR, PIXTRAL_VISION, QKV,
                           QWEN3_OMNI_AUDIO, QWEN3_VISION, REPLICATED, ROW, SIGLIP2_VISION, TRANSFORMERS_MODULE,
                           WHISPER_ENCODER, DropLast, Truncated, WholeRules)

# whisper.py WhisperForConditionalGeneration (l. 803): WhisperModel builds WhisperEncoder without init_in_fp32
# (l. 648-650), so its embed_positions nn.Embedding (l. 561) is at the model's dtype: whole
WHISPER_OWN_ENCODER = {**WHISPER_ENCODER, "embed_positions": REPLICATED}
# whisper.py WhisperDecoder (l. 597): embed_tokens a plain nn.Embedding (l. 607), whole on every rank, and proj_out a
# ParallelLMHead tied to it (tie_weights, l. 983: the same whole tensor); WhisperCrossAttention (l. 284): q_proj a
# ColumnParallelLinear (l. 311), k_proj and v_proj one MergedColumnParallelLinear (l. 321), out_proj row (l. 197)
WHISPER_DECODER = {
    "model.decoder.embed_tokens": REPLICATED,
    "model.decoder.layers.N.encoder_attn.q_proj": COLUMN, "model.decoder.layers.N.encoder_attn.k_proj": COLUMN,
    "model.decoder.layers.N.encoder_attn.v_proj": COLUMN, "model.decoder.layers.N.encoder_attn.out_proj": ROW,
}
# granite_speech.py GraniteSpeechCTCEncoder (l. 486): input_linear an nn.Linear (l. 506); each
# GraniteSpeechConformerBlock (l. 461): GraniteSpeechConformerFeedForward ff1/ff2 (l. 287) up_proj column (l. 299),
# down_proj row (l. 307), pre_norm nn.LayerNorm; GraniteSpeechConformerAttention (l. 322) to_q, to_kv, to_out
# nn.Linear and rel_pos_emb nn.Embedding (l. 338-341); the conv module's nn.Conv1d, nn.BatchNorm1d and LayerNorm
# (l. 420-449); post_norm; the CTC head out column (l. 517), out_mid row (l. 525)
GRANITE_SPEECH_ENCODER = {
    "input_linear": REPLICATED, "out": COLUMN, "out_mid": ROW,
    "layers.N.ff1.pre_norm": REPLICATED, "layers.N.ff1.up_proj": COLUMN, "layers.N.ff1.down_proj": ROW,
    "layers.N.ff2.pre_norm": REPLICATED, "layers.N.ff2.up_proj": COLUMN, "layers.N.ff2.down_proj": ROW,
    "layers.N.attn.*": REPLICATED, "layers.N.conv.*": REPLICATED, "layers.N.post_norm": REPLICATED,
}
# minicpmv4_6.py MiniCPMV4_6ForConditionalGeneration (l. 1150): vpm an Idefics2VisionTransformer (l. 1226; the
# checkpoint's model.vision_tower.), its last layer dropped when drop_vision_last_layer (l. 1232; 4.7 never,
# minicpmv4_7.py:129); vit_merger MiniCPMV4_6ViTWindowAttentionMerger (l. 925): self_attn's q/k/v one
# QKVParallelLinear (l. 894), out_proj row (l. 902), layer_norm1, pre_norm, linear_1, linear_2 plain torch (l. 941-952)
MINICPMV4_6_VISION = {
    **IDEFICS2_VISION, "vit_merger.self_attn.q_proj": QKV, "vit_merger.self_attn.k_proj": QKV,
    "vit_merger.self_attn.v_proj": QKV, "vit_merger.self_attn.out_proj": ROW, "vit_merger.layer_norm1": REPLICATED,
    "vit_merger.pre_norm": REPLICATED, "vit_merger.linear_1": REPLICATED, "vit_merger.linear_2": REPLICATED,
}
# molmo2.py Molmo2VisionTransformer (l. 469; the remote code's image_vit, transformers' vision_tower: paired by
# role): positional_embedding an nn.Parameter (l. 482), patch_embedding an nn.Linear (l. 486); each
# Molmo2VisionBlock (l. 400): ViTMultiHeadDotProductAttention wq/wk/wv one QKVParallelLinear (l. 364), wo row
# (l. 373); ViTMLP w1 column (l. 302), w2 row (l. 311); attention_norm, ffn_norm nn.LayerNorm
MOLMO2_VISION = {
    "positional_embedding": REPLICATED, "patch_embedding": REPLICATED,
    "layers.N.self_attn.q_proj": QKV, "layers.N.self_attn.k_proj": KV, "layers.N.self_attn.v_proj": KV,
    "layers.N.self_attn.o_proj": ROW, "layers.N.mlp.fc1": COLUMN, "layers.N.mlp.fc2": ROW,
    "layers.N.layer_norm1": REPLICATED, "layers.N.layer_norm2": REPLICATED,
}
# molmo2.py ImagePoolingAttention (l. 543): q_proj column (l. 583), k_proj and v_proj one MergedColumnParallelLinear
# (l. 590), o_proj row (l. 597); ImageProjectorMLP (l. 665): gate and up one MergedColumnParallelLinear (l. 679),
# down_proj row (l. 691)
MOLMO2_ADAPTER = {
    "image_pooling_2d.q_proj": COLUMN, "image_pooling_2d.k_proj": COLUMN, "image_pooling_2d.v_proj": COLUMN,
    "image_pooling_2d.o_proj": ROW, "image_projector.gate_proj": COLUMN, "image_projector.up_proj": COLUMN,
    "image_projector.down_proj": ROW,
}
# paddleocr_vl.py SiglipVisionTransformer (l. 825; SiglipVisionModel l. 873 as visual, l. 973): patch_embedding a
# Conv2dLayer (l. 397), position_embedding an nn.Embedding (l. 409); SiglipAttention (l. 523) q/k/v one
# QKVParallelLinear (l. 546), out_proj row (l. 555); siglip.py SiglipMLP fc1 column, fc2 row; the LayerNorms and
# post_layernorm (l. 842) whole
PADDLEOCR_VISION = {"embeddings.patch_embedding": REPLICATED, "embeddings.position_embedding": REPLICATED,
                    "post_layernorm": REPLICATED, **{key: rule for key, rule in IDEFICS2_VISION.items()
                                                    if key.startswith("encoder.")}}
# glmasr.py GlmAsrEncoder (l. 382): conv1/conv2 nn.Conv1d (l. 417, 423), norm nn.LayerNorm (l. 445); each
# GlmAsrEncoderLayer (l. 297): GlmAsrEncoderAttention (l. 136) q/k/v one QKVParallelLinear with num_key_value_heads
# (l. 166: k and v replicated past tp = KV heads), o_proj row (l. 176); GlmAsrEncoderMLP (l. 256) fc1 column (l. 272),
# fc2 row (l. 282); input_layernorm, post_attention_layernorm nn.LayerNorm (l. 324-325)
GLMASR_ENCODER = {
    "conv1": REPLICATED, "conv2": REPLICATED, "norm": REPLICATED,
    "layers.N.self_attn.q_proj": QKV, "layers.N.self_attn.k_proj": KV, "layers.N.self_attn.v_proj": KV,
    "layers.N.self_attn.o_proj": ROW, "layers.N.mlp.fc1": COLUMN, "layers.N.mlp.fc2": ROW,
    "layers.N.input_layernorm": REPLICATED, "layers.N.post_attention_layernorm": REPLICATED,
}
GLMASR_PROJECTOR = {"linear_1": COLUMN, "linear_2": ROW}  # glmasr.py GlmAsrMultiModalProjector (l. 553, 573, 580)
# glm_ocr.py GlmOcrVisionTransformer (l. 251, a Glm4vVisionTransformer without embeddings and post_conv_layernorm):
# GlmOcrVisionAttention (l. 91) qkv a QKVParallelLinear (l. 121), proj row (l. 132), q_norm/k_norm RMSNorm (l. 118);
# the rest GLM-4.1V's
GLM_OCR_VISION = {**GLM4V_VISION, "blocks.N.attn.q_norm": REPLICATED, "blocks.N.attn.k_norm": REPLICATED}
# intern_vit.py InternVisionModel (l. 365; internvl.py InternVLChatModel, the remote code's vision_model: paired by role
# with transformers' vision_tower): class_embedding and position_embedding nn.Parameter (l. 57, 69), patch_embedding
# a Conv2dLayer (l. 59); InternParallelAttention (l. 117) qkv a QKVParallelLinear split only where tp divides the heads
# (l. 145-148: else disable_tp, the "?" rules), proj row; InternMLP (l. 222) fc1 column, fc2 row (always split);
# norm1/norm2 and ls1/ls2 nn.Parameter (l. 292-296) whole
INTERN_VIT = {
    "embeddings.cls_token": REPLICATED, "embeddings.position_embeddings": REPLICATED,
    "embeddings.patch_embeddings.projection": REPLICATED, "layers.N.lambda_1": REPLICATED,
    "layers.N.lambda_2": REPLICATED, "layers.N.attention.q_proj": QKV + "?", "layers.N.attention.k_proj": QKV + "?",
    "layers.N.attention.v_proj": QKV + "?", "layers.N.attention.projection_layer": ROW + "?",
    "layers.N.attention.q_norm": REPLICATED, "layers.N.attention.k_norm": REPLICATED,
    "layers.N.mlp.fc1": COLUMN, "layers.N.mlp.fc2": ROW, "layers.N.layernorm_before": REPLICATED,
    "layers.N.layernorm_after": REPLICATED,
}
# ernie45_vl.py Ernie4_5_VisionTransformer (l. 363): Ernie4_5_VisionPatchEmbed.proj an nn.Linear (l. 332);
# Ernie4_5_VisionAttention (l. 122) qkv a QKVParallelLinear (l. 144), proj row (l. 153); Ernie4_5_VisionMLP (l. 236) fc1
# column (l. 246), fc2 row (l. 253); the LayerNorms and ln (l. 413) whole
ERNIE_VISION = {
    "patch_embed.proj": REPLICATED, "blocks.N.norm1": REPLICATED, "blocks.N.norm2": REPLICATED,
    "blocks.N.attn.qkv": QKV, "blocks.N.attn.proj": ROW, "blocks.N.mlp.fc1": COLUMN, "blocks.N.mlp.fc2": ROW,
    "ln": REPLICATED,
}
# ernie45_vl.py VariableResolutionResamplerModel (l. 692): spatial_linear1/2, temporal_linear1/2 and mlp each a
# ColumnParallelLinear (gather_output=True: the weight still split; l. 720-765; the checkpoint's spatial_linear.0/.2,
# transformers' spatial_linear.fc1/fc2), spatial_norm, temporal_norm nn.LayerNorm and after_norm RMSNorm whole
ERNIE_RESAMPLER = {
    "spatial_linear.fc1": COLUMN, "spatial_linear.fc2": COLUMN, "spatial_linear.ln": REPLICATED,
    "temporal_linear.fc1": COLUMN, "temporal_linear.fc2": COLUMN, "temporal_linear.ln": REPLICATED,
    "mlp": COLUMN, "after_norm": REPLICATED,
}
# step_vl.py PerceptionEncoder (l. 349; step3p7.py:54, the checkpoint's vision_model as transformers names it, its
# modules paired by role): conv1 a Conv2dLayer (transformers' embeddings.patch_embedding), positional_embedding and
# class_embedding nn.Parameter, ln_pre, ln_1/ln_2 LayerNorms, ls_1/ls_2 PerceptionEncoderLayerScale's gamma
# nn.Parameter (l. 141; transformers' lambda_1/2); PerceptionEncoderVisionAttention (l. 183) in_proj one
# QKVParallelLinear (l. 207; transformers' q/k/v_proj), out_proj row (l. 216); PerceptionEncoderMLP (l. 147) c_fc
# column (l. 158), c_proj row (l. 167); vit_downsampler1/2 Conv2dLayer (l. 399, 402)
STEP3P7_VISION = {
    "embeddings.patch_embedding": REPLICATED, "embeddings.position_embedding": REPLICATED,
    "embeddings.class_embedding": REPLICATED, "pre_layernorm": REPLICATED, "post_layernorm": REPLICATED,
    "layers.N.lambda_1": REPLICATED, "layers.N.lambda_2": REPLICATED, "layers.N.self_attn.q_proj": QKV,
    "layers.N.self_attn.k_proj": QKV, "layers.N.self_attn.v_proj": QKV, "layers.N.self_attn.out_proj": ROW,
    "layers.N.mlp.fc1": COLUMN, "layers.N.mlp.fc2": ROW, "layers.N.layernorm_before": REPLICATED,
    "layers.N.layernorm_after": REPLICATED, "downsampler1": REPLICATED, "downsampler2": REPLICATED,
}
# radio.py RadioModel (l. 648; nano_nemotron_vl.py:995): ViTPatchGenerator's embedder and video_embedder ViTPatchLinear
# (nn.Linear, l. 148, 158), pos_embed and ClsToken's token nn.Parameter (l. 168, 66): whole; RadioVisionEncoderLayer
# (l. 479, an InternVisionEncoderLayer): RadioParallelAttention (intern_vit.py InternParallelAttention) qkv and proj
# split only where tp divides the heads ("?"), InternMLP fc1 column, fc2 row, norm1/norm2 and ls1/ls2 whole
RADIO_VISION = {
    "embeddings.position_embedding": REPLICATED, "embeddings.cls_register_token": REPLICATED,
    "embeddings.patch_projection": REPLICATED, "embeddings.video_patch_projection": REPLICATED,
    "encoder.layer.N.norm1": REPLICATED, "encoder.layer.N.norm2": REPLICATED,
    "encoder.layer.N.attention.q_proj": QKV + "?", "encoder.layer.N.attention.k_proj": QKV + "?",
    "encoder.layer.N.attention.v_proj": QKV + "?", "encoder.layer.N.attention.o_proj": ROW + "?",
    "encoder.layer.N.attention.q_norm": REPLICATED, "encoder.layer.N.attention.k_norm": REPLICATED,
    "encoder.layer.N.layer_scale1.lambda1": REPLICATED, "encoder.layer.N.layer_scale2.lambda1": REPLICATED,
    "encoder.layer.N.mlp.fc1": COLUMN, "encoder.layer.N.mlp.fc2": ROW,
}
# muse_glimmer.py MuseGlimmerVisionEncoder (l. 518; its mapper l. 1184 reads transformers' names): conv1_linear an
# nn.Linear (l. 540; patch_embedder.patch_embedding), positional_embedding_vlm nn.Parameter (l. 541;
# position_embedding_table), ln_pre, ln_post, ln_1/ln_2 nn.LayerNorm whole; MuseGlimmerVisionAttention (l. 381)
# q/k/v one QKVParallelLinear (l. 400) and o_proj row (l. 409; attn.proj), both disable_tp where tp does not divide
# the heads (is_vit_use_data_parallel(num_heads), l. 394: the "?" rules); MuseGlimmerVisionMLP (l. 467) c_fc/c_proj
# plain nn.Linear (l. 470-471; mlp.fc1/fc2): whole
MUSE_GLIMMER_VISION = {
    "patch_embedder.patch_embedding": REPLICATED, "patch_embedder.position_embedding_table": REPLICATED,
    "ln_pre": REPLICATED, "ln_post": REPLICATED, "layers.N.norm1": REPLICATED, "layers.N.norm2": REPLICATED,
    "layers.N.attn.q_proj": QKV + "?", "layers.N.attn.k_proj": QKV + "?", "layers.N.attn.v_proj": QKV + "?",
    "layers.N.attn.proj": ROW + "?", "layers.N.mlp.fc1": REPLICATED, "layers.N.mlp.fc2": REPLICATED,
}
# vllm/models/minimax_m3/common/vision_tower.py MiniMaxVLVisionModel (l. 611; the remote code's vision_model,
# patch_merge_mlp paired by role with transformers' names): MiniMaxVLPatchEmbed's Conv3dLayer (l. 55; embeddings.proj),
# pre_layrnorm (l. 359) and the layer norms whole (no post_layernorm: require_post_norm=False, l. 633);
# MiniMaxVLAttention (l. 77) q/k/v one QKVParallelLinear (l. 101), out_proj row (l. 111); fc1 column (l. 204), fc2 row
# (l. 213); MiniMaxVLMultiModalProjector (l. 527) linear_1 column, linear_2 row (l. 543, 552); MiniMaxVLPatchMerger
# (l. 568) linear_1 column, linear_2 row (l. 584, 593; transformers' merge_linear_1/2)
MINIMAX_M3_VISION = {
    "embeddings.proj": REPLICATED, "pre_layrnorm": REPLICATED, "layers.N.layer_norm1": REPLICATED,
    "layers.N.layer_norm2": REPLICATED, "layers.N.self_attn.q_proj": QKV, "layers.N.self_attn.k_proj": QKV,
    "layers.N.self_attn.v_proj": QKV, "layers.N.self_attn.out_proj": ROW, "layers.N.mlp.fc1": COLUMN,
    "layers.N.mlp.fc2": ROW,
}
MINIMAX_M3_PROJECTOR = {"linear_1": COLUMN, "linear_2": ROW, "merge_linear_1": COLUMN, "merge_linear_2": ROW}
_NO_PP = ("vllm/config/model.py:1570 verify_with_parallel_config: 'Pipeline parallelism is not supported for this "
          "model' ({cls} does not implement SupportsPP)")
MORE: dict[str, WholeRules] = {
    # whisper.py: the encoder's heads checked as WhisperAttention asserts them (l. 173)
    "whisper": WholeRules((("model.encoder.", WHISPER_OWN_ENCODER),),
                          "models/whisper.py WhisperForConditionalGeneration (WhisperEncoder, WhisperDecoder)",
                          decoder=WHISPER_DECODER, heads=(("model.encoder.", ("encoder_attention_heads",), None),),
                          no_pp=_NO_PP.format(cls="WhisperForConditionalGeneration")),
    # granite_speech.py GraniteSpeechEncoderProjector (l. 231): query an nn.Parameter, Blip2QFormerModel (blip2.py:
    # 385, nn.Linear and nn.LayerNorm) and linear an nn.Linear (l. 258): whole; granite_speech_plus.py the same
    # modules (GraniteSpeechPlusCTCEncoder changes forward alone)
    "granite_speech": WholeRules((("audio", GRANITE_SPEECH_ENCODER), ("projector", TRANSFORMERS_MODULE)),
                                 "models/granite_speech.py GraniteSpeechForConditionalGeneration"),
    "granite_speech_plus": WholeRules((("audio", GRANITE_SPEECH_ENCODER), ("projector", TRANSFORMERS_MODULE)),
                                      "models/granite_speech_plus.py GraniteSpeechPlusForConditionalGeneration"),
    # minicpmv4_6.py MiniCPMV4_6Merger (l. 1082): MiniCPMV4_6DownsampleMLP's LayerNorm and nn.Linear (l. 1069-1072)
    "minicpmv4_6": WholeRules((("vision", MINICPMV4_6_VISION), ("projector", TRANSFORMERS_MODULE)),
                              "models/minicpmv4_6.py MiniCPMV4_6ForConditionalGeneration (Idefics2VisionTransformer)",
                              drop_last=DropLast("drop_vision_last_layer", "encoder.layers.",
                                                 "vllm/model_executor/models/minicpmv4_6.py:1232: "
                                                 "drop_vision_last_layer drops the vision tower's last layer")),
    "minicpmv4_7": WholeRules((("vision", MINICPMV4_6_VISION), ("projector", TRANSFORMERS_MODULE)),
                              "models/minicpmv4_7.py MiniCPMV4_7ForConditionalGeneration (every vision layer kept)"),
    # minicpm_ocr.py:409 MiniCPMOcrForConditionalGeneration, a MiniCPMV4_6ForConditionalGeneration (registry.py:528)
    "minicpm_ocr": WholeRules((("vision", MINICPMV4_6_VISION), ("projector", TRANSFORMERS_MODULE)),
                              "models/minicpm_ocr.py MiniCPMOcrForConditionalGeneration (MiniCPM-V 4.6's modules)",
                              drop_last=DropLast("drop_vision_last_layer", "encoder.layers.",
                                                 "vllm/model_executor/models/minicpmv4_6.py:1232: "
                                                 "drop_vision_last_layer drops the vision tower's last layer")),
    "molmo2": WholeRules((("vision", MOLMO2_VISION), ("projector", MOLMO2_ADAPTER)),
                         "models/molmo2.py Molmo2ForConditionalGeneration (Molmo2VisionBackbone)"),
    # audioflamingo3.py AudioFlamingo3Encoder (l. 118): transformers' Qwen2AudioEncoder as it is, and
    # AudioFlamingo3MultiModalProjector's two nn.Linear (l. 163-172): whole
    "audioflamingo3": WholeRules((("audio", TRANSFORMERS_MODULE), ("projector", TRANSFORMERS_MODULE)),
                                 "models/audioflamingo3.py AudioFlamingo3ForConditionalGeneration"),
    "glmasr": WholeRules((("audio", GLMASR_ENCODER), ("projector", GLMASR_PROJECTOR)),
                         "models/glmasr.py GlmAsrForConditionalGeneration (GlmAsrEncoder)"),
    # qwen3_asr.py Qwen3ASRForConditionalGeneration (l. 393): Qwen3OmniMoeAudioEncoder (l. 453), and transformers'
    # multi_modal_projector.linear_1/2 mapped onto its proj1/proj2 ReplicatedLinear (l. 426-427): whole
    "qwen3_asr": WholeRules((("audio", QWEN3_OMNI_AUDIO), ("projector", TRANSFORMERS_MODULE)),
                            "models/qwen3_asr.py Qwen3ASRForConditionalGeneration (Qwen3OmniMoeAudioEncoder)"),
    # glm_ocr.py GlmOcrForConditionalGeneration (l. 393, a Glm4vForConditionalGeneration; visual l. 399)
    "glm_ocr": WholeRules((("vision", GLM_OCR_VISION),),
                          "models/glm_ocr.py GlmOcrForConditionalGeneration (GlmOcrVisionTransformer)"),
    # lightonocr.py LightOnOCRForConditionalGeneration (l. 125; the checkpoint's architectures name, not transformers'
    # LightOnOcr...): init_vision_tower_for_mistral3 (l. 148: PixtralHFVisionModel up to vision_feature_layer,
    # require_post_norm=False) and Mistral3MultiModalProjector (l. 154)
    "lighton_ocr": WholeRules((("vision", {"pixtral": PIXTRAL_VISION}), ("projector", MISTRAL3_PROJECTOR)),
                              "models/lightonocr.py LightOnOCRForConditionalGeneration (PixtralHFVisionModel)",
                              truncated=Truncated("vision_feature_layer", -1, {"pixtral": "transformer.layers."},
                                                  "models/mistral3.py _get_num_hidden_layers (lightonocr.py:148): "
                                                  "layers up to vision_feature_layer")),
    # moss_transcribe_diarize.py MossTranscribeDiarizeForConditionalGeneration (l. 575): a WhisperEncoder without
    # init_in_fp32 (l. 268, 701; the remote code's whisper_encoder, transformers' audio_tower), whose layers make_layers
    # splits by stage (whisper.py:528) inside a tower built on stage 0 alone: listed at pp > 1, as Voxtral's;
    # MossTranscribeDiarizeVQAdaptor (l. 327: vq_adaptor, transformers' multi_modal_projector) two nn.Linear and a
    # LayerNorm: whole
    "moss_transcribe_diarize": WholeRules((("audio", WHISPER_OWN_ENCODER), ("projector", TRANSFORMERS_MODULE)),
                                          "models/moss_transcribe_diarize.py "
                                          "MossTranscribeDiarizeForConditionalGeneration (WhisperEncoder)",
                                          pp_unmodelled=("audio",)),
    # qianfan_ocr.py QianfanOCRForConditionalGeneration (l. 85): InternVLChatModel's InternVisionModel up to
    # select_layer (internvl.py:651-662: index + 1 layers, or depth + index + 1 below 0) and mlp1 (l. 666-676:
    # LayerNorm and two nn.Linear, transformers' multi_modal_projector): whole
    "qianfan_ocr": WholeRules((("vision", {"qianfan_ocr_vision": INTERN_VIT}), ("projector", TRANSFORMERS_MODULE)),
                              "models/qianfan_ocr.py QianfanOCRForConditionalGeneration (InternVisionModel)",
                              truncated=Truncated("select_layer", -1, {"qianfan_ocr_vision": "layers."},
                                                  "models/internvl.py InternVLChatModel._init_vision_model: layers "
                                                  "up to select_layer", from_first=True)),
    # cohere_compass.py Cohere_VisionTransformer (l. 686): Qwen3-VL's layout: Conv3dLayer patch_embed (l. 514),
    # pos_embed nn.Embedding (l. 737), Cohere_VisionAttention qkv QKVParallelLinear (l. 425) and proj row (l. 436),
    # Cohere_VisionMLP linear_fc1 column, linear_fc2 row (l. 555, 564), LayerNorms; merger and deepstack_merger_list
    # (l. 755, 764) Cohere_VisionPatchMerger (l. 634): norm whole, linear_fc1 column, linear_fc2 row
    "cohere_compass": WholeRules((("vision", QWEN3_VISION),),
                                 "models/cohere_compass.py CohereCompassForConditionalGeneration "
                                 "(Cohere_VisionTransformer)"),
    # cosmos3_edge.py Cosmos3EdgeVisionModel (l. 239; visual l. 659): encoder a Siglip2VisionTransformer
    # (lfm2_siglip2.py, as LFM2-VL's: transformers' visual.), projector Cosmos3EdgePatchMerger (l. 181): norm
    # nn.LayerNorm (l. 207), linear_fc1 column (l. 209), linear_fc2 row (l. 218)
    "cosmos3_edge": WholeRules((("vision", {**SIGLIP2_VISION, "head.*": REFUSED}),
                                ("projector", {"norm": REPLICATED, "linear_fc1": COLUMN, "linear_fc2": ROW})),
                               "models/cosmos3_edge.py Cosmos3EdgeForConditionalGeneration (Siglip2VisionTransformer)",
                               refused=("vision_config.vision_use_head", "true builds a pooling head vLLM 0.33.0's "
                                        "Siglip2VisionTransformer (lfm2_siglip2.py) has no module for; its loader "
                                        "refuses the head's weights")),
    # ernie45_vl.py Ernie4_5_VLMoeForConditionalGeneration (l. 1346; vision_model l. 1405, resampler_model l. 1411;
    # the checkpoint's vision_model paired by role with transformers' vision_tower)
    "ernie4_5_vl_moe": WholeRules((("vision", ERNIE_VISION), ("model.resampler_model.", ERNIE_RESAMPLER)),
                                  "models/ernie45_vl.py Ernie4_5_VLMoeForConditionalGeneration "
                                  "(Ernie4_5_VisionTransformer, VariableResolutionResamplerModel)"),
    # step3p7.py Step3p7ForConditionalGeneration (l. 21): vit_large_projector a ColumnParallelLinear (l. 60,
    # gather_output=True: the weight still split; transformers' multi_modal_projector, a bare Linear)
    "step3p7": WholeRules((("vision", STEP3P7_VISION), ("projector", {"weight": COLUMN, "bias": COLUMN})),
                          "models/step3p7.py Step3p7ForConditionalGeneration (step_vl.py PerceptionEncoder)",
                          heads=(("model.vision_model.", ("vision_config.num_attention_heads", "vision_config.heads"),
                                  16),)),
    # nano_nemotron_vl.py NemotronH_Nano_VL_V2 (registry.py:553 NemotronH_Omni_Reasoning_V3): the RADIO tower
    # (l. 995) and mlp1 (l. 1014-1026: RMSNorm and two nn.Linear; transformers' multi_modal_projector): whole
    "nemotron_h_omni": WholeRules((("vision", RADIO_VISION), ("multi_modal_projector.", TRANSFORMERS_MODULE)),
                                  "models/nano_nemotron_vl.py NemotronH_Nano_VL_V2 (radio.py RadioModel)"),
    # muse_glimmer.py (registry.py:555 maps MuseGlimmerForConditionalGeneration to MuseGlimmerForCausalLM, l. 1142):
    # MuseGlimmerVisionAdapter (l. 835) two nn.Linear and vision_projection an nn.Linear (l. 1261): whole (read by
    # module path: the whole model's projector_prefix is its decoder's "model.")
    "muse_glimmer": WholeRules((("vision", MUSE_GLIMMER_VISION), ("model.vision_adapter.", TRANSFORMERS_MODULE),
                                ("model.vision_projection.", TRANSFORMERS_MODULE)),
                               "models/muse_glimmer.py MuseGlimmerForCausalLM (MuseGlimmerVisionEncoder)",
                               heads=(("model.vision_tower.", ("vision_config.num_attention_heads",), 16),)),
    # vllm/models/glm5next/common/model.py Glm5NextForConditionalGeneration (registry.py:437; visual l. 1210):
    # multimodal.py Glm5NextVisionTransformer (l. 341) is GLM-OCR's layout: Conv3dLayer patch embed (l. 67),
    # Glm5NextVisionAttention (l. 120) qkv QKVParallelLinear (l. 150), proj row (l. 160), q_norm/k_norm RMSNorm
    # (l. 147-148); Glm5NextVisionMLP (l. 82) gate/up one MergedColumnParallelLinear (l. 94), down row (l. 102);
    # Glm5NextPatchMerger (l. 289) proj column (l. 302), post_projection_norm whole, gate/up column (l. 312), down
    # row (l. 320); downsample Conv2dLayer (l. 427), post_layernorm RMSNorm (l. 433).  The decoder's own (its gated
    # delta rule, hyper-connections) is sharding.py's, not a tower's
    "glm5_next": WholeRules((("vision", GLM_OCR_VISION),),
                            "vllm/models/glm5next Glm5NextForConditionalGeneration (Glm5NextVisionTransformer)"),
    # vllm/models/minimax_m3/nvidia/model.py MiniMaxM3SparseForConditionalGeneration (registry.py:523; vision_tower
    # l. 1163)
    "minimax_m3_vl": WholeRules((("vision", MINIMAX_M3_VISION), ("projector", MINIMAX_M3_PROJECTOR)),
                                "vllm/models/minimax_m3 MiniMaxM3SparseForConditionalGeneration (MiniMaxVLVisionModel)",
                                heads=(("model.vision_tower.", ("vision_config.num_attention_heads",), 16),)),
    # vllm/models/inkling/nvidia/model.py InklingForConditionalGeneration (registry.py:174; l. 523-531): common/
    # towers.py InklingVision's HMLPPatchEncoder (l. 146: nn.Linear and RMSNorm layers, final_norm) and InklingAudio
    # (l. 274: an nn.Embedding of n_mel_bins x mel_vocab_size rows, final_norm): plain torch, whole.  Built outside
    # _mark_tower_model, so on every pipeline stage: listed at pp > 1
    "inkling_mm_model": WholeRules((("vision", TRANSFORMERS_MODULE), ("audio", TRANSFORMERS_MODULE)),
                                   "vllm/models/inkling InklingForConditionalGeneration (InklingVision, InklingAudio)",
                                   pp_unmodelled=("vision", "audio")),
    # paddleocr_vl.py Projector (l. 312, vLLM's mlp_AR): pre_norm nn.LayerNorm, linear_1 and linear_2 nn.Linear: whole
    "paddleocr_vl": WholeRules((("model.visual.vision_model.", PADDLEOCR_VISION), ("projector", TRANSFORMERS_MODULE)),
                               "models/paddleocr_vl.py PaddleOCRVLForConditionalGeneration (SiglipVisionModel)",
                               no_pp=_NO_PP.format(cls="PaddleOCRVLForConditionalGeneration")),
}

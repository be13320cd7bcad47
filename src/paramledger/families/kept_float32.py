"""The tensors transformers keeps in float32 when it loads a model at a half precision, by model type.

A PreTrainedModel class names modules in ``_keep_in_fp32_modules`` (kept in float32 when the model is loaded in
float16) and ``_keep_in_fp32_modules_strict`` (in float16 and in bfloat16); ``from_pretrained`` gathers the names
of every PreTrainedModel the model holds (modeling_utils.py PreTrainedModel.post_init) and gives each parameter
whose name one of them matches float32 (``_get_dtype_plan``; core_model_loading.py ``build_glob_alternation``:
each name a regular expression with ``*`` as ``.*``, searched anywhere in the parameter's full name).  So T5
loaded in float16 holds every ``wo`` in float32, and DeepSeek-V3 loaded in bfloat16 its routers.  memory prices
those tensors so at --dtype bf16 or fp16 and at the checkpoint's own bf16 or fp16 (memory.weight_bytes).

Read from the classes transformers 5.24.0 builds for each supported type (each with its modeling file and the
class that declares the names); tests/test_families.py checks every entry, and every type missing here, against
the class it builds.  A type not listed keeps nothing.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple


class KeptInFloat32(NamedTuple):
    at_fp16: tuple[str, ...]  # _keep_in_fp32_modules: float32 when loaded in float16
    always: tuple[str, ...]  # _keep_in_fp32_modules_strict: float32 when loaded in float16 or bfloat16


NOTHING = KeptInFloat32((), ())

KEPT = {
    # afmoe/modeling_afmoe.py AfmoePreTrainedModel
    "afmoe": KeptInFloat32(('input_layernorm', 'k_norm', 'norm', 'post_attention_layernorm', 'post_mlp_layernorm',
                            'pre_mlp_layernorm', 'q_norm'), ('expert_bias',)),
    # apertus1p5/modeling_apertus1p5.py Apertus1p5PreTrainedModel (code assignment is an argmax over codebook logits)
    "apertus1p5": KeptInFloat32((), ('audio_tokenizer', 'vision_tokenizer')),
    # axk1/modeling_axk1.py AXK1PreTrainedModel
    "axk1": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # axk2/modeling_axk2.py AXK2PreTrainedModel
    "axk2": KeptInFloat32(('indexer.weights_proj',), ('e_score_correction_bias', 'gate.weight')),
    # bailing_hybrid/modeling_bailing_hybrid.py BailingHybridPreTrainedModel
    "bailing_hybrid": KeptInFloat32((), ('A_log', 'conv1d', 'dt_bias', 'e_score_correction_bias', 'gate.weight')),
    # beam/modeling_beam.py BeamPreTrainedModel
    "beam": KeptInFloat32((), ('e_score_correction_bias', 'mlp.gate.weight')),
    # blip_2/modeling_blip_2.py Blip2PreTrainedModel
    "blip-2": KeptInFloat32(('qformer', 'query_tokens'), ()),
    # deepseek_ocr2/modeling_deepseek_ocr2.py DeepseekOcr2TextPreTrainedModel (line 1278; the whole class declares none)
    "deepseek_ocr2": KeptInFloat32((), ('gate.weight',)),
    # deepseek_v2/modeling_deepseek_v2.py DeepseekV2PreTrainedModel
    "deepseek_v2": KeptInFloat32((), ('gate.weight',)),
    # deepseek_v3/modeling_deepseek_v3.py DeepseekV3PreTrainedModel
    "deepseek_v3": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # deepseek_v4/modeling_deepseek_v4.py DeepseekV4PreTrainedModel (the compressors' projections ship in BF16)
    "deepseek_v4": KeptInFloat32(('self_attn.compressor.gate_proj', 'self_attn.compressor.indexer.gate_proj',
                                  'self_attn.compressor.indexer.kv_proj',
                                  'self_attn.compressor.indexer.scorer.weights_proj', 'self_attn.compressor.kv_proj'),
                                 ('attn_hc', 'e_score_correction_bias', 'ffn_hc', 'hc_head', 'input_layernorm',
                                  'kv_norm', 'norm', 'position_bias', 'post_attention_layernorm', 'q_a_norm', 'sinks')),
    # deepseek_v32/modeling_deepseek_v32.py DeepseekV32PreTrainedModel
    "deepseek_v32": KeptInFloat32(('indexer.weights_proj',), ('e_score_correction_bias', 'gate.weight')),
    # dots1/modeling_dots1.py Dots1PreTrainedModel
    "dots1": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # dots3_note/modeling_dots3_note.py Dots3NotePreTrainedModel
    "dots3_note": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    "dots3_note_text": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # ernie4_5_moe/modeling_ernie4_5_moe.py Ernie4_5_MoePreTrainedModel
    "ernie4_5_moe": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py Ernie4_5_VLMoePreTrainedModel
    "ernie4_5_vl_moe": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # exaone_moe/modeling_exaone_moe.py ExaoneMoePreTrainedModel
    "exaone_moe": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # flint/modeling_flint.py FlintPreTrainedModel
    "flint": KeptInFloat32((), ('gate.weight', 'sinks')),
    # glm4_moe/modeling_glm4_moe.py Glm4MoePreTrainedModel
    "glm4_moe": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # glm4_moe_lite/modeling_glm4_moe_lite.py Glm4MoeLitePreTrainedModel
    "glm4_moe_lite": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # glm4v_moe/modeling_glm4v_moe.py Glm4vMoePreTrainedModel
    "glm4v_moe": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # glm_moe_dsa/modeling_glm_moe_dsa.py GlmMoeDsaPreTrainedModel
    "glm_moe_dsa": KeptInFloat32(('indexer.weights_proj',), ('e_score_correction_bias', 'gate.weight')),
    # glm5_next/modeling_glm5_next.py Glm5NextPreTrainedModel (lines 1379-1389)
    "glm5_next": KeptInFloat32((), ('A_log', 'attn_hc.base', 'attn_hc.scale', 'conv1d', 'dt_bias',
                                    'e_score_correction_bias', 'ffn_hc.base', 'ffn_hc.scale', 'gate.weight')),
    # gpt_oss/modeling_gpt_oss.py GptOssPreTrainedModel
    "gpt_oss": KeptInFloat32(('input_layernorm', 'norm', 'post_attention_layernorm'), ()),
    # hy_v3/modeling_hy_v3.py HYV3PreTrainedModel
    "hy_v3": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # hy_v4/modeling_hy_v4.py HYV4ForCausalLM; hy_v4/modeling_hy_v4.py HYV4PreTrainedModel
    "hy_v4": KeptInFloat32((), ('base', 'e_score_correction_bias', 'fn', 'gate.weight', 'hc_base', 'hc_fn', 'hc_scale',
                                'k_norm', 'lm_head', 'scale', 'sinks', 'weights_proj')),
    # hy_v4_vl/modeling_hy_v4_vl.py HYV4VLForConditionalGeneration; HYV4VLPreTrainedModel
    "hy_v4_vl": KeptInFloat32((), ('base', 'e_score_correction_bias', 'fn', 'gate.weight', 'hc_base', 'hc_fn',
                                   'hc_scale', 'k_norm', 'lm_head', 'scale', 'sinks', 'weights_proj')),
    # inkling2/modeling_inkling2.py Inkling2PreTrainedModel
    "inkling2": KeptInFloat32((), ('attention_input', 'e_score_correction_bias', 'final_input', 'mlp.gate.weight',
                                 'mlp_input', 'post_attention_convolution', 'post_mlp_convolution', 'sconv.conv1d')),
    "inkling2_text": KeptInFloat32((), ('attention_input', 'e_score_correction_bias', 'final_input', 'mlp.gate.weight',
                                      'mlp_input', 'post_attention_convolution', 'post_mlp_convolution',
                                      'sconv.conv1d')),
    # inkling2_loop/modeling_inkling2_loop.py Inkling2LoopPreTrainedModel
    "inkling2_loop": KeptInFloat32((), ('attention_input', 'e_score_correction_bias', 'final_input',
                                      'forget_gate_proj', 'message_gate_proj', 'message_input', 'mlp.gate.weight',
                                      'mlp_input', 'post_attention_convolution', 'post_mlp_convolution',
                                      'sconv.conv1d')),
    "inkling2_loop_text": KeptInFloat32((), ('attention_input', 'e_score_correction_bias', 'final_input',
                                           'forget_gate_proj', 'message_gate_proj', 'message_input',
                                           'mlp.gate.weight', 'mlp_input', 'post_attention_convolution',
                                           'post_mlp_convolution', 'sconv.conv1d')),
    # inkling/modeling_inkling.py InklingPreTrainedModel
    "inkling_mm_model": KeptInFloat32((), ('attn_sconv', 'e_score_correction_bias', 'gate.global_scale', 'k_sconv',
                                         'mlp_sconv', 'v_sconv')),
    "inkling_text": KeptInFloat32((), ('attn_sconv', 'e_score_correction_bias', 'gate.global_scale', 'k_sconv',
                                     'mlp_sconv', 'v_sconv')),
    # deepseek_v3/modeling_deepseek_v3.py DeepseekV3PreTrainedModel
    "kimi_k25": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # instructblip/modeling_instructblip.py InstructBlipPreTrainedModel
    "instructblip": KeptInFloat32(('query_tokens',), ()),
    # instructblipvideo/modeling_instructblipvideo.py InstructBlipVideoPreTrainedModel
    "instructblipvideo": KeptInFloat32(('query_tokens',), ()),
    # kimi_linear/modeling_kimi_linear.py KimiLinearPreTrainedModel
    "kimi_linear": KeptInFloat32((), ('dt_bias', 'e_score_correction_bias', 'gate.weight')),
    # kolibri1/modeling_kolibri1.py Kolibri1PreTrainedModel
    "kolibri1": KeptInFloat32((), ('e_score_correction_bias',)),
    # kyutai_speech_to_text/modeling_kyutai_speech_to_text.py KyutaiSpeechToTextForConditionalGeneration
    "kyutai_speech_to_text": KeptInFloat32((), ('codec_model',)),
    # longcat_flash/modeling_longcat_flash.py LongcatFlashPreTrainedModel
    "longcat_flash": KeptInFloat32(('classifier.weight',), ()),
    # mimo_v2_flash/modeling_mimo_v2_flash.py MiMoV2FlashPreTrainedModel
    "mimo_v2_flash": KeptInFloat32((), ('e_score_correction_bias', 'mlp.gate.weight')),
    # mistral_large4/modeling_mistral_large4.py MistralLarge4PreTrainedModel
    "mistral_large4": KeptInFloat32(('indexer.weights_proj',), ('mlp.gate.weight', 'rotary_emb')),
    # mt5/modeling_mt5.py MT5PreTrainedModel
    "mt5": KeptInFloat32(('wo',), ()),
    # muse_spark/modeling_muse_spark.py MuseSparkPreTrainedModel
    "muse_spark": KeptInFloat32((), ('e_score_correction_bias', 'mlp.gate.weight', 'post_attention_residual_gate',
                                     'post_feedforward_residual_gate')),
    # nemotron_h/modeling_nemotron_h.py NemotronHPreTrainedModel
    "nemotron_h": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # nemotron_h_omni: its language model's NemotronHPreTrainedModel (the whole class declares none of its own)
    "nemotron_h_omni": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # nemotron3_5_transcribe/modeling_nemotron3_5_transcribe.py Nemotron3_5TranscribeModel, with its language model's
    # NemotronHPreTrainedModel
    "nemo_speechlm": KeptInFloat32((), ('audio_tower', 'e_score_correction_bias', 'gate.weight',
                                        'multi_modal_projector')),
    # rwkv/modeling_rwkv.py RwkvPreTrainedModel
    "rwkv": KeptInFloat32(('time_decay', 'time_first'), ()),
    # deepseek_v3/modeling_deepseek_v3.py DeepseekV3PreTrainedModel
    "sarvam_mla": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # glm4_moe/modeling_glm4_moe.py Glm4MoePreTrainedModel
    "sarvam_moe": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # solar_open/modeling_solar_open.py SolarOpenPreTrainedModel
    "solar_open": KeptInFloat32((), ('e_score_correction_bias', 'gate.weight')),
    # t5/modeling_t5.py T5PreTrainedModel
    "t5": KeptInFloat32(('wo',), ()),
    # udop/modeling_udop.py UdopPreTrainedModel (line 737)
    "udop": KeptInFloat32(('wo',), ()),
    # umt5/modeling_umt5.py UMT5PreTrainedModel
    "umt5": KeptInFloat32(('wo',), ()),
    # unlimited_ocr: its language model's UnlimitedOcrTextPreTrainedModel (the whole class declares none of its own)
    "unlimited_ocr": KeptInFloat32((), ('gate.weight',)),
    # voxtral/modeling_voxtral.py VoxtralForConditionalGeneration
    "voxtral": KeptInFloat32((), ('embed_positions',)),
}


# Modules a class casts to float32 itself as it builds them, outside its _keep_in_fp32_modules lists, so that
# from_pretrained at bf16 or fp16 loads them in float32 (tests/test_memory_float32.py's round trip): the whole
# Qwen2.5-Omni's token2wav (qwen2_5_omni/modeling_qwen2_5_omni.py, Qwen2_5OmniForConditionalGeneration.enable_talker:
# ``self.token2wav.float()``).  Patterns as KEPT's.
CAST_TO_FLOAT32 = {"qwen2_5_omni": ("token2wav",)}


def kept_in_float32(model_type: str) -> KeptInFloat32:
    """What the class counted for ``model_type`` keeps in float32 (NOTHING: no tensor)."""
    return KEPT.get(model_type, NOTHING)


def kept_names(model_type: str, dtype: str) -> tuple[str, ...]:
    """The names ``model_type`` loaded at ``dtype`` (our dtype names: bf16, fp16) keeps in float32
    (PreTrainedModel._get_dtype_plan): both lists at fp16, the strict one at bf16, none at another dtype; the modules
    its class casts to float32 itself (CAST_TO_FLOAT32) at both."""
    kept, cast = kept_in_float32(model_type), CAST_TO_FLOAT32.get(model_type, ())
    return (*kept.at_fp16, *kept.always, *cast) if dtype == "fp16" else (*kept.always, *cast) if dtype == "bf16" else ()


@cache
def float32_pattern(model_type: str, dtype: str) -> re.Pattern[str] | None:
    """The pattern a tensor's full name matches when ``model_type`` loaded at ``dtype`` holds it in float32, as
    transformers builds it; None where nothing is kept."""
    names = kept_names(model_type, dtype)
    return re.compile("|".join(f"(?:{name.replace('*', '.*')})" for name in names)) if names else None

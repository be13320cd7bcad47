"""Architectures vLLM 0.33.0 (commit 4ba787ec9) no longer runs: vllm/model_executor/models/registry.py
_PREVIOUSLY_SUPPORTED_MODELS (l. 841), which ModelRegistry's inspection refuses with "Model architecture X was
supported in vLLM until vV, and is not supported anymore" (l. 1230-1238); an address instead of a version names
the out-of-tree plugin that runs it.  fit still sizes such a model by the same rules, and says so in a note."""

from __future__ import annotations

from typing import Any

RETIRED = {
    "MotifForCausalLM": "0.10.2", "Phi3SmallForCausalLM": "0.9.2", "Phi4FlashForCausalLM": "0.10.2",
    "Phi4MultimodalForCausalLM": "0.12.0", "JAISLMHeadModel": "0.22.0", "ErnieModel": "0.23.0",
    "ErnieForSequenceClassification": "0.23.0", "ErnieForTokenClassification": "0.23.0",
    "InternLM2VEForCausalLM": "0.23.0", "QWenLMHeadModel": "0.23.0", "QwenVLForConditionalGeneration": "0.23.0",
    "InternLMForCausalLM": "0.23.0", "DonutForConditionalGeneration": "0.10.2",
    "MllamaForConditionalGeneration": "0.10.2", "XverseForCausalLM": "0.23.0", "Dots1ForCausalLM": "0.23.0",
    "BambaForCausalLM": "0.23.0", "MiniMaxForCausalLM": "0.23.0", "MiniMaxText01ForCausalLM": "0.23.0",
    "MiniMaxM1ForCausalLM": "0.23.0", "MiniMaxVL01ForConditionalGeneration": "0.23.0",
    "BaiChuanForCausalLM": "0.23.0", "BaichuanForCausalLM": "0.23.0", "AquilaModel": "0.24.0",
    "AquilaForCausalLM": "0.24.0", "Grok1ModelForCausalLM": "0.24.0", "Grok1ForCausalLM": "0.24.0",
    "TarsierForConditionalGeneration": "0.24.0", "Tarsier2ForConditionalGeneration": "0.23.0",
    "MantisForConditionalGeneration": "0.24.0", "MusicFlamingoForConditionalGeneration": "0.24.0",
    "AyaVisionForConditionalGeneration": "0.24.0", "TeleChatForCausalLM": "0.25.0",
    "PersimmonForCausalLM": "0.25.0", "FuyuForCausalLM": "0.25.0", "Plamo2ForCausalLM": "0.26.0",
    "OuroForCausalLM": "0.26.0", "ArcticForCausalLM": "0.28.0", "ChameleonForConditionalGeneration": "0.28.0",
    "Cheers": "0.28.0", "CheersForConditionalGeneration": "0.28.0", "Fairseq2LlamaForCausalLM": "0.28.0",
    "FireRedLIDForConditionalGeneration": "0.28.0", "GritLM": "0.28.0", "HCXVisionForCausalLM": "0.28.0",
    "MPTForCausalLM": "0.28.0", "MptForCausalLM": "0.28.0", "RWForCausalLM": "0.28.0",
    "StableLMEpochForCausalLM": "0.28.0", "PrithviGeoSpatialMAE": "0.28.0",
    "BartModel": "https://github.com/vllm-project/bart-plugin",
    "BartForConditionalGeneration": "https://github.com/vllm-project/bart-plugin",
    "Florence2ForConditionalGeneration": "https://github.com/vllm-project/bart-plugin",
    "MBartForConditionalGeneration": "https://github.com/vllm-project/bart-plugin",
}


# Whole classes vLLM 0.33.0 does not name anywhere (checked against the wheel: no quoted name in any of its .py files,
# registry.py's maps of every architecture it runs among them): the encoder-decoders but Whisper (no t5.py, bart.py, ... in
# vllm/model_executor/models) and transformers' Ovis2 (registry.py:566-569 maps only the remote code's Ovis, Ovis2_5,
# Ovis2_6*).  A curated list, not "whatever is missing": vLLM spells some classes otherwise (LightOnOCR...,
# KimiK25...), which a bare lookup would call absent.
NOT_RUN = frozenset({
    "T5ForConditionalGeneration", "MT5ForConditionalGeneration", "UMT5ForConditionalGeneration",
    "LongT5ForConditionalGeneration", "SwitchTransformersForConditionalGeneration", "PegasusForConditionalGeneration",
    "PegasusXForConditionalGeneration", "MarianMTModel", "M2M100ForConditionalGeneration",
    "FSMTForConditionalGeneration", "BlenderbotForConditionalGeneration", "BlenderbotSmallForConditionalGeneration",
    "BigBirdPegasusForConditionalGeneration", "LEDForConditionalGeneration", "MvpForConditionalGeneration",
    "PLBartForConditionalGeneration", "ProphetNetForConditionalGeneration", "NllbMoeForConditionalGeneration",
    "SeamlessM4TForTextToText", "SeamlessM4Tv2ForTextToText", "T5GemmaForConditionalGeneration",
    "T5Gemma2ForConditionalGeneration", "UdopForConditionalGeneration", "Pix2StructForConditionalGeneration",
    "EncoderDecoderModel", "VisionEncoderDecoderModel", "Ovis2ForConditionalGeneration",
    # transformers' multimodal classes with no vLLM model (registry.py has Idefics3 and Blip2, not these)
    "Idefics2ForConditionalGeneration", "IdeficsForVisionText2Text", "InstructBlipForConditionalGeneration",
    "InstructBlipVideoForConditionalGeneration", "BlipForConditionalGeneration", "GitForCausalLM",
    "JanusForConditionalGeneration", "Kosmos2ForConditionalGeneration", "Kosmos2_5ForConditionalGeneration",
    "GotOcr2ForConditionalGeneration", "DeepseekVLForConditionalGeneration", "DeepseekVLHybridForConditionalGeneration",
    "VideoLlavaForConditionalGeneration", "VipLlavaForConditionalGeneration", "VideoLlama3ForConditionalGeneration",
    "EvollaForProteinText2Text", "KyutaiSpeechToTextForConditionalGeneration", "ShieldGemma2ForImageClassification",
})


def _names(arch: Any) -> list[str]:
    """The config's ``architectures``, else the class the family builds: an encoder-decoder's whole class where its
    encoder is counted, else its class."""
    config = (vars(arch).get("_config") or ({},))[0]
    names = list(config.get("architectures") or []) if isinstance(config, dict) else []
    if names:
        return names
    from .. import families

    family = families.get(arch.model_type)
    if family is None:
        return []
    if family.seq2seq is not None and getattr(arch, "towers", None):
        return [family.seq2seq.whole_class]
    return [family.causal_lm_class] if family.causal_lm_class else []


def not_run_note(arch: Any) -> str | None:
    """The note of a model whose whole class vLLM 0.33.0's registry does not name (NOT_RUN); None else."""
    name = next((name for name in _names(arch) if isinstance(name, str) and name in NOT_RUN), None)
    if name is None:
        return None
    return (f"vLLM 0.33.0 does not run {name} (vllm/model_executor/models/registry.py names no such architecture); "
            "these figures are what its sharding rules would give, its encoder and towers listed unclassified")


def retired_note(arch: Any) -> str | None:
    """The note of a model whose architecture (its config's ``architectures``, else its family's class) vLLM 0.33.0
    refuses; None where it runs it or we cannot tell."""
    for name in _names(arch):
        if isinstance(name, str) and name in RETIRED:
            where = RETIRED[name]
            said = (f"only the out-of-tree plugin {where} runs it" if where.startswith("http")
                    else f"the last vLLM to run it was v{where}")
            return (f"vLLM 0.33.0 refuses {name} (vllm/model_executor/models/registry.py _PREVIOUSLY_SUPPORTED_MODELS: "
                    f"{said}); these figures are what its sharding rules would give")
    return None

"""OmniASR-LLM (OmniASRForConditionalGeneration) counted whole: GLM-ASR's layout (families/audio_text.py: the audio
tower under "model.audio_tower", the decoder under "model.language_model", the projector registered after it, then
the head) except that the tower is wav2vec 2.0's feature encoder and post-norm layers (towers/omniasr.py), the
projector one biased Linear, and the head never tied (OmniASRForConditionalGeneration declares no tied weights: the
whole config's and text_config's tie_word_embeddings change nothing).  The decoder is Llama's, read from text_config
by its own table; a config without one gets OmniASRConfig's init_kwargs (a text_config given is read over
LlamaConfig's own defaults).  An audio clip's tokens follow its length: not declared.
transformers 5.24.0 models/omniasr/modeling_omniasr.py (OmniASRModel, OmniASRForConditionalGeneration)."""

from ..towers import Whole
from ..towers.omniasr import omniasr
from ._family import multimodal
from ._projector_last import projector_last
from .llama import FAMILIES as LLAMA

LLAMA_TEXT = next(family for family in LLAMA if family.model_type == "llama")

# The text_config OmniASRConfig builds when a config gives none (its sub_configs_defaults' init_kwargs).
OMNIASR_TEXT = {"model_type": "llama", "vocab_size": 11984, "hidden_size": 4096, "intermediate_size": 2816,
                "max_position_embeddings": 8192, "num_hidden_layers": 12, "num_attention_heads": 8,
                "num_key_value_heads": 8, "rms_norm_eps": 1e-05}

FAMILIES = [
    projector_last(multimodal(LLAMA_TEXT, "omniasr", "transformers 5.24.0 models/omniasr/configuration_omniasr.py "
                              "(OmniASRConfig: audio_config omniasr_audio, text_config llama)",
                              Whole({}, omniasr, audio_config={"model_type": "omniasr_audio"},
                                    tie_word_embeddings=False, tie_keys=(), text_config=OMNIASR_TEXT,
                                    text_types=("llama",)),
                              "OmniASRForConditionalGeneration"),
                   "model.audio_tower", "model.multi_modal_projector"),
]

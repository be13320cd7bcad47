"""The tables transformers builds with ``padding_idx=config.pad_token_id``, by the family whose table reads the config.

torch's nn.Embedding asserts ``-num_embeddings <= padding_idx < num_embeddings`` ("Padding_idx must be within
num_embeddings", torch/nn/modules/sparse.py), and the sinusoid tables of M2M-100's lineage zero their row
``padding_idx`` (``emb[padding_idx, :] = 0``: kosmos2/modeling_kosmos2.py, seamless_m4t/modeling_seamless_m4t.py),
so transformers builds no model whose pad_token_id falls outside one of those tables (Llama with pad_token_id =
vocab_size, HY-V4's default 120002 beside a vocab_size of 40): such a config is refused in one line naming
pad_token_id (issue #15).  A family whose tables ignore pad_token_id (GPT-2's, T5's, Mamba's) counts any value.

Measured with transformers 5.24.0 by scripts/padded_tables.py (each supported type's smallest random config built on
the meta device with pad_token_id = vocab_size); the rows of the tables other than the token table were read from
the modeling files cited.  tests/test_padding_idx.py checks every supported type against transformers.  A whole
multimodal model reads its decoder's pad_token_id from text_config (LlavaForConditionalGeneration builds
LlamaModel from it), so it is listed under its text family.
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple

from .._exceptions import ArchitectureError

TOKENS = (("vocab_size", 0),)
# RobertaEmbeddings and its copies: position_embeddings = nn.Embedding(max_position_embeddings, ..., padding_idx)
POSITIONS = (*TOKENS, ("max_position_embeddings", 0))
# M2M100SinusoidalPositionalEmbedding and its copies: max_position_embeddings + offset 2 rows, row padding_idx zeroed
SINUSOIDS = (*TOKENS, ("max_position_embeddings", 2))


class Padded(NamedTuple):
    default: int | None  # the config class's pad_token_id, read when the config gives none
    rows: tuple[tuple[str, int], ...] = TOKENS  # each table padded: the config key of its rows, plus a fixed count


PADDED: dict[str, Padded] = {
    "afmoe": Padded(None),
    "albert": Padded(0),
    "apertus": Padded(3),
    "apertus1p5_text": Padded(3),
    "arcee": Padded(None),
    "aria_text": Padded(2),
    "axk1": Padded(None),
    "axk2": Padded(None),
    "bailing_hybrid": Padded(156892),
    "bamba": Padded(0),
    "bart": Padded(1),
    "beam": Padded(None),
    "bert": Padded(0),
    "bert-generation": Padded(0),
    "big_bird": Padded(0),
    "bigbird_pegasus": Padded(0),
    "biogpt": Padded(1),
    "bitnet": Padded(None),
    "blenderbot": Padded(0),
    "blenderbot-small": Padded(0),
    "blip": Padded(0),
    "camembert": Padded(1, POSITIONS),
    "chameleon": Padded(None),
    "cohere": Padded(0),
    "cohere2": Padded(0),
    "cohere2_moe": Padded(0),
    "cohere_compass_text": Padded(0),
    "convbert": Padded(1),
    "cosmos3_edge": Padded(0),
    "cwm": Padded(None),
    "data2vec-text": Padded(1, POSITIONS),
    "dbrx": Padded(None),
    "deberta": Padded(0),
    "deberta-v2": Padded(0),
    "deepseek_v2": Padded(None),
    "deepseek_v3": Padded(None),
    "deepseek_v32": Padded(None),
    "deepseek_v4": Padded(None),
    "diffllama": Padded(None),
    # diffusion_gemma/modeling_diffusion_gemma.py: the encoder's and the decoder's embed_tokens (text_config's pad)
    "diffusion_gemma": Padded(0),
    "distilbert": Padded(0),
    "doge": Padded(None),
    "dory": Padded(None),
    "dots1": Padded(None),
    "dots3_note_text": Padded(151659),
    "electra": Padded(0),
    "emu3_text_model": Padded(151643),  # (the whole emu3 reads it from text_config)
    "ernie": Padded(0),
    "ernie4_5": Padded(0),
    "ernie4_5_moe": Padded(0),
    "esm": Padded(None, POSITIONS),
    "eurobert": Padded(128001),
    "exaone": Padded(0),
    "exaone4": Padded(None),
    "exaone_moe": Padded(0),
    "falcon_h1": Padded(0),
    "flaubert": Padded(2),
    "flex_olmo": Padded(100277),
    "flint": Padded(None),
    "fnet": Padded(3),
    # fsmt/modeling_fsmt.py: its two token tables (its position tables, max_position_embeddings + pad_token_id + 1
    # rows, padded too: families/fsmt.py refuses a pad_token_id outside them)
    "fsmt": Padded(1, (("src_vocab_size", 0), ("tgt_vocab_size", 0))),
    "funnel": Padded(None),
    "gemma": Padded(0),
    "gemma2": Padded(0),
    "gemma3_text": Padded(0),
    # gemma3n/modeling_gemma3n.py Gemma3nTextModel: embed_tokens_per_layer pads at pad_token_id too
    "gemma3n": Padded(0, (*TOKENS, ("vocab_size_per_layer_input", 0))),
    "gemma3n_text": Padded(0, (*TOKENS, ("vocab_size_per_layer_input", 0))),
    "gemma4": Padded(0),
    "gemma4_assistant": Padded(None),
    "gemma4_text": Padded(0),
    "gemma4_unified_assistant": Padded(0),
    "gemma4_unified_text": Padded(0),
    "git": Padded(0),
    "glm": Padded(151329),
    "glm4": Padded(151329),
    "glm46v": Padded(None),
    "glm4_moe": Padded(None),
    "glm4_moe_lite": Padded(None),
    "glm4v": Padded(None),
    "glm4v_moe": Padded(None),
    "glm_moe_dsa": Padded(None),
    "glm_ocr": Padded(None),
    "glmasr": Padded(None),
    "glmga": Padded(None),
    "gpt_oss": Padded(None),
    "granite": Padded(None),
    "granite_docling": Padded(100256),
    "granite_swa": Padded(None),
    "granitemoe": Padded(None),
    "granitemoe_swa": Padded(None),
    "granitemoehybrid": Padded(None),
    "granitemoeshared": Padded(None),
    "gte": Padded(1),
    "helium": Padded(3),
    "hrm_text": Padded(None),
    "hunyuan_v1_dense": Padded(0),
    "hunyuan_v1_moe": Padded(0),
    "hunyuan_vl": Padded(0),
    "hy_v3": Padded(None),
    "hy_v4": Padded(120002),
    "hy_v4_vl": Padded(120002),
    "hyperclovax": Padded(None),
    "inkling2_loop_text": Padded(None),
    "inkling2_text": Padded(None),
    "inkling_text": Padded(None),
    "idefics": Padded(0),  # IdeficsDecoupledEmbedding(vocab_size, ..., padding_idx): nn.Embedding's check after its own
    "internlm3": Padded(2),
    "iquestcoder": Padded(None),
    "jais2": Padded(None),
    "jamba": Padded(0),
    "jetmoe": Padded(None),
    "jina_embeddings_v3": Padded(1),
    "kimi_linear": Padded(163839),
    "kolibri1": Padded(None),
    "kosmos-2": Padded(1, SINUSOIDS),
    "kosmos-2.5": Padded(1, SINUSOIDS),
    "laguna": Padded(None),
    "lara_mini": Padded(None),
    "layoutlm": Padded(0),
    "led": Padded(1),
    "lfm2": Padded(0),
    "lfm2_moe": Padded(0),
    "lfm3": Padded(124893),
    "llama": Padded(None),
    "llama4_text": Padded(None),
    "longcat_flash": Padded(None),
    "longformer": Padded(1, POSITIONS),
    "luke": Padded(1, POSITIONS),
    "m2m_100": Padded(1, SINUSOIDS),
    "marian": Padded(58100),
    "mbart": Padded(1),
    "megatron-bert": Padded(0),
    "mellum": Padded(None),
    "mimo_v2_flash": Padded(None),
    "minicpm3": Padded(None),
    "minimax": Padded(None),
    "minimax_m2": Padded(None),
    "minimax_m3_vl_text": Padded(None),
    "ministral": Padded(None),
    "ministral3": Padded(11),
    "mistral": Padded(None),
    "mistral_large4": Padded(None),
    "mistral4": Padded(11),
    "mixtral": Padded(None),
    # mllama/modeling_mllama.py MllamaTextModel: nn.Embedding(vocab_size + 8, hidden_size, padding_idx)
    "mllama": Padded(128004, (("vocab_size", 8),)),
    "mobilebert": Padded(0),
    "modernbert": Padded(50283),
    "modernbert-decoder": Padded(50283),
    # moshi/modeling_moshi.py MoshiModel: nn.Embedding(vocab_size + 1, hidden_size, padding_idx)
    "moshi": Padded(None, (("vocab_size", 1),)),
    "mra": Padded(1),
    "muse_glimmer": Padded(None),
    "muse_spark": Padded(None),  # MuseSparkTextModel's table, as Glimmer's (measured at integration)
    "pp_formulanet": Padded(1),  # PPFormulaNetScaledWordEmbedding (PPFormulaNetTextConfig: 1)
    "step3p7": Padded(1),  # Step3p7TextConfig's pad_token_id 1, Laguna's table (measured at integration)
    "mvp": Padded(1),
    "nanochat": Padded(1),
    "nemotron": Padded(None),
    "nllb-moe": Padded(1, SINUSOIDS),
    "nomic_bert": Padded(0),
    "nystromformer": Padded(1),
    "olmo": Padded(1),
    "olmo2": Padded(1),
    "olmo3": Padded(1),
    "olmo_hybrid": Padded(100277),
    "olmoe": Padded(1),
    "opt": Padded(1),
    "paddleocr_vl": Padded(0),
    "pegasus": Padded(0),
    "pegasus_x": Padded(0),
    "persimmon": Padded(None),
    "phi": Padded(None),
    "phi3": Padded(32000),
    "phi4_multimodal": Padded(199999),
    "phimoe": Padded(None),
    "plbart": Padded(1),
    "prophetnet": Padded(0, POSITIONS),
    "qwen2": Padded(None),
    "qwen2_5_omni_thinker": Padded(None),
    "qwen2_5_vl": Padded(None),
    "qwen2_moe": Padded(None),
    "qwen2_vl": Padded(None),
    "qwen3": Padded(None),
    "qwen3_5_moe_text": Padded(None),
    "qwen3_5_text": Padded(None),
    "qwen3_moe": Padded(None),
    "qwen3_next": Padded(None),
    "qwen3_omni_moe_thinker": Padded(None),
    "qwen3_vl": Padded(None),
    "qwen3_vl_moe": Padded(None),
    "qwen4_exp_text": Padded(None),
    "recurrent_gemma": Padded(0),
    "rembert": Padded(0),
    "roberta": Padded(1, POSITIONS),
    "roberta-prelayernorm": Padded(1, POSITIONS),
    # roc_bert/modeling_roc_bert.py RoCBertEmbeddings: its pronunciation and shape tables pad at pad_token_id too
    "roc_bert": Padded(0, (*TOKENS, ("pronunciation_vocab_size", 0), ("shape_vocab_size", 0))),
    "roformer": Padded(0),
    "sarvam_mla": Padded(None),
    "sarvam_moe": Padded(0),
    "seamless_m4t": Padded(0, SINUSOIDS),
    "seamless_m4t_v2": Padded(0, SINUSOIDS),
    "seed_oss": Padded(1),
    "smollm3": Padded(128004),
    "solar_open": Padded(None),
    "squeezebert": Padded(0),
    "stablelm": Padded(None),
    "starcoder2": Padded(None),
    "tapas": Padded(0),
    "trocr": Padded(1),
    "ultrabert": Padded(0),
    "unlimited_ocr": Padded(None),
    "vaultgemma": Padded(0),
    "voxtral": Padded(None),
    "voxtral_realtime": Padded(None),
    "whisper": Padded(50256),
    "xglm": Padded(1, SINUSOIDS),
    "xlm": Padded(2),
    "xlm-roberta": Padded(1, POSITIONS),
    "xlm-roberta-xl": Padded(1, POSITIONS),
    "xmod": Padded(1, POSITIONS),
    "yoso": Padded(1),
    "youtu": Padded(None),
    "zamba": Padded(0),
    "zamba2": Padded(0),
    "zaya": Padded(0),
    # measured this landing (pad_token_id = vocab_size refused by transformers, vocab_size - 1 built); the config
    # classes' own pad_token_id is None
    "deepseek_ocr2": Padded(None),
    "ernie4_5_vl_moe": Padded(None),
    "evolla": Padded(None),
    "granite4_vision": Padded(None),
    "glm5_next": Padded(154820),  # Glm5NextTextConfig's pad_token_id, read from text_config
}


def pad_problem(model_type: str, merged: Mapping[str, Any], padded: Padded | None = None) -> str | None:
    """Why transformers refuses ``merged``'s pad_token_id for ``model_type`` (None: it builds it); ``padded``: the
    tables of a section a family reads itself (T5Gemma's encoder and decoder)."""
    padded = padded or PADDED.get(model_type)
    if padded is None:
        return None
    pad = merged.get("pad_token_id", padded.default)
    if type(pad) is not int:  # null: no padding row (a non-integer is the design's refusal, not this one)
        return None
    for key, extra in padded.rows:
        rows = merged.get(key)
        if type(rows) is not int:
            continue  # a missing or bad size is refused under its own key
        rows += extra
        if not -rows <= pad < rows:
            table = f"{key} = {merged[key]:,}" + (f" + {extra}" if extra else "")
            return (f"{pad:,} is outside the {rows:,} rows of a table transformers builds with padding_idx = "
                    f"pad_token_id ({table}; nn.Embedding refuses it)")
    return None


def check_pad_token_id(model_type: str, merged: Mapping[str, Any], key: str, where: str) -> None:
    if (problem := pad_problem(model_type, merged)) is not None:
        raise ArchitectureError(key, problem, where)

"""The families whose config class refuses an odd head_dim that RoPE rotates whole, and the refusal.

transformers 5.24.0's RotaryEmbeddingConfigMixin.validate_rope (modeling_rope_utils.py), run when a config is made,
raises "RoPE requires an even rotary dimension" where the config's head_dim attribute is > 4 and odd and
int(head_dim * partial_rotary_factor) == head_dim for one of its rope_parameters' layer types (a heterogeneous
config skips it; head_dim <= 4 is let through for test checkpoints).  paramledger counted such configs (Llama with
head_dim 5): they are refused in one line naming head_dim (issue #15).

EVEN_ROTARY lists the families (by the family whose table reads the config: a whole model's text family) whose
config, given head_dim 5, transformers refuses so: measured by making each supported type's smallest random config
(tests/_family_configs.py) with head_dim 5.  The others have no rope_parameters (GPT-2), keep head_dim for another
size (DeepSeek-V2's attribute is qk_rope_head_dim), rotate a part (GLM's 0.5) or are heterogeneous (Gemma 4:
GEMMA4_LINE below).  NO_ROPE_FIELD, AS_GIVEN and TOP_NO_ROPE_FIELD hold the classes that validate a given
rope_parameters (or their own default) as given, factor its own else 1.0.
tests/test_even_rotary.py checks every supported type against transformers.
"""

from __future__ import annotations

from typing import Any, Mapping

from .._exceptions import ArchitectureError

EVEN_ROTARY = frozenset({
    "afmoe", "apertus", "apertus1p5_text", "arcee", "aria_text", "axk1", "bitnet", "blt", "chameleon", "cohere",
    "cohere2", "cohere2_moe", "cohere_compass_text", "cwm", "dbrx", "deepseek_v3", "diffllama", "doge", "dory",
    "dots1", "emu3_text_model", "ernie4_5", "ernie4_5_moe", "esmc", "eurobert", "exaone", "exaone4", "exaone_moe",
    "falcon_h1",
    "flex_olmo", "flint", "gemma", "gemma2", "gemma3_text", "gemma3n", "gemma3n_text", "glm46v", "glm4_moe_lite",
    "glm4v", "glm_ocr", "glmasr", "glmga", "gpt_neox_japanese", "gpt_oss", "granite", "granite_docling",
    "granite_swa", "granitemoe", "granitemoe_swa", "granitemoehybrid", "granitemoeshared", "gte", "helium",
    "hrm_text", "hunyuan_v1_dense", "hunyuan_v1_moe", "hunyuan_vl", "hy_v3", "hyperclovax", "idefics",
    "internlm3",
    "iquestcoder", "jais2", "jetmoe", "jina_embeddings_v3", "kolibri1", "kyutai_speech_to_text", "lara_mini", "lfm2",
    "lfm2_moe", "lfm3", "llama", "llama4_text", "longcat_flash", "mellum", "minimax", "minimax_m2",
    "minimax_m3_vl_text", "ministral", "ministral3", "mistral", "mixtral", "mllama", "modernbert",
    "modernbert-decoder", "molmo2", "moshi", "muse_glimmer", "muse_spark",
    "nanochat", "nomic_bert", "olmo", "olmo2", "olmo3",
    "olmo_hybrid", "olmoe",
    "paddleocr_vl", "phi3", "phi4_multimodal", "phimoe", "qwen2", "qwen2_5_omni_thinker", "qwen2_5_vl", "qwen2_moe",
    "qwen2_vl", "qwen3", "qwen3_moe", "qwen3_omni_moe_thinker", "qwen3_vl", "qwen3_vl_moe", "qwen4_exp_text",
    "sarvam_moe", "seed_oss", "smollm3", "solar_open", "starcoder2", "ultrabert", "vaultgemma", "voxtral",
    "voxtral_realtime", "youtu", "zamba2",
    "ernie4_5_vl_moe", "evolla", "granite4_vision",  # (measured by scripts/even_rotary_types.py)
    "cosmos3_edge",  # (head_dim 7 with its class mrope_section [1, 1, 1]: 5 is refused for the sections first)
})

# Those whose config sets its head_dim attribute to qk_rope_head_dim (MLA: DeepseekV3Config.__post_init__ and its kin)
# before validate_rope reads it: an odd qk_rope_head_dim > 4 rotated whole is refused (measured by the smallest config
# of each type that spells qk_rope_head_dim, at 5 and 7; Mistral Large 4's own rule says it, families/mistral_large4.py)
QK_ROPE_HEAD = frozenset({"axk1", "bailing_hybrid", "deepseek_v2", "deepseek_v3", "glm4_moe_lite", "minicpm3",
                          "sarvam_mla", "youtu"})
# of those, where a head_dim given wins: no field of the class, set from the kwargs after __post_init__ (AXK1,
# DeepSeek-V3, Youtu), or GLM-4-MoE-Lite's attribute_map onto qk_rope_head_dim (configuration_glm4_moe_lite.py line 78)
HEAD_DIM_WINS = frozenset({"axk1", "deepseek_v3", "glm4_moe_lite", "youtu"})


def rope_head_key(model_type: str, merged: Mapping[str, Any], spelt: str) -> str:
    """The config key whose value validate_rope reads as head_dim: ``spelt``, or qk_rope_head_dim (QK_ROPE_HEAD)."""
    if model_type in QK_ROPE_HEAD and not (model_type in HEAD_DIM_WINS and merged.get(spelt) is not None):
        return "qk_rope_head_dim"
    return spelt


# Those whose config, given no head_dim, sets the attribute to hidden_size // num_attention_heads before validate_rope
# reads it (LlamaConfig.__post_init__): measured so with hidden_size = 5 × num_attention_heads.  Other classes give
# head_dim a default of their own (Qwen3's 128) or set it after the check.
DERIVED = frozenset({
    "arcee", "aria_text", "cohere2", "cohere_compass_text", "diffllama", "esmc", "eurobert", "exaone", "falcon",
    "glmasr", "hyperclovax", "jais2", "kyutai_speech_to_text", "llama", "mistral", "moshi", "nomic_bert",
    "qwen3_vl_moe", "ultrabert", "unlimited_ocr",
    "deepseek_ocr2",
    "zamba2",  # (its attention_head_dim, 2 × hidden_size // num_attention_heads: the attention reads both halves)
})


# Those whose config class declares no rope_parameters (T5, BERT, GPT-2, the Inkling texts ...): PreTrainedConfig's
# __post_init__ standardizes none (configuration_utils.py lines 472-473: only where the class has the attribute) and
# keeps a given one as a plain attribute (lines 498-505); validate_rope still reads it, with the config's head_dim
# attribute (T5's d_kv through attribute_map) and the given dict's own partial_rotary_factor, else 1.0.  Measured
# by scripts/even_rotary_types.py: the head-size key odd, made without rope_parameters, refused given a flat one.
NO_ROPE_FIELD = frozenset({
    "albert", "bart", "bert", "bert-generation", "big_bird", "bigbird_pegasus", "biogpt", "blenderbot",
    "blenderbot-small", "blip", "bloom", "camembert", "codegen", "convbert", "ctrl", "data2vec-text", "deberta",
    "distilbert", "electra", "ernie", "esm", "falcon_mamba", "flaubert", "fnet", "fsmt", "git", "gpt-sw3", "gpt2",
    "gpt_bigcode", "gpt_neo", "gptj", "ibert", "inkling2_loop_text", "inkling2_text", "inkling_text", "jamba",
    "kimi_linear", "kosmos-2", "kosmos-2.5", "layoutlm", "led", "longformer", "longt5", "luke", "m2m_100", "mamba",
    "marian", "mbart", "megatron-bert", "mobilebert", "mpnet", "mpt", "mra", "mt5", "mvp", "nemotron_h", "nllb-moe",
    "nystromformer", "openai-gpt", "opt", "pegasus", "pegasus_x", "perceiver", "plbart", "pp_formulanet",
    "prophetnet", "rembert", "roberta", "roberta-prelayernorm", "roc_bert", "roformer", "rwkv", "seamless_m4t",
    "seamless_m4t_v2", "squeezebert", "t5", "t5gemma", "t5gemma2", "tapas", "trocr", "umt5", "whisper", "xglm", "xlm",
    "xlm-roberta", "xlm-roberta-xl", "xlnet", "xlstm", "xmod", "yoso", "zamba",
    "mamba2",  # (found on random configs: scripts/rope_parity.py --examples 8)
})
# of those, the ones whose config declares layer_types (Inkling's hybrid, Jamba's linear_attention ...): a given dict
# is read layer-typed where its keys are among them (nested_rope_parameter_keys), which the design does not hold, so
# these are refused only where every reading refuses (the dict's own factor and every entry's)
NO_ROPE_FIELD_LAYER_TYPED = frozenset({"falcon_mamba", "inkling2_loop_text", "inkling2_text", "inkling_text", "jamba",
                                       "kimi_linear", "mamba", "mamba2", "nemotron_h", "zamba"})
# Gemma 4's text configs (Gemma4TextConfig and the classes copied from it): heterogeneous, so validate_rope skips the
# even check (modeling_rope_utils.py line 885), unless the config gives per_layer_config null: __post_init__ then
# makes none (configuration_gemma4.py lines 208-221 make one for the full layers only where the key is absent)
GEMMA4_LINE = frozenset({"gemma4_text", "gemma4_unified_text", "gemma4_assistant", "gemma4_unified_assistant",
                         "diffusion_gemma"})
# Those whose class keeps a given rope_parameters as given (its convert_rope_params_to_dict returns at once: Beam's,
# configuration_beam.py lines 131-133; Laguna's 146-147; MiMo-V2-Flash's 136-137; ZAYA's 113-118), replacing the class
# default that held each type's partial_rotary_factor: validate_rope reads each entry's own factor, else 1.0
AS_GIVEN = frozenset({"beam", "laguna", "mimo_v2_flash", "zaya", *GEMMA4_LINE})
# each one's class default (None given), as validate_rope reads it: the entry's factor, else 1.0; an entry None is
# a type without RoPE (configuration_beam.py lines 123-128, configuration_laguna.py 136-141,
# configuration_mimo_v2_flash.py 123-126, configuration_zaya.py 96-109, configuration_gemma4.py 201-206)
CLASS_ROPE = {
    "beam": {"sliding_attention": {}, "full_attention": None},
    "laguna": {"full_attention": {"partial_rotary_factor": 0.5}, "sliding_attention": {"partial_rotary_factor": 1.0}},
    "mimo_v2_flash": {"full_attention": {"partial_rotary_factor": 0.334},
                      "sliding_attention": {"partial_rotary_factor": 0.334}},
    "zaya": {"hybrid": {"partial_rotary_factor": 0.5}, "hybrid_sliding": {"partial_rotary_factor": 0.5}},
    **dict.fromkeys(GEMMA4_LINE, {"sliding_attention": {}, "full_attention": {"partial_rotary_factor": 0.25}}),
}
# The whole models whose config, given the text at its top level, also keeps every key as its own (Dots3NoteConfig's
# __post_init__ hands its kwargs to the text config and to PreTrainedConfig, configuration_dots3_note.py lines 406-411)
# and declares no rope_parameters: a rope_parameters and head_dim given there are validated on it too
TOP_NO_ROPE_FIELD = frozenset({"dots3_note"})


def _whole(head_dim: int, factor: Any) -> bool:
    """Rotated whole: int(head_dim * factor) == head_dim (validate_rope's test), for a numeric factor."""
    return type(factor) in (int, float) and int(head_dim * factor) == head_dim


def given_rope_problem(model_type: str, rope: Any, head_dim: Any, layer_types: Any = None,
                       default: bool = False) -> str | None:
    """Why validate_rope refuses ``head_dim`` with the rope_parameters ``rope`` as given (not standardized): flat, its
    own partial_rotary_factor (else 1.0); layer-typed (keys among ``layer_types``), each such entry's (None: unknown,
    refused only where every reading refuses).  ``default``: ``rope`` is the class's own."""
    if not isinstance(rope, Mapping) or not rope:
        return None  # (None or {}: validate_rope reads nothing)
    if type(head_dim) is not int or head_dim <= 4 or head_dim % 2 == 0:
        return None
    if layer_types is not None:
        typed = {key: rope[key] for key in rope if key in layer_types}
        readings = {key: entry for key, entry in typed.items() if isinstance(entry, Mapping)} if typed else {"": rope}
        whole = [key for key, entry in readings.items() if _whole(head_dim, entry.get("partial_rotary_factor", 1.0))]
    elif any(value is None for value in rope.values()):
        return None  # (an entry None is skipped where the dict is read layer-typed: unknown here)
    else:
        readings = {"": rope, **{key: value for key, value in rope.items() if isinstance(value, Mapping)}}
        every = all(_whole(head_dim, entry.get("partial_rotary_factor", 1.0)) for entry in readings.values())
        whole = [""] if every else []
    if not whole:
        return None
    factor = readings[whole[0]].get("partial_rotary_factor", 1.0)
    said = f"partial_rotary_factor {factor}{f' for {whole[0]}' if whole[0] else ''}"
    whose = (f"{model_type}'s default rope_parameters" if default else f"the rope_parameters given: {model_type}'s "
             "config class validates it as given, with no default factor")
    return f"{head_dim} is odd and rotated whole ({said}, {whose}): RoPE rotates pairs (transformers' validate_rope " \
           "refuses it)"


def _mixer_types(arch: Any, other: str, other_key: str, attention: str = "full_attention") -> list[str]:
    """``other`` for the layers ``other_key`` lists (a mixer kind's layers), ``attention`` for the rest."""
    listed = set(getattr(arch, other_key))
    return list(dict.fromkeys(other if i in listed else attention for i in range(arch.num_hidden_layers)))


def _nemotron_h_types(arch: Any) -> list[str]:
    """NemotronHConfig.layers_block_type (its layer_types: attribute_map), legacy names remapped: linear_attention for
    a Mamba layer, moe or mlp for a layer of an FFN alone, full_attention for an attention layer."""
    mamba, bare = set(arch.mamba_layers), set(arch.layers_without_mixer)
    dense = set(arch.mlp_only_layers) if arch.num_experts else set(range(arch.num_hidden_layers))
    return list(dict.fromkeys("linear_attention" if i in mamba else ("mlp" if i in dense else "moe") if i in bare
                              else "full_attention" for i in range(arch.num_hidden_layers)))


def _inkling_types(arch: Any) -> list[str]:
    """Inkling's layer_types: hybrid for a full-attention layer, hybrid_sliding for a sliding one."""
    kinds = arch.layer_types or ("sliding_attention" if arch.sliding_window else "full_attention",)
    return list(dict.fromkeys("hybrid_sliding" if kind == "sliding_attention" else "hybrid" for kind in kinds))


# the layer types each NO_ROPE_FIELD_LAYER_TYPED class's config declares (a rope_parameters key among them is read
# layer-typed: nested_rope_parameter_keys), off the design; measured against transformers' layer_types on random
# configs (scripts/rope_parity.py's mixed-factor probe, docs/notes/helper-dec.md)
NO_ROPE_FIELD_TYPES: dict[str, Any] = {
    **dict.fromkeys(("mamba", "mamba2", "falcon_mamba"), lambda arch: ["linear_attention"]),  # (a property)
    "jamba": lambda arch: _mixer_types(arch, "linear_attention", "mamba_layers"),
    "kimi_linear": lambda arch: _mixer_types(arch, "linear_attention", "kda_layers"),
    "zamba": lambda arch: _mixer_types(arch, "hybrid", "shared_block_layers", "linear_attention"),
    "nemotron_h": _nemotron_h_types,
    **dict.fromkeys(("inkling_text", "inkling2_text", "inkling2_loop_text"), _inkling_types),
}


# of the NO_ROPE_FIELD classes, those whose config has no max_position_embeddings (yarn's and llama3's validation read
# it) and those with no hidden_size or num_attention_heads (longrope's reads hidden_size // num_attention_heads, even
# beside a head_dim): AttributeError as the config is made (measured on each type's smallest config)
NO_POSITIONS = frozenset({"bloom", "falcon_mamba", "longt5", "mamba", "mamba2", "mpt", "mt5", "t5", "t5gemma",
                          "t5gemma2", "umt5", "xlstm"})
NO_HEAD_SPLIT = frozenset({"falcon_mamba", "fnet", "mamba", "mamba2", "perceiver", "rwkv", "t5gemma", "t5gemma2",
                           "xlstm"})
NEEDS_ATTRIBUTES = {**dict.fromkeys(("yarn", "llama3"), ("max_position_embeddings", NO_POSITIONS)),
                    "longrope": ("hidden_size and num_attention_heads", NO_HEAD_SPLIT)}


def given_rope_keys_problem(model_type: str, rope: Any, declared: Any) -> str | None:
    """Why a class that declares no rope_parameters (NO_ROPE_FIELD: nothing standardizes the dict given) refuses it
    as validate_rope reads it (layer-typed where a key is among ``declared``, else flat): an entry whose rope_type
    lacks a key its _validate_*_rope_parameters requires (KeyError; rope_theta and original_max_position_embeddings
    are not filled in here), or an entry whose validation reads an attribute the config does not have
    (NEEDS_ATTRIBUTES: AttributeError)."""
    if not isinstance(rope, Mapping) or not rope:
        return None
    typed = [key for key in rope if key in declared]
    readings = {key: rope[key] for key in typed} if typed else {"": rope}
    for name, entry in readings.items():
        if not isinstance(entry, Mapping):
            continue
        kind = entry.get("rope_type", entry.get("type", "default"))
        if kind not in ROPE_REQUIRES:
            continue  # (validate_rope only warns; no rotary of these classes reads it)
        needed = (*ROPE_REQUIRES[kind], *(("original_max_position_embeddings",) if kind in (
            "yarn", "llama3", "longrope") else ()), *(("rope_theta",) if kind in ("llama3", "proportional") else ()))
        missing = [key for key in needed if key not in entry]
        said = f" for {name}" if name else ""
        if missing:
            return (f"rope_type {kind!r}{said} requires {', '.join(missing)} (transformers' validate_rope refuses it "
                    "without: this config class fills none of them in)")[:300]
        attributes, lacking = NEEDS_ATTRIBUTES.get(kind, ("", ()))
        if model_type in lacking:
            return (f"rope_type {kind!r}{said} is validated against {attributes}, which {model_type}'s config class "
                    "does not have (transformers refuses the config)")
    return None


def odd_rotary_problem(model_type: str, merged: Mapping[str, Any], arch: Any, spelt: str = "head_dim",
                       layer_types: Any = None) -> str | None:
    """Why transformers refuses the config's head_dim, ``spelt`` in the config (None: it makes the config).
    ``layer_types``: the layer types the config declares, under the names its rope_parameters gives them."""
    if model_type in NO_ROPE_FIELD:
        typed = NO_ROPE_FIELD_TYPES.get(model_type)
        return given_rope_problem(model_type, merged.get("rope_parameters"), merged.get(spelt),
                                  () if typed is None else typed(arch))
    if model_type in AS_GIVEN:
        if model_type in GEMMA4_LINE and not ("per_layer_config" in merged and merged["per_layer_config"] is None):
            return None  # (heterogeneous)
        rope = merged.get("rope_parameters")
        rope = CLASS_ROPE[model_type] if rope is None or not isinstance(rope, Mapping) else rope
        return given_rope_problem(model_type, rope, merged.get(spelt), layer_types, rope == CLASS_ROPE[model_type])
    spelt = rope_head_key(model_type, merged, spelt)
    head_dim, said = merged.get(spelt), ""  # the config's attribute: given, else hidden_size // heads
    if head_dim is not None:
        if type(head_dim) is not int or head_dim <= 4 or head_dim % 2 == 0 or (
                model_type not in EVEN_ROTARY and model_type not in QK_ROPE_HEAD):
            return None  # (most configs: an even head_dim, one look)
    elif model_type not in DERIVED:
        return None
    if head_dim is None:
        head_dim = arch.head_dim or arch.hidden_size // arch.num_attention_heads
        said = (f" (hidden_size {arch.hidden_size:,} // num_attention_heads {arch.num_attention_heads:,})"
                if head_dim == arch.hidden_size // arch.num_attention_heads else
                f" (derived from hidden_size {arch.hidden_size:,} and num_attention_heads "
                f"{arch.num_attention_heads:,})")
    if type(head_dim) is not int or head_dim <= 4 or head_dim % 2 == 0:
        return None
    factors = [arch.partial_rotary_factor]
    if arch.sliding_partial_rotary_factor is not None:
        factors.append(arch.sliding_partial_rotary_factor)
    factor = next((factor for factor in factors if int(head_dim * factor) == head_dim), None)
    if factor is None:
        return None
    return (f"{head_dim}{said} is odd and rotated whole (partial_rotary_factor {factor}): RoPE rotates pairs "
            "(transformers' validate_rope refuses it)")


def check_odd_rotary(model_type: str, merged: Mapping[str, Any], arch: Any, key: str, where: str,
                     spelt: str = "head_dim", layer_types: Any = None) -> None:
    if (problem := odd_rotary_problem(model_type, merged, arch, spelt, layer_types)) is not None:
        if (read := rope_head_key(model_type, merged, spelt)) != spelt:  # (the config's head_dim is qk_rope_head_dim)
            key = key.replace(spelt, read)
        raise ArchitectureError(key, problem, where)


# The rope_types whose init function transformers 5.24.0 holds (modeling_rope_utils.py ROPE_INIT_FUNCTIONS, lines
# 669-676), beside "default" (the rotary class's own compute_default_rope_parameters), and the keys each one's
# _validate_*_rope_parameters requires (lines 921-1125) that standardize_rope_params does not fill in itself (rope_type,
# rope_theta and, for llama3, yarn and longrope, original_max_position_embeddings: lines 779-866)
ROPE_REQUIRES = {"default": (), "linear": ("factor",), "dynamic": ("factor",), "yarn": ("factor",),
                 "longrope": ("short_factor", "long_factor"),
                 "llama3": ("factor", "low_freq_factor", "high_freq_factor"), "proportional": ()}


def inv_freq_length(rope_type: str, head_dim: Any, factor: float, default_whole: bool = False) -> Any:
    """How many entries ``rope_type``'s init function gives inv_freq (modeling_rope_utils.py) at ``head_dim`` rotated by
    ``factor`` (dim = int(head_dim × factor)): torch.arange(0, dim, 2), ceil(dim / 2), except
    - yarn (_compute_yarn_parameters, lines 471-483): ceil(dim / 2) frequencies times a ramp of dim // 2, broadcast:
      dim 1 gives 0 entries (1 against 0), dim 3 gives 2 (2 against 1); an odd dim >= 5 fails (rope_width_problem);
    - proportional (lines 247-266): int(factor × head_dim // 2) rotated angles padded with zeros to head_dim // 2;
    - default where the class's own compute_default_rope_parameters reads head_dim whole (``default_whole``:
      MistralLarge4TextRotaryEmbedding, modeling_mistral_large4.py lines 101-117).
    A symbolic head_dim (paramledger formula) rotated whole: ceil(head_dim / 2)."""
    if type(head_dim) is not int:
        return (head_dim + 1) // 2
    if rope_type == "default" and default_whole:
        return (head_dim + 1) // 2
    if rope_type == "proportional":
        return max(int(factor * head_dim // 2), head_dim // 2)
    dim = int(head_dim * factor)
    if rope_type == "yarn" and dim == 1:
        return 0
    return (dim + 1) // 2


def rope_width_problem(rope: Mapping[str, Any], head_dim: int, factor: float) -> str | None:
    """Why transformers 5.24.0 cannot make the config's rotary from the flat ``rope`` (its rope_type's required keys
    missing: _check_received_keys' KeyError as the config is made; an init function that fails at that width; a
    rope_type with no init function: ROPE_INIT_FUNCTIONS' KeyError)."""
    kind = rope.get("rope_type", rope.get("type", "default"))
    if kind not in ROPE_REQUIRES:
        return f"rope_type {kind!r} is none transformers 5.24.0 computes (ROPE_INIT_FUNCTIONS has no such entry)"[:200]
    missing = [key for key in ROPE_REQUIRES[kind] if key not in rope]
    if missing:
        return f"rope_type {kind!r} requires {', '.join(missing)} (transformers' validate_rope refuses it without)"
    dim = int(head_dim * factor)
    if kind == "yarn" and dim % 2 and dim >= 5:
        return (f"yarn at an odd rotary width ({dim}) fails: its {(dim + 1) // 2} frequencies and its ramp of "
                f"{dim // 2} do not broadcast (_compute_yarn_parameters)")
    if kind == "dynamic" and dim == 2:
        return "dynamic at a rotary width of 2 fails: _compute_dynamic_ntk_parameters divides by dim - 2"
    if kind == "longrope":
        short = rope["short_factor"]
        count, pairs = (len(short) if isinstance(short, (list, tuple)) else None), (dim + 1) // 2
        if count not in (1, pairs):  # (a list of 1 broadcasts; at pairs 1 the model builds count entries, and its
            # forward then fails: cos and sin are 2 × count wide against the rotated width; not counted)
            return (f"longrope's short_factor has {count} entries where the rotary width {dim} makes {pairs} "
                    "frequencies (_compute_longrope_parameters: transformers cannot build or run it)")
    return None

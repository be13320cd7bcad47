"""The families whose transformers classes take rope_parameters only flat, or only layer-typed, and the refusal.

A config's rope_parameters is flat ({"rope_type": ..., "rope_theta": ...}) or layer-typed (one such entry per layer
type: {"full_attention": {...}, "sliding_attention": {...}}).  transformers 5.24.0 reads it as layer-typed only where
its keys are layer types the config declares (RotaryEmbeddingConfigMixin.nested_rope_parameter_keys,
modeling_rope_utils.py lines 764-773); it then fills each entry (standardize_rope_params, lines 806-866) and the
model's rotary reads what its class expects:

- NESTED_REFUSED: the config declares layer_types, but its rotary reads one flat entry for every layer
  (Qwen2RotaryEmbedding.__init__: ``config.rope_parameters["rope_type"]``, modeling_qwen2.py line 59): a layer-typed
  one fails with KeyError 'rope_type' (GraniteSWA's config, reading ``rope_parameters["rope_theta"]`` in
  __post_init__, with KeyError 'rope_theta').
- FLAT_REFUSED: the rotary keeps one frequency table per layer type (Gemma 4's, ``config.rope_parameters[layer_type]``)
  and the config class does not spread a flat one over them: a flat one fails with KeyError '<layer type>'; so does
  a layer-typed one missing a layer type the config uses, except where the config class fills the missing entries
  itself (LAYER_TYPED_FIELD: ModernBERT's and NeoMME's, which declare the field
  ``dict[Literal["full_attention", "sliding_attention"], dict]`` and so refuse a flat one as the config is made).
- NEEDS: a key read from the rope_parameters given that the config class does not fill (Cosmos3EdgeTextConfig's
  mrope_section, KeyError as the config is made; Cohere2MoeConfig, which declares no rope_parameters, fills no
  rope_theta into one: Cohere2MoeRotaryEmbedding.compute_default_rope_parameters fails with KeyError 'rope_theta').
- EVERY_ENTRY: the config class spreads a flat one over its layer types but fills each used type's entry of a
  layer-typed one (Dots3NoteTextConfig.convert_rope_params_to_dict): one missing a type fails with KeyError.

Where a class's layer types are its own (RecurrentGemma's linear_attention and sliding_attention, Zamba2's hybrid,
MiniMax's layout made in __post_init__ ...), DECLARED reads the ones its config declares, and a key is layer-typed
exactly where it is one of them (nested_rope_parameter_keys).

paramledger counted such configs (issue #15): they are refused in one line naming rope_parameters.  The sets are
measured by scripts/rope_parity.py (each supported type's smallest random configs with rope_parameters set each
way), by the family whose table reads the config; tests/test_rope_parity.py checks them against transformers.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .._exceptions import ArchitectureError
from .even_rotary import NO_ROPE_FIELD, NO_ROPE_FIELD_TYPES, ROPE_REQUIRES, given_rope_keys_problem

NESTED_REFUSED = frozenset({
    "afmoe", "axk2", "bailing_hybrid", "bamba", "cohere2", "cohere2_moe", "cwm", "deepseek_v32", "dots1", "exaone4",
    "exaone_moe", "falcon_h1", "flint", "gemma2", "glm_moe_dsa", "gpt_oss", "granite_swa", "granitemoe_swa", "hy_v4",
    "kolibri1", "lara_mini", "lfm2", "lfm2_moe", "llama4_text", "minimax", "minimax_m3_vl_text", "ministral",
    "mistral_large4", "muse_glimmer", "muse_spark", "qwen2", "qwen2_5_omni_thinker", "qwen2_5_vl", "qwen2_moe",
    "qwen2_vl", "qwen3", "qwen3_5_moe_text", "qwen3_5_text", "qwen3_next", "qwen4_exp_text", "smollm3", "vaultgemma",
    "granitemoehybrid",  # (measured on random configs: scripts/rope_parity.py --examples 8)
    "recurrent_gemma", "zamba2", "unlimited_ocr",  # (likewise; the layer types their configs declare: DECLARED)
})
# of those, the classes whose layer_types name other kinds (linear_attention, conv, indexed_attention, hybrid) beside
# or instead of full and sliding attention, with the name they give a layer whose mixer is self-attention
# (design/flat.py's mixer column), None where they give it another (DeepSeek-V3.2's indexed_attention, Falcon-H1's
# hybrid): an entry under another kind's name is layer-typed, one under an attention type only where it is that name
OTHER_LAYER_TYPES = {
    "axk2": None, "deepseek_v32": None, "falcon_h1": None, "glm_moe_dsa": None, "hy_v4": None,
    "bamba": "full_attention", "lara_mini": "full_attention", "lfm2": "full_attention", "lfm2_moe": "full_attention",
    "mistral_large4": "full_attention", "qwen3_5_moe_text": "full_attention", "qwen3_5_text": "full_attention",
    "qwen3_next": "full_attention", "qwen4_exp_text": "full_attention", "granitemoehybrid": "full_attention",
}
# of those, the classes whose layer_types hold sliding layers with no sliding_window set (Gemma2Config's pattern)
PATTERN_WITHOUT_WINDOW = frozenset({"afmoe", "cohere2", "gemma2", "gpt_oss", "granite_swa", "granitemoe_swa",
                                    "muse_glimmer", "muse_spark", "vaultgemma"})
FLAT_REFUSED = frozenset({
    "beam", "cohere_compass_text", "dory", "gemma4_assistant", "gemma4_text", "gemma4_unified_assistant",
    "gemma4_unified_text", "laguna", "mellum", "mimo_v2_flash", "modernbert", "modernbert-decoder", "neomme",
    "ultrabert", "zaya",
    "lfm3",  # (measured on random configs; its conv layers hold no rotary: only where a layer's mixer is attention)
    "diffusion_gemma",  # (its text stack is Gemma 4's: measured by scripts/rope_parity.py)
})
# of those, the classes that standardize rope_parameters before they fill layer_types themselves: a layer-typed one is
# read as flat (and built) unless the config gives layer_types (MiniMaxM3VLTextConfig)
GIVEN_LAYER_TYPES_ONLY = frozenset({"minimax_m3_vl_text", "granitemoehybrid"})
# the names a class gives full and sliding layers where they are not those (Llama 4's chunked layers, which the design
# holds as sliding ones)
LAYER_NAMES = {"llama4_text": ("full_attention", "chunked_attention")}
LAYER_TYPED_FIELD = frozenset({"modernbert", "modernbert-decoder", "neomme"})
# the class that spreads a flat one over its layer types but fills every used type's entry of a layer-typed one (a
# KeyError for one it lacks), its types read off the design (DECLARED below)
EVERY_ENTRY = frozenset({"dots3_note_text"})
NEEDS = {"cosmos3_edge": "mrope_section", "cohere2_moe": "rope_theta"}

# what a configuration class refuses as the config is made; the others fail building the model
# the classes whose config replaces or fills a flat rope_parameters before validate_rope reads it (Gemma 3's and
# Gemma 3n's spread it over their layer types with their own defaults, OLMo 3's and Step 3.7's likewise): a rope_type
# without its keys still builds there (measured: every supported type given yarn and linear without factor and
# llama3 without its frequency factors, flat; every other refuses it with KeyError)
FILLS_FLAT = frozenset({"gemma3_text", "gemma3n", "gemma3n_text", "olmo3", "step3p7"})

CONFIG_REFUSES = frozenset({"granite_swa", "granitemoe_swa", "cosmos3_edge", *LAYER_TYPED_FIELD, *EVERY_ENTRY})
ATTENTION_TYPES = ("full_attention", "sliding_attention")


def used_layer_types(arch: Any, names: tuple[str, str]) -> list[str]:
    """The attention layer types the config uses, under the names its rope_parameters gives them (ZAYA's hybrid,
    hybrid_sliding), as buffers.rotary_buffers reads them: layer_types, else every layer full or sliding."""
    kinds = set(arch.layer_types) or {"sliding_attention" if arch.sliding_window else "full_attention"}
    return [named for kind, named in zip(ATTENTION_TYPES, names) if kind in kinds]


def _plain_attention(arch: Any) -> bool:
    """A layer whose mixer is self-attention, not another kind (design/flat.py's mixer column)."""
    from ..parts import MIXERS

    other = set(arch.layers_without_mixer)
    for kind in MIXERS:
        other.update(getattr(arch, kind.layers_key))
    return len(other) < arch.num_hidden_layers


def _griffin_types(merged: Mapping[str, Any], arch: Any) -> list[str]:
    """RecurrentGemmaConfig.layers_block_type, its layer_types (configuration_recurrent_gemma.py lines 57, 98-102):
    linear_attention for a recurrent block, sliding_attention for an attention one.  Its rotary is built in each
    attention layer (RecurrentGemmaSdpaAttention, modeling_recurrent_gemma.py line 218): none without one."""
    if not arch.local_attention_layers:
        return []
    return ["sliding_attention", *(["linear_attention"] if arch.rglru_layers else [])]


ZAMBA2_DEFAULT = ("linear_attention", "hybrid")  # (Zamba2Config's own 54 layers hold both)
LEGACY_NAMES = {"mamba": "linear_attention", "attention": "full_attention"}  # (configuration_utils.py lines 94-99)


def _zamba2_types(merged: Mapping[str, Any], arch: Any) -> list[str]:
    """Zamba2Config's layers_block_type, its layer_types (attribute_map; configuration_zamba2.py lines 71, 127-138):
    as given, legacy names remapped (remap_legacy_layer_types: mamba is linear_attention), else the class's own."""
    types = merged.get("layers_block_type") or merged.get("layer_types") or ZAMBA2_DEFAULT
    return list(dict.fromkeys(LEGACY_NAMES.get(kind, kind) for kind in types if isinstance(kind, str)))


def _dots3_types(merged: Mapping[str, Any], arch: Any) -> list[str]:
    """Dots3NoteTextConfig's layer_types: the kinds its layers are (design: one layer list per kind)."""
    return [kind for kind, layers in (("full_attention", arch.head_gated_mla_layers),
                                      ("indexed_attention", arch.indexed_head_gated_mla_layers),
                                      ("sliding_attention", arch.sliding_head_gated_mla_layers)) if layers]


def _given_else(default: Callable[[Mapping[str, Any]], list[str]]) -> Callable[[Mapping[str, Any], Any], list[str]]:
    """The config's layer_types as given, else the list its class's __post_init__ lays out (``default``)."""

    def declared(merged: Mapping[str, Any], arch: Any) -> list[str]:
        given = merged.get("layer_types")
        types = given if isinstance(given, (list, tuple)) else default(merged)
        return list(dict.fromkeys(kind for kind in types if isinstance(kind, str)))

    return declared


# (LaraMiniConfig.__post_init__, configuration_lara_mini.py lines 121-131: the released pattern of period 5)
LARA_PATTERN = ("linear_attention", "sliding_attention", "linear_attention", "full_attention", "sliding_attention")

# the layer types such a class's config declares (a key among them is read as layer-typed), read off the design or
# the config as the class lays them out; each of these builds its rotary whatever the layers are (once in the model)
# but RecurrentGemma (once in each attention layer)
DECLARED: dict[str, Callable[[Mapping[str, Any], Any], list[str]]] = {
    "recurrent_gemma": _griffin_types, "zamba2": _zamba2_types, "dots3_note_text": _dots3_types,
    "lara_mini": _given_else(lambda merged: [LARA_PATTERN[i % 5] for i in range(merged["num_hidden_layers"])]),
    # (MiniMaxConfig.__post_init__, configuration_minimax.py lines 122-125: full, linear, full, ...)
    "minimax": _given_else(lambda merged: ["linear_attention" if i % 2 else "full_attention"
                                           for i in range(merged["num_hidden_layers"])]),
    # (UnlimitedOcrTextConfig.__post_init__, configuration_unlimited_ocr.py lines 232-235: its sliding_window 128)
    "unlimited_ocr": _given_else(lambda merged: ["full_attention" if merged.get("sliding_window", 128) is None
                                                 else "reference_sliding_attention"]),
}


def rope_form_problem(model_type: str, rope: Any, arch: Any, names: tuple[str, str] = ATTENTION_TYPES,
                      pattern: Callable[[], list[str]] | None = None, declared: list[str] | None = None) -> str | None:
    """Why transformers cannot build ``model_type`` with the rope_parameters ``rope`` the config gives (None: it can).
    ``pattern``: the layer types the config class lays out where no window is set (its rule read with one);
    ``declared``: the layer types the config declares, for a class in DECLARED."""
    if (model_type not in NESTED_REFUSED and model_type not in FLAT_REFUSED and model_type not in NEEDS
            and model_type not in EVERY_ENTRY):
        return None  # (most configs: one look)
    if not isinstance(rope, Mapping) or not rope:
        return None  # null or {}: the class's own default (a value no JSON object is refused where it is read)
    how = "transformers refuses the config" if model_type in CONFIG_REFUSES else "transformers cannot build it"
    used = used_layer_types(arch, names)
    if model_type in NESTED_REFUSED and arch.position_embedding_type == "rope":  # (else no rotary reads it)
        # a key is read as a layer type where the config's layer_types hold it: an attention type the layers use (both,
        # where no window is set in a class that lays its sliding pattern out without one, which the design drops),
        # or another layer type given an entry of its own (linear_attention, conv: a type no rope parameter is named)
        if not arch.sliding_window and model_type in PATTERN_WITHOUT_WINDOW:
            used = pattern() if pattern is not None else list(ATTENTION_TYPES)
        elif model_type in OTHER_LAYER_TYPES:
            named = OTHER_LAYER_TYPES[model_type]
            used = [named] if named is not None and _plain_attention(arch) else []
        if declared is not None:  # (exactly the types its config declares)
            typed = [key for key in rope if key in declared]
        else:
            typed = [key for key, value in rope.items()
                     if key in used or key not in ATTENTION_TYPES and isinstance(value, Mapping)]
        if typed:
            return (f"is layer-typed ({', '.join(map(str, typed))}), which {model_type} does not take: its rotary "
                    f"reads one rope_type and rope_theta for every layer ({how}; give them flat)")[:300]
    if model_type in NEEDS:
        key = NEEDS[model_type]
        if key not in rope:
            return f"must give {key} ({model_type}'s config class does not fill it in rope_parameters: {how})"
    if model_type in EVERY_ENTRY and declared is not None:  # (Dots3NoteTextConfig.convert_rope_params_to_dict,
        # configuration_dots3_note.py lines 354-362: a flat one spread over the types, a layer-typed one's entries
        # filled for every type the layers use: KeyError for one it lacks)
        missing = [kind for kind in declared if not isinstance(rope.get(kind), Mapping)]
        if missing and any(key in declared for key in rope):
            return (f"has no entry for {', '.join(missing)}, a layer type the config uses: {model_type}'s config class "
                    f"fills each one's partial_rotary_factor ({how})")
    if model_type not in FLAT_REFUSED:
        return None
    if model_type in LAYER_TYPED_FIELD:
        if all(key in ATTENTION_TYPES and isinstance(value, Mapping) for key, value in rope.items()):
            return None
        return (f"must map {' and '.join(ATTENTION_TYPES)} each to its own rope parameters ({model_type}'s config "
                f"class declares it so: {how}, flat or otherwise)")
    if model_type == "lfm3" and not _plain_attention(arch):
        return None
    missing = [kind for kind in used if not isinstance(rope.get(kind), Mapping)]
    if not missing:
        return None
    if not any(isinstance(value, Mapping) for value in rope.values()):
        return (f"must have one entry per layer type ({', '.join(used)}): {model_type}'s rotary reads one for each "
                f"({how} from a flat one)")
    return (f"has no entry for {', '.join(missing)}, a layer type the config uses: {model_type}'s rotary reads one "
            f"for each ({how})")


def _windowed(merged: Mapping[str, Any], rules: Sequence[Callable[[Mapping[str, Any]], Mapping[str, Any]]]) -> Any:
    """The layer types the family's rules lay out for the config given a window (the pattern its class keeps
    without one: Gemma2Config's), full attention alone where they lay out none."""

    def pattern() -> list[str]:
        for rule in rules:
            try:
                types = rule({**merged, "sliding_window": 1}).get("layer_types")
            except Exception:  # (a rule's refusal of another key: said where the rule runs)
                continue
            if types:
                return list(dict.fromkeys(types))
        return ["full_attention"]

    return pattern


def check_rope_form(model_type: str, config: Mapping[str, Any], merged: Mapping[str, Any], arch: Any,
                    family: Any, key: str, where: str) -> None:
    """Refuse, naming ``key`` (rope_parameters where the config holds it), a rope_parameters whose form transformers
    does not build for ``model_type``."""
    rope = config.get("rope_parameters")
    if rope is None:
        return  # (most configs: one look)
    if model_type in NO_ROPE_FIELD:  # (nothing standardizes it: its entries as given)
        typed = NO_ROPE_FIELD_TYPES.get(model_type)
        if (problem := given_rope_keys_problem(model_type, rope, () if typed is None else typed(arch))) is not None:
            raise ArchitectureError(key, problem, where)
        return
    if (isinstance(rope, Mapping) and model_type not in FILLS_FLAT
            and not any(isinstance(value, Mapping) for value in rope.values())):  # (flat: read as given)
        kind = rope.get("rope_type", rope.get("type", "default"))
        missing = [name for name in ROPE_REQUIRES.get(kind, ()) if name not in rope] if isinstance(kind, str) else ()
        if missing:
            raise ArchitectureError(key, f"rope_type {kind!r} requires {', '.join(missing)} (transformers' "
                                    "validate_rope refuses it without)"[:300], where)
    if (model_type not in NESTED_REFUSED and model_type not in FLAT_REFUSED and model_type not in NEEDS
            and model_type not in EVERY_ENTRY):
        return
    if model_type in GIVEN_LAYER_TYPES_ONLY and config.get("layer_types") is None:
        return
    pattern = _windowed(merged, family.derive) if model_type in PATTERN_WITHOUT_WINDOW else None
    names = LAYER_NAMES.get(model_type, family.naming.rotary_layer_types)
    declared = DECLARED[model_type](merged, arch) if model_type in DECLARED else None
    problem = rope_form_problem(model_type, rope, arch, names, pattern, declared)
    if problem is not None:
        raise ArchitectureError(key, problem, where)

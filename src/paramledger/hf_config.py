"""A Hugging Face config.json (as a dict) becomes a declared architecture, by its family's table."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from . import families
from ._exceptions import ArchitectureError, OptionError, SourceError, UnsupportedFamilyError
from .architecture import _FIELD_TYPES, Architecture
from .families import (accepted_values, attribute_maps, divisors, head_multiple, layer_lists, learned_activations,
                       read_only, strict_nulls)
from .families.even_rotary import AS_GIVEN, TOP_NO_ROPE_FIELD, given_rope_problem
from .families.even_rotary import check_odd_rotary as _check_odd_rotary
from .families.rope_form import check_rope_form, used_layer_types
from .limits import MAX_INTEGER, MAX_REPEAT, big, check_values, number_text, quoted
from .quantization import stored_format


def architecture_from_config(config: Mapping[str, Any], where: str = "config.json", *,
                             bundled: bool = False) -> Architecture:
    """Read ``config`` the way its family's transformers config class does: absent keys
    take the class defaults, renamed keys map onto architecture fields, and keys the
    family does not understand are listed in the notes (they might change the count).
    A multimodal config gives its whole model where its family has one (towers/; towers.text_only: the decoder)."""
    if type(config) is not dict and not isinstance(config, Mapping):  # a dict skips the ABC check
        raise SourceError(where, "a config must be a JSON object")
    model_type = config.get("model_type")
    if not model_type:
        raise ArchitectureError("model_type", "missing (required to choose the family)", where)
    family = families.get(str(model_type))
    notes: list[str] = []
    if family is None and (same := families.same_code(str(model_type))) is not None:
        notes.append(f"{model_type} is counted as {same[0]}: its remote code is {same[0]}'s ({same[1]})")
        family = families.get(same[0])
    if family is None:
        raise UnsupportedFamilyError(where, str(model_type), families.supported(), families.transformers_types())
    top = config  # the dtype and quantization_config of a multimodal model are the whole model's
    for section in family.whole.typed_sections if family.whole is not None else ():
        if isinstance(config.get(section), Mapping) and "model_type" not in config[section]:
            raise ArchitectureError(f"{section}.model_type", "missing (required: the config class reads it unguarded, "
                                    "transformers 5.24.0 cannot load the config without it)", where)
    pad_key = "pad_token_id"
    if family.text_config:
        if not (family.whole is not None and family.whole.text_at_top and config.get("text_config") is None):
            # where the decoder reads it: its text_config (Unlimited OCR's language_config where it gives none)
            section = "language_config" if config.get("text_config") is None and "language_config" in config else (
                family.whole.text_key if family.whole is not None else "text_config")
            pad_key = f"{section}.pad_token_id"
            outer = family.whole and (family.whole.inner_section or family.whole.text_section)
            if outer:  # (Qwen2.5-Omni's thinker_config.text_config, PI0's vlm_config.text_config)
                pad_key = f"{outer}.{pad_key}"
        text = _text_config(family, config, where)
        notes.append(family.whole.described if family.whole and family.whole.described else
                     f"{model_type} is multimodal: counting the whole model ({family.whole.parts_said})"
                     + ("" if family.whole.decoder_alone_refused else
                                            "; --text-only counts the decoder alone") if family.whole else
                     f"{model_type} is multimodal: counting its text decoder (text_config) only")
        config = text
    whole, counted_as = family.whole, family.model_type
    if whole is not None:  # the text decoder is read by its own family's table
        family = _text_family(family, text, where)
    given = config  # (@strict checks the fields as given, before an alias is set over one)
    aliased = attribute_maps.resolved(family.model_type, config, family.defaults)  # (a given alias wins: T5's d_model)
    if aliased is not config:
        if (said := attribute_maps.note(family.model_type, config, family.defaults)) is not None:
            notes.append(said)
        config = aliased
    try:
        arch = _decoder(family, config, top, notes, model_type, counted_as, whole, pad_key, where, bundled)
        strict_nulls.check(given, family.model_type, where)  # (after the family's own refusals, which say more)
    except ArchitectureError as error:  # a key of the decoder's section, named where it sits (text_config.hidden_size)
        section = pad_key.removesuffix("pad_token_id")
        first = error.key.partition(".")[0]
        if not section or error.where != where or error.key.startswith(section) or not (
                first in config or first in family.keys or first in family.defaults or first == "config"):
            raise
        raise ArchitectureError(section[:-1] if first == "config" else section + error.key, error.message,
                                where) from None
    if whole is not None:
        from .towers import remembered, with_towers

        return remembered(partial(with_towers, whole=whole, config=top, where=where, text_family=family), arch)
    if family.seq2seq is not None:  # an encoder-decoder: the encoder beside the decoder (towers/encoder.py)
        from .towers import remembered
        from .towers.encoder import with_encoder

        return remembered(partial(with_encoder, family=family, config=config, where=where), arch)
    return arch


def _decoder(family: families.Family, config: Mapping[str, Any], top: Mapping[str, Any], notes: list[str],
             model_type: Any, counted_as: str, whole: Any, pad_key: str, where: str, bundled: bool) -> Architecture:
    """The decoder's design from ``config`` (the whole config, or a multimodal one's text section), read by
    ``family``'s table and validated, every refusal naming the key as ``config`` spells it."""
    merged = {**family.defaults, **config}
    reads = family.keys
    if family.aliased:
        # In merged order, so a key the config gives outside the class's own defaults (GPT-2's
        # num_hidden_layers beside n_layer) wins, as transformers' attribute_map makes it.
        values = {reads[key]: value for key, value in merged.items() if key in reads}
    else:  # one key a field: the family's few keys looked up, not the config's many
        values = {field_name: merged[key] for key, field_name in reads.items() if key in merged}
    for key, allowed in family.requires.items():
        value = merged.get(key)
        if value is not None and value != allowed:  # null: the class default
            raise ArchitectureError(
                key, f"{value!r} is not supported for {model_type} (paramledger counts only "
                f"{allowed!r}; transformers would build other tensors)", where)
    learned_activations.check(merged, counted_as, family.model_type, where)  # (prelu, xielu: issue #15)
    divisors.check(config, family.model_type, where)
    accepted_values.check(merged, counted_as, family.model_type, where)
    read_only.check(config, family.model_type, where)
    understood = family.understood  # a local: read once, not once per key
    if whole is not None:  # the whole family's own count-neutral text_config keys (PaliGemma's num_image_tokens)
        understood = understood | families.get(counted_as).count_neutral
    not_understood = [key for key in config if key not in understood]
    for key, usual in family.expects.items():
        value = config.get(key, usual)
        if not (value == usual or isinstance(value, list) and all(item == usual for item in value)):
            not_understood.append(key)
    for section, known in family.sections.items():
        inner = config.get(section)
        if isinstance(inner, Mapping):
            not_understood += [f"{section}.{key}" for key in inner
                               if key not in known and key not in families.COUNT_NEUTRAL]
    if not bundled:  # a bundled release is package data within every bound (test_registry reads each unbundled)
        check_values(values, where, lambda name: _key_of(family, name, merged))
        _check_repeats(config, where)
    # Rules read the config as the family spells it, plus the values read so far under their
    # field names (so GPT-2's n_layer and InternLM3's qkv_bias reach them as the fields).
    # They do arithmetic on sizes, so the sizes are checked first, under the config's own keys.
    for field_name, value in values.items():
        if ((type(value) is not int or value <= 0) and field_name in _INTEGER_FIELDS  # else nothing to check
                and (problem := _size_problem(field_name, value)) is not None):
            key = _key_of(family, field_name, merged)
            if value is None and key in family.defaults and family.defaults[key] is None:
                continue  # null is the config class's own default: a rule derives it (T5's num_decoder_layers)
            raise ArchitectureError(key, problem, where)
    for key in RULE_INTEGER_KEYS.intersection(merged):
        if (problem := _size_problem(None, merged[key])) is not None:
            raise ArchitectureError(key, problem, where)
        if merged[key] is not None and merged[key] > MAX_INTEGER:
            raise ArchitectureError(key, f"{big(merged[key])} is beyond the bound of {MAX_INTEGER:,} "
                                         "(docs/limits.md)", where)
    check_pad_token_id(family, merged, pad_key, where)  # (families/padding_idx.py: nn.Embedding's padding_idx)
    head_multiple.check(family.model_type, values, lambda name: _key_of(family, name, merged), where)
    rule_input, depth = {**merged, **values}, values.get("num_hidden_layers")  # (the depth read, before the rules)
    for derive in family.derive:
        try:
            values.update(derive(rule_input))
        except ArchitectureError as error:  # a rule's refusal, said about this file
            if error.where is not None:
                raise
            raise ArchitectureError(error.key, error.message, where) from None
        except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError) as error:
            rule = (derive.__doc__ or derive.__name__).strip().splitlines()[0]
            raise ArchitectureError("config", f"a value does not fit the {model_type} rule \"{rule}\" "
                                    f"({error.__class__.__name__}: {error})", where) from None
    # (after the rules: a family's own refusal of its lists says more, its kinds and their count)
    layer_lists.check(config, depth, family.model_type, where)
    values.update(family.switches)
    for field_name, factor in _rotary_factors(merged).items():
        values.setdefault(field_name, factor)
    values["model_type"] = counted_as
    if not_understood:
        notes.append("config keys not understood (they might change the count): " + ", ".join(sorted(not_understood)))
    try:
        arch = Architecture.from_mapping(values, where, tuple(notes), stored=stored_format(top, config, where))
    except ArchitectureError as error:  # said under the config's own key (GPT-2's n_head), not the field's
        key = _key_of(family, error.key, merged)
        message = error.message
        if "head_dim" not in family.keys:  # the design's hint names a key this config class does not have
            message = message.removesuffix("; set head_dim")
        if key == error.key and message == error.message or error.where != where:
            raise
        raise ArchitectureError(key, message if key == error.key else f"{message} ({key} is read as {error.key})",
                                where) from None
    check_odd_rotary(family, merged, arch, pad_key.replace("pad_token_id", "head_dim"), where)
    if whole is not None and pad_key == "pad_token_id":  # the text at a whole config's top level (Dots3-Note's)
        check_top_rope(counted_as, top, where)
    check_rope_form(family.model_type, config, merged, arch, family, pad_key.replace("pad_token_id", "rope_parameters"),
                    where)  # (families/rope_form.py)
    if family.explain:
        notes = [note for explain in family.explain if (note := explain(arch)) is not None]
        arch = arch.with_fields(notes=(*arch.notes, *notes)) if notes else arch
    return arch


# The fields whose change the config's own refusals follow (recheck_changes)
RECHECKED = frozenset({"head_dim", "hidden_size", "num_attention_heads", "vocab_size", "partial_rotary_factor",
                       "sliding_partial_rotary_factor"})


def recheck_changes(held: tuple[Mapping[str, Any], str], arch: Architecture, changes: Mapping[str, Any],
                    where: str) -> None:
    """A design read from a config and changed (--set, whatif's --vary): the refusals transformers makes of the config
    with those changes (an odd head_dim that RoPE rotates whole, a pad_token_id outside the table) asked again, the
    changes put under the config's own keys, each named as the change names it."""
    config, _ = held
    family = families.get(str(config.get("model_type")))
    inner: Any = config
    if family is not None and family.text_config:
        inner = config.get("text_config")
        if inner is None and family.whole is not None and not family.whole.text_at_top:
            inner = {}  # the class's default decoder
        if not isinstance(inner, Mapping):
            return
        family = families.get(str(inner.get("model_type", ""))) or (
            families.get(family.whole.text_model_type) if family.whole is not None else None)
    if family is None:
        return
    merged = {**family.defaults, **inner}
    for field_name in changes:  # (as the design holds them: coerced, --set gives text)
        merged.update({key: getattr(arch, field_name) for key, name in family.keys.items() if name == field_name})
    check_pad_token_id(family, merged, "pad_token_id", where)
    check_odd_rotary(family, merged, arch, "head_dim", where)


def check_pad_token_id(family: Any, merged: Mapping[str, Any], key: str, where: str) -> None:
    from .families.padding_idx import check_pad_token_id as check

    check(family.model_type, merged, key, where)


def check_odd_rotary(family: Any, merged: Mapping[str, Any], arch: Architecture, key: str, where: str) -> None:
    """(head_dim under the config's own name: JetMoE's kv_channels; the layer types the config declares, under the
    names its rope_parameters gives them, for a class that validates a given one as given)"""
    spelt = family.head_dim_key
    if spelt == "head_dim" and "head_dim" not in family.keys and "head_dim" not in merged:
        # a class's own name for it, where the config does not give the alias (Zamba 2's attention_head_dim)
        spelt = attribute_maps.MAPS.get(family.model_type, {}).get("head_dim", spelt)
    if family.aliased:  # the key that wins, as _decoder reads the field (HunYuan-VL's attention_head_dim over head_dim)
        spelt = next((key for key in reversed(list(merged)) if family.keys.get(key) == "head_dim"), spelt)
    types = None
    if family.model_type in AS_GIVEN:
        types = used_layer_types(arch, family.naming.rotary_layer_types)
    _check_odd_rotary(family.model_type, merged, arch, key.replace("head_dim", spelt) if spelt != "head_dim" else key,
                      where, spelt, types)


def check_top_rope(model_type: str, top: Mapping[str, Any], where: str) -> None:
    """A whole config that keeps the text keys at its top level as its own too, and declares no rope_parameters
    (families/even_rotary.py TOP_NO_ROPE_FIELD): the rope_parameters and head_dim given there, validated as given."""
    if model_type not in TOP_NO_ROPE_FIELD or not isinstance(rope := top.get("rope_parameters"), Mapping):
        return
    types = top.get("layer_types")
    if isinstance(types, list) and any(key in types for key in rope):
        return  # (read layer-typed: the text config fills each entry's factor first)
    if (problem := given_rope_problem(model_type, rope, top.get("head_dim"), ())) is not None:
        raise ArchitectureError("head_dim", problem, where)


def _text_config(family: Any, config: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """A multimodal config's text decoder: its text_config, else what the config class builds without one (its
    default decoder, or the decoder keys at the config's top level: Whole.text_at_top)."""
    text = config.get("text_config")
    whole = family.whole
    if text is None and whole is not None:
        text = {k: v for k, v in config.items() if k != "vision_config"} if whole.text_at_top else whole.text_config
    if text is None:
        text = {}
    if not isinstance(text, Mapping):
        raise ArchitectureError("text_config", "must be a JSON object", where)
    if whole is not None and whole.text_rewritten is not None:
        try:
            text = whole.text_rewritten(config, text)
        except ArchitectureError as error:  # its refusal (a sub-config no JSON object), said about this config
            raise ArchitectureError(error.key, error.message, where) from None
    return text


def _text_family(family: Any, text: Mapping[str, Any], where: str) -> Any:
    """The family whose table reads a whole multimodal model's text_config: its own text family, or the one
    its text_config's model_type names, among those the model takes (Whole.text_types)."""
    whole = family.whole
    if not whole.text_types:
        return families.get(whole.text_model_type)
    kind = text.get("model_type", whole.text_types[0])
    if kind not in whole.text_types:
        raise ArchitectureError("text_config.model_type", f"{kind!r} is not a text decoder paramledger builds in "
                                f"{family.model_type} (it builds {', '.join(whole.text_types)})", where)
    return families.get(str(kind))


def _rotary_factors(merged: Mapping[str, Any]) -> dict[str, Any]:
    """partial_rotary_factor wherever a config spells it, as transformers 5.24.0's rope standardization
    reads it: in rope_parameters (or the older rope_scaling), one per layer type where the section is
    split so (Laguna), else at the top level (GPT-NeoX: rotary_pct).  A "proportional" RoPE (Gemma 4)
    rotates a share of each head but keeps head_dim / 2 frequencies: its factor sizes nothing."""
    for section in ("rope_parameters", "rope_scaling"):
        inner = merged.get(section)
        if inner is None or not isinstance(inner, Mapping):  # (None, most configs': no ABC check)
            continue
        if "partial_rotary_factor" in inner:
            return {"partial_rotary_factor": inner["partial_rotary_factor"]}
        out = {}
        for kind, field_name in (("full_attention", "partial_rotary_factor"),
                                 ("sliding_attention", "sliding_partial_rotary_factor")):
            rope = inner.get(kind)
            if (isinstance(rope, Mapping) and "partial_rotary_factor" in rope
                    and rope.get("rope_type") != "proportional"):
                out[field_name] = rope["partial_rotary_factor"]
        if out:
            return out
    for key in ("partial_rotary_factor", "rotary_pct"):
        if merged.get(key) is not None:
            return {"partial_rotary_factor": merged[key]}
    return {}


def _check_repeats(config: Mapping[str, Any], where: str) -> None:
    """GPT-Neo's attention_types: [[pattern, repeat], ...] expands to one kind per layer, so each
    repeat is a whole number from 0 and the expansion stays within MAX_REPEAT layers."""
    groups = config.get("attention_types")
    if groups is None:
        return
    if not isinstance(groups, list):
        raise ArchitectureError("attention_types", f"must be a list of [pattern, repeat], got {quoted(groups)}",
                                where)
    layers = 0
    for group in groups:
        if not (isinstance(group, list) and len(group) == 2 and isinstance(group[0], list)
                and type(group[1]) is int and group[1] >= 0):
            raise ArchitectureError("attention_types", "each entry must be [pattern, repeat] with a list pattern "
                                                       f"and a whole repeat of 0 or more, got {quoted(group)}", where)
        layers += len(group[0]) * group[1]
        if layers > MAX_REPEAT:
            raise ArchitectureError("attention_types", f"expands to more than {MAX_REPEAT:,} layers "
                                                       "(docs/limits.md)", where)


def _key_of(family: families.Family, field_name: str, merged: Mapping[str, Any]) -> str:
    """The config key that gave ``field_name`` (for a message), or the field's own name."""
    keys = [key for key, name in family.keys.items() if name == field_name and key in merged]
    return keys[-1] if keys else field_name


# Config keys the family rules read as whole numbers (layer counts, steps, windows). The sliding patterns
# are not here: they are read only when layer_types is absent, and checked then by the rule.
RULE_INTEGER_KEYS = frozenset({
    "decoder_sparse_step", "first_k_dense_replace", "max_window_layers", "no_rope_layer_interval",
    "interleave_moe_layer_step", "window_size", "attention_chunk_size",
    "n_routed_experts", "num_local_experts", "moe_intermediate_size", "shared_intermediate_size",
    "word_embed_proj_dim", "moe_layer_start_index", "moe_layer_interval", "num_ln_in_parallel_attn",
    "prefix_dense_intermediate_size", "sliding_window_size",
    "num_dense_layers", "global_attn_every_n_layers", "index_topk_freq", "index_skip_topk_offset",
    "full_attention_interval",
})
_SIZES = frozenset({"vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads"})
_INTEGER_FIELDS = frozenset(name for name, kind in _FIELD_TYPES.items() if kind.startswith("int"))


def _size_problem(field_name: str | None, value: Any) -> str | None:
    """What is wrong with ``value`` where a whole number (or null, the class default) belongs,
    or None; the four dimensions every rule divides or counts by must be positive."""
    if value is None:
        return "may not be null" if field_name in _SIZES else None
    if type(value) is not int:
        return f"must be a whole number, got {value!r}"
    if value < 0 or (value == 0 and field_name in _SIZES):
        return f"must be {'positive' if field_name in _SIZES else 'zero or more'}, got {value}"
    return None


def config_with_overrides(config: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` with architecture-field overrides written under the family's own key
    names (GPT-2's num_hidden_layers becomes n_layer), so the family reads them as it reads
    the file: derived values such as layer_types follow the new layer count.

    A field with no config key in the family (norm_placement for Llama) is refused: no
    config of that family expresses it."""
    family = families.get(str(config.get("model_type")))
    if family is None:
        raise UnsupportedFamilyError("config", str(config.get("model_type")), families.supported(),
                                     families.transformers_types())
    if not overrides:
        return dict(config)
    # a flat whole config (Whole.text_at_top, no text_config) holds its decoder's keys at the top: written there
    nested = family.text_config and not (family.whole is not None and family.whole.text_at_top
                                         and config.get("text_config") is None)
    section = family.whole.text_section if family.whole is not None else ""
    if section:  # (PI0's vlm_config: its decoder's keys written there, the whole's defaults where it is absent)
        held = config.get(section)
        held = dict(held) if isinstance(held, Mapping) else {"vision_config": family.whole.vision_config,
                                                              "text_config": family.whole.text_config}
        inner = dict(held.get("text_config") or family.whole.text_config)
    else:
        inner = dict(config.get("text_config") or {}) if nested else dict(config)
    for field_name, name in overridden_fields(overrides, family.keys).items():
        keys = [key for key, mapped in family.keys.items() if mapped == field_name]
        if not keys:
            raise OptionError("--set", f"{name} has no {family.model_type} config key: no {family.model_type} "
                                       "config expresses that change")
        key = name if name != field_name else next((k for k in keys if k in inner), keys[0])
        inner[key] = _parse_value(overrides[name])
    if section:
        return {**config, section: {**held, "text_config": inner}}
    return {**config, "text_config": inner} if nested else inner


def overridden_fields(overrides: Mapping[str, Any], reads: Mapping[str, str]) -> dict[str, str]:
    """field -> the override key that sets it. A field's own name means the field; a key of the family
    (``reads``: GPT-2's n_layer) means the field it reads into. One field set twice is refused."""
    fields = Architecture.field_names()
    given_as: dict[str, str] = {}
    for key in overrides:
        name = key if key in fields else reads.get(key, key)
        if name in given_as:
            raise OptionError("--set", f"{given_as[name]} and {key} both set {name}")
        given_as[name] = key
    return given_as


def _parse_value(value: Any) -> Any:
    """A --set string as JSON reads it (numbers, true/false, null), else the string itself."""
    import json

    if not isinstance(value, str):
        return value
    number_text(value, "--set")
    try:
        return json.loads(value.replace("_", "") if value.replace("_", "").isdigit() else value)
    except ValueError:
        return value

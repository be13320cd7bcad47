"""The reference: what transformers itself builds for a config, and how an inventory differs.

The reference model is built on the meta device (shapes, no memory, no weights), so even
a 671B config builds in a fraction of a second.  Its tensors are
``named_parameters(remove_duplicate=False)``: a name whose Parameter object was already
seen under an earlier name is an alias of that name (a tied LM head).

torch and transformers are imported here and only here, lazily: ``pip install
"paramledger[reference]"`` brings the pinned versions (torch 2.13.0, transformers 5.24.0).
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ._exceptions import ParamledgerError, ReferenceUnavailableError
from .inventory import Inventory

INSTALL_HINT = 'verification needs torch and transformers: pip install "paramledger[reference]"'

# Config classes whose own defaults transformers 5.24.0 cannot build (a None it then does
# arithmetic on): the smallest addition that lets the default config build, used wherever
# "the class defaults" are verified (tests, scripts/coverage.py).
DEFAULTS_NEED = {
    "ministral": {"head_dim": 128},  # MinistralAttention: head_dim**-0.5 with head_dim None
    "hunyuan_v1_dense": {"head_dim": 128},  # HunYuanDenseV1Attention, the same
    "hunyuan_v1_moe": {"head_dim": 128},  # HunYuanMoEV1Attention, the same
    "hunyuan_vl": {"head_dim": 128},  # HunYuanVLDenseV1Attention, the same (moved into text_config)
    "nemotron": {"num_key_value_heads": 48},  # NemotronAttention: heads // None
    "esm": {"vocab_size": 33},  # EsmConfig leaves vocab_size None (nn.Embedding(None, ...)): ESM-2's 33 tokens
    # Qwen4ExpTextQSAIndexer: token_budget // compress_ratio, both None; the sizes docs/notes/coverage-set-c.md chose
    "qwen4_exp_text": {"indexer_n_heads": 16, "indexer_kv_heads": 1, "indexer_head_dim": 256, "indexer_budget": 2048,
                       "indexer_compress_ratio": 4},
    "qwen4_exp": {"text_config": {"indexer_n_heads": 16, "indexer_kv_heads": 1, "indexer_head_dim": 256,
                                  "indexer_budget": 2048, "indexer_compress_ratio": 4}},
    # Dots1Config leaves both expert counts None (torch.empty(None, ...)): dots.llm1's own values
    "dots1": {"n_routed_experts": 128, "n_shared_experts": 2},
    # Lfm2MoeDecoderLayer indexes config.layer_types, which Lfm2MoeConfig leaves None (no fallback)
    "lfm2_moe": {"layer_types": ["conv", "conv", "full_attention"] * 10 + ["conv", "conv"]},
    # AyaVisionConfig's vision_config: 14 heads that do not split SigLIP's 1152 (SiglipAttention's ValueError);
    # the same tower with 16 heads
    # Gemma4AssistantConfig.validate_architecture refuses its default text_config's per-layer inputs (256, 262144)
    "gemma4_assistant": {"text_config": {"hidden_size_per_layer_input": 0, "vocab_size_per_layer_input": 0}},
    "aya_vision": {"vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152,
                                     "intermediate_size": 4304, "patch_size": 14, "image_size": 384,
                                     "num_hidden_layers": 26, "num_attention_heads": 16, "vision_use_head": False}},
    # Granite4VisionModel splits downsample_rate and takes len(deepstack_layer_map), both None by default: the
    # release's 4x4-in-8x8 windows and four deepstack pairs into LLM layers 0, 3, 6, 9 (the vision layers change
    # no tensor; docs/notes/multimodal-unb.md)
    "granite4_vision": {"downsample_rate": "4/8", "deepstack_layer_map": [[3, 0], [6, 3], [9, 6], [12, 9]]},
    # DeepseekOcr2TextDecoderLayer indexes text_config.mlp_layer_types, which DeepseekOcr2TextConfig leaves None:
    # DeepSeek-OCR 2's first_k_dense_replace = 1 (its first layer dense, the rest sparse)
    "deepseek_ocr2": {"text_config": {"mlp_layer_types": ["dense"] + ["sparse"] * 31}},
    # DiffusionGemmaTextRouter: nn.Linear(hidden, num_experts) with DiffusionGemmaTextConfig's None (every layer routes:
    # no enable_moe_block); google/diffusiongemma-26B-A4B-it's, the checkpoint the config class cites (Gemma 4
    # 26B-A4B's experts: 128, top 8, 704 wide)
    "diffusion_gemma": {"text_config": {"num_experts": 128, "top_k_experts": 8, "moe_intermediate_size": 704}},
    # Qwen3OmniMoeTalkerTextSparseMoeBlock reads text_config.shared_expert_intermediate_size and
    # Qwen3OmniMoeTalkerForConditionalGeneration reads spatial_merge_size, neither declared (AttributeError):
    # Qwen3-Omni's release values
    "qwen3_omni_moe": {"talker_config": {"text_config": {"shared_expert_intermediate_size": 768},
                                         "spatial_merge_size": 2}},
}

# Count-neutral values without which transformers 5.24.0 cannot build a class's default config
# (paramledger needs none of them): added to DEFAULTS_NEED's wherever the defaults are built.
REFERENCE_NEEDS = {
    # CohereCompassTextConfig: rope_parameters needs one entry per layer type (KeyError 'full_attention')
    "cohere_compass_text": {"rope_parameters": {"full_attention": {"rope_type": "default", "rope_theta": 10000.0}}},
    "cohere_compass": {"text_config": {"rope_parameters": {"full_attention": {"rope_type": "default",
                                                                              "rope_theta": 10000.0}}}},
    # ChameleonModel reads vocabulary_map["<image>"] (AttributeError on ChameleonConfig's None); the map changes no tensor
    "chameleon": {"vocabulary_map": {"<image>": 8711}},
    # DbrxAttention reads attn_config.rope_theta, which DbrxAttentionConfig does not declare (AttributeError)
    "dbrx": {"attn_config": {"rope_theta": 10000.0}},
    # Emu3ImageVocabularyMapping reads vocabulary_map.get (AttributeError on Emu3Config's None); no tensor follows it
    "emu3": {"vocabulary_map": {"<image>": 1}},
}


def default_config(model_type: str) -> dict[str, Any]:
    """The smallest config of ``model_type`` that builds with the config class's defaults."""
    return {"model_type": model_type, **DEFAULTS_NEED.get(model_type, {}), **REFERENCE_NEEDS.get(model_type, {})}


@dataclass(frozen=True)
class Reference:
    """The tensors transformers builds for one config, in its own order."""

    model_type: str
    class_name: str  # e.g. "LlamaForCausalLM"
    tensors: tuple[tuple[str, tuple[int, ...]], ...]  # unique parameters: (name, shape)
    aliases: Mapping[str, str] = field(default_factory=dict)  # alias -> first name of the same Parameter
    # what the model holds in float32 when loaded at fp16, and at fp16 or bf16 (_keep_in_fp32_modules(_strict))
    kept_in_float32: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    @property
    def total(self) -> int:
        return sum(math.prod(shape) for _, shape in self.tensors)


@dataclass(frozen=True)
class Diff:
    """Inventory (ours) against reference (transformers'), tensor by tensor."""

    missing: tuple[tuple[str, tuple[int, ...]], ...]  # in the reference, not in the inventory
    extra: tuple[tuple[str, tuple[int, ...]], ...]  # in the inventory, not in the reference
    shapes: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]  # name, ours, reference
    tying: tuple[tuple[str, str | None, str | None], ...]  # alias, our target, reference target
    tensors: int  # reference tensor count
    ours_total: int
    reference_total: int

    @property
    def matches(self) -> bool:
        return not (self.missing or self.extra or self.shapes or self.tying) and self.ours_total == self.reference_total

    def to_json(self) -> dict[str, Any]:
        return {
            "match": self.matches,
            "tensors": self.tensors,
            "total": self.ours_total,
            "reference_total": self.reference_total,
            "missing": [{"name": n, "shape": list(s)} for n, s in self.missing],
            "extra": [{"name": n, "shape": list(s)} for n, s in self.extra],
            "shape_mismatches": [{"name": n, "ours": list(a), "reference": list(b)} for n, a, b in self.shapes],
            "tying_differences": [{"alias": a, "ours": x, "reference": y} for a, x, y in self.tying],
        }


def _import_reference() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError:
        raise ReferenceUnavailableError(INSTALL_HINT) from None
    transformers.logging.set_verbosity_error()  # no warnings about unused keys or rope defaults
    transformers.logging.disable_progress_bar()
    return torch, transformers


def hf_config(config: Mapping[str, Any]) -> Any:
    """transformers' config object for a config dict (model_type chooses the class)."""
    _, transformers = _import_reference()
    values = dict(config)
    model_type = values.pop("model_type", None)
    if not model_type:
        raise ParamledgerError("model_type: missing (required to choose the reference class)")
    for key in ("architectures", "transformers_version", "_name_or_path", "auto_map"):
        values.pop(key, None)
    try:
        cfg = transformers.AutoConfig.for_model(model_type, **values)
    except Exception as error:  # transformers' own validation: one line, never a traceback
        raise ParamledgerError(f"transformers refuses the config: {_one_line(error)}") from None
    if _decoder_named(config):  # kept where it chooses the class: an encoder-decoder's decoder alone (auto_class)
        cfg.architectures = list(config["architectures"])
    return cfg


def build_reference(config: Mapping[str, Any], *, text_config: bool = False) -> Reference:
    """Build ``<Family>ForCausalLM`` for ``config`` on the meta device and list its tensors.

    ``text_config``: the config is multimodal; the reference is the CausalLM of its text
    decoder (e.g. Gemma3ForCausalLM from a gemma3 config's text_config)."""
    torch, transformers = _import_reference()
    cfg = hf_config(config)
    if text_config:
        cfg = causal_lm_config(cfg)
    alone = text_config or _decoder_named(config)  # (a multimodal text_config: its own CausalLM)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            with torch.device("meta"):
                model = auto_class(cfg, alone).from_config(cfg)
        except Exception as error:
            raise ParamledgerError(f"transformers cannot build {cfg.model_type}: {_one_line(error)}") from None
    return reference_of(model, cfg.model_type)


def auto_class(cfg: Any, decoder_alone: bool = False) -> Any:
    """The auto class whose model is the reference for ``cfg``: an encoder-decoder's whole model (seq2seq LM;
    ``decoder_alone``: its decoder's CausalLM), else the CausalLM where transformers registers one
    for the type, else the whole multimodal model (image-text-to-text, then multimodal LM), as issue #16 says,
    else the masked-LM model of an encoder (issue #17).  A type counted whole whose CausalLM class is its text
    decoder alone (Llama 4's, Qwen3.5's: Llama4ForCausalLM from a Llama4Config) is the auto class that builds its
    family's class (``Family.causal_lm_class``, the ForConditionalGeneration)."""
    from transformers.models.auto import modeling_auto

    from . import families

    _, transformers = _import_reference()
    family = families.get(cfg.model_type)
    if family is not None and family.seq2seq is not None and not (
            decoder_alone or _decoder_named({"model_type": cfg.model_type, "architectures": cfg.architectures})):
        # the whole encoder-decoder (a speech one, Whisper's, where transformers registers it so)
        speech = cfg.model_type in modeling_auto.MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING_NAMES and (
            cfg.model_type not in modeling_auto.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES)
        if speech or cfg.model_type in modeling_auto.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES:
            return transformers.AutoModelForSpeechSeq2Seq if speech else transformers.AutoModelForSeq2SeqLM
        # (a whole encoder-decoder registered only as image-text-to-text, UDOP's: the mappings below)
    # (the decoder alone of a whole type whose CausalLM is built from the whole config: MllamaForCausalLM)
    wanted = family.causal_lm_class if family is not None and family.whole is not None and not decoder_alone else None
    if cfg.model_type == "reformer" and not cfg.is_decoder:  # ReformerModelWithLMHead asserts is_decoder; the
        return transformers.AutoModelForMaskedLM  # masked LM builds the same tensors (families/reformer.py)
    if cfg.model_type == "evolla":  # listed as image-text-to-text, yet the auto class refuses an EvollaConfig
        return _ClassBuilds(transformers.EvollaForProteinText2Text)  # ("Unrecognized configuration class")
    for mapping, auto in (("MODEL_FOR_CAUSAL_LM_MAPPING_NAMES", "AutoModelForCausalLM"),
                          ("MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES", "AutoModelForImageTextToText"),
                          ("MODEL_FOR_MULTIMODAL_LM_MAPPING_NAMES", "AutoModelForMultimodalLM"),
                          ("MODEL_FOR_MASKED_LM_MAPPING_NAMES", "AutoModelForMaskedLM"),
                          # a whole audio-text model registered only as a seq-to-seq causal LM (Audio Flamingo 3's)
                          ("MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES", "AutoModelForSeq2SeqLM")):
        names = getattr(modeling_auto, mapping)
        if cfg.model_type in names and (wanted is None or names[cfg.model_type] == wanted):
            return getattr(transformers, auto)
    if family is not None and family.text_config is False and not any(
            cfg.model_type in getattr(modeling_auto, names) for names in dir(modeling_auto)
            if names.startswith("MODEL_") and names.endswith("_MAPPING_NAMES")):
        # a decoder's own config type no auto class maps (Emu3TextConfig): the class that takes it
        klass = getattr(transformers, family.causal_lm_class, None)
        if klass is not None:
            return _ClassBuilds(klass)
    return transformers.AutoModelForCausalLM  # let it say what it cannot build


class _ClassBuilds:
    """A model class built as an auto class builds it (``from_config``), for a config type no auto class maps."""

    def __init__(self, klass: Any) -> None:
        self.klass = klass

    def from_config(self, cfg: Any, **kwargs: Any) -> Any:
        return self.klass._from_config(cfg, **kwargs)

    def from_pretrained(self, *args: Any, **kwargs: Any) -> Any:
        return self.klass.from_pretrained(*args, **kwargs)


def _decoder_named(config: Mapping[str, Any]) -> bool:
    """An encoder-decoder's config whose architectures name its decoder alone (counted so: towers/encoder.py)."""
    from . import families

    family = families.get(str(config.get("model_type")))
    if family is None or family.seq2seq is None:
        return False
    from .towers.encoder import causal_lm_named

    return causal_lm_named(config, family)


# Flat whole configs whose decoder alone is another type's CausalLM over the same top-level keys, the whole class
# being the type's own CausalLM: Phi4MultimodalAttention and Phi4MultimodalMLP are Phi-3's (modular_phi4_multimodal.py)
DECODER_ALONE = {"phi4_multimodal": "phi3"}


def causal_lm_config(cfg: Any) -> Any:
    """The config a multimodal config's text decoder is built from: its text_config when that
    has a CausalLM class of its own (Gemma 3), the keys of a flat one as its decoder's type
    (DECODER_ALONE), else the composite itself (Emu3Config maps straight to Emu3ForCausalLM)."""
    _, transformers = _import_reference()
    if (alone := DECODER_ALONE.get(cfg.model_type)) is not None:  # every key filled by the whole config's class
        return transformers.AutoConfig.for_model(alone, **{key: value for key, value in cfg.to_dict().items()
                                                           if key not in cfg.sub_configs and key != "model_type"})
    text = cfg.get_text_config()
    return text if type(text) in transformers.MODEL_FOR_CAUSAL_LM_MAPPING else cfg


def reference_of(model: Any, model_type: str = "") -> Reference:
    """The tensors and aliases of a live nn.Module (any device)."""
    seen: dict[int, str] = {}
    tensors: list[tuple[str, tuple[int, ...]]] = []
    aliases: dict[str, str] = {}
    for name, parameter in model.named_parameters(remove_duplicate=False):
        first = seen.get(id(parameter))
        if first is None:
            seen[id(parameter)] = name
            tensors.append((name, tuple(int(n) for n in parameter.shape)))
        else:
            aliases[name] = first
    kept = tuple(tuple(sorted(getattr(model, key, None) or ()))
                 for key in ("_keep_in_fp32_modules", "_keep_in_fp32_modules_strict"))
    return Reference(model_type, type(model).__name__, tuple(tensors), aliases, kept)


def diff(inventory: Inventory, reference: Reference) -> Diff:
    ours = {t.name: t.shape for t in inventory.tensors}
    theirs = dict(reference.tensors)
    missing = tuple((n, s) for n, s in reference.tensors if n not in ours)
    extra = tuple((t.name, t.shape) for t in inventory.tensors if t.name not in theirs)
    shapes = tuple((n, ours[n], s) for n, s in reference.tensors if n in ours and ours[n] != s)
    tying = tuple(
        (alias, inventory.aliases.get(alias), reference.aliases.get(alias))
        for alias in sorted(set(inventory.aliases) | set(reference.aliases))
        if inventory.aliases.get(alias) != reference.aliases.get(alias)
    )
    return Diff(missing, extra, shapes, tying, len(reference.tensors), inventory.total, reference.total)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{error.__class__.__name__}: {text[:300]}" if text else error.__class__.__name__


# --------------------------------------------------------------------------- verify a source
@dataclass(frozen=True)
class Verification:
    inventory: Inventory
    reference: Reference
    diff: Diff
    config: Mapping[str, Any]  # the config transformers built
    note: str | None = None  # how the config was obtained (a design translated to Llama, ...)


def verify(source: Any, *, text_only: bool = False, **overrides: Any) -> Verification:
    """Our inventory of ``source`` against transformers' model built from the same config.

    ``source``: anything :func:`paramledger.load` accepts that holds a config (a
    config.json, its folder, a bundled model, a config mapping) or a paramledger design
    expressible as Llama (translated by :func:`llama_config`).  ``overrides`` are field
    names, written into the config under the family's own key names.  ``text_only``: a multimodal model's text
    decoder alone, against the CausalLM of its text_config (else the whole model, against the whole class)."""
    from .families import get, same_code
    from .hf_config import architecture_from_config, config_with_overrides
    from .sources import load

    config = _raw_config(source)
    note = None
    if config is None:  # a declared design: translate it to the config of an equal model
        arch = load(source, **overrides)
        config, note = llama_config(arch)
        ours = arch
    else:
        family = get(str(config.get("model_type")))
        if family is None and (same := same_code(str(config.get("model_type")))) is not None:
            # remote code that is a supported family's own (Kimi K2's, DeepSeek-V3's): built as that family
            note = f"{config['model_type']} is built as {same[0]}: its remote code is {same[0]}'s ({same[1]})"
            config, family = {**config, "model_type": same[0]}, get(same[0])
        if family is None:  # let the loader say what is unsupported
            architecture_from_config(config, _label(source))
        config = config_with_overrides(config, overrides)
        ours = architecture_from_config(config, _label(source))
    import paramledger

    whole = ours
    if text_only:
        from .towers import text_only as decoder_alone

        ours = decoder_alone(ours)
    inv = paramledger.inventory(ours)
    family = get(str(config["model_type"]))
    alone = bool(family and (family.text_decoder_only or text_only and (family.text_config
                                                                           or family.seq2seq is not None)))
    reference = build_reference(config, text_config=alone)
    if text_only and whole.towers:  # where no class builds the decoder alone (Kosmos-2's), the whole one was built
        decoder = _outside_towers(reference, paramledger.inventory(whole))
        if decoder != reference:
            reference, note = decoder, (f"transformers builds no class for {config['model_type']}'s decoder alone: "
                                        f"compared with the whole {reference.class_name}'s tensors outside its towers")
    return Verification(inv, reference, diff(inv, reference), config, note)


def _outside_towers(reference: Reference, whole: Inventory) -> Reference:
    """``reference`` (a whole model transformers built) without the tensors our ``whole`` inventory of it places
    in a tower (vision, audio, projector, ...), nor the names of them: what is left is its decoder's."""
    from .inventory import TOWER_COMPONENTS

    towers = {t.name for t in whole.tensors if t.component in TOWER_COMPONENTS}
    towers |= {alias for alias, target in whole.aliases.items() if target in towers}
    kept = tuple((name, shape) for name, shape in reference.tensors if name not in towers)
    names = {name for name, _ in kept}
    aliases = {alias: target for alias, target in reference.aliases.items()
               if alias not in towers and target in names}
    return replace(reference, tensors=kept, aliases=aliases)


def _label(source: Any) -> str:
    return "config" if isinstance(source, Mapping) else str(source)


def _raw_config(source: Any) -> dict[str, Any] | None:
    """The config dict behind ``source``, or None for a declared design (spec, mapping of fields)."""
    from .architecture import DESIGN_MODEL_TYPE, Architecture
    from .sources import raw_config

    if isinstance(source, Architecture):
        if source.model_type != DESIGN_MODEL_TYPE:
            raise ParamledgerError(
                f"{source.source}: verify needs the config itself (a config.json, its folder or a bundled model)")
        return None
    return raw_config(source)


# A paramledger design is verified through the one HF family that builds the same tensors:
# Llama when the FFN is gated (SwiGLU), Arcee (Llama with an ungated up/down FFN) when not.
_NO_LLAMA_EQUIVALENT = (
    ("norm_type", "rmsnorm"), ("norm_placement", "pre"), ("qk_norm", "none"), ("final_norm", True),
    ("num_experts", 0), ("attention_sinks", False), ("lm_head_bias", False), ("kv_lora_rank", None),
    ("head_dim_per_layer", ()), ("num_key_value_heads_per_layer", ()), ("attention_k_eq_v", False),
    ("attention_lambdas", False),
)


def llama_config(arch: Any) -> tuple[dict[str, Any], str]:
    """The Llama (or Arcee) config.json that builds exactly ``arch``'s tensors."""
    for key, needed in _NO_LLAMA_EQUIVALENT:
        if getattr(arch, key) != needed:
            raise ParamledgerError(
                f"{arch.source}: {key}={getattr(arch, key)!r} has no Llama equivalent (Llama needs {needed!r}); "
                "this design cannot be verified against transformers")
    if arch.position_embedding_type == "learned":
        raise ParamledgerError(f"{arch.source}: position_embedding_type='learned' has no Llama equivalent "
                               "(Llama's RoPE holds no parameters); this design cannot be verified")
    if arch.attention_bias != arch.attention_output_bias:
        raise ParamledgerError(f"{arch.source}: attention_bias != attention_output_bias has no Llama equivalent "
                               "(one attention_bias flag covers q, k, v and o)")
    model_type = "llama" if arch.mlp_gated else "arcee"
    config = {
        "model_type": model_type, "vocab_size": arch.vocab_size, "hidden_size": arch.hidden_size,
        "intermediate_size": arch.ffn_size, "num_hidden_layers": arch.num_hidden_layers,
        "num_attention_heads": arch.num_attention_heads, "num_key_value_heads": arch.kv_heads,
        "head_dim": arch.attention_head_dim, "tie_word_embeddings": arch.tie_word_embeddings,
        "attention_bias": arch.attention_bias, "mlp_bias": arch.mlp_bias,
        "max_position_embeddings": arch.max_position_embeddings,
    }
    note = (f"design translated to an equivalent {model_type} config "
            f"({'gated' if arch.mlp_gated else 'ungated'} FFN; positions {arch.position_embedding_type}, 0 parameters)")
    return config, note


def verification_lines(result: Verification) -> list[str]:
    """The text report: one line on a match, else every difference, one per line."""
    d = result.diff
    head = f"reference: {result.reference.class_name} (transformers, meta device)"
    lines = [head] + ([f"note: {result.note}"] if result.note else [])
    lines += [f"note: {note}" for note in result.inventory.notes]
    if d.matches:
        return lines + [f"match: {d.tensors:,} tensors, total {d.ours_total:,}"]
    lines += [f"missing (transformers has, paramledger lacks): {n} {_shape(s)}" for n, s in d.missing]
    lines += [f"extra (paramledger has, transformers lacks): {n} {_shape(s)}" for n, s in d.extra]
    lines += [f"shape: {n} paramledger {_shape(a)} transformers {_shape(b)}" for n, a, b in d.shapes]
    lines += [f"tying: {a} -> paramledger {x or 'untied'}, transformers {y or 'untied'}" for a, x, y in d.tying]
    difference = d.ours_total - d.reference_total
    lines.append(f"DIFFERENT: total paramledger {d.ours_total:,}, transformers {d.reference_total:,} "
                 f"({difference:+,})")
    return lines


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ")"

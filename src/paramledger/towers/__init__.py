"""Whole multimodal models: the towers and projector beside the text decoder (issue #16).

A multimodal family's ``Family.whole`` says, as data, what its whole model holds beside the decoder the family
table reads from text_config: its vision tower (vision.py: a layout and its vision config class's defaults),
its audio tower (audio.py, read from audio_config), its projector (projectors.py) and where the decoder's modules
sit in the whole model.  ``read`` makes the
towers from a config (they ride on the Architecture, ``Architecture.towers``); ``outside_decoder`` puts their tensors
before the decoder's, as transformers registers them (the tower, the projector, the language model, the head).
"""

from __future__ import annotations

import dataclasses
import pkgutil
from collections.abc import Callable, Mapping
from functools import lru_cache
from importlib import import_module
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError, quoted
from ..inventory import Buffer, Tensor
from ..limits import MAX_INTEGER
from ..naming import Naming
from ._kind import TowerKind, depth_bounded, projector_activations
from .projectors import Projector
from .projectors import tensors as projector_tensors


class Whole(NamedTuple):
    """What a multimodal family's whole model holds beside its text decoder."""
    # the vision_config the config class builds when a config gives none; {}: no vision tower (an audio-text model)
    vision_config: Mapping[str, Any]
    projector: Projector
    vision_prefix: str = "model.vision_tower."
    projector_prefix: str = "model.multi_modal_projector."
    decoder_prefix: str = "model.language_model."  # where the text decoder's "model." paths sit
    decoder_roots: tuple[str, ...] = ()  # its other top modules, moved under decoder_prefix whole (BLIP's bert., cls.)
    # The whole model ties its head by the whole config's tie_word_embeddings (this its class default), not
    # text_config's; ``tie_from_text``: or by text_config's too (LlavaConfig.__post_init__).
    tie_word_embeddings: bool = True
    tie_from_text: bool = False
    tie_keys: tuple[str, ...] = ("tie_word_embeddings",)  # the whole config's keys for it, the first given wins
    # the whole config's tying is the decoder's too, for --text-only (Pix2StructConfig.__post_init__ writes its
    # tie_word_embeddings into text_config's); False: the decoder alone ties by text_config's own
    tie_text_too: bool = False
    vision_kind: str = ""  # the tower whatever vision_config's model_type says (Idefics2Config drops it); "": by it
    # More towers built from the same vision_config, each under its own prefix (Video-LLaVA's image_tower beside
    # its video_tower), registered after the first; the projector reads the first.
    twin_prefixes: tuple[str, ...] = ()
    # A config without text_config gives the decoder's keys at its top level (Qwen2VLConfig.__post_init__ pops them
    # into text_config): the layout Qwen2-VL's and Qwen2.5-VL's releases ship.
    text_at_top: bool = False
    image_tokens: Any = None  # towers.images' rule for the tokens an image costs the decoder; None: not known
    # The text_config model_types it reads, each by its own family's table (LLaVA's decoder is any of
    # several); (): only the family's own.  The first is the one a config without text_config builds.
    text_types: tuple[str, ...] = ()
    text_model_type: str = ""  # the text decoder's own family (set by families._family.multimodal)
    text_config: Mapping[str, Any] = {}  # the text_config the class builds when a config gives none (Mistral 3's)
    text_key: str = "text_config"  # the config's key its refusals name the decoder's by (encoder-decoder's "decoder")
    # The audio tower (audio.py), read from the config's audio_config like the vision tower from vision_config: the
    # audio_config the class builds when a config gives none ({}: no audio tower), its prefix, its kind whatever
    # audio_config's model_type says (""), and whether it is registered before the vision tower (Qwen2.5-Omni's).
    audio_config: Mapping[str, Any] = {}
    audio_key: str = "audio_config"  # the config's key it is read from (Granite Speech's encoder_config)
    audio_prefix: str = "model.audio_tower."
    audio_kind: str = ""
    audio_first: bool = True
    # More towers, each read from a sub-config of its own: (its key, what the class builds when a config gives none,
    # its kind, its prefix), registered first (DeepSeek-VL-Hybrid's high_res_vision_config); the projector reads the
    # first of the others
    sub_towers: tuple[tuple[str, Mapping[str, Any], str, str], ...] = ()
    # Buffers the projector's modules register, (the whole config, the decoder's hidden size) -> [(name under the
    # projector's prefix, shape, dtype, persistent)] (Gemma 4 assistants' masked_embedding.token_ordering); None: none
    projector_buffers: Any = None
    # Buffers the whole model's own modules register outside its towers and projector, (the whole config, its first
    # tower) -> [(full name, shape, dtype, persistent)] (MusicFlamingo's model.pos_emb); None: none
    model_buffers: Any = None
    # The decoder's naming in the whole model -> its naming there, where the model moves more than "model." (BLIP-2's
    # head under language_model, its towers first in model_order), for every text type alike; None: as it is
    renamed: Any = None
    # Why --text-only is refused, where the decoder alone is no class transformers builds (GIT's); "": it counts it
    decoder_alone_refused: str = ""
    # (the whole config, its text_config) -> the text_config as the whole config's class rewrites it before the
    # decoder is built (BlipConfig sets the text's encoder_hidden_size to the tower's width); None: as given
    text_rewritten: Any = None
    # (the whole config, where, the decoder's design) -> towers a rule makes from more than one of its sub-configs and
    # the design, registered first (BLT's stacks: the global transformer reads the design's width and the whole
    # config's cross_attn_k, so a --set width reaches them); None: none
    made: Any = None
    # The note a count carries where the whole model is no multimodal one (BLT's stacks); "": "<type> is multimodal:
    # counting the whole model (its parts_said)"
    described: str = ""
    # (the whole config) -> the whole config as its class rewrites it before the towers and projector are built
    # (Molmo2Config moves the remote code's vit_config into vision_config); None: as given
    config_rewritten: Any = None
    # The sub-configs' key the whole config's class sets to the decoder's hidden_size before its towers are built
    # (InklingConfig.__post_init__: text_hidden_size), which the towers read; "": none
    text_width_key: str = ""
    # The whole config's section that holds text_config and vision_config (PI0's vlm_config), where --set writes the
    # decoder's keys (hf_config.config_with_overrides; the whole model's defaults filled in where it is absent); "":
    # the top level
    text_section: str = ""
    # The sub-config holding the model the decoder belongs to, a whole model of its own inside this one (Qwen2.5-Omni's
    # thinker_config): its tie_keys tie the head and its text_config holds the decoder's keys (pad_token_id refused
    # under it); "": the whole config itself
    inner_section: str = ""
    # The sub-configs whose model_type the whole config's class reads unguarded when one is given as a dict
    # (Exaone4_5Config.__post_init__'s text_config["model_type"]): a KeyError without it, so refused
    typed_sections: tuple[str, ...] = ()

    @property
    def parts_said(self) -> str:
        """The whole model's parts in words, for the note its count carries: its towers ("vision tower"; none: Fuyu's
        patch Linear, an assistant's projections), its projector unless it has none (BLIP's, Chameleon's and
        Pix2Struct's decoders read their towers' features themselves), the text decoder."""
        said = [name for name, config in (("audio", self.audio_config), ("vision", self.vision_config)) if config]
        if not self.audio_first:
            said.reverse()
        if not said:  # towers of sub-configs of their own alone, named by them (Chameleon's vq_config)
            said = [key.removesuffix("_config").replace("_", " ") for key, *_ in self.sub_towers]
        parts = [" and ".join(said) + (" towers" if len(said) > 1 else " tower")] if said else []
        parts += [] if self.projector is no_projector else ["projector"]
        return ", ".join(parts) + (" and " if parts else "") + "text decoder"


def no_projector(config: Mapping[str, Any], tower: Any, hidden: int) -> list[tuple[str, tuple[int, ...]]]:
    """The projector of a whole model that has none: its decoder reads the towers' features itself."""
    return []


class Towers(NamedTuple):
    """What an Architecture of a whole multimodal model holds beside its decoder (``Architecture.towers``)."""
    parts: tuple[Any, ...]  # each answers tensors() and buffers(), in registration order
    text_model_type: str  # the decoder's own family: what --text-only counts
    text_tied: bool  # text_config's tie_word_embeddings (the whole model ties by its own key)
    naming: Any = None  # the decoder's names where its text family's differ from the whole family's (Gemma 2's)
    image_tokens: Any = None  # an image's size -> the decoder tokens it costs (Whole.image_tokens); None: unknown


class Projected(NamedTuple):
    """A projector's tensors and buffers, made when the config is read."""
    tensors_: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...] = ()

    def tensors(self) -> list[Tensor]:
        return list(self.tensors_)

    def buffers(self) -> list[Any]:
        return list(self.buffers_)


def tied(whole: Whole, config: Mapping[str, Any], text_tied: bool, where: str | None = None) -> bool:
    """Whether the whole model ties its head to the token table."""
    if whole.inner_section:  # (a sub-config that is no JSON object was refused where its towers were read)
        config = config.get(whole.inner_section) or {}
    key = next((key for key in whole.tie_keys if key in config), None)
    tie = whole.tie_word_embeddings if key is None or config[key] is None else config[key]
    if not isinstance(tie, bool):  # as transformers' config classes read a boolean: "false" is no False
        raise ArchitectureError(key or "tie_word_embeddings", f"must be true or false, got {quoted(tie)}", where)
    return tie or whole.tie_from_text and text_tied


def embedding_tables(arch: Any) -> frozenset[str]:
    """The names of the towers' nn.Embedding tables (a tower answers embedding_tables(), else holds none): what
    num_parameters(exclude_embeddings) drops and LoRA adapts as an embedding, not a Linear."""
    if not arch.towers:
        return frozenset()
    return frozenset(name for tower in arch.towers.parts for name in getattr(tower, "embedding_tables", list)())


def tower_aliases(arch: Any) -> frozenset[str]:
    """The names a tower gives tensors held elsewhere (an encoder's embed_tokens tied to the shared table): each a
    table looked up, never a matmul nor a tied head."""
    if not arch or not arch.towers:
        return frozenset()
    # (a tower whose aliases are not all tables says which are: looked_up; IDEFICS's tied extra head rows are a matmul)
    return frozenset(alias for tower in arch.towers.parts
                     for alias in getattr(tower, "looked_up", getattr(tower, "aliases", dict))())


def with_towers(arch: Any, whole: Whole, config: Mapping[str, Any], where: str | None, text_family: Any) -> Any:
    """``arch`` (a whole multimodal config's text decoder, read by ``text_family``'s table) with the towers and
    the whole model's tying."""
    naming = whole_naming(text_family.naming, whole.decoder_prefix, whole.decoder_roots)
    if whole.renamed is not None:
        naming = whole.renamed(naming)
    from ..families import get

    own = get(whole.text_model_type)
    parts = read(whole, config, arch.hidden_size, where, arch)
    try:
        images = whole.image_tokens(config, parts[0]) if whole.image_tokens is not None else None
    except ArchitectureError as error:  # a rule's refusal, said about this config
        raise ArchitectureError(error.key, error.message, where) from None
    tie, notes = tied(whole, config, arch.tie_word_embeddings, where), arch.notes
    towers = Towers(parts, text_family.model_type, tie if whole.tie_text_too else arch.tie_word_embeddings,
                    None if own is not None and naming == whole_naming(own.naming, whole.decoder_prefix,
                                                                       whole.decoder_roots) else naming,
                    images)
    if tie and not arch.tie_word_embeddings and not any(key in config for key in whole.tie_keys):
        # the config is silent; its class ties, its text_config does not
        notes = (*notes, tied_head_note(arch, "its class's default; the config does not say", "loads untied"))
    return arch.with_fields(towers=towers, tie_word_embeddings=tie, notes=notes)


def remembered(make: Callable[[Any], Any], decoder: Any) -> Any:
    """``make(decoder)``: a whole model's design (its towers beside ``decoder``), holding ``make`` and the notes it
    added, so that a copy with another decoder (Architecture.replace) has its towers made again (``followed``)."""
    whole = make(decoder)
    whole.__dict__["_towers_from"] = (make, tuple(note for note in whole.notes if note not in decoder.notes))
    return whole


def followed(before: Any, copy: Any) -> Any:
    """``copy`` (``before`` with its decoder's fields changed) with its towers made again from the whole config, as
    transformers builds that config with the change: an encoder is the decoder's design at the encoder's own sizes
    and a projector reads the decoder's width, so neither may be kept from ``before`` (the tower notes made again)."""
    make, made_notes = before.__dict__["_towers_from"]
    decoder = copy.with_fields(towers=(), tie_word_embeddings=before.towers.text_tied,
                               notes=tuple(note for note in copy.notes if note not in made_notes))
    return remembered(make, decoder)


def projector_at(arch: Any, hidden: Any) -> Projected | None:
    """A whole multimodal ``arch``'s projector made again for a decoder ``hidden`` wide (formula's symbol d), by the
    whole model's own projector rule; None for a design whose towers no such rule made (an encoder-decoder's)."""
    make = vars(arch).get("_towers_from", (None,))[0]
    spec = getattr(make.keywords.get("family"), "seq2seq", None) if make is not None else None
    if spec is not None and spec.encoder_towers is not None:  # towers inside an encoder (T5Gemma 2's): made again
        made = spec.encoder_towers({**spec.defaults, **make.keywords["config"]}, hidden, make.keywords["where"])
        return next(part for part in made if isinstance(part, Projected))
    if make is None or make.func is not with_towers:
        return None
    whole, config = make.keywords["whole"], make.keywords["config"]
    towers = arch.towers.parts[len(whole.sub_towers):-1]  # (it reads the first tower after the sub-configs')
    named = whole.projector(config, towers[0] if towers else None, hidden)
    return Projected(tuple(projector_tensors(whole.projector_prefix, named)))


def tied_head_note(arch: Any, why: str, checkpoint: str) -> str:
    """The note of a head transformers ties where a checkpoint may hold one of its own: ``why`` it is tied, and what
    such a checkpoint does (its head is the decoder's: lm_head_rows × hidden_size)."""
    return (f"the head is tied, as transformers builds this config ({why}): a checkpoint that stores lm_head.weight "
            f"{checkpoint}, {arch.lm_head_rows * arch.hidden_size:,} more")


def decoder_alone_refused(model_type: str) -> str:
    """Why ``--text-only`` is refused for a whole ``model_type`` (its decoder alone no class transformers builds:
    GIT's, BLIP's, ProphetNet's); "" where it counts the decoder alone."""
    from ..families import get

    family = get(model_type)
    spec = getattr(family, "seq2seq", None) or getattr(family, "whole", None)
    return spec.decoder_alone_refused if spec is not None else ""


def text_only(arch: Any) -> Any:
    """The text decoder of a whole multimodal ``arch`` alone, as its own family counts it (``--text-only``)."""
    if not arch.towers:
        return arch
    if refused := decoder_alone_refused(arch.model_type):
        from .._exceptions import OptionError

        raise OptionError("--text-only", f"{arch.model_type}: {refused}")
    towers = arch.towers
    from ..families import get

    inner = getattr(get(arch.model_type), "whole", None) and get(arch.model_type).whole.inner_section
    note = getattr(towers.parts[0], "text_only_note", f"{arch.model_type} is multimodal: counting its text decoder "
                   f"({inner + '.' if inner else ''}text_config) only")
    notes = tuple(note if n.startswith((f"{arch.model_type} is multimodal:", f"{arch.model_type} is an encoder-"))
                  else n for n in arch.notes)
    return arch.with_fields(towers=(), model_type=towers.text_model_type,
                            tie_word_embeddings=towers.text_tied, notes=notes)


def read(whole: Whole, config: Mapping[str, Any], text_hidden: int, where: str | None,
         decoder: Any = None) -> tuple[Any, ...]:
    """The towers of a whole multimodal ``config``: its vision tower, by its vision_config's model_type over
    that tower's config class defaults, its audio tower the same way from audio_config, then the projector (which
    reads the first tower registered)."""
    if whole.config_rewritten is not None:
        try:
            config = whole.config_rewritten(config)
        except ArchitectureError as error:  # its refusal, said about this config
            raise ArchitectureError(error.key, error.message, where) from None
    projector_activations(config, where)
    if whole.text_width_key:  # each sub-config given the decoder's width (a bad one is left to be refused below)
        config = {**config, **{key: {**(config.get(key) or {}), whole.text_width_key: text_hidden}
                               for key in ("vision_config", whole.audio_key)
                               if isinstance(config.get(key) or {}, Mapping)}}
    try:
        vision = (_towers(whole, config, "vision_config", whole.vision_config, whole.vision_kind,
                          (whole.vision_prefix, *whole.twin_prefixes), where) if whole.vision_config else ())
        audio = (_towers(whole, config, whole.audio_key, whole.audio_config, whole.audio_kind, (whole.audio_prefix,),
                         where) if whole.audio_config else ())
    except ArchitectureError as error:  # the towers of the model inside (config_rewritten moved them to the top):
        if not whole.inner_section:  # named as the config spells them, thinker_config.vision_config.hidden_act
            raise
        raise ArchitectureError(f"{whole.inner_section}.{error.key}", error.message, error.where) from None
    towers = (*audio, *vision) if whole.audio_first else (*vision, *audio)
    sub = tuple(tower for key, default, kind, prefix in whole.sub_towers
                for tower in _towers(whole, config, key, default, kind, (prefix,), where))
    if whole.made is not None:
        sub += tuple(whole.made(config, where, decoder))
    try:
        named = whole.projector(config, towers[0] if towers else None, text_hidden)  # None: no tower (an assistant)
        held = whole.projector_buffers(config, text_hidden) if whole.projector_buffers is not None else ()
        own = whole.model_buffers(config, towers[0] if towers else None) if whole.model_buffers is not None else ()
    except ArchitectureError as error:  # a projector's refusal, said about this config
        raise ArchitectureError(error.key, error.message, where) from None
    except (TypeError, ValueError, OverflowError, ZeroDivisionError, KeyError, IndexError) as error:
        # a projector's own keys read as its class reads them; a value it cannot take, said in one line
        raise ArchitectureError("config", f"a value does not fit the projector ({error.__class__.__name__}: "
                                f"{str(error)[:120]})", where) from None
    for name, shape in named:
        if not all(type(size) is int and 0 <= size <= MAX_INTEGER for size in shape):
            raise ArchitectureError("config", f"the projector's {name} would be {quoted(shape)}: its sizes must be "
                                    "whole numbers within the bound (docs/limits.md)", where)
    return (*sub, *towers, Projected(projector_tensors(whole.projector_prefix, named),
                               (*(Buffer(whole.projector_prefix + name, *rest) for name, *rest in held),
                                *(Buffer(*buffer) for buffer in own))))


def _towers(whole: Whole, config: Mapping[str, Any], key: str, default: Mapping[str, Any], fixed_kind: str,
            prefixes: tuple[str, ...], where: str | None) -> tuple[Any, ...]:
    """The towers one sub-config (``key``: vision_config, audio_config) builds, one per prefix."""
    given = config.get(key)
    if given is None:
        given = default
    if not isinstance(given, Mapping):
        raise ArchitectureError(key, "must be a JSON object", where)
    kinds = tower_kinds()
    kind = fixed_kind or given.get("model_type", default["model_type"])
    if kind not in kinds:
        raise ArchitectureError(f"{key}.model_type", f"{kind!r} is a{'n' if key == 'audio_config' else ''} "
                                f"{key.removesuffix('_config')} tower paramledger does not build yet (it builds "
                                f"{', '.join(sorted(kinds))}); --text-only counts the text decoder alone", where)
    tower_kind = kinds[kind]
    merged = {**tower_kind.defaults, **given}
    depth_bounded(merged, key, where, tower_kind.learned)
    return tuple(tower_kind.make(prefix, merged, where) for prefix in prefixes)


@lru_cache(maxsize=1)
def tower_kinds() -> dict[str, TowerKind]:
    """Every tower this package builds: each module's ``TOWERS``, imported when a whole model is first read."""
    kinds: dict[str, TowerKind] = {}
    for info in pkgutil.iter_modules(__path__):
        for name, kind in getattr(import_module(f"{__name__}.{info.name}"), "TOWERS", {}).items():
            if name in kinds:
                raise RuntimeError(f"tower {name!r} is declared twice ({info.name})")
            kinds[name] = kind
    return kinds


@lru_cache(maxsize=64)
def whole_naming(naming: Naming, prefix: str, roots: tuple[str, ...] = ()) -> Naming:
    """The text decoder's naming inside the whole model: every path under "model." moves under ``prefix``, and one
    under another of its top modules ``roots`` moves under it whole (BLIP's bert. and cls.: text_decoder.bert.); made
    once per naming and prefix: both are frozen."""
    def moved(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("model."):
            return prefix + value.removeprefix("model.")
        if isinstance(value, str) and value.startswith(roots):
            return prefix + value
        if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # model_buffers
            return tuple((moved(entry[0]), *entry[1:]) for entry in value)
        if isinstance(value, tuple):
            return tuple(moved(entry) for entry in value)
        return value

    changes = {f.name: moved(getattr(naming, f.name)) for f in dataclasses.fields(naming)}
    return dataclasses.replace(naming, **{key: value for key, value in changes.items()
                                          if value != getattr(naming, key)})


def outside_decoder(arch: Any, before: list[Tensor], aliases: dict[str, str]) -> list[Tensor]:
    """The tensors before a whole model's decoder layers: its towers', in registration order, then the decoder's
    own (``before``); ``aliases`` gains a tower's names for tensors held elsewhere (an encoder's embed_tokens, the
    shared table).  The builder lists them in one inventory with the decoder's: sorted into the naming's
    model_order where it has one (StampedTensors.outside), frozen marks matched on their full names too."""
    towers = arch.towers.parts
    for tower in towers:
        aliases.update(getattr(tower, "aliases", dict)())
    return [t for tower in towers for t in tower.tensors()] + before

"""An encoder-decoder's encoder: another stack of the decoder's own parts, beside the decoder (issue #17).

A seq2seq family (``Family.seq2seq``: a ``Seq2Seq`` record) is its decoder's table plus this: the encoder is the
decoder's design with the encoder's own sizes (encoder_layers, encoder_attention_heads, encoder_ffn_dim ...) and no
cross-attention, built by the same builder under the encoder's names (the decoder's, "model.decoder" made
"model.encoder"), every tensor of it the "encoder" component.  The whole model (transformers 5.24.0
BartForConditionalGeneration, modeling_bart.py BartModel: shared, encoder, decoder; lm_head) registers one token
table, model.shared, that the encoder's and the decoder's embed_tokens and the head are tied to
(BartModel._tied_weights_keys, honoured only while tie_word_embeddings is true: else each is a table of its own);
final_logits_bias is a buffer (register_buffer), never counted.

The encoder rides on the Architecture as a tower (``towers.Towers``), so every view that shows a multimodal
model's tower and its "text decoder" line shows the encoder and the decoder's own total the same way."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, StampedTensors, Tensor
from ..naming import Naming

COMPONENT = "encoder"
_TABLES = ("positions", "token_types")  # the components of an nn.Embedding beside the token table


class Seq2Seq(NamedTuple):
    """What a seq2seq family's whole model holds beside its decoder, as data."""
    whole_class: str  # the whole model (BartForConditionalGeneration): the reference of a count
    # The encoder's own config keys -> the decoder's design field each sets in the encoder (HF names), and their
    # config class defaults.
    keys: Mapping[str, str]
    defaults: Mapping[str, Any]
    shared: str = "model.shared"  # the one token table the whole model registers first
    decoder: str = "model.decoder"  # the decoder's module path (its names under the CausalLM's "model.decoder")
    encoder: str = "model.encoder"
    head_buffers: tuple[tuple, ...] = (("final_logits_bias", (1, "vocab_size"), None, True),)
    # the whole model ties its tables by this key of the whole config (its class default in ``defaults``), not by
    # the decoder's table (BigBirdPegasusForCausalLM never ties; its ForConditionalGeneration does)
    tie_key: str = "tie_word_embeddings"
    # the whole config's key saying whether the shared table exists (Marian's share_encoder_decoder_embeddings: false,
    # each stack its own table, the head tied to the decoder's); None: always
    shared_key: str | None = None
    shared_table: bool = True  # False: no shared table at all (WhisperModel: each stack its own, the head the decoder's)
    # One table only where the tables are tied, else each stack its own (FSMT: ``shared`` is the encoder's own path)
    shared_if_tied: bool = False
    # The encoder made by another tower's maker, (module prefix, the config over ``defaults``, where) -> a tower
    # (tensors(), embedding_tables(), buffers()): Whisper's audio encoder (towers/audio.py); None: the decoder's parts
    make_encoder: Any = None
    # the encoder's design where it differs from the decoder's beyond its sizes (its fields -> values)
    encoder_fields: Mapping[str, Any] = {}
    # the encoder's names where they differ from the decoder's moved under ``encoder``: (Naming field, value) pairs
    encoder_naming: tuple[tuple[str, Any], ...] = ()
    # (the whole config, where) -> changes to this record where the encoder's parts and names follow a config value
    # (LongT5's encoder_attention_type); None: this record whatever the config
    encoder_variant: Any = None
    # why --text-only cannot count the decoder alone as its CausalLM builds it (ProphetNet's wrapper table); "": it can
    decoder_alone_refused: str = ""
    # (the whole config, the decoder's hidden size, where) -> more towers the encoder holds, registered after its
    # stack (T5Gemma 2's vision tower and projector inside T5Gemma2Encoder); None: none
    encoder_towers: Any = None
    # the whole model's top modules registered between the shared table and the encoder (UDOP's patch_embed)
    after_shared: tuple[str, ...] = ()


class EncoderStack(NamedTuple):
    """The encoder of one whole seq2seq model, its tensors listed once (a tower: tensors(), buffers(), aliases())."""
    listed: tuple[Tensor, ...]  # in registration order, the "encoder" component
    tables: tuple[str, ...]  # its nn.Embedding tables (HF's non-embedding count drops them)
    aliases_: tuple[tuple[str, str], ...]  # (alias, target): its embed_tokens tied to the shared table
    buffers_: tuple[Buffer, ...] = ()
    text_only_note: str = ""
    design: Any = None  # (the encoder's design and names: its buffers are found when asked, never on a count)
    names: Any = None
    layout: tuple = ()  # (its table, the shared one, tied?, shared?): with_table's, formula's too
    own: frozenset = frozenset()  # the design fields its own config keys set, apart from the decoder's (formula's)

    def tensors(self) -> list[Tensor]:
        return list(self.listed)

    def buffers(self) -> list[Buffer]:
        if self.design is not None:  # (its rotary: None unless the spec names one, T5Gemma's)
            from ..buffers import rotary_buffers

            return [*_layer_buffers(self.design, self.names), *_buffers(self.design, self.names),
                    *rotary_buffers(self.design, self.names)]
        return list(self.buffers_)

    def embedding_tables(self) -> list[str]:
        if self.design is None:
            return list(self.tables)
        from .._builder import build  # its position and token-type tables (a view's question, never a count's)

        return [*self.tables, *(t.name for t in build(self.design, self.names).tensors if t.component in _TABLES)]

    def aliases(self) -> dict[str, str]:
        return dict(self.aliases_)


def causal_lm_named(config: Mapping[str, Any], family: Any) -> bool:
    """The config's ``architectures`` names the decoder alone (XForCausalLM) and not the whole model: it is counted
    as that class builds it; a config that names neither, or the whole model, is counted whole."""
    named = config.get("architectures")
    return (isinstance(named, list) and family.causal_lm_class in named
            and family.seq2seq.whole_class not in named)


def with_encoder(arch: Any, family: Any, config: Mapping[str, Any], where: str | None) -> Any:
    """``arch`` (the decoder, read by ``family``'s table) with the encoder beside it and the whole model's names."""
    from . import Towers, tied_head_note

    spec: Seq2Seq = family.seq2seq
    if causal_lm_named(config, family):
        return arch.with_fields(notes=(f"{arch.model_type}: counting the decoder alone, as {family.causal_lm_class} "
                                       "builds it (the config's architectures name it)", *arch.notes))
    merged = {**spec.defaults, **config}
    if spec.encoder_variant is not None:
        spec = spec._replace(**spec.encoder_variant(merged, where))
    tied = merged.get(spec.tie_key)
    tied = arch.tie_word_embeddings if tied is None else tied  # null: the class default
    if not isinstance(tied, bool):
        raise ArchitectureError(spec.tie_key, f"must be true or false, got {tied!r}", where)
    shared = spec.shared_table if spec.shared_key is None else merged.get(spec.shared_key)
    shared = tied if spec.shared_if_tied else shared
    if not isinstance(shared, bool):
        raise ArchitectureError(spec.shared_key, f"must be true or false, got {shared!r}", where)
    if spec.make_encoder is not None:
        # the keys it reads that the decoder reads too (Whisper's d_model), as the decoder has them: a copy's change
        # to the decoder (Architecture.replace) reaches the encoder as a config so written would
        shared_keys = {key: getattr(arch, family.keys[key]) for key in spec.defaults if key in family.keys}
        stack = _made(spec, {**merged, **shared_keys}, where)
    else:
        stack = _stack(_encoder_design(arch, spec, merged, where), family.naming, spec, tied, shared)
    note = (f"{arch.model_type} is an encoder-decoder: counting the whole model ({spec.whole_class}: the encoder, "
            f"the decoder{' and the shared table' if shared else ''})" + ("" if spec.decoder_alone_refused else
            f"; --text-only counts the decoder alone ({family.causal_lm_class})"))
    stack = stack._replace(text_only_note=f"{arch.model_type} is an encoder-decoder: counting its decoder alone "
                                          f"({family.causal_lm_class})")
    # (the decoder's own keys as the design has them: a copy at another depth sizes what reads them, MVP's prompts)
    more = () if spec.encoder_towers is None else spec.encoder_towers(
        {**merged, **{key: getattr(arch, name) for key, name in family.keys.items()}},
        arch.hidden_size, where)
    towers = Towers((stack, *more), family.model_type, arch.tie_word_embeddings,
                    whole_naming(family.naming, spec, tied, shared))
    notes = (note, *arch.notes)
    if not spec.tie_key and config.get("tie_word_embeddings") is False:  # no key ties: the class ties always (T5)
        notes = (*notes, tied_head_note(arch, f"5.24.0's {spec.whole_class} ties it whatever tie_word_embeddings "
                                              "says", "holds its own"))
    return arch.with_fields(towers=towers, tie_word_embeddings=tied, notes=notes)


def _encoder_design(arch: Any, spec: Seq2Seq, merged: Mapping[str, Any], where: str | None) -> Any:
    """The decoder's design with the encoder's sizes, no cross-attention and no head of its own."""
    changes = {**spec.encoder_fields, "add_cross_attention": False, "tie_word_embeddings": True}
    for key, field_name in spec.keys.items():
        value = merged.get(key)
        if key not in merged:
            continue  # (a key of the encoder's the whole config need not give: the decoder's own value)
        if type(value) is not int or value <= 0:  # null too: no class builds an encoder of a null size
            raise ArchitectureError(key, f"must be a positive whole number, got {value!r}", where)
        changes[field_name] = value
    if arch.frozen:  # the decoder's frozen tables (a sinusoidal one) have the encoder's twin
        changes["frozen"] = tuple(name.replace(spec.decoder + ".", spec.encoder + ".") for name in arch.frozen)
    try:
        return arch.replace(where, **changes)
    except ArchitectureError as error:  # said under the encoder's key, not the design field's
        key = next((key for key, name in spec.keys.items() if name == error.key), error.key)
        raise ArchitectureError(key, error.message, where) from None


def _stack(encoder: Any, naming: Naming, spec: Seq2Seq, tied: bool, shared: bool) -> EncoderStack:
    """The encoder's tensors: the builder's for the encoder's design under the encoder's names, less the token
    table where it is the shared one, each the encoder component, outside the layers' numbering."""
    from .._builder import build

    names = encoder_naming(naming, spec)
    built = build(encoder, names).tensors
    table, held = names.embed + ".weight", spec.shared + ".weight"
    # one new tuple a tensor: the encoder's, in no layer of the decoder's (a list already flat where frozen marks are)
    listed = (built.restamped(COMPONENT) if isinstance(built, StampedTensors)
              else tuple(t._replace(component=COMPONENT, layer=None) for t in built))
    layout = (table, held, tied, shared)
    aliases = tuple((name, held) for name in (table, naming.embed + ".weight")  # (the decoder's own)
                    if name != held) if tied and shared else ()
    if tied and shared:  # the vectors of a table's module are tied with it (T5Gemma 2's eoi_embedding)
        aliases += tuple((module + vector, spec.shared + vector) for module in (names.embed, naming.embed)
                         for vector in _table_vectors(naming) if module != spec.shared)
    tables = () if tied and shared else (table,)  # its nn.Embedding tables: this, then its position tables when asked
    return EncoderStack(tuple(with_table(listed, layout)), tables, aliases, design=encoder, names=names,
                        layout=layout, own=frozenset({*spec.keys.values(), *spec.encoder_fields}))


def with_table(listed: Sequence[Tensor], layout: tuple[str, str, bool, bool]) -> list[Tensor]:
    """The encoder's tensors (the "encoder" component) as the whole model lists them: without its token table where
    that is the shared one, else after model.shared where there is one (BartModel registers it first)."""
    table, held, tied, shared = layout
    first = next((i for i, t in enumerate(listed) if t[0] == table), None)
    if first is None:  # (a run of the encoder's tensors without its table: formula's layers)
        return list(listed)
    if tied and shared:  # (and the vectors of its module registered after it: T5Gemma 2's eoi_embedding)
        module, end = table.removesuffix("weight"), first + 1
        while end < len(listed) and listed[end][0].startswith(module):
            end += 1
        return [*listed[:first], *listed[end:]]
    if shared:
        return [*listed[:first], listed[first]._replace(name=held, component="embedding"), *listed[first:]]
    return list(listed)


def _made(spec: Seq2Seq, config: Mapping[str, Any], where: str | None) -> EncoderStack:
    """The encoder another tower module builds (its tensors already the encoder component)."""
    tower = spec.make_encoder(spec.encoder + ".", config, where)
    return EncoderStack(tuple(tower.tensors()), tuple(tower.embedding_tables()), (), tuple(tower.buffers()))


def _layer_buffers(encoder: Any, names: Naming) -> list[Buffer]:
    """The buffers the encoder's layer parts register (xIELU's beta and eps in a T5 feed-forward), each layer's
    under its own prefix, as buffers.py lists the decoder's."""
    from ..buffers import kind_buffers
    from ..design.flat import layer_plan

    plan = layer_plan(encoder)
    relative = kind_buffers(plan, names, encoder.norm_type)
    if not any(relative.values()):
        return []
    return [b._replace(name=names.layer.format(i=i) + "." + b.name)
            for i, layer in enumerate(plan.layers) for b in relative[id(layer)]]


def _buffers(encoder: Any, names: Naming) -> tuple[Buffer, ...]:
    """The encoder's own buffers outside its layers (M2M-100's sinusoidal table), sized by the encoder's design."""
    def size(term: int | str) -> int:
        if isinstance(term, int):
            return term
        name, _, extra = term.partition("+")
        return getattr(encoder, name) + int(extra or 0)

    return tuple(Buffer(name, tuple(size(term) for term in shape), dtype, persistent)
                 for name, shape, dtype, persistent, *needs in names.model_buffers
                 if "{layer}" not in name and (not needs or getattr(encoder, needs[0])))


def encoder_naming(naming: Naming, spec: Seq2Seq) -> Naming:
    """The encoder's names: the decoder's moved from ``spec.decoder`` to ``spec.encoder`` (BartEncoder names its
    modules as BartDecoder does), with the spec's own changes."""
    return _encoder_naming(naming, spec.decoder, spec.encoder, spec.encoder_naming)


@lru_cache(maxsize=64)
def _encoder_naming(naming: Naming, decoder: str, encoder: str, own: tuple[tuple[str, Any], ...]) -> Naming:
    prefix, into = decoder + ".", encoder + "."

    def moved(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(prefix):
            return into + value.removeprefix(prefix)
        if isinstance(value, tuple) and value and isinstance(value[0], str):
            return tuple(moved(entry) for entry in value)
        return value

    changes = {f.name: moved(getattr(naming, f.name)) for f in dataclasses.fields(naming)
               if f.name not in ("model_buffers", "rotary")}
    buffers = tuple((moved(rule[0]), *rule[1:]) for rule in naming.model_buffers)  # (a sinusoidal table's twin)
    return dataclasses.replace(naming, **{**changes, "model_buffers": buffers, "rotary": None, **dict(own)})


def whole_naming(naming: Naming, spec: Seq2Seq, tied: bool, shared: bool = True) -> Naming:
    """The decoder's names inside the whole model: its table the shared one where tied, the outside tensors in the
    whole model's order (the shared table, the encoder, then the decoder's own), the head's buffers added."""
    return _whole_naming(naming, spec.shared if shared else "", spec.encoder, spec.head_buffers, tied,
                         spec.after_shared)


@lru_cache(maxsize=64)
def _whole_naming(naming: Naming, shared: str, encoder: str, head_buffers: tuple, tied: bool,
                  after_shared: tuple[str, ...] = ()) -> Naming:
    order = (*((shared,) if shared else ()), *after_shared, encoder, *(naming.model_order or (naming.embed, naming.positions, naming.layer.partition(
        ".{i}")[0], *((naming.embed_norm,) if naming.embed_norm else ()), naming.final_norm)))
    vectors = naming.model_vectors  # a vector of the decoder's table module moves with it (T5Gemma 2's eoi_embedding)
    if tied and shared and (moved := _table_vectors(naming)):
        vectors = (*(v for v in vectors if not v.startswith(naming.embed + ".")), *(shared + v for v in moved))
    return dataclasses.replace(naming, embed=shared if tied and shared else naming.embed, model_order=order,
                               model_buffers=(*naming.model_buffers, *head_buffers), model_vectors=vectors)


def _table_vectors(naming: Naming) -> tuple[str, ...]:
    """The model vectors held in the token table's own module (".eoi_embedding": T5Gemma2TextScaledWordEmbedding's
    eoi_embedding), as suffixes of its path: tied with the table where the tables are."""
    return tuple(v.removeprefix(naming.embed) for v in naming.model_vectors if v.startswith(naming.embed + "."))

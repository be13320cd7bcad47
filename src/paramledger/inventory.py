"""The Inventory: the one currency every input becomes and every output views.

An inventory is the list of unique learned tensors (name, shape, count, component, layer) plus the names that
alias them.  Every total, share and breakdown below is computed from that list and nothing else.

Counting rule (seed 000): each distinct learned parameter object counts once.  An alias (a tied output head)
adds nothing; a frozen tensor still counts; two independent tables with equal values count twice.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter, ne
from typing import TYPE_CHECKING, NamedTuple

from ._expert_shares import expert_share, whole
from ._layers import Layers, canonical_kinds, grouped_kinds  # Layers re-exported: a kind's layers, kinds alternating
from .definitions import ACTIVE_DEFINITION, NON_EMBEDDING_DEFINITIONS  # noqa: F401 (re-exported: the views read them)

if TYPE_CHECKING:
    from .architecture import Architecture

COMPONENTS = (
    "embedding",  # the token table (input side)
    "positions",  # a learned position table
    "token_types",  # a token-type (segment) table (BERT's token_type_embeddings)
    "attention",
    "mixer",  # token mixers other than attention: Gated DeltaNet, Mamba, Mamba-2, LFM2's short conv
    "ffn",  # dense feed-forward matrices
    "router",
    "experts",  # routed experts (MoE)
    "shared_experts",
    "norm",  # every normalization vector, the final norm included
    "lm_head",  # an untied output head (and any output bias)
    # a whole model's components beside its text decoder (TOWER_COMPONENTS): an encoder-decoder's encoder stack
    # (towers/encoder.py), a multimodal model's vision and audio towers (towers/), the projector from a tower's
    # features to the decoder's width, and a speech model's codes decoder and codes-to-waveform (Qwen2.5-Omni's)
    "encoder", "vision", "audio", "projector", "talker", "vocoder",
)
TOWER_COMPONENTS = COMPONENTS[-6:]

class _cached:
    """functools.cached_property without the lock Python 3.11 takes on every first read
    (a third of the time of an inventory's total)."""

    def __init__(self, func: Callable) -> None:
        self.func, self.name, self.__doc__ = func, func.__name__, func.__doc__

    def __get__(self, instance: object, owner: type | None = None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)  # later reads find it there
        return value


class Tensor(NamedTuple):
    """One learned tensor.  ``layer`` is None outside the repeated blocks; ``experts`` is
    the number of experts stacked on its first axis (0 for a dense tensor).

    Immutable like a frozen dataclass, but a NamedTuple: an inventory makes one per tensor
    on every count, and a tuple is built four times faster (issue 2's 50 µs target)."""

    name: str
    shape: tuple[int, ...]
    component: str
    layer: int | None = None
    frozen: bool = False
    experts: int = 0

    @property
    def count(self) -> int:
        return math.prod(self.shape)


class Buffer(NamedTuple):
    """State a module registers beside its parameters (a rotary inv_freq, a causal mask, a router's
    score correction): not learned and never counted, but held in memory.  ``dtype`` None is the
    model's own dtype; ``persistent`` False: computed when the model is built, in no checkpoint."""

    name: str
    shape: tuple[int, ...]
    dtype: str | None = None
    persistent: bool = True

    @property
    def count(self) -> int:
        return math.prod(self.shape)


_name = itemgetter(0)  # a Tensor's name and shape, read at C speed where whole lists are summed or checked
_shape = itemgetter(1)


def _position_in(order: tuple[str, ...]) -> Callable[[Tensor | str], int]:
    """A tensor's (or a name's) sort key in ``order``: the index of the first entry it sits under,
    the entry itself or a path below it ("mlp" holds "mlp.up_proj.weight", not "mlp_norm.weight");
    len(order) for none."""
    def position(tensor: Tensor | str) -> int:
        name = tensor if isinstance(tensor, str) else tensor[0]
        for i, path in enumerate(order):
            if name.startswith(path) and (len(name) == len(path) or name[len(path)] == "."):
                return i
        return len(order)
    return position


class StampedTensors(Sequence[Tensor]):
    """A tensor list whose layers repeat: the tensors before the blocks, one block per layer
    (a layer's tensors named relative to its prefix, one block object shared by every layer
    of a kind), and the tensors after.

    It is the flat list: iterating, indexing, len and == see every tensor in order
    (expanded once, on first use).  It also sums without expanding, each distinct block
    once times the layers that share it, which keeps a count of a 100-layer model in
    microseconds: totals still come from the tensor list, only its repetition is factored."""

    __slots__ = ("_canon", "_flat", "_kind_layers", "_kinds", "_runs", "blocks", "head", "layer_order", "layer_prefix",
                 "model_order", "tail")

    def __init__(self, head: Sequence[Tensor], layer_prefix: str, blocks: Sequence[tuple[Tensor, ...]],
                 tail: Sequence[Tensor], kinds: Sequence[tuple[tuple[Tensor, ...], int]] | None = None,
                 layer_order: tuple[str, ...] = (), model_order: tuple[str, ...] = ()) -> None:
        self.head, self.layer_prefix = tuple(head), layer_prefix  # e.g. "model.layers.{i}."
        # blocks[i]: layer i's tensors, names relative, layer None (_builder.LayerBlocks kept: no entry per layer)
        self.blocks = tuple(blocks) if isinstance(blocks, list) or not isinstance(blocks, Sequence) else blocks
        self.tail = tuple(tail)
        self._flat: tuple[Tensor, ...] | None = None
        self._kinds = tuple(kinds) if kinds is not None else None  # (block, its layers), if known; else counted
        self._runs: tuple | None = None  # layer_runs (before, after, runs), made on first use; so are these two
        self._canon: tuple | None = None
        self._kind_layers: tuple | None = None
        # The order the flat list follows (Naming.layer_order, model_order: transformers' registration order); sums
        # never look at it, only restamped does.
        self.layer_order, self.model_order = layer_order, model_order

    def outside(self) -> tuple[Sequence[Tensor], Sequence[Tensor]]:
        """The tensors before the layers and after them, in the flat list's order."""
        before, after = self.head, self.tail
        if self.model_order:  # the tensors outside the layers, sorted around the layers' place
            position = _position_in(self.model_order)
            layers_at = position(self.layer_prefix.partition(".{i}")[0])
            outside = sorted(before + after, key=position)
            before = [t for t in outside if position(t) < layers_at]
            after = outside[len(before):]
        return before, after

    def _ordered(self) -> Callable[[tuple[Tensor, ...]], tuple[Tensor, ...]]:
        """A block's tensors in the flat list's order (each distinct block sorted once)."""
        if not self.layer_order:
            return lambda block: block
        in_layer, ordered = _position_in(self.layer_order), {}
        def order(block: tuple[Tensor, ...]) -> tuple[Tensor, ...]:
            if id(block) not in ordered:
                ordered[id(block)] = tuple(sorted(block, key=in_layer))
            return ordered[id(block)]
        return order

    def _expand(self) -> tuple[Tensor, ...]:
        if self._flat is None:
            self._flat = self.restamped()
        return self._flat

    def restamped(self, component: str | None = None) -> tuple[Tensor, ...]:
        """The flat list; with ``component``, each tensor that component and in no layer (an encoder's, a tower)."""
        new, before, after = tuple.__new__, *self.outside()  # tuple.__new__: NamedTuple's _make without its check
        if component is not None:
            before, after = ([new(Tensor, (*t[:2], component, None, *t[4:])) for t in ts] for ts in (before, after))
        flat, order = list(before), self._ordered()
        for i, block in enumerate(self.blocks):
            prefix, layer = self.layer_prefix.format(i=i), None if component else i
            flat += [new(Tensor, (prefix + t[0], t[1], component or t[2], layer, t[4], t[5])) for t in order(block)]
        flat.extend(after)
        return tuple(flat)

    def kinds_by_layer(self) -> tuple[list[tuple[Tensor, ...]], list[int] | None]:
        """Each kind of block in the flat list's order, and each layer's kind (_layers.canonical_kinds)."""
        if self._canon is None:
            kinds, keys = canonical_kinds([block for block, _ in self.distinct_blocks()], self.blocks)
            self._canon = (list(map(self._ordered(), kinds)), keys)
        return self._canon

    def run_count(self) -> int:
        """How many runs of consecutive layers whose blocks hold equal tensors (layer_runs' runs), counted in C."""
        keys = self.kinds_by_layer()[1]
        return 1 if keys is None else 1 + sum(map(ne, keys, keys[1:]))

    def layer_runs(self) -> tuple[Sequence[Tensor], list[tuple[range, tuple[Tensor, ...]]], Sequence[Tensor]]:
        """The tensors before, (layers, block) per run of consecutive layers whose blocks hold equal tensors (names
        relative, layer None), the tensors after, in the flat list's order: work per run, never per layer (issue
        23); where kinds alternate past a view's listing (run_count()), layer_kinds() instead."""
        if self._runs is None:
            kinds, keys = self.kinds_by_layer()
            runs = [(range(len(self.blocks)), kinds[0])]  # every layer alike: no need to look at each
            if keys is not None:  # where the kind changes, found in C; then one step per run, none per layer
                starts = [0, *itertools.compress(itertools.count(1), map(ne, keys, keys[1:])), len(keys)]
                runs = [(range(start, stop), kinds[keys[start]]) for start, stop in itertools.pairwise(starts)]
            self._runs = (*self.outside(), tuple(runs))
        before, after, runs = self._runs
        return before, list(runs), after

    def layer_kinds(self) -> list[tuple[Layers, tuple[Tensor, ...]]]:
        """(its layers, its block) for each kind of layer, in the order the kinds first appear; where the kinds
        repeat with a period (a family's pattern at a new depth), found with no step per run (_layers.py)."""
        if self._kind_layers is None:
            kinds, keys = self.kinds_by_layer()
            found = [(0, Layers([range(len(self.blocks))]))] if keys is None else grouped_kinds(keys)
            self._kind_layers = tuple((layers, kinds[key]) for key, layers in found)
        return list(self._kind_layers)

    def __iter__(self) -> Iterator[Tensor]:
        return iter(self._expand())

    def __len__(self) -> int:
        return len(self.head) + sum(len(block) * n for block, n in self.distinct_blocks()) + len(self.tail)

    def __getitem__(self, index):  # type: ignore[override]
        return self._expand()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (StampedTensors, tuple)):
            return self._expand() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StampedTensors({len(self)} tensors, {len(self.blocks)} layers)"

    def sum_by_tensor(self, key: Callable[[Tensor], object]) -> dict[object, int]:
        """count summed by ``key(tensor)``, a key blind to the layer: each distinct block
        once, times the layers sharing it (a 10-million-layer model sums in microseconds)."""
        sums: dict[object, int] = {}
        for t in self.head + self.tail:
            k = key(t)
            sums[k] = sums.get(k, 0) + t.count
        for block, layers in self.distinct_blocks():
            for t in block:
                k = key(t)
                sums[k] = sums.get(k, 0) + layers * t.count
        return sums

    def sum_of(self, value: Callable[[Tensor], int]) -> int:
        """sum of ``value(tensor)`` over every tensor, each distinct block once times its layers."""
        total = sum(map(value, self.head + self.tail))
        for block, layers in self.distinct_blocks():
            total += layers * sum(map(value, block))
        return total

    def layer_totals(self) -> dict[int | None, int]:
        """Layer index -> count (None: the tensors outside the blocks), each block summed once."""
        sums: dict[int | None, int] = {}
        for t in self.head + self.tail:
            sums[t.layer] = sums.get(t.layer, 0) + t.count
        block_total = {id(block): sum(t.count for t in block) for block, _ in self.distinct_blocks()}
        sums.update(zip(range(len(self.blocks)), map(block_total.__getitem__, map(id, self.blocks))))
        return sums

    def distinct_blocks(self) -> list[tuple[tuple[Tensor, ...], int]]:
        """(block, number of layers sharing it) for each distinct block object (by identity)."""
        if self._kinds is None:
            layers: dict[int, int] = {}
            for block in self.blocks:
                layers[id(block)] = layers.get(id(block), 0) + 1
            by_id = {id(block): block for block in self.blocks}
            self._kinds = tuple((by_id[key], n) for key, n in layers.items())
        return self._kinds

    def total(self) -> int:
        prod = math.prod
        total = sum(map(prod, map(_shape, self.head + self.tail)))
        for block, layers in self.distinct_blocks():
            total += layers * sum(map(prod, map(_shape, block)))
        return total


@dataclass(frozen=True)
class Inventory:
    tensors: Sequence[Tensor]  # a tuple, or StampedTensors for a builder's repeated layers
    aliases: Mapping[str, str] = field(default_factory=dict)  # alias name -> tensor name
    architecture: Architecture | None = None
    source: str | None = None
    notes: tuple[str, ...] = ()  # what a reader should know (a text_config was used, ...)
    # A live module's buffers (causal masks, rotary inv_freq): listed apart, never counted.  A
    # built inventory's are asked of its parts where memory needs them (buffers.py).
    buffers: tuple[Buffer, ...] = ()

    # ------------------------------------------------------------------ totals
    @_cached
    def total(self) -> int:
        if isinstance(self.tensors, StampedTensors):
            return self.tensors.total()
        return sum(map(math.prod, map(_shape, self.tensors)))

    def _sum_by(self, key: Callable[[Tensor, int | None], object]) -> dict:
        """count summed by ``key(tensor, layer)`` over a flat list (a builder's StampedTensors
        sums each layer kind once: sum_by_tensor, layer_totals)."""
        sums: dict[object, int] = {}
        for t in self.tensors:
            k = key(t, t.layer)
            sums[k] = sums.get(k, 0) + t.count
        return sums

    def _sum_by_tensor(self, key: Callable[[Tensor], object]) -> dict:
        if isinstance(self.tensors, StampedTensors):
            return self.tensors.sum_by_tensor(key)
        return self._sum_by(lambda t, layer: key(t))

    def sum_of(self, value: Callable[[Tensor], int]) -> int:
        """Sum of ``value(tensor)`` over every unique tensor; ``value`` must not depend on the layer (a builder's
        repeated layers are summed once per layer kind)."""
        if isinstance(self.tensors, StampedTensors):
            return self.tensors.sum_of(value)
        return sum(map(value, self.tensors))

    @_cached
    def components(self) -> dict[str, int]:
        """Component -> count, in COMPONENTS order, components with no tensors left out."""
        sums = self._sum_by_tensor(lambda t: t.component)
        order = {name: i for i, name in enumerate(COMPONENTS)}
        return dict(sorted(sums.items(), key=lambda kv: order.get(kv[0], len(order))))

    @_cached
    def by_layer(self) -> dict[int | None, int]:
        """Layer index -> count; None collects the tensors outside the blocks."""
        if isinstance(self.tensors, StampedTensors):
            return self.tensors.layer_totals()
        return self._sum_by(lambda t, layer: layer)

    def component(self, name: str) -> int:
        return self.components.get(name, 0)

    @property
    def embedding(self) -> int:
        return self.component("embedding")

    @property
    def embedding_share(self) -> Fraction:
        """Token table / total, exact."""
        return Fraction(self.embedding, self.total) if self.total else Fraction(0)

    @property
    def vocabulary(self) -> int:
        """Every vocabulary-sized tensor: the token table plus an untied head."""
        return self.embedding + self.component("lm_head")

    @property
    def tied(self) -> bool:
        return bool(self.aliases)

    @property
    def has_towers(self) -> bool:
        """A whole multimodal model: towers beside its text decoder (every view gives the decoder's own total)."""
        return self.architecture is not None and bool(self.architecture.towers)

    @property
    def text_decoder(self) -> int:
        """The text decoder's own total: the whole total less a multimodal model's towers (TOWER_COMPONENTS)."""
        return self.total - sum(self.component(name) for name in TOWER_COMPONENTS)

    def non_embedding(self, definition: str = "hf") -> int:
        """The total without embeddings, by a named definition (NON_EMBEDDING_DEFINITIONS)."""
        if definition == "hf":  # every nn.Embedding: a tower's position table too
            tables = 0
            if self.architecture is not None and self.architecture.towers:
                from .towers import embedding_tables

                tables = sum(self[name].count for name in embedding_tables(self.architecture))
            table = self.embedding
            if self.tied and self.architecture is not None:
                from .families import naming_of

                if naming_of(self.architecture).tied_table_in_head:  # named_parameters() meets it as the head
                    table = 0  # (XLM-R's lm_head.decoder.weight: no nn.Embedding's name, so Hugging Face keeps it in)
            positions = self.component("positions")
            if self.architecture is not None and self.architecture.axial_pos_shape:  # no nn.Embedding (Reformer's)
                positions = 0
            return self.total - table - positions - self.component("token_types") - tables
        if definition == "nanogpt":
            return self.total - self.component("positions")
        if definition == "kaplan":
            return (self.total - self.embedding - self.component("positions") - self.component("token_types")
                    - self.component("lm_head"))
        from ._exceptions import OptionError

        raise OptionError("definition", f"unknown non-embedding definition {definition!r}; "
                          f"one of {', '.join(NON_EMBEDDING_DEFINITIONS)}")

    # ------------------------------------------------------------------ trainability
    @property
    def frozen(self) -> int:
        return self.sum_of(lambda t: t.count if t.frozen else 0)

    @property
    def trainable(self) -> int:
        return self.total - self.frozen

    # ------------------------------------------------------------------ mixture of experts
    @_cached
    def active(self) -> int:
        """Parameters read per token (ACTIVE_DEFINITION); the total for a dense model."""
        arch = self.architecture
        if arch is None or not arch.is_moe:
            return self.total
        routed = self.sum_of(lambda t: t.count if t.experts else 0)
        share = expert_share
        if arch.vision_moe_intermediate_size:  # a text token reads no vision expert (ERNIE 4.5 VL)
            from .parts.modality_experts import text_token_share as share
        return self.total - routed + whole(self.sum_of(share) * arch.num_experts_per_tok)

    @property
    def active_non_embedding(self) -> int:
        """``active`` without the token and position tables (OpenAI's "3.6B active" for
        gpt-oss-20b counts this way; Mistral's 12.9B for Mixtral and DeepSeek's 37B keep them)."""
        return self.active - self.embedding - self.component("positions")

    # ------------------------------------------------------------------ lookups
    def __getitem__(self, name: str) -> Tensor:
        target = self.aliases.get(name, name)
        tensors = self.tensors
        if isinstance(tensors, StampedTensors):  # outside the layers first: no need to list every layer
            for t in tensors.head + tensors.tail:
                if t.name == target:
                    return t
        for t in tensors:
            if t.name == target:
                return t
        raise KeyError(name)

    def names(self) -> list[str]:
        return [t.name for t in self.tensors]

    def select(self, *, component: str | None = None, layer: int | None | object = ...) -> list[Tensor]:
        return [
            t for t in self.tensors
            if (component is None or t.component == component) and (layer is ... or t.layer == layer)
        ]

    def aliases_of(self, name: str) -> list[str]:
        return [alias for alias, target in self.aliases.items() if target == name]


def inventory_from_tensors(
    tensors: Iterable[Tensor],
    aliases: Mapping[str, str] | None = None,
    *,
    architecture: Architecture | None = None,
    source: str | None = None,
    notes: Iterable[str] = (),
    buffers: Iterable[Buffer] = (),
    towers: int = 0,  # the first of a StampedTensors' head: a whole model's towers', under their own prefixes
) -> Inventory:
    """Build an inventory, refusing duplicate names and aliases to nothing."""
    if isinstance(tensors, StampedTensors):
        # Layers get distinct prefixes: names are unique when each block's are and the tensors outside do not repeat
        outside = tensors.head[towers:] + tensors.tail
        names = {*map(_name, outside)}
        if len(names) != len(outside):
            _check_unique(outside)
        for block, _ in tensors.distinct_blocks():
            _check_unique(block)
        if aliases and not names.issuperset(aliases.values()):
            names = {t.name for t in tensors}  # an alias into a block: look at every name
    else:
        tensors = tuple(tensors)
        _check_unique(tensors)
        names = {*map(_name, tensors)}
    aliases = dict(aliases or {})
    for alias, target in aliases.items():
        if target not in names:
            raise ValueError(f"alias {alias} points at no tensor ({target})")
        if alias in names:
            raise ValueError(f"alias {alias} is also a tensor")
    # The fields are checked above: the instance dict is set whole, as Architecture.from_mapping does
    # (the frozen dataclass's __init__ sets its six fields one object.__setattr__ call at a time).
    inventory = object.__new__(Inventory)
    object.__setattr__(inventory, "__dict__", {
        "tensors": tensors, "aliases": aliases, "architecture": architecture, "source": source,
        "notes": tuple(notes), "buffers": tuple(buffers)})
    return inventory


def _check_unique(tensors: Sequence[Tensor]) -> None:
    if len({*map(_name, tensors)}) != len(tensors):
        seen: set[str] = set()
        dupes = sorted({t.name for t in tensors if t.name in seen or seen.add(t.name)})
        raise ValueError(f"duplicate tensor names: {', '.join(dupes)}")

"""The one protocol every part of a layer answers.

A layer is a few parts (parts/ holds one module per kind): a token mixer (attention, latent
attention, a Gated DeltaNet, a Mamba, a short convolution), an FFN (dense or routed experts), the
block's norms and any extras.  Every view asks the parts of each layer and never names a kind:
the builder their tensors, the KV cache their cached values and fixed state, the FLOPs their
attention arithmetic.  A part built from the symbolic design (formula.py) holds symbols for its
sizes, so the same ``tensors`` gives its symbolic count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from ._collector import BufferCollector, Collector


class Part(Protocol):
    def tensors(self, c: Collector) -> None:
        """Append the part's tensors, named relative to the layer by the collector's naming, each
        in transformers' registration order (a module's own parameters before its children's)."""

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        """Key and value elements the part caches for each token of one sequence."""

    def kv_values(self, context: int, held: int, mla_layout: str = "latent") -> int:
        """Key and value elements the part caches for one sequence after ``context`` tokens, ``held`` of them within
        its layer's window (kvcache.tokens_held): kv_values_per_token() × held where the cache grows by the token; a
        cache that is a step function of the context answers it whole (DeepSeek-V4's compressors)."""

    def kv_float32_values(self, context: int) -> int:
        """Of kv_values, the elements held in float32 whatever the cache's dtype (DeepSeek-V4's CSA overlap gate,
        summed with a position_bias transformers keeps in float32); 0 for most parts."""

    def cross_kv_values_per_token(self) -> int:
        """Key and value elements the part caches for each token of the encoder's input (cross-attention's,
        fixed by the encoder's length, not the generated one: never in kv_values_per_token)."""

    def state_values(self) -> int:
        """Elements of the fixed recurrent state the part holds for one sequence, whatever the context."""

    def state_float32_values(self) -> int:
        """Of state_values, the elements held in float32 whatever the cache's dtype (KDA's recurrent state,
        stored .to(torch.float32)); 0 for most parts."""

    def attention_flops(self, keys: int) -> int:
        """Forward FLOPs of one token's attention over ``keys`` keys, beyond its weights' 2 × parameters."""

    def context_flops(self, context: int) -> int:
        """Forward FLOPs of one token at ``context`` beyond attention_flops(keys) and its weights, where they follow
        the whole context rather than the keys a window holds (DeepSeek-V4's attention over its compressed entries
        and its indexer's scores); 0 for most parts."""

    def expansion_flops(self, keys: int) -> int:
        """FLOPs of re-expanding ``keys`` cached latents for one decoded token (MLA's kv_b_proj)."""

    def encoder_weights(self) -> int:
        """Matmul weights the part holds that a token does not multiply by as the others (cross-attention's q, k,
        v and o: its k and v run once per encoder token, and none runs without an encoder's output)."""

    def encoder_flops(self, encoder_keys: int) -> int:
        """Forward FLOPs of one token in the part over an encoder's ``encoder_keys`` cached keys and values, its
        weights included as far as the token runs them (cross-attention's q and o, QKᵀ and AV)."""

    def repeated_weights(self) -> int:
        """Matmul weights a token multiplies by again beyond once, in a layer run more than once a token
        (layer_passes: parts/repeated.py); 0 for a part run once."""

    def state_label(self) -> str | None:
        """What holds the fixed state, in the cache's words ("linear-attention (Gated DeltaNet)"); None: none."""

    def buffers(self, c: BufferCollector) -> None:
        """Register the part's buffers (c.buffer): state it holds beside its tensors, not learned (a
        router's score correction, xIELU's beta); none for most parts."""

    def aliases(self, c: Collector) -> dict[str, str]:
        """Names (relative to the layer) of tensors the part holds through another layer -> their full
        names there (a tied later use of a shared block); {} for a part that holds its own."""

    def mixer_label(self) -> tuple[str, str | None] | None:
        """What the family table calls the part as a token mixer, and the layer kind it makes ("linear"
        for a linear-time mixer; None for attention, whose layers are full or sliding); None: no mixer."""


class Stateless:
    """The answers of a part that caches nothing and adds no FLOPs beyond its weights (FFNs, norms); a
    part defines the ones that differ (a recurrent mixer its state, an attention its cache and FLOPs)."""

    def kv_values_per_token(self, mla_layout: str = "latent") -> int:
        return 0

    def kv_values(self, context: int, held: int, mla_layout: str = "latent") -> int:
        return self.kv_values_per_token(mla_layout) * held

    def kv_float32_values(self, context: int) -> int:
        return 0

    def cross_kv_values_per_token(self) -> int:
        return 0

    def state_values(self) -> int:
        return 0

    def state_float32_values(self) -> int:
        return 0

    def attention_flops(self, keys: int) -> int:
        return 0

    def context_flops(self, context: int) -> int:
        return 0

    def expansion_flops(self, keys: int) -> int:
        return 0

    def encoder_weights(self) -> int:
        return 0

    def encoder_flops(self, encoder_keys: int) -> int:
        return 0

    def repeated_weights(self) -> int:
        return 0

    def mixer_label(self) -> tuple[str, str | None] | None:
        return None

    def state_label(self) -> str | None:
        return None

    def aliases(self, c: Collector) -> dict[str, str]:
        return {}

    def buffers(self, c: Collector) -> None:
        return None


def part(cls: type) -> type:
    """Give a part the protocol's answers it does not define itself.  A part is a NamedTuple (immutable
    like a frozen dataclass, made with tuple.__new__ on every count, as Tensor is: a frozen dataclass's
    __init__ took a tenth of a count), which cannot inherit them."""
    for name, answer in vars(Stateless).items():
        if callable(answer) and not name.startswith("__") and name not in vars(cls):
            setattr(cls, name, answer)
    return cls


_ATTENTION_ANSWERS = ("kv_values_per_token", "attention_flops", "expansion_flops", "mixer_label")


def wrapping(field: str) -> Callable[[type], type]:
    """A part that wraps an attention part under ``field`` (a layer's own rotary, a gate's bias, gated norms
    around MLA): its KV cache, attention FLOPs and label are the wrapped part's, unless it answers them itself;
    then part()'s defaults for the rest."""
    def decorate(cls: type) -> type:
        for name in _ATTENTION_ANSWERS:
            if name not in vars(cls):
                setattr(cls, name, lambda self, *args, _name=name: getattr(getattr(self, field), _name)(*args))
        return part(cls)
    return decorate


def plain_attention_only(key: str, relation: str = "is built into") -> Callable[[Any, str | None], None]:
    """The refusal a part built with plain multi-head self-attention says under ``key`` beside MLA or attention
    experts (a cross-attention, a relative table, LongT5's global norms and BigBird's global projections)."""
    def check(arch: Any, where: str | None) -> None:
        if arch.is_mla or arch.attention_experts:
            from .._exceptions import ArchitectureError

            raise ArchitectureError(key, f"{relation} plain multi-head self-attention (not with kv_lora_rank or "
                                         "attention_experts)", where)
    return check


def holds_its_own_ffn(arch: Any, key: str, what: str, where: str | None) -> None:
    """The refusal of a part that holds its own FFNs (``what``: "the xLSTM block's own"), under ``key``, the layer
    list that places it: each of its layers must be listed in layers_without_ffn, or the layer would hold two."""
    overlap = sorted(set(getattr(arch, key)) - set(arch.layers_without_ffn))
    if overlap:
        from .._exceptions import ArchitectureError

        raise ArchitectureError(key, f"layer {overlap[0]} holds an FFN beside {what} (list it in layers_without_ffn)",
                                where)


class MixerKind(NamedTuple):
    """A token mixer other than self-attention, declared whole by its own module as ``MIXER``: the flat
    keys it adds to the Architecture, the tensor paths it adds to the Naming, the per-layer list that
    places it, the part a layer holds and the refusals.  parts/__init__.py lists the modules that declare
    one; architecture.py, naming.py, design/flat.py and design/checks.py read them and name none."""
    layers_key: str  # the flat key listing the layers it mixes ("conv_layers"), one of ``keys``
    keys: type  # a class whose annotated attributes are its flat keys (HF config names) with their defaults
    names: type  # a class whose annotated attributes are its Naming paths with Llama-style defaults
    build: Callable[[Any], Any]  # the part one layer holds, from the design (or its symbolic stand-in)
    engaged: Callable[[Any], bool]  # the design uses or configures the kind: its checks run then
    check: Callable[[Any, str | None], None]  # its refusals, each one line naming the key
    positive: tuple[str, ...] = ()  # its sizes that must be positive
    positive_or_null: tuple[str, ...] = ()  # its sizes that are positive or null (unset)
    beside_attention: str | None = None  # a bool key that puts it in every attention layer too (Falcon-H1)
    norm_placement: str | None = None  # a key of its own holding its layers' norm placement (None: norm_placement)
    # Each layer's variant of the kind (one value per layer, None where the kind is not), where its layers differ by
    # more than the kind (DeepSeek-V4's compressor and router by layer type); build then takes it: build(arch, variant)
    variants: Callable[[Any], list] | None = None
    # its other per-layer index lists, which repeat with a new depth as layers_key does (Reformer's LSH layers)
    lists: tuple[str, ...] = ()



class SublayerKind(NamedTuple):
    """A sublayer every layer of a design holds beside its token mixer and FFN when its switch is on
    (cross-attention: BART's encoder_attn, BERT's crossattention), declared whole by its own module as
    ``SUBLAYER``, as a MixerKind is: its flat keys, its Naming paths, the part a layer holds and the
    refusals.  parts/sublayers.py lists the modules that declare one; architecture.py, naming.py,
    design/flat.py and design/checks.py read them and name none.  It sits after the layer's token mixer
    (before the FFN) in the builder's order; a family's Naming.layer_order puts it where named_parameters()
    does."""
    keys: type  # a class whose annotated attributes are its flat keys (HF config names) with their defaults
    names: type  # a class whose annotated attributes are its Naming paths
    build: Callable[[Any], Any]  # the part each layer with a token mixer holds, from the design
    engaged: Callable[[Any], bool]  # the design holds it (its switch is on): built and checked then
    check: Callable[[Any, str | None], None]  # its refusals, each one line naming the key
    positive: tuple[str, ...] = ()  # its sizes that must be positive
    positive_or_null: tuple[str, ...] = ()  # its sizes that are positive or null (unset)

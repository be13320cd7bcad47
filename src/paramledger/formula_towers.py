"""A whole model's towers in its closed form (formula.py): those a decoder's size reaches are traced too.

An encoder-decoder's encoder is the decoder's design at the encoder's own sizes (towers/encoder.py), so it is traced
the same way: each size its config gives the encoder alone (BART's encoder_layers, T5's num_layers) a symbol of its
own (L_enc, h_enc ...), each size the stacks share (d_model, d_kv) the decoder's symbol.  A multimodal model's vision
and audio towers are fixed by their own configs (constants here); its projector reads the decoder's width, so it is
made again for the symbol d.  A tower another module makes from the config alone (Whisper's audio encoder) cannot be
traced: refused in one line."""

from __future__ import annotations

from typing import Any

from ._exceptions import OptionError

ENCODER_OWNED = ("V", "d", "L", "h", "h_kv", "d_head", "m", "P")
"""The decoder symbols an encoder may hold a size of its own for: each has an "_enc" twin (formula.VARIABLES)."""


def encoder_stack(arch: Any) -> Any:
    """The encoder of a whole encoder-decoder ``arch`` (towers/encoder.EncoderStack), else None."""
    from .towers.encoder import EncoderStack

    parts = arch.towers.parts if getattr(arch, "towers", None) else ()
    return next((part for part in parts if isinstance(part, EncoderStack)), None)


def encoder_value(get: Any) -> Any:
    """A decoder variable's getter made the encoder's twin's: read on the encoder's design (0 without an encoder)."""
    def value(arch: Any) -> int:
        stack = encoder_stack(arch)
        return 0 if stack is None or stack.design is None else get(stack.design)
    return value


def owned(stack: Any) -> frozenset[str]:
    """The symbols the encoder holds a size of its own for: the fields its own config keys set (Seq2Seq.keys, a
    section's: EncoderStack.own), with what the design couples to them (its KV heads and head width to its heads or
    width, its FFN to its width), each coupling then the encoder's own."""
    from .formula import SYMBOL_OF

    names = {SYMBOL_OF[field] for field in stack.own if field in SYMBOL_OF}
    design = stack.design
    if names & {"h", "d"}:
        names.add("h_kv")
        if design.head_dim is None:
            names.add("d_head")
    if "d" in names and design.intermediate_size is None:
        names.add("m")
    return frozenset(names)


def stand_in_towers(arch: Any, hidden: Any) -> Any:
    """The towers the decoder's symbolic stand-in builds beside it: the projector made again for ``hidden`` (d), the
    vision and audio towers as they are, the encoder left out (traced on its own, ``encoder_form``)."""
    from .towers import Projected, projector_at

    if not arch.towers:
        return arch.towers
    stack = encoder_stack(arch)
    if stack is not None and stack.design is None:
        raise OptionError("formula", f"{arch.source}: its encoder is made from the config by another tower's module "
                                     "(Whisper's audio encoder), which the builder cannot trace; --text-only traces "
                                     "the decoder alone")
    untraced = next((part.untraced for part in arch.towers.parts if getattr(part, "untraced", "")), "")
    if untraced:  # a tower that reads the decoder's sizes by a rule of its own (BLT's stacks): no symbol reaches it
        raise OptionError("formula", f"{arch.source}: {untraced}")
    projector = None
    if any(isinstance(part, Projected) for part in arch.towers.parts):
        try:
            projector = projector_at(arch, hidden)
        except (TypeError, ValueError) as error:  # a projector rule that needs a number, not a symbol
            raise OptionError("formula", f"{arch.source}: its projector cannot be traced symbolically ({error}); "
                                         "--text-only traces the decoder alone") from None
        if projector is None:
            raise OptionError("formula", f"{arch.source}: its projector was not made by a whole model's rule; "
                                         "--text-only traces the decoder alone")
    parts = tuple(projector if isinstance(part, Projected) else part for part in arch.towers.parts
                  if part is not stack)
    return arch.towers._replace(parts=parts)


def relisted(stack: Any, tensors: Any, outside: bool) -> list[Any]:
    """Traced encoder tensors as the whole model lists them: the "encoder" component, in no layer of the decoder's,
    the token table dropped or moved as the stack's own (towers/encoder.with_table) where they are its outside ones."""
    from .towers.encoder import COMPONENT, with_table

    restamped = [t._replace(component=COMPONENT, layer=None) for t in tensors]
    return with_table(restamped, stack.layout) if outside else restamped

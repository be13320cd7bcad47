"""Questions answered from an inventory: the break-even vocabulary, the rule of thumb's gap."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .architecture import Architecture


def break_even_vocab_size(architecture: Architecture) -> int | None:
    """The smallest vocab_size at which the token table holds more parameters than
    everything else together, or None when no vocabulary gets there (an untied head
    grows with the table).

    Everything else is linear in the vocabulary (rest = r0 + r1·V, r1 > 0 only for an
    untied head or output bias), so two inventories pin it down exactly:
    V·d > r0 + r1·V  ⟺  V > r0 / (d − r1).  A head of its own row count (output_vocab_size: a pruned head, or
    Moshi's and CPM-Ant's table with rows past the vocabulary) keeps its distance to the table's rows."""
    from . import inventory

    gap = architecture.vocab_size - (architecture.output_vocab_size or architecture.vocab_size)

    def rest(vocab: int) -> int:
        rows = {"output_vocab_size": vocab - gap} if architecture.output_vocab_size is not None else {}
        inv = inventory(architecture.replace(vocab_size=vocab, **rows))
        return inv.total - inv.embedding

    # the smallest table that leaves the head a row (past the last cutoff of an adaptive softmax: XLM's asm)
    first = max(gap, 0, *architecture.asm_cutoffs) + 1
    one, two = rest(first), rest(first + 1)
    r1 = two - one
    r0 = one - r1 * first
    d = architecture.hidden_size
    if d <= r1:
        return None
    return max(r0 // (d - r1) + 1, first)


@dataclass(frozen=True)
class RuleOfThumb:
    estimate: int  # 12 · L · d²
    exact: int

    @property
    def gap(self) -> int:
        return self.exact - self.estimate

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.estimate, self.exact)


def rule_of_thumb(architecture: Architecture) -> RuleOfThumb:
    """12·L·d² (seed 003, "Transformer Memory Arithmetic") beside the exact count."""
    from . import inventory

    estimate = 12 * architecture.num_hidden_layers * architecture.hidden_size**2
    return RuleOfThumb(estimate, inventory(architecture).total)

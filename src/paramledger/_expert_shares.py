"""One expert's share of a tensor, for the counts that read top-k experts a token (Inventory.active,
compute.matmul_parameters): a stacked tensor's count over its experts, or 1/experts of a tensor that is one expert's
own (SwitchTransformersExperts' expert_{i}.wi: parts/experts.py experts_each), summed exactly."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .inventory import Tensor


def expert_share(t: Tensor) -> int | Fraction:
    """One expert's share of ``t`` (0 for a dense tensor): a stacked tensor's count over its experts; a tensor of one
    expert's own module (SwitchTransformersExperts' expert_{i}.wi) is 1/experts of the set's, summed exactly."""
    if not t.experts:
        return 0
    count = t.count
    if type(count) is not int or count % t.experts == 0:  # (a symbol too: formula's traced count)
        return count // t.experts
    return Fraction(count, t.experts)


def whole(count: int | Fraction) -> int:
    """A sum of expert shares as the whole number it is (a Fraction only while a set of experts' own tensors is
    summed; a formula's symbols pass through)."""
    return int(count) if type(count) is Fraction else count

"""An adaptive softmax in the LM head's place (XLM's and FlauBERT's asm: XLMPredLayer.proj, transformers 5.24.0
models/xlm/modeling_xlm.py lines 878-887, FlaubertPredLayer a copy): nn.AdaptiveLogSoftmaxWithLoss(emb_dim, n_words,
cutoffs=asm_cutoffs, div_value=asm_div_value, head_bias=True), whose __init__ (torch 2.13.0
torch/nn/modules/adaptive.py) registers

- head: a biased Linear(hidden -> shortlist + clusters), the shortlist the first cutoff, one cluster per cutoff;
- tail.{i} (one per cluster): Sequential(Linear(hidden -> width_i), Linear(width_i -> cutoff_{i+1} - cutoff_i)),
  unbiased, width_i = int(hidden // asm_div_value ** (i + 1)), the last cluster ending at n_words.

No proj.weight: XLMWithLMHeadModel._tied_weights_keys still ties "pred_layer.proj.weight" to the token table with
tie_word_embeddings, which sets that Parameter on the module, an alias of the table (nothing more counted).

asm_div_value is kept as the config wrote it (Architecture.asm_div_value: its repr), and each width worked out here
from the design's hidden_size as torch works it out, in Python's int or float arithmetic as the value is one or the
other (a copy at another hidden_size, --set, gets its own widths)."""

from __future__ import annotations

from typing import Any

from .._exceptions import ArchitectureError
from ..limits import MAX_INTEGER, MAX_REPEAT, big
from ._collector import Collector


def adaptive_softmax(c: Collector, arch: Any, aliases: dict[str, str]) -> None:
    path, d = c.naming.lm_head, arch.hidden_size
    cutoffs = (*cutoffs_checked(arch.asm_cutoffs, arch.vocab_size), arch.vocab_size)  # (a --set list: checked too)
    clusters = len(cutoffs) - 1
    c.linear(f"{path}.head", cutoffs[0] + clusters, d, "lm_head", None, True)  # (shortlist + clusters, hidden)
    for i, width in enumerate(tail_widths(arch.asm_div_value, d, clusters)):
        c.linear(f"{path}.tail.{i}.0", width, d, "lm_head")  # (width_i, hidden)
        c.linear(f"{path}.tail.{i}.1", cutoffs[i + 1] - cutoffs[i], width, "lm_head")  # (cluster_i, width_i)
    if arch.tie_word_embeddings:
        aliases[path + ".weight"] = c.naming.embed + ".weight"


def cutoffs_checked(cutoffs: Any, words: int) -> tuple[int, ...]:
    """asm_cutoffs as nn.AdaptiveLogSoftmaxWithLoss takes them (torch/nn/modules/adaptive.py, __init__): a non-empty
    list of whole numbers (a float fails as a tensor size), sorted, unique, each between 1 and n_words - 1."""
    if not isinstance(cutoffs, (list, tuple)) or not all(type(c) in (int, bool) for c in cutoffs):
        raise ArchitectureError("asm_cutoffs", f"must be a list of whole numbers, got {cutoffs!r}"[:200])
    if len(cutoffs) > MAX_REPEAT:  # (a cluster's two Linears each: the bound of every enumerated count)
        raise ArchitectureError("asm_cutoffs", f"{len(cutoffs):,} cutoffs are beyond the bound of {MAX_REPEAT:,} "
                                "(docs/limits.md)")
    cutoffs = tuple(int(c) for c in cutoffs)
    if not cutoffs or list(cutoffs) != sorted(set(cutoffs)) or cutoffs[0] <= 0 or cutoffs[-1] > words - 1:
        raise ArchitectureError("asm_cutoffs", f"{list(cutoffs)!r}"[:120] + " is refused by "
                                "nn.AdaptiveLogSoftmaxWithLoss (ValueError: cutoffs should be a non-empty sequence of "
                                f"unique, positive integers sorted in an increasing order, each below n_words={words})")
    return cutoffs


def div_value_text(value: Any) -> str:
    """asm_div_value as the design keeps it: an int's digits (a bool is one: True ** k is 1), a float's repr (exact:
    float(repr(x)) == x, inf too); refused unless a number (torch: TypeError on pow)."""
    if type(value) in (int, bool):
        return str(int(value))
    if type(value) is float:
        return repr(value)
    raise ArchitectureError("asm_div_value", f"must be a number, got {value!r}"[:200])


def tail_widths(div_text: str, hidden: int, clusters: int) -> tuple[int, ...]:
    """Each cluster's projection width, int(hidden // div_value ** (i + 1)), computed as torch computes it (an int
    div_value in ints; a float's 0 divides by zero, a huge one overflows, NaN has no int; a negative width is a
    negative tensor size): refused in one line naming asm_div_value where torch fails."""
    try:
        div_value: int | float = int(div_text)
    except ValueError:
        try:
            div_value = float(div_text)
        except ValueError:
            raise ArchitectureError("asm_div_value", f"must be a number, got {div_text!r}"[:200]) from None
    widths = []
    for i in range(clusters):
        try:
            width = int(hidden // (div_value ** (i + 1)))
        except (ZeroDivisionError, OverflowError, ValueError) as error:
            raise ArchitectureError("asm_div_value", f"{div_text} fails in nn.AdaptiveLogSoftmaxWithLoss (hidden_size "
                                    f"// asm_div_value ** {i + 1}: {type(error).__name__})") from None
        if not 0 <= width <= MAX_INTEGER:
            raise ArchitectureError("asm_div_value", f"{div_text} makes tail {i}'s width {big(width)}: " + (
                "a negative tensor size" if width < 0 else f"beyond the bound of {MAX_INTEGER:,} (docs/limits.md)"))
        widths.append(width)
    return tuple(widths)

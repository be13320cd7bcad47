"""Closed forms: the total as a polynomial in the architecture's own variables.

The form is not written by hand.  The builder (``_builder.build``, the one place the
arithmetic lives) is run on a stand-in architecture whose sizes are sympy symbols, so
every tensor's shape comes out as an expression (q_proj: h·d_head × d) and the inventory's
own totals (``Inventory.total``, ``.embedding``, ``.components``, ``.active``) add them up.
The depth cannot be a symbol (the builder loops over the layers), so the layers are built
at the design's depth and grouped: identical layers become ``L ×`` one layer.  The result
is checked against the numeric inventory at the design and at perturbed designs; a builder
step the stand-in cannot trace is refused rather than printed wrong.

Sizes a design leaves implicit are couplings, substituted into the displayed form:
head_dim = d/h, num_key_value_heads = h, intermediate_size = ratio·d rounded up to a
multiple (seed 000: m = 4d).  sympy is imported lazily (inside functions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ._exceptions import OptionError, did_you_mean
from .architecture import Architecture
from .cli_numbers import parse_count, parse_share  # noqa: F401  (formula's own options; re-exported)
from .formula_checks import lists_at_depth, verify
from .formula_towers import ENCODER_OWNED, encoder_stack, encoder_value, owned, relisted, stand_in_towers
from .limits import ENUMERATED, MAX_INTEGER, MAX_REPEAT

if TYPE_CHECKING:
    import sympy

# symbol, Architecture field, the effective value on a real architecture
VARIABLES: tuple[tuple[str, str, Any], ...] = (
    ("V", "vocab_size", lambda a: a.vocab_size),
    ("d", "hidden_size", lambda a: a.hidden_size),
    ("L", "num_hidden_layers", lambda a: a.num_hidden_layers),
    ("h", "num_attention_heads", lambda a: a.num_attention_heads),
    ("h_kv", "num_key_value_heads", lambda a: a.kv_heads),
    ("d_head", "head_dim", lambda a: a.attention_head_dim),
    ("m", "intermediate_size", lambda a: a.ffn_size),
    ("P", "max_position_embeddings", lambda a: a.max_position_embeddings),
    ("E", "num_experts", lambda a: a.num_experts),
    ("k", "num_experts_per_tok", lambda a: a.num_experts_per_tok),
    ("m_e", "moe_intermediate_size", lambda a: a.expert_size),
    ("m_s", "shared_expert_intermediate_size", lambda a: a.shared_expert_size),
    ("r_q", "q_lora_rank", lambda a: a.q_lora_rank or 0),
    ("r_kv", "kv_lora_rank", lambda a: a.kv_lora_rank or 0),
    ("d_nope", "qk_nope_head_dim", lambda a: a.qk_nope_head_dim or 0),
    ("d_rope", "qk_rope_head_dim", lambda a: a.qk_rope_head_dim or 0),
    ("d_v", "v_head_dim", lambda a: a.v_head_dim or 0),
)
SYMBOL_OF = {key: name for name, key, _ in VARIABLES}
# An encoder-decoder's encoder sizes of its own (formula_towers.py): each the twin of a decoder variable, read on the
# encoder's design.
ENCODER_VARIABLES: tuple[tuple[str, str, Any], ...] = tuple(
    (f"{name}_enc", f"the encoder's {key}", encoder_value(get)) for name, key, get in VARIABLES if name in ENCODER_OWNED)
FIELD_OF = {name: key for name, key, _ in (*VARIABLES, *ENCODER_VARIABLES)}
_VALUE_OF = {name: get for name, _, get in (*VARIABLES, *ENCODER_VARIABLES)}
_ORDER = list(FIELD_OF)  # the order variables are shown in


@lru_cache(maxsize=1)
def _symbols() -> dict[str, sympy.Symbol]:
    import sympy

    # integer: so a stacked expert tensor's count // E simplifies; nonnegative: qk_rope may be 0
    return {name: sympy.Symbol(name, integer=True, nonnegative=True) for name in _ORDER}


class _SymbolicArchitecture:
    """The architecture, with sizes as symbols; everything else is read from the real one.

    ``couplings`` maps a symbol the design leaves implicit to the expression that
    defines it; ``free`` names fields forced to be independent variables (a sweep axis,
    a --solve target), as ``Architecture.replace`` would make them."""

    def __init__(self, arch: Architecture, free: frozenset[str], own: frozenset[str] = frozenset()) -> None:
        import sympy

        self._arch = arch
        s = self.symbols = dict(_symbols())  # (a copy: the symbols are made once)
        s.update({name: s[f"{name}_enc"] for name in own})  # an encoder's sizes of its own: their twins (L_enc)
        self.couplings: dict[sympy.Symbol, sympy.Expr] = {}
        self.declared: set[sympy.Symbol] = set()  # couplings the design declares (intermediate_ratio)
        self.vocab_size, self.hidden_size = s["V"], s["d"]
        self.lm_head_rows = arch.output_vocab_size or s["V"]  # a pruned head keeps its own row count
        self.max_position_embeddings = s["P"]
        self.num_attention_heads = s["h"]
        self.kv_heads, self.attention_head_dim = s["h_kv"], s["d_head"]
        if arch.num_key_value_heads is None and "num_key_value_heads" not in free:
            self.couplings[s["h_kv"]] = s["h"]
        if arch.head_dim is None and "head_dim" not in free:
            self.couplings[s["d_head"]] = s["d"] / s["h"]
        self.ffn_size = s["m"]
        if arch.intermediate_size is None and "intermediate_size" not in free:
            ratio = arch.intermediate_ratio if arch.intermediate_ratio is not None else Fraction(4)
            step = arch.intermediate_multiple_of
            self.couplings[s["m"]] = sympy.ceiling(sympy.Rational(ratio.numerator, ratio.denominator)
                                                   * s["d"] / step) * step
            self.declared.add(s["m"])
        self.num_experts, self.num_experts_per_tok = s["E"], s["k"]
        self.expert_size = s["m_e"]
        if arch.moe_intermediate_size is None and "moe_intermediate_size" not in free:
            self.couplings[s["m_e"]] = s["m"]
        self.shared_expert_size = s["m_s"] if arch.shared_expert_size else 0  # the builder tests it for truth
        if arch.shared_expert_intermediate_size is None and "shared_expert_intermediate_size" not in free:
            self.couplings[s["m_s"]] = arch.n_shared_experts * s["m_e"]
        self.q_lora_rank = s["r_q"] if arch.q_lora_rank is not None else None
        self.kv_lora_rank = s["r_kv"] if arch.kv_lora_rank is not None else None
        self.qk_nope_head_dim, self.qk_rope_head_dim = s["d_nope"], s["d_rope"]
        self.v_head_dim = s["d_v"] if arch.v_head_dim is not None else None  # None: values head_dim wide
        # Gemma 3n's per-layer input table: vocab_size rows unless it has its own, L × its width wide
        self.per_layer_input_rows = arch.vocab_size_per_layer_input or s["V"]
        self.per_layer_input_width = s["L"] * arch.hidden_size_per_layer_input

        # Trace deep enough that the last layer is one no list names: layers added beyond the design's depth are
        # unlisted (mlp_only_layers and a mixer's or sublayer's lists name fixed indices: routed, attention
        # layers), and L counts them; a list naming every layer (a state-space model's mixers) names them too.
        every, fixed = lists_at_depth(arch)
        self.num_hidden_layers = max(arch.num_hidden_layers, max(fixed) + 2 if fixed else 0)
        for key in every:
            setattr(self, key, tuple(range(self.num_hidden_layers)))

    def layer_head_dim(self, layer: int) -> Any:
        """d_head, or a layer's own width where head_dim_per_layer gives another (Gemma 4's full layers)."""
        per_layer = self._arch.head_dim_per_layer
        if per_layer and per_layer[layer] != self._arch.attention_head_dim:
            return per_layer[layer]
        return self.attention_head_dim

    def layer_value_head_dim(self, layer: int) -> Any:
        return self.v_head_dim or self.layer_head_dim(layer)

    def layer_kv_heads(self, layer: int) -> Any:
        """h_kv, or a layer's own KV heads (num_key_value_heads_per_layer, sliding_num_key_value_heads)."""
        own = self._arch.layer_kv_heads(layer)
        return self.kv_heads if own == self._arch.kv_heads else own

    def __getattr__(self, name: str) -> Any:  # switches, names: the real design's
        return getattr(self._arch, name)


@dataclass(frozen=True)
class ClosedForm:
    """The total (and its parts) as expressions; ``couplings`` define the implicit sizes.

    ``total`` is in the independent symbols plus the coupled ones (m, d_head, ...);
    ``coupled_total`` substitutes the couplings, the design's own form."""

    architecture: Architecture
    total: Any  # sympy.Expr
    embedding: Any
    active: Any
    components: dict[str, Any]
    couplings: dict[Any, Any]
    declared: frozenset[Any] = field(default_factory=frozenset)

    # ---------------------------------------------------------------- forms
    def substitute(self, expr: Any, keep: frozenset[Any] = frozenset()) -> Any:
        """``expr`` with every coupling except those in ``keep`` substituted, to a fixed point."""
        import sympy

        rules = {sym: value for sym, value in self.couplings.items() if sym not in keep}
        for _ in range(len(rules) + 1):
            expr = sympy.expand(expr.xreplace(rules))
        return expr

    @property
    def coupled_total(self) -> Any:
        return self.substitute(self.total)

    @property
    def uncoupled_total(self) -> Any | None:
        """The form with a declared coupling (m = ratio·d) left as its own variable, or
        None when the design declares none."""
        if not self.declared:
            return None
        return self.substitute(self.total, keep=frozenset(self.declared))

    def variables(self, expr: Any = None) -> dict[str, int]:
        """Symbol -> the design's value, for the symbols of ``expr`` (the coupled total)."""
        expr = self.coupled_total if expr is None else expr
        names = sorted((str(s) for s in expr.free_symbols), key=_ORDER.index)
        return {name: _VALUE_OF[name](self.architecture) for name in names}

    def values(self, arch: Architecture | None = None) -> dict[Any, int]:
        """Every symbol -> its value on ``arch`` (default: the design)."""
        import sympy

        arch = arch or self.architecture
        return {sym: sympy.Integer(_VALUE_OF[str(sym)](arch)) for sym in _symbols().values()}

    def evaluate(self, expr: Any = None, arch: Architecture | None = None) -> int:
        """``expr`` (default: the total) at ``arch``'s values, exact."""
        import sympy

        value = sympy.sympify(self.total if expr is None else expr).xreplace(self.values(arch))
        if not value.is_Integer:
            raise OptionError("formula", f"the closed form did not reduce to a whole number ({value})")
        return int(value)

    def break_even(self) -> BreakEven | None:
        """Where the token table (V·d) outgrows everything else: V > threshold.  Everything
        else is linear in V (an untied head or output bias adds r1·V), so the threshold is
        rest(V=0) / (d − r1), in the other variables."""
        import sympy

        V = _symbols()["V"]
        emb = self.substitute(self.embedding)
        rest = sympy.expand(self.coupled_total - emb)
        a, r1, r0 = emb.coeff(V, 1), rest.coeff(V, 1), rest.coeff(V, 0)
        if sympy.expand(emb - a * V) != 0 or sympy.expand(rest - r1 * V - r0) != 0:
            return None
        slope = sympy.simplify(a - r1)
        threshold = sympy.factor(sympy.cancel(r0 / slope)) if slope != 0 else None
        values = self.values()
        slope_value = Fraction(str(sympy.sympify(slope).xreplace(values)))
        if threshold is None or slope_value <= 0:
            return BreakEven(threshold, None, slope)
        exact = Fraction(str(sympy.sympify(threshold).xreplace(values)))
        return BreakEven(sympy.expand(threshold), math.floor(exact) + 1, slope)


@dataclass(frozen=True)
class BreakEven:
    threshold: Any  # V must exceed this expression
    vocab_size: int | None  # the smallest such integer V at the design, None if never
    slope: Any  # d − (what an untied head adds per row): ≤ 0 means never


def closed_form(source: Architecture | str, free: tuple[str, ...] | frozenset[str] = ()) -> ClosedForm:
    """The closed form of ``source``'s inventory (see the module docstring).

    ``free``: fields to treat as independent variables even where the design couples
    them (intermediate_size on a ratio design, head_dim, num_key_value_heads)."""
    import sympy

    from . import families, load
    from ._builder import build
    from .inventory import COMPONENTS

    arch = load(source)
    stand_in = _SymbolicArchitecture(arch, frozenset(free))
    stand_in.towers = stand_in_towers(arch, stand_in.hidden_size)  # the encoder apart, the projector made for d
    family = families.get(arch.model_type)
    try:
        traced = build(stand_in, families.naming_of(arch))  # type: ignore[arg-type]
        stack = encoder_stack(arch)
        if stack is not None:  # traced on its own: its own sizes its own symbols
            encoder = _SymbolicArchitecture(stack.design, frozenset(free), owned(stack))
            encoder_traced = build(encoder, stack.names)  # type: ignore[arg-type]
    except TypeError as error:  # a builder step that needs a number, not a symbol
        reason = str(error)
        if arch.qk_norm == "per_head" and family and "{h}" in family.naming.q_norm:
            reason = "it names one q/k norm module per head (heads × head_dim in all), a list a symbol cannot count"
        elif family and family.naming.experts_each is not None:  # (SwitchTransformersExperts, NllbMoeExperts)
            reason = ("it names one module per expert (num_experts Linear pairs a sparse layer), a list a symbol "
                      "cannot count")
        raise OptionError("formula", f"the builder cannot be traced symbolically for {arch.source}: {reason}") from None

    def grouped(measure: Any) -> Any:
        total = _grouped(measure, traced, stand_in, arch)
        if stack is not None:
            total += _grouped(measure, encoder_traced, encoder, stack.design,
                              lambda tensors, outside: relisted(stack, tensors, outside))
        return sympy.expand(total)

    held = _components_of(arch)  # once: each call builds the whole inventory (10^7 layers: 80 MB)
    form = ClosedForm(
        architecture=arch,
        total=grouped(lambda inv: inv.total),
        embedding=grouped(lambda inv: inv.embedding),
        active=grouped(lambda inv: inv.active),
        components={name: grouped(lambda inv, name=name: inv.component(name))
                    for name in COMPONENTS if name in held},
        couplings={**stand_in.couplings, **(encoder.couplings if stack is not None else {})},
        declared=frozenset(stand_in.declared | (encoder.declared if stack is not None else set())),
    )
    traced = encoder_traced = None  # the stand-ins' layers (one entry per layer) gone before the checks build theirs
    verify(form, arch)
    return form


def _grouped(measure: Any, traced: Any, stand_in: Any, arch: Architecture, listed: Any = None) -> Any:
    """``measure`` (Inventory -> expr) over the tensors outside the blocks, plus each distinct kind of layer times how
    many there are; the kind holding the last layer takes L minus the others (the dense layers of an MoE model are
    fixed indices), or the last layer computing its own keys and values when the last num_kv_shared_layers share them.
    ``listed``: (tensors, outside?) -> the tensors as the whole model lists them (an encoder's)."""
    from .inventory import StampedTensors, inventory_from_tensors

    depth = stand_in.symbols["L"]
    tensors = traced.tensors
    traced_depth = stand_in.num_hidden_layers
    grows = traced_depth - 1 - arch.num_kv_shared_layers  # the layer whose kind a deeper design adds
    if isinstance(tensors, StampedTensors):  # each distinct kind of layer once, however deep the design
        outside = [*tensors.head, *tensors.tail]
        grows_block = tensors.blocks[grows]
        kinds = [(block, count, block is grows_block) for block, count in tensors.distinct_blocks()]
    else:  # a list with frozen marks: the layers found by their index
        outside = [t for t in tensors if t.layer is None]
        by_layer: dict[int, list[Any]] = {}
        for t in tensors:
            if t.layer is not None:
                by_layer.setdefault(t.layer, []).append(t)
        kinds = [(layer, 1, i == grows) for i, layer in by_layer.items()]
    if listed is not None:
        outside, kinds = listed(outside, True), [(listed(block, False), *rest) for block, *rest in kinds]
    total = measure(inventory_from_tensors(outside, architecture=stand_in))
    for block, count, holds_last in kinds:
        value = measure(inventory_from_tensors(block, architecture=stand_in))
        # the kind of the last layer takes L minus the others' layers (an MoE's dense layers are fixed)
        total += (depth - (traced_depth - count) if holds_last else count) * value
    return total


def _components_of(arch: Architecture) -> dict[str, int]:
    from . import inventory

    return inventory(arch).components


# ---------------------------------------------------------------------- solving
SOLVABLE = ("vocab_size", "hidden_size", "num_hidden_layers", "intermediate_size", "num_experts",
            "moe_intermediate_size", "head_dim", "num_key_value_heads", "num_attention_heads")


@dataclass(frozen=True)
class Solution:
    """An integer answer and the totals on either side of it, checked by the engine."""

    key: str
    question: str  # what was asked, in words
    value: int | None  # None: no integer satisfies it
    rounding: str  # "floor" (largest that fits) or "ceil" (smallest that reaches)
    total: int | None  # the inventory total at the answer
    neighbour: int | None  # the next valid value beyond the answer
    neighbour_total: int | None
    reason: str = ""


def solve_budget(source: Architecture | str, key: str, budget: int) -> Solution:
    """The largest valid ``key`` whose total stays within ``budget`` (the others as declared).

    The total does not decrease as any size grows, so an exponential then binary search
    on the closed form finds the largest integer that fits; it is then stepped down to a
    value the architecture accepts (heads must divide the width) and confirmed by the
    inventory engine."""
    from . import inventory

    arch = load_for_solve(source, key)
    if budget <= 0:
        raise OptionError("--budget", f"must be positive, got {budget}")
    form = closed_form(arch, free=(key,))
    expr = form.coupled_total  # ``key`` is free in it: the search moves it alone
    question = f"largest {key} with total ≤ {budget:,}"

    def total_at(value: int) -> int | None:
        try:
            candidate = arch.replace(where=f"--solve {key}", **{key: value})
        except ValueError:
            return None
        return form.evaluate(expr, candidate)

    def fits(value: int) -> bool:
        total = _total_ignoring_validity(form, expr, arch, key, value)
        return total <= budget

    if not fits(1):
        return Solution(key, question, None, "floor", None, 1, total_at(1),
                        f"even {key}=1 exceeds the budget")
    cap = MAX_REPEAT if key in ENUMERATED else MAX_INTEGER  # the largest value paramledger accepts
    if fits(cap):
        if _total_ignoring_validity(form, expr, arch, key, cap) == _total_ignoring_validity(form, expr, arch, key, 1):
            raise OptionError("--budget", f"no bound: the total does not grow with {key}")
        raise OptionError("--budget", f"more than {cap:,} {key} fit within {budget:,}: beyond paramledger's bound "
                                      f"on {key} (docs/limits.md)")
    low, high = 1, 2
    while fits(high):
        low, high = high, min(high * 2, cap)
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if fits(mid) else (low, mid)
    value = low
    while value >= 1 and total_at(value) is None:  # the largest value the architecture accepts
        value -= 1
    if value < 1:
        return Solution(key, question, None, "floor", None, None, None, f"no valid {key} fits")
    nxt = low + 1
    while total_at(nxt) is None and nxt < low + 4096:
        nxt += 1
    exact = inventory(arch.replace(**{key: value})).total
    return Solution(key, question, value, "floor", exact, nxt, total_at(nxt))


def _total_ignoring_validity(form: ClosedForm, expr: Any, arch: Architecture, key: str, value: int) -> int:
    """The closed form at ``key`` = value, the rest at the design, without the divisibility
    checks (rounded up where a coupling divides): the search's monotone function."""
    import sympy

    values = form.values(arch)
    values[_symbols()[SYMBOL_OF[key]]] = sympy.Integer(value)
    result = sympy.sympify(expr).xreplace(values)
    return math.ceil(Fraction(str(result)))


def solve_share(source: Architecture | str, share: Fraction) -> Solution:
    """The smallest vocab_size at which the token table is at least ``share`` of the total.

    The table is a·V and the total (a + r1)·V + r0 (the closed form, linear in V), so
    a·V ≥ s·((a + r1)·V + r0)  ⟺  V ≥ s·r0 / (a − s·(a + r1)), rounded up; when
    a ≤ s·(a + r1) (an untied head grows with the table) no vocabulary gets there."""
    import sympy

    from . import inventory

    arch = load_for_solve(source, "vocab_size")
    if not 0 < share < 1:
        raise OptionError("--share", f"must be between 0 and 1 (exclusive), got {share}")
    form = closed_form(arch)
    V = _symbols()["V"]
    values = {sym: val for sym, val in form.values().items() if sym != V}
    emb = sympy.expand(form.substitute(form.embedding).xreplace(values))
    total = sympy.expand(form.coupled_total.xreplace(values))
    a, r1, r0 = (Fraction(str(x)) for x in (emb.coeff(V, 1), total.coeff(V, 1) - emb.coeff(V, 1),
                                              total.coeff(V, 0)))
    question = f"smallest vocab_size with embedding share ≥ {float(share):.6g}"
    slope = a - share * (a + r1)
    if slope <= 0:
        limit = a / (a + r1)
        return Solution("vocab_size", question, None, "ceil", None, None, None,
                        f"the share only approaches {float(limit * 100):.6f} % as the vocabulary grows")
    value = max(1, math.ceil(share * r0 / slope))
    inv = inventory(arch.replace(vocab_size=value))
    below = inventory(arch.replace(vocab_size=value - 1)).total if value > 1 else None
    return Solution("vocab_size", question, value, "ceil", inv.total, value - 1 if value > 1 else None, below)


def load_for_solve(source: Architecture | str, key: str) -> Architecture:
    from . import load

    if key not in SOLVABLE:
        known = Architecture.field_names()
        hint = did_you_mean(key, SOLVABLE) if key not in known else ""
        raise OptionError("--solve", f"cannot solve for {key!r}{hint}; one of {', '.join(SOLVABLE)}")
    return load(source)


def pretty(expr: Any) -> str:
    """sympy's text with · for products and superscript powers."""
    import sympy

    text = sympy.sstr(expr, order="grlex")
    for power, sup in (("**2", "²"), ("**3", "³"), ("**4", "⁴")):
        text = text.replace(power, sup)
    return text.replace("*", "·")


def shown_couplings(form: ClosedForm) -> dict[Any, Any]:
    """The couplings the design's form uses (m = 4·d, d_head = d/h, ...), in VARIABLES order."""
    used = set(form.total.free_symbols)
    shown: dict[Any, Any] = {}
    for sym, value in sorted(form.couplings.items(), key=lambda kv: _ORDER.index(str(kv[0]))):
        if sym in used:
            shown[sym] = value
            used |= set(value.free_symbols)
    return shown

"""Sweeps: every point of a grid of designs, exactly, vectorized.

The closed form (formula.py, traced from the builder) is evaluated over numpy int64
arrays, chunk by chunk, so a grid of millions of designs costs a few array operations per
chunk.  Sizes a design couples (m = ⌈r·d/k⌉·k, d_head = d/h) are computed per point with
integer arithmetic; a point whose heads do not divide the width (or that the architecture
would otherwise refuse) is dropped and counted.  Before each chunk the largest value any
output can reach is bounded with Python ints; past int64 the chunk is evaluated in Python
ints (numpy object arrays), so a count is never wrapped around.

Columns: the swept keys, ``total``, ``embedding``, ``embedding_share`` (float64, from the
exact integer parts), ``active`` (parameters per token; the total for a dense model) and
``kv_bytes_per_token``.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._exceptions import OptionError, did_you_mean, quoted
from .architecture import Architecture
from .formula import FIELD_OF, SYMBOL_OF, VARIABLES
from .limits import MAX_WHERE_CHARS, shallow_tree

MAX_POINTS = 50_000_000  # 8 bytes × a few columns × 50M fits a laptop; beyond, refuse
CHUNK = 1 << 16  # 512 KiB per int64 column: the temporaries stay in cache (2^20 ran 3× slower)
INT64_MAX = (1 << 63) - 1
KV_BYTES_PER_VALUE = 2  # bf16/fp16 cache
KV_DEFINITION = (
    "bytes of KV cache one token adds at bf16: 2 (K and V) × num_hidden_layers × num_key_value_heads × "
    "head_dim × 2 bytes for plain attention (head_dim + v_head_dim in place of 2 × head_dim where v_head_dim "
    "narrows the values); for multi-head latent attention (DeepSeek-V2, arXiv:2405.04434 "
    "§2.1) the cached latent and shared rope key: num_hidden_layers × (kv_lora_rank + qk_rope_head_dim) × 2 bytes"
)
OUTPUTS = ("total", "embedding", "embedding_share", "active", "kv_bytes_per_token")
SWEEPABLE = tuple(key for _, key, _ in VARIABLES)
_MAY_BE_ZERO = ("qk_rope_head_dim",)


@dataclass(frozen=True, slots=True)
class Axis:
    """KEY=START:STOP:STEP, STOP included."""

    key: str
    start: int
    stop: int
    step: int = 1

    @property
    def size(self) -> int:
        return (self.stop - self.start) // self.step + 1

    def values(self) -> range:
        return range(self.start, self.stop + 1, self.step)

    @property
    def label(self) -> str:
        return f"{self.key}={self.start}:{self.stop}:{self.step}"


def parse_axis(text: str, option: str = "--grid") -> Axis:
    key, sep, spec = text.partition("=")
    key = key.strip()
    parts = spec.split(":")
    if not sep or not key or len(parts) not in (2, 3):
        raise OptionError(option, f"expected KEY=START:STOP[:STEP], got {text!r}")
    try:
        start, stop, step = (int(p.strip().replace("_", "")) for p in (parts + ["1"])[:3])
    except ValueError:
        raise OptionError(option, f"START, STOP and STEP must be whole numbers, got {text!r}") from None
    if key not in SWEEPABLE:
        known = Architecture.field_names()
        if key in known:
            raise OptionError(option, f"{key} cannot be swept (not a size); sweepable: {', '.join(SWEEPABLE)}")
        raise OptionError(option, f"{key}: unknown key{did_you_mean(key, SWEEPABLE)}")
    if step == 0:
        raise OptionError(option, f"{key}: STEP must not be 0")
    if step < 0:
        raise OptionError(option, f"{key}: STEP must be positive (give START below STOP), got {step}")
    if start > stop:
        raise OptionError(option, f"{key}: START {start} is above STOP {stop}")
    if stop > 1 << 62:
        raise OptionError(option, f"{key}: STOP {stop:,} is beyond what a sweep holds (2^62)")
    low = 0 if key in _MAY_BE_ZERO else 1
    if start < low:
        raise OptionError(option, f"{key}: START must be at least {low}, got {start}")
    return Axis(key, start, stop, step)


# ---------------------------------------------------------------------- --where
_ALLOWED_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
_COMPARE = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


def compile_where(text: str, columns: Sequence[str]) -> Callable[[Mapping[str, Any]], Any]:
    """A safe condition over the columns: names, numbers, comparisons, and/or, + - * /
    and unary minus.  Anything else (calls, attributes, subscripts, strings) is refused."""
    import numpy as np

    refusal = (f"only column names ({', '.join(columns)}), numbers, comparisons, and/or and + - * / are allowed")
    if len(text) > MAX_WHERE_CHARS:  # ast and the checks below recurse: a 30,000-term sum overflowed the stack
        raise OptionError("--where", f"{len(text):,} characters: beyond the bound of {MAX_WHERE_CHARS:,}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, RecursionError, MemoryError):
        raise OptionError("--where", f"cannot parse {quoted(text)}; {refusal}") from None

    def check(node: ast.AST) -> None:
        if isinstance(node, ast.Expression):
            return check(node.body)
        if isinstance(node, ast.BoolOp) and isinstance(node.op, (ast.And, ast.Or)):
            return [check(v) for v in node.values] and None
        if isinstance(node, ast.Compare) and all(isinstance(op, _COMPARE) for op in node.ops):
            return [check(v) for v in (node.left, *node.comparators)] and None
        if isinstance(node, ast.BinOp) and type(node.op) in _ALLOWED_OPS:
            return [check(v) for v in (node.left, node.right)] and None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return check(node.operand)
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return None
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if node.id not in columns:
                raise OptionError("--where", f"unknown column {node.id!r}{did_you_mean(node.id, columns)}; "
                                             f"columns: {', '.join(columns)}")
            return None
        raise OptionError("--where", f"{ast.unparse(node)!r} is not allowed: {refusal}")

    check(shallow_tree(tree, "--where"))
    if not isinstance(tree.body, (ast.Compare, ast.BoolOp)):
        raise OptionError("--where", f"{text!r} is not a condition (compare a column, e.g. total < 2e7)")

    def ev(node: ast.AST, row: Mapping[str, Any]) -> Any:
        if isinstance(node, ast.BoolOp):
            values = [ev(v, row) for v in node.values]
            join = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            out = values[0]
            for value in values[1:]:
                out = join(out, value)
            return out
        if isinstance(node, ast.Compare):
            left, out = ev(node.left, row), True
            for op, right_node in zip(node.ops, node.comparators):
                right = ev(right_node, row)
                out = np.logical_and(out, _compare(op, left, right))
                left = right
            return out
        if isinstance(node, ast.BinOp):
            left, right = ev(node.left, row), ev(node.right, row)
            if isinstance(node.op, ast.Div):
                return np.true_divide(left, right)
            return {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply}[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp):
            value = ev(node.operand, row)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.Constant):
            return node.value
        return row[node.id]  # type: ignore[attr-defined]

    return lambda row: ev(tree.body, row)


def _compare(op: ast.cmpop, left: Any, right: Any) -> Any:
    if isinstance(op, ast.Lt):
        return left < right
    if isinstance(op, ast.LtE):
        return left <= right
    if isinstance(op, ast.Gt):
        return left > right
    if isinstance(op, ast.GtE):
        return left >= right
    if isinstance(op, ast.Eq):
        return left == right
    return left != right


# ---------------------------------------------------------------------- the plan
@dataclass(frozen=True)
class Plan:
    """What a sweep evaluates: the design, the axes, and the integer expressions (sympy)
    for each output and each coupled size, with the design's constants folded in."""

    architecture: Architecture
    axes: tuple[Axis, ...]
    outputs: dict[str, Compiled]  # output name -> expression in the array symbols
    derived: tuple[tuple[str, Compiled], ...]  # (symbol, expression) computed per point, in order
    checks: tuple[tuple[str, Compiled | None, Compiled | None], ...] = ()  # (message, n, d): d must divide n
    notes: tuple[str, ...] = field(default=())

    @property
    def size(self) -> int:
        return math.prod(axis.size for axis in self.axes)

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(axis.key for axis in self.axes) + OUTPUTS


# Fields that make one layer differ from another in what it holds: a sweep's closed form has one
# shape of layer per kind and cannot follow them (mlp_only_layers, a fixed set of dense layers, it can).
PER_LAYER_STRUCTURE = ("head_dim_per_layer", "num_key_value_heads_per_layer", "intermediate_size_per_layer",
                       "num_attention_heads_per_layer", "attention_output_bias_layers", "linear_attention_layers",
                       "indexer_types", "num_kv_shared_layers", "attention_k_eq_v")


def _total(arch: Architecture) -> int:
    from . import inventory

    return inventory(arch).total


def plan(source: Architecture | str, axes: Sequence[Axis | str], max_points: int = MAX_POINTS) -> Plan:
    import sympy

    from . import load
    from .formula import closed_form

    axes = tuple(parse_axis(a) if isinstance(a, str) else a for a in axes)
    if not axes:
        raise OptionError("--grid", "give at least one axis, e.g. --grid num_hidden_layers=1:48:1")
    keys = [axis.key for axis in axes]
    for key in keys:
        if keys.count(key) > 1:
            raise OptionError("--grid", f"{key} is swept twice")
    size = math.prod(axis.size for axis in axes)
    if size > max_points:
        raise OptionError("--grid", f"{size:,} points is more than the {max_points:,} a sweep evaluates; "
                                    "use larger steps or fewer axes")
    arch = load(source)
    for key, switch in (("num_experts", arch.is_moe), ("kv_lora_rank", arch.is_mla),
                        ("q_lora_rank", arch.q_lora_rank is not None)):
        if key in keys and not switch:
            raise OptionError("--grid", f"{key} would switch {arch.source} to another kind of layer; "
                                        f"--set {key}=... first, then sweep it")
    differ = [key for key in PER_LAYER_STRUCTURE if getattr(arch, key)]
    if differ:
        raise OptionError("--grid", f"{arch.source}'s layers differ ({', '.join(differ)}): a sweep evaluates one "
                                    "closed form over layers of one shape; count each point with --set instead")
    notes = []
    total = _total(arch)
    if arch.layer_types:  # count-neutral, and its length would pin the depth
        uniform = arch.replace(layer_types=())
        if _total(uniform) != total:
            raise OptionError("--grid", f"{arch.source}'s layer_types change its count (its sliding and full "
                                        "layers hold other tensors): not swept; count each point with --set instead")
        arch = uniform
        notes.append("layer_types dropped (count-neutral); kv_bytes_per_token assumes every layer caches in full")
    form = closed_form(arch, free=tuple(keys))
    if form.total.xreplace(form.values()) != total:  # never a sweep of a form that misses the design
        raise OptionError("--grid", f"the closed form does not reproduce {arch.source}'s count: not swept; "
                                    "count each point with --set instead")
    swept = {sympy.Symbol(SYMBOL_OF[key], integer=True, nonnegative=True) for key in keys}
    arrays = set(swept)
    derived: list[tuple[str, Any]] = []
    for sym, expr in sorted(form.couplings.items(), key=lambda kv: list(FIELD_OF).index(str(kv[0]))):
        if expr.free_symbols & arrays:
            arrays.add(sym)
            derived.append((sym, expr))
    constants = {sym: value for sym, value in form.values().items() if sym not in arrays}
    s = {str(sym): sym for sym in form.values()}
    if form.architecture.is_mla:
        kv_values = s["L"] * (s["r_kv"] + s["d_rope"])
    else:  # a key of d_head and a value of d_v (d_head unless v_head_dim narrows it) per KV head
        value = s["d_v"] if form.architecture.v_head_dim is not None else s["d_head"]
        kv_values = s["L"] * s["h_kv"] * (s["d_head"] + value)
    outputs = {
        "total": form.total,
        "embedding": form.embedding,
        "active": form.active,
        "kv_bytes_per_token": KV_BYTES_PER_VALUE * kv_values,
    }
    outputs = {name: sympy.expand(sympy.sympify(expr).xreplace(constants)) for name, expr in outputs.items()}
    # Only the coupled sizes the outputs read (an MLA design never divides the width by the heads).
    needed = set().union(*(expr.free_symbols for expr in outputs.values()))
    for sym, expr in reversed(derived):
        if sym in needed:
            needed |= expr.free_symbols
    derived = [(str(sym), sympy.sympify(expr).xreplace(constants)) for sym, expr in derived if sym in needed]
    checks = []
    # The architecture's own rules on the swept sizes (architecture.validate).
    if "num_key_value_heads" in keys or ("num_attention_heads" in keys and arch.num_key_value_heads is not None):
        checks.append(("num_key_value_heads does not divide num_attention_heads",
                       sympy.sympify(s["h"]).xreplace(constants), sympy.sympify(s["h_kv"]).xreplace(constants)))
    if ("num_experts" in keys or "num_experts_per_tok" in keys) and arch.is_moe:
        checks.append(("num_experts_per_tok above num_experts", None, None))
    if "num_hidden_layers" in keys and arch.mlp_only_layers:
        checks.append(("mlp_only_layers beyond the depth", None, None))
    return Plan(arch, axes, {name: compile_expression(e) for name, e in outputs.items()},
                tuple((name, compile_expression(e)) for name, e in derived),
                tuple((reason, compile_expression(n) if n is not None else None,
                       compile_expression(d) if d is not None else None) for reason, n, d in checks),
                tuple(notes))


# ---------------------------------------------------------------------- evaluation
@dataclass(frozen=True)
class Compiled:
    """An expression turned into integer arithmetic once, at plan time: ``run(env)`` gives
    (values, mask of points where it is a whole number, or None); ``bound(maxima)`` an
    upper bound on every intermediate for nonnegative inputs (Σ |c| × Π max(1, x)^e)."""

    expr: Any
    numerator: Callable[[Mapping[str, Any]], Any]
    denominator: Callable[[Mapping[str, Any]], Any] | None
    terms: tuple[tuple[int, tuple[tuple[str, int], ...]], ...]

    def run(self, env: Mapping[str, Any]) -> tuple[Any, Any]:
        top = self.numerator(env)
        if self.denominator is None:
            return top, None
        bottom = self.denominator(env)
        return top // bottom, (top % bottom) == 0

    def bound(self, maxima: Mapping[str, int]) -> int:
        total = 0
        for coefficient, powers in self.terms:
            for name, exponent in powers:
                coefficient *= max(1, maxima[name]) ** exponent
            total += coefficient
        return total


def compile_expression(expr: Any) -> Compiled:
    import sympy

    expr = sympy.sympify(expr)
    numerator, denominator = sympy.fraction(sympy.together(expr))
    terms: tuple = ()
    symbols = sorted(numerator.free_symbols, key=str)
    if not numerator.has(sympy.ceiling):
        poly = sympy.Poly(numerator, *symbols) if symbols else None
        terms = tuple((abs(int(c)), tuple((str(s), e) for s, e in zip(symbols, exps) if e))
                      for exps, c in poly.terms()) if poly is not None else ((abs(int(numerator)), ()),)
    return Compiled(expr, _closure(numerator), None if denominator == 1 else _closure(denominator), terms)


def _closure(expr: Any) -> Callable[[Mapping[str, Any]], Any]:
    """``expr`` (integers, symbols, +, ×, whole powers, ceiling of a quotient) as nested
    Python closures over numpy arrays: no sympy at evaluation time."""
    import sympy

    if expr.is_Integer:
        constant = int(expr)
        return lambda env: constant
    if expr.is_Symbol:
        name = str(expr)
        return lambda env: env[name]
    if isinstance(expr, (sympy.Add, sympy.Mul)):
        parts = [_closure(arg) for arg in expr.args]
        if isinstance(expr, sympy.Add):
            def add(env: Mapping[str, Any]) -> Any:
                out = parts[0](env)
                for part in parts[1:]:
                    out = out + part(env)
                return out
            return add

        def multiply(env: Mapping[str, Any]) -> Any:
            out = parts[0](env)
            for part in parts[1:]:
                out = out * part(env)
            return out
        return multiply
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer and expr.exp > 0:
        base, exponent = _closure(expr.base), int(expr.exp)
        return lambda env: base(env) ** exponent
    if isinstance(expr, sympy.ceiling):
        numerator, denominator = (_closure(e) for e in sympy.fraction(sympy.together(expr.args[0])))
        return lambda env: -((-numerator(env)) // denominator(env))
    raise OptionError("sweep", f"cannot evaluate {expr} over integer arrays")


@dataclass(frozen=True)
class Chunk:
    columns: dict[str, Any]  # kept rows only
    points: int  # grid points in this chunk
    invalid: dict[str, int]  # reason -> points the architecture would refuse
    python_ints: bool  # evaluated in Python ints (beyond int64)


def evaluate(p: Plan, where: str | None = None, chunk: int = CHUNK,
             progress: Callable[[int, int], None] | None = None) -> Iterator[Chunk]:
    """The plan's grid, ``chunk`` points at a time (flat, last axis fastest)."""
    import numpy as np

    condition = compile_where(where, p.columns) if where else None
    shape = tuple(axis.size for axis in p.axes)
    arch = p.architecture
    done = 0
    for low in range(0, p.size, chunk):
        high = min(low + chunk, p.size)
        index = np.unravel_index(np.arange(low, high, dtype=np.int64), shape)
        env: dict[str, Any] = {SYMBOL_OF[axis.key]: axis.start + axis.step * i for axis, i in zip(p.axes, index)}
        maxima = {name: int(values.max()) for name, values in env.items()}
        python_ints = False
        invalid: dict[str, int] = {}
        valid = np.ones(high - low, dtype=bool)
        for name, compiled in p.derived:
            values, whole = compiled.run(env)
            if whole is not None:
                refused = int((~whole & valid).sum())
                if refused:
                    reason = ("num_attention_heads does not divide hidden_size" if name == "d_head"
                              else f"{FIELD_OF[name]} = {compiled.expr} is not a whole number")
                    invalid[reason] = invalid.get(reason, 0) + refused
                    valid &= whole
            env[name] = values * np.ones(high - low, dtype=np.int64) if np.ndim(values) == 0 else values
            maxima[name] = int(env[name].max())
        for reason, numerator, denominator in p.checks:
            if numerator is not None:
                ok = (numerator.run(env)[0] % denominator.run(env)[0]) == 0
            elif reason.startswith("num_experts"):
                ok = env.get("E", arch.num_experts) >= env.get("k", arch.num_experts_per_tok)
            else:
                ok = env["L"] > max(arch.mlp_only_layers)
            ok = np.broadcast_to(ok, valid.shape)
            invalid[reason] = invalid.get(reason, 0) + int((~ok & valid).sum())
            valid &= ok
        if any(not c.terms or c.bound(maxima) > INT64_MAX for c in p.outputs.values()):
            python_ints = True
            env = {name: values.astype(object) for name, values in env.items()}
        columns: dict[str, Any] = {axis.key: env[SYMBOL_OF[axis.key]] for axis in p.axes}
        done_exprs: dict[Any, Any] = {}
        for name, compiled in p.outputs.items():
            if compiled.expr not in done_exprs:  # a dense model's active is its total: evaluate once
                values, _ = compiled.run(env)
                done_exprs[compiled.expr] = (np.full(high - low, values, dtype=object if python_ints else np.int64)
                                             if np.ndim(values) == 0 else values)
            columns[name] = done_exprs[compiled.expr]
        columns["embedding_share"] = np.true_divide(columns["embedding"].astype(np.float64),
                                                    columns["total"].astype(np.float64))
        keep = valid
        if condition is not None:
            keep = valid & np.asarray(np.broadcast_to(condition(columns), valid.shape), dtype=bool)
        if not keep.all():
            columns = {name: columns[name][keep] for name in p.columns}
        done += high - low
        if progress is not None:
            progress(done, p.size)
        yield Chunk(columns, high - low, {k: v for k, v in invalid.items() if v}, python_ints)


@dataclass(frozen=True)
class SweepResult:
    plan: Plan
    columns: dict[str, Any]  # column -> array of the kept points
    points: int
    invalid: dict[str, int]
    python_ints: bool

    @property
    def kept(self) -> int:
        return len(self.columns["total"])

    def rows(self) -> Iterator[dict[str, Any]]:
        for i in range(self.kept):
            yield {name: _scalar(values[i]) for name, values in self.columns.items()}


def _scalar(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def sweep(source: Architecture | str, axes: Sequence[Axis | str], where: str | None = None,
          progress: Callable[[int, int], None] | None = None, max_points: int = MAX_POINTS) -> SweepResult:
    """Every grid point of ``source`` with ``axes`` swept, filtered by ``where``."""
    import numpy as np

    p = plan(source, axes, max_points)
    parts: list[dict[str, Any]] = []
    invalid: dict[str, int] = {}
    points, python_ints = 0, False
    for part in evaluate(p, where, progress=progress):
        parts.append(part.columns)
        points += part.points
        python_ints |= part.python_ints
        for reason, count in part.invalid.items():
            invalid[reason] = invalid.get(reason, 0) + count
    columns = {name: np.concatenate([part[name] for part in parts]) if len(parts) != 1 else parts[0][name]
               for name in p.columns}
    return SweepResult(p, columns, points, invalid, python_ints)


def engine_row(p: Plan, values: Mapping[str, int]) -> dict[str, Any] | None:
    """The same point through the per-point engine (inventory), or None if the
    architecture refuses it: the reference the vectorized sweep is checked against."""
    from . import inventory
    from .kvcache import kv_values_per_token

    try:
        arch = p.architecture.replace(**dict(values))
    except ValueError:
        return None
    inv = inventory(arch)
    kv_values = kv_values_per_token(arch)  # the latent layout for MLA, as the plan's formula
    return {**values, "total": inv.total, "embedding": inv.embedding, "embedding_share": float(inv.embedding_share),
            "active": inv.active, "kv_bytes_per_token": KV_BYTES_PER_VALUE * kv_values}

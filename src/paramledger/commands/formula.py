"""paramledger formula SOURCE: the total as a closed form, and what it solves for."""

from __future__ import annotations

import argparse
from typing import Any

from ._common import add_source, load_source, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "formula", help="the total as a closed form in the design's own variables; solve for one",
        description="Traces the inventory builder with symbolic sizes and prints the total as a polynomial "
                    "(checked against the exact count). --solve KEY --budget N: the largest KEY within N "
                    "parameters (floor); --solve vocab_size alone: the break-even vocabulary; --solve vocab_size "
                    "--share S: the smallest vocabulary whose table is at least S of the total (ceil).")
    add_source(parser)
    parser.add_argument("--solve", metavar="KEY", help="the architecture key to solve for")
    parser.add_argument("--budget", metavar="N", help="a parameter budget (20000000, 20_000_000 or 20M)")
    parser.add_argument("--share", metavar="S", help="an embedding share (0.5, 1/2 or 50%%), with --solve vocab_size")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .._exceptions import OptionError
    from .. import formula as f

    if (args.budget or args.share) and not args.solve:
        raise OptionError("--solve", "--budget and --share need --solve KEY")
    if args.budget and args.share:
        raise OptionError("--share", "give --budget or --share, not both")
    arch = load_source(args)
    solution = None
    if args.solve:
        f.load_for_solve(arch, args.solve)
        if args.share:
            if args.solve != "vocab_size":
                raise OptionError("--share", f"solves for vocab_size only, not {args.solve}")
            solution = f.solve_share(arch, f.parse_share(args.share))
        elif args.budget:
            solution = f.solve_budget(arch, args.solve, f.parse_count(args.budget, "--budget"))
        elif args.solve != "vocab_size":
            raise OptionError("--solve", f"{args.solve} needs --budget N (the largest {args.solve} within N)")
    form = f.closed_form(arch)
    if args.json:
        print_json(_json(form, solution))
    else:
        print(_text(form, solution, show_break_even=solution is None))
    return 0


def _json(form: Any, solution: Any) -> dict[str, Any]:
    from .. import formula as f

    be = form.break_even()
    out = {
        "source": form.architecture.source,
        "total": str(form.coupled_total),
        "total_pretty": f.pretty(form.coupled_total),
        "uncoupled": str(form.uncoupled_total) if form.uncoupled_total is not None else None,
        "variables": {name: {"key": f.FIELD_OF[name], "value": value} for name, value in form.variables().items()},
        "couplings": {str(sym): str(value) for sym, value in f.shown_couplings(form).items()},
        "components": {name: str(form.substitute(expr)) for name, expr in form.components.items()},
        "active": str(form.substitute(form.active)),
        "value": form.evaluate(),
        "break_even": None if be is None else {
            "condition": f"V > {be.threshold}" if be.threshold is not None else None,
            "vocab_size": be.vocab_size},
    }
    if solution is not None:
        out["solution"] = {"key": solution.key, "question": solution.question, "value": solution.value,
                           "rounding": solution.rounding, "total": solution.total,
                           "neighbour": solution.neighbour, "neighbour_total": solution.neighbour_total,
                           "reason": solution.reason}
    return out


def _text(form: Any, solution: Any, show_break_even: bool) -> str:
    import sympy

    from .. import formula as f

    arch = form.architecture
    lines = [f"{arch.source}: the total in closed form, traced through the inventory builder", ""]
    lines.append("variables: " + "; ".join(f"{name} = {f.FIELD_OF[name]} = {value:,}"
                                           for name, value in form.variables().items()))
    couplings = f.shown_couplings(form)
    if couplings:
        lines.append("couplings: " + "; ".join(f"{sym} = {f.pretty(value)} ({f.FIELD_OF[str(sym)]})"
                                               for sym, value in couplings.items()))
    total = form.coupled_total
    depth = sympy.Symbol("L", integer=True, nonnegative=True)
    lines += ["", f"total = {f.pretty(total)}"]
    grouped = sympy.collect(total, depth)
    if grouped != total and depth in total.free_symbols:
        lines.append(f"      = {f.pretty(grouped)}")
    if form.uncoupled_total is not None:
        free = ", ".join(f"{sym} = {f.FIELD_OF[str(sym)]}" for sym in sorted(form.declared, key=str))
        lines.append(f"with {free} free: {f.pretty(sympy.collect(form.uncoupled_total, depth))}")
    lines += ["", "by component:"]
    width = max(len(name) for name in form.components)
    lines += [f"  {name.ljust(width)}  {f.pretty(form.substitute(expr))}" for name, expr in form.components.items()]
    if arch.is_moe:
        lines.append(f"active per token: {f.pretty(form.substitute(form.active))}")
    lines.append(f"\nat the design: {form.evaluate():,} (equal to the inventory total)")
    if show_break_even:
        be = form.break_even()
        if be is not None and be.vocab_size is not None:
            lines.append(f"break-even vocabulary: the table exceeds everything else when V > {f.pretty(be.threshold)}; "
                         f"smallest V = {be.vocab_size:,}")
        else:
            lines.append("break-even vocabulary: none (an untied head grows with the table)")
    if solution is not None:
        lines.append("")
        if solution.value is None:
            lines.append(f"{solution.question}: none ({solution.reason})")
        else:
            side = "the next valid value" if solution.rounding == "floor" else "one less"
            lines.append(f"{solution.question}: {solution.key} = {solution.value:,} ({solution.rounding}); "
                         f"total {solution.total:,}")
            if solution.neighbour is not None and solution.neighbour_total is not None:
                lines.append(f"  {side}, {solution.neighbour:,}, gives {solution.neighbour_total:,}")
    return "\n".join(lines)

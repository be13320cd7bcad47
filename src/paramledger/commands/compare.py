"""paramledger compare A B: two sources side by side, optionally tensor by tensor."""

from __future__ import annotations

import argparse

from ._common import parse_overrides, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compare", help="compare two designs or models",
        description="B against A: the total, the change (exact count and percent), the embedding share and the "
                    "components the difference came from; --tensors lists added, removed and reshaped tensors "
                    "and alias changes.")
    parser.add_argument("base", metavar="A", help="the base: a design or model name, a spec file or a config.json")
    parser.add_argument("other", metavar="B", help="the source compared against A")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a key in B (HF config names); repeatable")
    parser.add_argument("--tensors", action="store_true", help="add the tensor-by-tensor diff")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", metavar="FILE", help="write stacked bars by component (.png or .svg)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import load
    from ..whatif import comparison_json, comparison_table, compare, tensor_diff_text

    if args.plot:
        from ..plots import check_plot_path

        check_plot_path(args.plot)
    row = compare(load(args.base), load(args.other, **parse_overrides(args.overrides)))
    if args.json:
        print_json(comparison_json(row, tensors=args.tensors))
    else:
        print(comparison_table([row]))
        if args.tensors:
            print()
            print(tensor_diff_text(row.tensor_diff()))
    if args.plot:
        from ..plots import component_bars

        component_bars([row], args.plot)
    return 0

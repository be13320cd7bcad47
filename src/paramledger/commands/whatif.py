"""paramledger whatif SOURCE --vary CHANGE ...: each change against the unchanged design."""

from __future__ import annotations

import argparse

from ._common import add_source, load_source, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "whatif", help="change a design one way at a time and see where the parameters went",
        description="One row per --vary: the new total, the change against the base (exact count and "
                    "percent), the embedding share after, and the components the change came from.")
    add_source(parser)
    parser.add_argument("--vary", dest="changes", action="append", default=[], metavar="KEY=VALUE[,KEY=VALUE]",
                        help="one change (several keys set together, comma-separated); repeatable")
    parser.add_argument("--json", action="store_true", help="print a JSON list, one object per change")
    parser.add_argument("--plot", metavar="FILE", help="write stacked bars by component (.png or .svg)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..whatif import comparison_json, comparison_table, parse_change, what_if

    if args.plot:
        from ..plots import check_plot_path

        check_plot_path(args.plot)
    arch = load_source(args)
    rows = what_if(arch, [parse_change(text, arch=arch) for text in args.changes])
    if args.json:
        print_json([comparison_json(row) for row in rows])
    else:
        print(comparison_table(rows))
    if args.plot:
        from ..plots import component_bars

        component_bars(rows, args.plot)
    return 0

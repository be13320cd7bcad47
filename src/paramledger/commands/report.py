"""paramledger report SOURCE -o FILE: a self-contained HTML report of the inventory."""

from __future__ import annotations

import argparse
import sys

from ._common import add_source, load_source


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report", help="write a self-contained HTML report (treemap, tables, manifest)",
        description="Write one HTML file that opens offline: a treemap of where the parameters go, "
                    "seed 001's table, the components with their shares and every tensor.")
    add_source(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import inventory
    from ..report import write_report

    inv = inventory(load_source(args))
    path = write_report(inv, args.output)
    # -o /dev/stdout: the report is the output, and this line goes beside it
    print(f"wrote {path} ({inv.total:,} parameters, {len(inv.tensors):,} tensors)",
          file=sys.stdout if path.is_file() else sys.stderr)
    return 0

"""paramledger report SOURCE -o FILE: a self-contained HTML report of the inventory."""

from __future__ import annotations

import argparse
import sys

from ._common import add_cache_options, add_source, load_source


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report", help="write a self-contained HTML report (treemap, tables, manifest)",
        description="Write one HTML file that opens offline: a treemap of where the parameters go, "
                    "the calculator's table, the components with their shares, the memory the weights and the KV "
                    "cache take, and every tensor.")
    add_source(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    add_cache_options(parser, "bf16", batch=False)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import inventory
    from ..report import write_report

    inv = inventory(load_source(args))
    path = write_report(inv, args.output, context=args.context, kv_dtype=args.kv_dtype)
    # -o /dev/stdout: the report is the output, and this line goes beside it
    print(f"wrote {path} ({inv.total:,} parameters, {len(inv.tensors):,} tensors)",
          file=sys.stdout if path.is_file() else sys.stderr)
    return 0

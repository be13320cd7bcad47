"""paramledger report SOURCE -o FILE: a self-contained HTML report of the inventory."""

from __future__ import annotations

import argparse
import sys

from ..cli_numbers import count_type
from ._common import add_source, load_source


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report", help="write a self-contained HTML report (treemap, tables, manifest)",
        description="Write one HTML file that opens offline: a treemap of where the parameters go, "
                    "seed 001's table, the components with their shares, the memory the weights and the KV "
                    "cache take, and every tensor.")
    add_source(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    # the names, types and defaults of `paramledger memory`'s options; the library checks the values
    parser.add_argument("--context", type=count_type("--context", "tokens"), default=None, metavar="N",
                        help="tokens per sequence for the KV cache (default: max_position_embeddings)")
    parser.add_argument("--kv-dtype", default=None, metavar="D",
                        help="KV cache format: fp32, fp16, bf16, fp8_e4m3, fp8_e5m2, int8 (default bf16)")
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

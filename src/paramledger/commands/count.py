"""paramledger count SOURCE: the inventory as a table, a manifest or JSON."""

from __future__ import annotations

import argparse

from ._common import add_source, load_source, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("count", help="count the parameters of a design or model",
                                   description="Count every unique learned tensor once.")
    add_source(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--manifest", action="store_true", help="list every tensor and every alias")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import inventory
    from ..render import inventory_json, inventory_table, manifest_table

    inv = inventory(load_source(args))
    if args.json:
        print_json(inventory_json(inv, manifest=args.manifest))
    else:
        print(inventory_table(inv))
        if args.manifest:
            print()
            print(manifest_table(inv))
    return 0

"""paramledger count SOURCE | --module PKG.MOD:FACTORY: the inventory as a table, a manifest or JSON."""

from __future__ import annotations

import argparse

from ._common import add_source, load_source, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("count", help="count the parameters of a design or model",
                                   description="Count every unique learned tensor once.")
    add_source(parser, optional=True)
    parser.add_argument("--module", metavar="PKG.MOD:FACTORY",
                        help="count a live torch nn.Module: import the factory and call it on the meta device "
                             "(instead of SOURCE)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--manifest", action="store_true", help="list every tensor and every alias")
    parser.add_argument("--lora", metavar="ADAPTER",
                        help="put a LoRA adapter on the model, counted as PEFT 0.21.2 counts it: an "
                             "adapter_config.json, its folder, or r=16,lora_alpha=32,target_modules=q_proj+v_proj")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import inventory
    from .._exceptions import OptionError
    from ..render import inventory_json, inventory_table, manifest_table

    if args.module is not None:
        if args.source is not None or args.overrides:
            raise OptionError("--module", "counts a live module; give it instead of SOURCE and --set")
        from ..module import inventory_from_factory

        inv = inventory_from_factory(args.module)
    elif args.source is None:
        raise OptionError("SOURCE", "give a SOURCE to count, or --module PKG.MOD:FACTORY")
    else:
        inv = inventory(load_source(args))
    if args.lora is not None:
        from ..adapters import lora_inventory

        inv = lora_inventory(inv, args.lora)
    if args.json:
        print_json(inventory_json(inv, manifest=args.manifest))
    else:
        print(inventory_table(inv))
        if args.manifest:
            print()
            print(manifest_table(inv))
    return 0

"""paramledger inspect PATH: what a checkpoint stores, read from its headers, reconciled with its config."""

from __future__ import annotations

import argparse

from ._common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "inspect", help="read a checkpoint's headers (safetensors, GGUF, PyTorch) and reconcile them",
        description="List the stored tensors (headers only, no weights loaded), sort out buffers, quantization "
                    "scales and packed values, and explain every difference from the config-derived inventory.")
    parser.add_argument("path", metavar="PATH", help="a .safetensors, .gguf or .bin/.pt file, a sharded folder "
                                                     "or its index json, or a hub id org/name[@revision] (headers "
                                                     "read by HTTP range requests, never the weights)")
    parser.add_argument("--config", metavar="CONFIG", help="the config.json to reconcile with (default: the one "
                                                           "beside PATH)")
    parser.add_argument("--name", metavar="NAME", help="the model's name, for the size it claims (default: the "
                                                       "folder name, GGUF general.size_label, _name_or_path)")
    parser.add_argument("--file", metavar="FILE", help="with a hub id: the repo's file to read (one .gguf of "
                                                       "several; default: its index json or its one weights file)")
    parser.add_argument("--tensors", action="store_true", help="list every stored tensor")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..checkpoints.inspection import inspect_path
    from ..checkpoints.view import report_json, report_text
    from ..hub.progress import shown

    with shown(not args.json):
        report, config_label = inspect_path(args.path, config=args.config, name=args.name, file=args.file)
    if args.json:
        print_json(report_json(report, config_label=config_label))
    else:
        print(report_text(report, config_label=config_label, tensors=args.tensors))
    return 0

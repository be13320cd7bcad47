"""paramledger norm X...: LayerNorm and RMSNorm of one vector, side by side (seed 001)."""

from __future__ import annotations

import argparse

from ._common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("norm", help="LayerNorm vs RMSNorm of one vector (no affine)",
                                   description="Normalize one feature vector both ways, without affine transforms.")
    parser.add_argument("x", nargs="+", type=float, metavar="X")
    parser.add_argument("--eps", type=float, default=0.0)
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..norms import layer_norm, rms_norm

    ln, rms = layer_norm(args.x, args.eps), rms_norm(args.x, args.eps)
    if args.json:
        print_json({"x": args.x, "layer_norm": ln, "rms_norm": rms})
    else:
        print(f"x         {args.x}\nLayerNorm {ln}   (centred, then scaled)\nRMSNorm   {rms}   (scaled only)")
    return 0

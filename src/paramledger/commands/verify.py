"""paramledger verify SOURCE: our inventory against transformers' own model, tensor by tensor."""

from __future__ import annotations

import argparse

from ._common import add_source, parse_overrides, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify", help="compare the inventory with the model transformers builds (meta device)",
        description="Build the family's ForCausalLM (a multimodal model whole, its text decoder alone with "
                    "--text-only) from the same config on the meta device and list every "
                    "missing, extra, reshaped or differently tied tensor. Exit 0 on a match, 1 on any difference. "
                    'Needs torch and transformers: pip install "paramledger[reference]".')
    add_source(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..hub.progress import shown
    from ..reference import verification_lines, verify

    with shown(not args.json):
        result = verify(args.source, text_only=args.text_only, **parse_overrides(args.overrides))
    if args.json:
        print_json({"source": args.source, "reference_class": result.reference.class_name,
                    "note": result.note, **result.diff.to_json()})
    else:
        print("\n".join(verification_lines(result)))
    return 0 if result.diff.matches else 1

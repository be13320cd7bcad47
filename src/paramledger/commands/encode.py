"""paramledger encode SOURCE TEXT: the design's tokens for a text (seed 000's tokenizer example)."""

from __future__ import annotations

import argparse

from ._common import add_source, load_source, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "encode", help="encode a text with the design's (toy) vocabulary",
        description="Vocabulary size and sequence length are different variables: show both.")
    add_source(parser)
    parser.add_argument("text")
    parser.add_argument("--json", action="store_true")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..tokenizer import encode

    arch = load_source(args)
    tokens = encode(arch, args.text)
    if args.json:
        print_json({"tokenizer": arch.tokenizer, "vocab_size": arch.vocab_size, "text": args.text,
                    "tokens": [{"piece": piece, "id": index} for piece, index in tokens]})
    else:
        pieces = ", ".join(f"{piece}={index}" for piece, index in tokens)
        print(f"{args.text!r}: {len(tokens)} token{'s' if len(tokens) != 1 else ''} ({pieces}) "
              f"in {arch.tokenizer}, a vocabulary of {arch.vocab_size:,} rows")
    return 0

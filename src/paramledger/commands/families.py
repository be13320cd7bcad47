"""paramledger families [NAME...]: seed 002's family table from real configs, checked against the seed."""

from __future__ import annotations

import argparse

from ._common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    from ..family_table import SEED_002_MODELS

    parser = subparsers.add_parser(
        "families", help="seed 002's family table, read from real configs",
        description="Attention, norm, positions, FFN, tying, vocabulary, totals and KV cache per token, read from "
                    "each model's config.json, with every cell where seed 002's table disagrees with the config. "
                    f"Without NAME: {', '.join(SEED_002_MODELS)}.")
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="a bundled model name, a config.json or its folder")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    parser.add_argument("--supported", action="store_true",
                        help="list the model_types paramledger counts, one a line (docs/coverage.md says how each "
                             "is checked)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..family_table import SEED_002_MODELS, compare, family_row

    if args.supported:
        from .. import families

        supported = families.supported()
        print_json(supported) if args.json else print("\n".join(supported))
        return 0
    rows = [family_row(name) for name in (args.names or SEED_002_MODELS)]
    checks = [compare(row) for row in rows]
    if args.json:
        print_json([_json(row, seed, found) for row, (seed, found) in zip(rows, checks)])
        return 0
    print(_table(rows))
    print()
    print("seed 002's table against the configs:")
    for row, (seed, found) in zip(rows, checks):
        if seed is None:
            print(f"  {row.name}: seed 002 has no row for model_type {row.model_type}")
        elif not found:
            checked = ("all 6 cells and its signature" if seed.claims
                       else "all 6 cells (its signature states no checkable fact)")
            print(f"  {row.name}: agrees with seed 002's {seed.family} row on {checked}")
        else:
            for item in found:
                print(f"  {item.line(row, seed)}")
    return 0


def _table(rows) -> str:
    from ..render import percent, table

    lines = [("model", "attention", "norm", "position", "FFN", "tied", "vocab", "total", "emb. share",
              "KV bytes/token (bf16)")]
    for r in rows:
        lines.append((r.name, r.attention, r.norm, r.position, r.activation, "yes" if r.tied else "no",
                      f"{r.vocab_size:,}", f"{r.total:,}", percent(r.embedding_share), f"{r.kv_bytes_per_token:,}"))
    return table(lines, "llllllrrrr")


def _json(row, seed, found) -> dict:
    out = {
        "name": row.name, "model_type": row.model_type, "attention": row.attention,
        "num_attention_heads": row.num_attention_heads, "num_key_value_heads": row.num_key_value_heads,
        "norm": row.norm, "position": row.position, "rope_scaling": row.rope_scaling,
        "activation": row.activation, "activation_key": row.activation_key, "mlp_gated": row.mlp_gated,
        "tied": row.tied, "vocab_size": row.vocab_size, "total": row.total,
        "embedding_share": float(row.embedding_share), "kv_bytes_per_token_bf16": row.kv_bytes_per_token,
        "sliding_window": row.sliding_window, "qkv_bias": row.qkv_bias,
    }
    if seed is not None:
        out["seed_002"] = {
            "family": seed.family,
            "disagreements": [{"column": d.column, "seed": d.seed_cell, "config": d.fact} for d in found],
        }
    return out

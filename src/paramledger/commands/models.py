"""paramledger models: the bundled releases with their totals, active counts and embedding shares."""

from __future__ import annotations

import argparse

from ._common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "models", help="list the bundled models with their totals",
        description="The real releases bundled with paramledger (each with the source of its config), "
                    "counted from their inventories.")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..registry import summaries, summary_json

    rows = summaries()
    if args.json:
        print_json([summary_json(s) for s in rows])
        return 0
    print(_table(rows))
    return 0


def _table(rows) -> str:
    from ..render import percent

    lines = [("model", "repo", "model_type", "total", "active per token", "embedding share")]
    notes = []
    for s in rows:
        m = s.model
        if s.counted:
            active = f"{s.active:,}" if s.is_moe else "(dense)"
            lines.append((m.name, m.repo, m.model_type, f"{s.total:,}", active, percent(s.embedding_share)))
            if s.text_decoder_only:
                notes.append(f"{m.name}: multimodal: counts its text decoder (text_config) only")
        else:
            lines.append((m.name, m.repo, m.model_type, "-", "-", "-"))
            notes.append(f"{m.name}: not counted: {s.reason}")
    widths = [max(len(row[i]) for row in lines) for i in range(len(lines[0]))]
    align = "lllrrr"
    out = ["  ".join(c.ljust(w) if a == "l" else c.rjust(w) for c, w, a in zip(row, widths, align)).rstrip()
           for row in lines]
    out.append("")
    out.append(f"{len(rows)} bundled models; `paramledger count NAME` for the inventory, "
               "`paramledger families NAME...` for seed 002's table")
    out.extend(notes)
    return "\n".join(out)

"""paramledger models: the bundled releases with their totals, active counts and embedding shares."""

from __future__ import annotations

import argparse

from ._common import print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "models", help="list the bundled models with their totals",
        description="The real releases bundled with paramledger (each with the source of its config), "
                    "counted from their inventories.")
    parser.add_argument("filters", nargs="*", metavar="TEXT",
                        help="only models whose name, repo or model_type contains every TEXT (any case)")
    parser.add_argument("--sort", choices=SORTS, default="name",
                        help="order: name (default), or total or active parameters, largest first")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    parser.set_defaults(func=run)


SORTS = ("name", "total", "active")


def run(args: argparse.Namespace) -> int:
    from .._exceptions import OptionError
    from ..registry import bundled, summarize, summary_json

    wanted = [text.lower() for text in args.filters]
    models = [m for m in bundled()
              if all(text in f"{m.name} {m.repo} {m.model_type}".lower() for text in wanted)]
    if not models:
        raise OptionError("models", f"no bundled model matches {' '.join(args.filters)!r}; "
                                    "`paramledger models` lists them all")
    rows = [summarize(m) for m in models]
    if args.sort != "name":  # largest first; a model that could not be counted goes last
        rows.sort(key=lambda s: -(getattr(s, args.sort) or -1))
    if args.json:
        print_json([summary_json(s) for s in rows])
        return 0
    print(_table(rows))
    return 0


def _table(rows) -> str:
    from ..registry import names
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
    out.append(f"{len(rows)} bundled models{'' if len(rows) == len(names()) else f' of {len(names())}'}; "
               "`paramledger count NAME` for the inventory, "
               "`paramledger families NAME...` for seed 002's table")
    out.extend(notes)
    return "\n".join(out)

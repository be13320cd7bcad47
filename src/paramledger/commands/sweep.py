"""paramledger sweep SOURCE --grid KEY=START:STOP:STEP ...: every grid point, exactly."""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import sys
import time
from typing import IO, Any

from ._common import add_source, load_source

SHOWN_ROWS = 20  # the readable table shows this many points; --csv/--json/-o give them all


def register(subparsers: argparse._SubParsersAction) -> None:
    from ..sweep import KV_DEFINITION, MAX_POINTS

    parser = subparsers.add_parser(
        "sweep", help="evaluate a grid of designs exactly and filter it",
        description="Evaluates every point of the grid from the closed form (exact integers, vectorized) "
                    f"and keeps the points --where accepts. Grids above {MAX_POINTS:,} points are refused. "
                    f"Columns: the swept keys, total, embedding, embedding_share, active, kv_bytes_per_token "
                    f"({KV_DEFINITION}).")
    add_source(parser)
    parser.add_argument("--grid", dest="axes", action="append", default=[], metavar="KEY=START:STOP[:STEP]",
                        help="one axis, STOP included; repeatable")
    parser.add_argument("--where", metavar="EXPR",
                        help="keep points where EXPR holds: column names, numbers, comparisons, and/or, + - * / "
                             "(e.g. 'total <= 20e6 and embedding_share < 0.5')")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="write every kept point as CSV")
    form.add_argument("--json", action="store_true", help="write every kept point as a JSON list")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (format from --csv/--json or .csv/.json)")
    parser.add_argument("--plot", metavar="FILE", help="plot total (and embedding share) against the first axis")
    parser.set_defaults(func=run)


class _Progress:
    """A one-line bar on stderr, only on a terminal and only once a sweep takes a moment."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream, self.start, self.shown = stream, time.monotonic(), False

    def __call__(self, done: int, total: int) -> None:
        if not self.stream.isatty() or (not self.shown and time.monotonic() - self.start < 0.5):
            return
        self.shown = True
        width = 30
        filled = width * done // total
        self.stream.write(f"\rsweep [{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} points")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")


def run(args: argparse.Namespace) -> int:
    from .._exceptions import OptionError
    from .._files import output_file
    from ..sweep import compile_where, evaluate, parse_axis, plan

    axes = [parse_axis(text) for text in args.axes]
    output_format = "csv" if args.csv else "json" if args.json else None
    if args.output and output_format is None:
        output_format = {"csv": "csv", "json": "json"}.get(args.output.rsplit(".", 1)[-1].lower())
        if output_format is None:
            raise OptionError("-o", f"cannot tell the format of {args.output!r}: add --csv or --json, or end it "
                                    ".csv or .json")
    if args.plot:
        from ..plots import check_plot_path

        check_plot_path(args.plot)
    p = plan(load_source(args), axes)
    if args.where:
        compile_where(args.where, p.columns)  # refuse a bad expression before any work
    progress = _Progress(sys.stderr)
    keep_all = args.plot is not None  # a table needs only its first rows: a 50M-point grid stays off the heap
    parts: list[dict[str, Any]] = []
    head: list[dict[str, Any]] = []  # the table's first rows when the whole grid is not kept
    points, kept, invalid, python_ints = 0, 0, {}, False
    with contextlib.ExitStack() as stack:
        stack.callback(progress.close)
        out: IO[str] | None = None
        if output_format is not None:  # a file is written whole or not at all (_files.output_file)
            out = stack.enter_context(output_file(args.output, "-o")) if args.output else sys.stdout
        writer = _Writer(out, output_format, p.columns) if out is not None else None
        for chunk in evaluate(p, args.where, progress=progress):
            points += chunk.points
            kept += len(chunk.columns["total"])
            python_ints |= chunk.python_ints
            for reason, count in chunk.invalid.items():
                invalid[reason] = invalid.get(reason, 0) + count
            if writer is not None:
                writer.write(chunk.columns)
            if keep_all:
                parts.append(chunk.columns)
            elif output_format is None and sum(len(part["total"]) for part in head) < SHOWN_ROWS:
                head.append({name: values[:SHOWN_ROWS] for name, values in chunk.columns.items()})
        if writer is not None:
            writer.close()
    summary = _summary(p, points, kept, invalid, python_ints, args.where)
    if output_format is None:
        print(_table(p, parts or head, kept))
        print(summary)
    else:
        print(summary + (f"; written to {args.output}" if args.output else ""), file=sys.stderr)
    if args.plot:
        import numpy as np

        from ..plots import sweep_plot

        columns = {name: np.concatenate([part[name] for part in parts]) for name in p.columns}
        sweep_plot(p, columns, args.plot)
    return 0


class _Writer:
    def __init__(self, out: IO[str], kind: str, columns: tuple[str, ...]) -> None:
        self.out, self.kind, self.columns, self.first = out, kind, columns, True
        if kind == "csv":
            self.csv = csv.writer(out, lineterminator="\n")
            self.csv.writerow(columns)
        else:
            out.write("[")

    def write(self, chunk: dict[str, Any]) -> None:
        rows = zip(*(chunk[name].tolist() for name in self.columns))
        if self.kind == "csv":
            self.csv.writerows(rows)
            return
        for row in rows:
            self.out.write(("\n  " if self.first else ",\n  ") + json.dumps(dict(zip(self.columns, row))))
            self.first = False

    def close(self) -> None:
        if self.kind == "json":
            self.out.write("\n]\n" if not self.first else "]\n")


def _summary(p: Any, points: int, kept: int, invalid: dict[str, int], python_ints: bool, where: str | None) -> str:
    text = f"{points:,} points evaluated ({' × '.join(axis.label for axis in p.axes)})"
    for reason, count in invalid.items():
        text += f"; {count:,} skipped: {reason}"
    if where:
        text += f"; {kept:,} kept by --where {where!r}"
    if python_ints:
        text += "; evaluated in Python integers (beyond int64)"
    for note in p.notes:
        text += f"; note: {note}"
    return text


def _table(p: Any, parts: list[dict[str, Any]], kept: int) -> str:
    from ..render import table

    rows = [p.columns]
    shown = 0
    for part in parts:
        for i in range(len(part["total"])):
            if shown == SHOWN_ROWS:
                break
            rows.append(tuple(f"{part[name][i] * 100:.4f} %" if name == "embedding_share" else f"{part[name][i]:,}"
                              for name in p.columns))
            shown += 1
    text = table(rows, "r" * len(p.columns))
    if kept > shown:
        text += f"\n... {kept - shown:,} more points (use --csv, --json or -o FILE for all of them)"
    return text

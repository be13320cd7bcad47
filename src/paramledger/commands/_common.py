"""Arguments and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._exceptions import OptionError


def add_source(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    parser.add_argument("source", metavar="SOURCE", nargs="?" if optional else None, default=None,
                        help="a bundled design or model name, a spec file (.toml), a config.json or its folder, "
                             "or a hub id org/name[@revision] (its config.json through huggingface_hub)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override an architecture key (HF config names; a model's own key such as GPT-2's n_head "
                             "works too), validated like the file; repeatable")


def parse_overrides(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError("--set", f"expected KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def load_source(args: argparse.Namespace):
    """The command's SOURCE, loaded; fetching a hub id's config.json shows progress on stderr after a
    second, unless the command prints JSON."""
    from .. import load

    if "/" not in str(args.source):  # no hub id: a bundled name imports nothing more
        return load(args.source, **parse_overrides(args.overrides))
    from ..hub.progress import shown

    with shown(not getattr(args, "json", False)):
        return load(args.source, **parse_overrides(args.overrides))


def print_json(value: Any) -> None:
    """Strict JSON (RFC 8259): a NaN or an Infinity is refused in one line, never printed."""
    try:
        text = json.dumps(value, indent=2, allow_nan=False)
    except ValueError:
        raise OptionError("--json", "the result holds a NaN or an infinity, which JSON cannot hold") from None
    sys.stdout.write(text + "\n")

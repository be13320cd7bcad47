"""Arguments and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._exceptions import OptionError
from .._json import indented
from ..cli_numbers import count_type


def add_source(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    parser.add_argument("source", metavar="SOURCE", nargs="?" if optional else None, default=None,
                        help="a bundled design or model name, a spec file (.toml), a config.json or its folder, "
                             "or a hub id org/name[@revision] (its config.json through huggingface_hub)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override an architecture key (HF config names; a model's own key such as GPT-2's n_head "
                             "works too), validated like the file; repeatable")
    parser.add_argument("--text-only", action="store_true",
                        help="a multimodal model's text decoder alone, as its own family counts it (default: the "
                             "whole model, its vision tower and projector too)")


def add_weight_options(parser: argparse.ArgumentParser) -> None:
    """--dtype and --keep, as memory and fit take them."""
    parser.add_argument("--dtype", default=None, metavar="D",
                        help="weight format: fp32, fp16, bf16, fp8_e4m3, fp8_e5m2, int8, int4, int4_asym, nf4, "
                             "nf4_dq, fp4, mxfp4, mxfp6_e2m3, mxfp6_e3m2, mxfp8_e4m3, or a GGUF mixture as llama-quantize "
                             "makes it (Q4_K_M, Q5_K_M, Q8_0, IQ4_XS, ...) (default: as the config "
                             "stores them, its quantization_config and torch_dtype; bf16 for a design of our own)")
    parser.add_argument("--keep", action="append", default=[], metavar="COMPONENT=DTYPE",
                        help="keep a component (embedding, norm, lm_head, experts, ..., or vectors: norms, "
                             "biases and other 1-D tensors) at another dtype; repeatable, a later rule "
                             "overriding an earlier one")


def add_cache_options(parser: argparse.ArgumentParser, kv_default: str, *, batch: bool = True) -> None:
    """--kv-dtype, --context (and --batch): the names, types and defaults memory, fit and report share; the
    library checks the values."""
    parser.add_argument("--kv-dtype", default=None, metavar="D", help=f"KV cache format (default: {kv_default})")
    parser.add_argument("--context", type=count_type("--context", "tokens"), default=None, metavar="N",
                        help="tokens per sequence, 128k is 128,000 (default: max_position_embeddings)")
    if batch:
        parser.add_argument("--batch", type=count_type("--batch", "sequences"), default=1, metavar="B",
                            help="sequences (default 1)")


def parse_overrides(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError("--set", f"expected KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def load_source(args: argparse.Namespace):
    """The command's SOURCE, loaded (its text decoder alone with --text-only); fetching a hub id's config.json
    shows progress on stderr after a second, unless the command prints JSON."""
    from .. import load

    if "/" not in str(args.source):  # no hub id: a bundled name imports nothing more
        arch = load(args.source, **parse_overrides(args.overrides))
    else:
        from ..hub.progress import shown

        with shown(not getattr(args, "json", False)):
            arch = load(args.source, **parse_overrides(args.overrides))
    if getattr(args, "text_only", False):
        from ..towers import text_only

        return text_only(arch)
    return arch


def print_json(value: Any) -> None:
    """Strict JSON (RFC 8259): a NaN or an Infinity is refused in one line, never printed.  Checked whole by the
    C encoder first, then written indented in batches: a design's per-layer lists at 10^6 layers are millions of
    chunks, which joined into one string held 400 MB; each long list of scalars is one line (_json.py)."""
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        raise OptionError("--json", "the result holds a NaN or an infinity, which JSON cannot hold") from None
    for piece in indented(value):
        sys.stdout.write(piece)
    sys.stdout.write("\n")

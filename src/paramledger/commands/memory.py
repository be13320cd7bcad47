"""paramledger memory SOURCE: weight bytes, KV cache, active parameters, FLOPs, training memory."""

from __future__ import annotations

import argparse

from ..cli_numbers import count_type
from ._common import add_cache_options, add_source, add_weight_options, load_source, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "memory", help="bytes of the weights and the KV cache, FLOPs per token, training memory",
        description="Weight bytes by dtype (with quantization scales), the KV cache by context and batch, "
                    "active parameters, forward FLOPs per token and training memory, from the exact inventory.")
    add_source(parser)
    add_weight_options(parser)
    add_cache_options(parser, "--dtype when it is fp32/fp16/bf16/fp8/int8, else bf16")
    parser.add_argument("--group-size", type=int, default=None, metavar="G",
                        help="values per quantization scale for --dtype (int4: 128, nf4: 64, mxfp4: 32)")
    parser.add_argument("--training", default=None, metavar="RECIPE",
                        help="training memory for a recipe: fp32-adam, bf16-mixed-adam, fp16-mixed-adam")
    parser.add_argument("--zero", type=int, default=None, metavar="STAGE", help="ZeRO stage 1, 2 or 3 (with --devices)")
    parser.add_argument("--devices", type=int, default=None, metavar="N", help="devices ZeRO shards over")
    parser.add_argument("--tokens", type=count_type("--tokens", "tokens"), default=None, metavar="D",
                        help="training tokens for 6·N·D (2T, 15e12)")
    parser.add_argument("--images", type=count_type("--images", "images"), default=0, metavar="N",
                        help="a multimodal model's images in each sequence: their decoder tokens join --context "
                             "(Gemma 3's 256 each, LLaVA's patch grid, Qwen2-VL's from --image)")
    parser.add_argument("--image", type=_image_size, default=None, metavar="WxH",
                        help="the images' size in pixels, where their token count follows it (Qwen2-VL)")
    parser.add_argument("--encoder-length", type=count_type("--encoder-length", "tokens"), default=None, metavar="N",
                        help="a decoder's cross-attention cache of an N-token encoder input (BART's, Whisper's "
                             "decoder), fixed by N whatever the context; in the total and the FLOPs")
    parser.add_argument("--flops", action="store_true",
                        help="add the forward FLOPs per token at --context (memory --json always holds them)")
    parser.add_argument("--lora", metavar="ADAPTER",
                        help="a LoRA adapter on the model (adapter_config.json, its folder, or r=16,target_modules="
                             "q_proj+v_proj): the frozen base at --dtype (nf4/int8: QLoRA), the adapter at the "
                             "recipe's format, gradients and optimizer states for the trainable tensors only")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import inventory
    from ..memory import memory_report
    from ..memory_text import report_json, report_text

    inv = inventory(load_source(args))
    report_of = memory_report
    if args.lora is not None:
        from ..adapters import lora_inventory
        from ..adapters.memory import lora_memory_report

        inv, report_of = lora_inventory(inv, args.lora), lora_memory_report
        args.dtype = args.dtype or "bf16"  # a LoRA's frozen base: --dtype, bf16 unless given
    report = report_of(
        inv, dtype=args.dtype, kv_dtype=args.kv_dtype, context=args.context,
        batch=args.batch, keep=args.keep, group_size=args.group_size, training=args.training,
        zero_stage=args.zero, devices=args.devices, tokens=args.tokens, images=args.images, image_size=args.image,
        **({"encoder_length": args.encoder_length} if args.encoder_length is not None else {}),
    )
    if args.json:
        print_json(report_json(report))
    else:
        print(report_text(report, flops=args.flops))
    return 0


def _image_size(text: str) -> tuple[int, int]:
    """WxH in pixels, each a whole number from 1 to 100,000."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit() or not (0 < int(width) <= 100_000 and
                                                                       0 < int(height) <= 100_000):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT in pixels (1 to 100,000 each), got {text[:40]!r}")
    return int(width), int(height)

"""paramledger fit SOURCE: will it fit on one GPU or many (exit 0 fits, 1 does not, 2 bad input)."""

from __future__ import annotations

import argparse

from ..cli_numbers import SIZE_UNITS_TEXT, count_type, size_type
from ._common import add_cache_options, add_source, add_weight_options, load_source, print_json


def _partition(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected layers per stage like 27,27,26, got {text!r}") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    from ..fit.overhead import CUDA_CONTEXT, CUDA_GRAPHS, GPU_MEMORY_UTILIZATION, NON_TORCH

    parser = subparsers.add_parser(
        "fit", help="will it fit: weights, KV cache and runtime overhead per device, as vLLM shards them",
        description="Per device: weights, KV cache (paged) and recurrent state, runtime overhead, total; the "
                    "verdict; the largest context and batch that fit; what would make it fit.  Exit 0 when it "
                    f"fits, 1 when it does not.  Sizes: {SIZE_UNITS_TEXT}.")
    add_source(parser)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--gpu", metavar="NAME", help="a GPU from the catalog (h100, h200, b200, a100-80gb, "
                                                     "a100-40gb, l40s, l4, rtx-3090, rtx-4090, rtx-5090, mi300x, "
                                                     "apple-128gb, ...)")
    where.add_argument("--gpu-memory", type=size_type("--gpu-memory"), metavar="SIZE",
                       help="memory per device: 24GB (24 × 10⁹ bytes) or 24GiB (24 × 2³⁰)")
    parser.add_argument("--gpus", type=count_type("--gpus", "devices"), metavar="N",
                        help="devices (default tp × pp; alone it means --tp N)")
    parser.add_argument("--tp", type=count_type("--tp", "devices"), metavar="N", help="tensor-parallel devices")
    parser.add_argument("--pp", type=count_type("--pp", "stages"), metavar="N", help="pipeline stages")
    parser.add_argument("--ep", type=count_type("--ep", "devices"), metavar="N",
                        help="expert parallelism: 1 or --tp (vLLM's --enable-expert-parallel)")
    parser.add_argument("--pp-layer-partition", type=_partition, metavar="L,L,...",
                        help="layers per stage, as vLLM's VLLM_PP_LAYER_PARTITION")
    add_weight_options(parser)
    add_cache_options(parser, "--dtype when it is one, else bf16")
    parser.add_argument("--training", default=None, metavar="RECIPE",
                        help="fit training instead: fp32-adam, bf16-mixed-adam, fp16-mixed-adam (with --zero)")
    parser.add_argument("--zero", type=int, default=None, metavar="STAGE", help="ZeRO stage 1, 2 or 3 over --gpus")
    parser.add_argument("--lora", metavar="ADAPTER", help="train a LoRA adapter (as memory --lora), with --training")
    parser.add_argument("--block-size", type=count_type("--block-size", "tokens"), default=16, metavar="N",
                        help="KV cache block in tokens (default 16, vLLM's CacheConfig.DEFAULT_BLOCK_SIZE)")
    parser.add_argument("--gpu-memory-utilization", default=str(float(GPU_MEMORY_UTILIZATION)), metavar="F",
                        help=f"vLLM's budget share (default {float(GPU_MEMORY_UTILIZATION)}, vLLM 0.33.0)")
    parser.add_argument("--cuda-context", type=size_type("--cuda-context"), default=CUDA_CONTEXT, metavar="SIZE",
                        help=f"CUDA context, inside the reserve (default {CUDA_CONTEXT // 2**20} MiB)")
    parser.add_argument("--non-torch-memory", type=size_type("--non-torch-memory"), default=NON_TORCH,
                        metavar="SIZE", help=f"cuBLAS/NCCL workspaces (default {NON_TORCH // 2**20} MiB)")
    parser.add_argument("--cuda-graphs", type=size_type("--cuda-graphs"), default=CUDA_GRAPHS, metavar="SIZE",
                        help=f"CUDA graphs (default {CUDA_GRAPHS // 2**20} MiB)")
    parser.add_argument("--activation-memory", type=size_type("--activation-memory"), default=None,
                        metavar="SIZE", help="activation peak per device (default: estimated from the design)")
    parser.add_argument("--max-batched-tokens", type=count_type("--max-batched-tokens", "tokens"), default=None,
                        metavar="N", help="vLLM's max_num_batched_tokens (default: vLLM's for the device)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import inventory
    from ..cli_numbers import parse_share
    from ..fit import fit_plan, plan_json, plan_text

    utilization = parse_share(args.gpu_memory_utilization, "--gpu-memory-utilization")
    plan = fit_plan(
        inventory(load_source(args)), gpu=args.gpu, gpu_memory=args.gpu_memory, gpus=args.gpus, tp=args.tp,
        pp=args.pp, ep=args.ep, dtype=args.dtype, kv_dtype=args.kv_dtype, keep=args.keep, context=args.context,
        batch=args.batch, training=args.training, zero=args.zero, lora=args.lora, block_size=args.block_size,
        gpu_memory_utilization=utilization,
        cuda_context=args.cuda_context, non_torch=args.non_torch_memory, cuda_graphs=args.cuda_graphs,
        activation_memory=args.activation_memory, max_batched_tokens=args.max_batched_tokens,
        layer_partition=args.pp_layer_partition)
    if args.json:
        print_json(plan_json(plan))
    else:
        print(plan_text(plan))
    return 0 if plan.fits else 1

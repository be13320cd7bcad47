"""GPUs by name, each with the memory a program can allocate on it and where that figure comes from.

A vendor's "80 GB" is not 80 × 10⁹ bytes, nor what a program gets: the H100's five active HBM3 stacks hold
80 GiB (85.9 × 10⁹ bytes), and nvidia-smi reports 81,559 MiB (85.52 × 10⁹) after what the driver keeps back.
We size every NVIDIA card by nvidia-smi's total (``memory.total``, in MiB), the figure closest to CUDA's own
total (cudaMemGetInfo, what vLLM multiplies by gpu_memory_utilization; it may be a few hundred MiB lower, which
we have not measured).  Where no nvidia-smi line was at hand, the figure is the vendor's and says so.
Apple's unified memory is sold in GB that are GiB (a "128GB" Mac reports hw.memsize 137,438,953,472 bytes);
Metal lets the GPU use only part of it (recommendedMaxWorkingSetSize, about 75% by default), not modelled:
give --gpu-memory for the working set you set.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._exceptions import OptionError, did_you_mean

MiB = 2**20
GiB = 2**30


@dataclass(frozen=True, slots=True)
class GPU:
    name: str  # the catalog key, lower case
    label: str  # what the vendor calls it
    memory_bytes: int  # what we size the card by
    vendor_figure: str  # what the vendor advertises
    source: str  # where memory_bytes comes from


def _smi(mib: int) -> int:
    return mib * MiB


GPUS: dict[str, GPU] = {g.name: g for g in (
    GPU("h100", "NVIDIA H100 80GB HBM3 (SXM)", _smi(81559), "80 GB HBM3",
        "nvidia-smi 81559MiB (NVIDIA/nccl#1264, modal-labs/modal-client#2797)"),
    GPU("h200", "NVIDIA H200 141GB HBM3e", _smi(143771), "141 GB HBM3e",
        "nvidia-smi 143771MiB (as reported on H200 SXM nodes; not checked against a log here)"),
    GPU("b200", "NVIDIA B200", _smi(183359), "180 GB HBM3e (192 GB physical)",
        "nvidia-smi 183359MiB (NVIDIA/TensorRT-LLM#10278)"),
    GPU("a100-80gb", "NVIDIA A100 80GB", _smi(81920), "80 GB HBM2e",
        "nvidia-smi 81920MiB (modal-labs/modal-client#2797)"),
    GPU("a100-40gb", "NVIDIA A100 40GB", _smi(40960), "40 GB HBM2",
        "nvidia-smi 40960MiB (modal-labs/modal-client#2797)"),
    GPU("l40s", "NVIDIA L40S", _smi(46068), "48 GB GDDR6",
        "nvidia-smi 46068MiB (modal-labs/modal-client#2797)"),
    GPU("l4", "NVIDIA L4", _smi(23034), "24 GB GDDR6",
        "nvidia-smi 23034MiB (modal-labs/modal-client#2797)"),
    GPU("rtx-3090", "NVIDIA GeForce RTX 3090", _smi(24576), "24 GB GDDR6X",
        "nvidia-smi 24576MiB (24 GiB of GDDR6X, no ECC reserve; not checked against a log here)"),
    GPU("rtx-4090", "NVIDIA GeForce RTX 4090", _smi(24564), "24 GB GDDR6X",
        "nvidia-smi 24564MiB (vllm-project/vllm#7768)"),
    GPU("rtx-5090", "NVIDIA GeForce RTX 5090", _smi(32607), "32 GB GDDR7",
        "nvidia-smi 32607MiB (noonghunna/club-3090#617)"),
    GPU("mi300x", "AMD Instinct MI300X", 8 * 25767706624, "192 GB HBM3",
        "8 CPX partitions of 25,767,706,624 bytes each (kfd mem_banks size_in_bytes, "
        "ROCm/legacy-rocm-build#4750)"),
    *(GPU(f"apple-{size}gb", f"Apple silicon, {size} GB unified memory", size * GiB, f"{size}GB unified memory",
          f"Apple's {size}GB = {size} GiB (hw.memsize); the GPU's Metal working set is smaller (about 75% by "
          "default), not modelled")
      for size in (16, 24, 32, 36, 48, 64, 96, 128, 192, 256, 512)),
)}

ALIASES = {"h100-80gb": "h100", "h100-sxm": "h100", "h200-141gb": "h200", "a100": "a100-80gb", "3090": "rtx-3090",
           "4090": "rtx-4090", "5090": "rtx-5090", "rtx3090": "rtx-3090", "rtx4090": "rtx-4090",
           "rtx5090": "rtx-5090", "l40-s": "l40s"}


def get_gpu(name: str) -> GPU:
    """The catalog entry called ``name`` (case and spaces ignored: "H100", "RTX 4090", "a100-80gb")."""
    key = "-".join(str(name).strip().lower().replace("_", "-").split())
    key = ALIASES.get(key, key)
    if key not in GPUS:
        raise OptionError("--gpu", f"unknown GPU {name!r}{did_you_mean(key, [*GPUS, *ALIASES])}; "
                                   f"one of {', '.join(GPUS)} (or give --gpu-memory SIZE)")
    return GPUS[key]

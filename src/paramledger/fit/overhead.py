"""Runtime overhead: every figure an assumption with its default and its source, each its own option.

vLLM's budget (vllm/v1/worker/utils.py request_memory): ``ceil(total_memory × gpu_memory_utilization)``; the
rest is the reserve, and the memory already taken on the device at start (the CUDA context) must fit in it, or
vLLM refuses to start ("Free memory on device ... is less than desired GPU memory utilization").  Inside the
budget (vllm/v1/worker/gpu_worker.py determine_available_memory): the weights, the peak activation memory of a
profile run at max_num_batched_tokens, the non-torch memory that run adds (cuBLAS and NCCL workspaces), the
CUDA graphs' estimate (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS, on since v0.21.0), and the KV cache in what
is left.  So a device's total is weights + KV cache + activations + non-torch + CUDA graphs + reserve.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .._exceptions import OptionError
from ..architecture import Architecture
from .catalog import GiB, MiB

GPU_MEMORY_UTILIZATION = Fraction(92, 100)
UTILIZATION_SOURCE = ("vLLM 0.33.0 CacheConfig.gpu_memory_utilization default 0.92 (vllm/config/cache.py; "
                      "0.9 up to the v0.6 series)")
CUDA_CONTEXT = 500 * MiB
CUDA_CONTEXT_SOURCE = ("our assumption: what an idle CUDA/PyTorch process holds (about 500 MiB on recent "
                       "GPUs); it must fit in the reserve (vllm/v1/worker/utils.py request_memory)")
NON_TORCH = 400 * MiB
NON_TORCH_SOURCE = ("vLLM's log 'non_torch_memory takes 0.33GiB' / '0.39GiB' on one GPU (vllm-project/vllm#14452, "
                    "#11251); NCCL adds more with tp > 1, not modelled")
CUDA_GRAPHS = 512 * MiB
CUDA_GRAPHS_SOURCE = ("vLLM's log 'Estimated CUDA graph memory: 0.36 GiB' / '0.58 GiB' (gpustack/runner#251, "
                      "wtdcode/vllm-backport#34); 0 with --enforce-eager")
ACTIVATION_SOURCE = ("our estimate per device: max_num_batched_tokens × (2 × hidden_size + the widest layer "
                     "output: q, k, v and attention output, or 3 × the FFN width / tp) × 2 bytes, plus the sampler's "
                     "fp32 logits and probabilities for max_num_seqs sequences on the last stage; below vLLM's "
                     "measured 'PyTorch activation peak memory' (give that with --activation-memory)")
ACTIVATION_BYTES = 2  # bf16 activations
LOGITS_BYTES = 4  # the sampler's logits in fp32


def default_max_batched_tokens(memory_bytes: int, gpu_label: str = "") -> int:
    """vllm/engine/arg_utils.py EngineArgs.get_batch_defaults for `vllm serve` (OPENAI_API_SERVER): 16384 from
    160 GiB, 8192 from 70 GiB except A100s, else 2048."""
    if memory_bytes >= 160 * GiB:
        return 16384
    if memory_bytes >= 70 * GiB and "a100" not in gpu_label.lower():
        return 8192
    return 2048


def default_max_num_seqs(memory_bytes: int, gpu_label: str = "") -> int:
    """The same function's max_num_seqs: 1024 on the large tiers, else 256."""
    return 1024 if default_max_batched_tokens(memory_bytes, gpu_label) > 2048 else 256


@dataclass(frozen=True)
class Overhead:
    gpu_memory_utilization: Fraction
    cuda_context: int
    non_torch: int
    cuda_graphs: int
    activation: int | None  # None: estimated (activation_bytes)
    max_batched_tokens: int | None  # None: vLLM's default for the device
    max_num_seqs: int | None = None

    def __post_init__(self) -> None:
        if not 0 < self.gpu_memory_utilization <= 1:
            shown = self.gpu_memory_utilization  # a Fraction; 1e400 has no float (the input fuzzer's OverflowError)
            shown = float(shown) if abs(shown) < 10**300 else f"{'-' if shown < 0 else ''}a number past 1e300"
            raise OptionError("--gpu-memory-utilization", f"must be in (0, 1], got {shown}")
        for option, value in (("--cuda-context", self.cuda_context), ("--non-torch-memory", self.non_torch),
                              ("--cuda-graphs", self.cuda_graphs), ("--activation-memory", self.activation)):
            if value is not None and value < 0:
                raise OptionError(option, f"must be 0 or more bytes, got {value}")
        if self.max_batched_tokens is not None and self.max_batched_tokens < 1:
            raise OptionError("--max-batched-tokens", f"must be at least 1, got {self.max_batched_tokens}")

    def budget(self, memory_bytes: int) -> int:
        """vLLM's requested_memory: ceil(total × utilization)."""
        return -(-memory_bytes * self.gpu_memory_utilization.numerator // self.gpu_memory_utilization.denominator)


def activation_bytes(arch: Architecture, tokens: int, tp: int, last_stage: bool, num_seqs: int) -> int:
    """An estimate of the profile run's activation peak on one device, from the design: for each of ``tokens``
    tokens, the residual stream and its normed copy (2 × hidden_size) plus the widest layer output held at once
    per device, the attention's q, k, v and output or the FFN's gate, up and their product (3 × the FFN width,
    num_experts_per_tok × moe_intermediate_size for the experts), at 2 bytes; on the last stage the sampler's
    fp32 logits and probabilities for ``num_seqs`` sequences over the vocabulary per device.  torch's allocator
    and kernels' workspaces hold more: vLLM logs its measured 'PyTorch activation peak memory'; give it with
    --activation-memory."""
    head_dim = arch.attention_head_dim
    attention = (2 * arch.num_attention_heads + 2 * max(1, arch.kv_heads // tp) * tp) * head_dim // tp
    ffn = max(arch.intermediate_size or 0, (arch.num_experts_per_tok or 0) * (arch.moe_intermediate_size or 0))
    per_token = 2 * arch.hidden_size + max(attention, 3 * -(-ffn // tp))
    total = tokens * per_token * ACTIVATION_BYTES
    if last_stage:
        total += 2 * min(num_seqs, tokens) * -(-arch.vocab_size // tp) * LOGITS_BYTES
    return total

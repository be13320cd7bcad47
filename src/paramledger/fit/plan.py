"""Will it fit: each device's weights, KV cache, recurrent state and runtime overhead, for inference as vLLM
shards it (sharding.py, cache.py, overhead.py) or for training as training.py's recipes and ZeRO size it."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .._exceptions import OptionError
from ..dtypes import KV_DTYPES, get_dtype, tensor_bytes
from ..inventory import Inventory
from .cache import DEFAULT_BLOCK_SIZE, StageCache, stage_caches
from .catalog import GPU, GPUS, get_gpu
from .overhead import (CUDA_CONTEXT, CUDA_GRAPHS, GPU_MEMORY_UTILIZATION, NON_TORCH, Overhead, activation_bytes,
                       default_max_batched_tokens, default_max_num_seqs)
from ._rows import count_of as _count, per_tensor as _per_tensor, placed_tensors
from .sharding import EXPERT_OWN, Parallel, Rules, check_parallel, pipeline_stages, shard_shape
from .towers import ABSENT, TOWER_ROWS
from .vllm_registry import not_run_note, retired_note


@dataclass(frozen=True)
class Device:
    stage: int
    tp_rank: int
    layers: tuple[int, int]  # [start, end) of the layers it holds
    memory_bytes: int
    weights_bytes: int
    kv_cache_bytes: int
    recurrent_state_bytes: int
    activation_bytes: int
    non_torch_bytes: int
    cuda_graphs_bytes: int
    reserve_bytes: int  # what gpu_memory_utilization leaves; the CUDA context sits in it
    gradients_bytes: int = 0  # training only
    optimizer_bytes: int = 0

    @property
    def overhead_bytes(self) -> int:
        return self.activation_bytes + self.non_torch_bytes + self.cuda_graphs_bytes + self.reserve_bytes

    @property
    def total_bytes(self) -> int:
        return (self.weights_bytes + self.kv_cache_bytes + self.recurrent_state_bytes + self.gradients_bytes
                + self.optimizer_bytes + self.overhead_bytes)

    @property
    def fits(self) -> bool:
        return self.total_bytes <= self.memory_bytes


@dataclass(frozen=True)
class FitPlan:
    source: str | None
    gpu: GPU | None
    memory_bytes: int
    parallel: Parallel
    dtype: str
    kv_dtype: str
    context: int
    batch: int
    block_size: int
    overhead: Overhead  # resolved: activation and max_batched_tokens filled in
    devices: tuple[Device, ...]
    fits: bool
    reasons: tuple[str, ...]  # why not, beyond a device over its memory
    max_context: int | None  # None: training (activations not modelled)
    max_context_limit: str | None  # "memory" or "max_position_embeddings"
    max_batch: int | None  # None: no growth with the batch, or training
    suggestions: tuple[str, ...]
    weights_bytes: int  # the whole model once
    weights_extra: dict[str, int]  # what the devices hold beyond it, by cause
    unclassified: tuple[str, ...]  # tensors with no rule, held whole on every device
    training: str | None = None
    notes: tuple[str, ...] = ()
    weights_format: str = ""  # what the weights were sized as (memory.WeightBytes.assumed: as stored, or --dtype)
    not_loaded: tuple[tuple[str, int, str], ...] = ()  # (component, bytes, vLLM's source): held by no device
    towers: bool = False  # a whole multimodal model's towers placed as vLLM places them (towers.py)


class _Setup:
    """What every variant of one plan shares: the inventory, its rules and the figures already priced."""

    def __init__(self, inv: Inventory) -> None:
        from .. import families

        arch = inv.architecture
        if arch is None:
            raise OptionError("source", "fit needs the architecture (layers, heads), not a bare tensor list")
        self.inv, self.arch = inv, arch
        self.naming = families.naming_of(arch)
        self.rules = Rules(inv, self.naming)
        self._weights: dict[Any, Any] = {}
        self._caches: dict[Any, list[StageCache]] = {}

    def priced(self, dtype: str | None, keep: tuple[str, ...]) -> Any:
        key = (dtype, keep)
        if key not in self._weights:
            from ..memory import weight_bytes

            # dtype None: as the checkpoint stores them (its quantization_config and dtype)
            self._weights[key] = weight_bytes(self.inv, dtype, keep=list(keep) or None)
        return self._weights[key]

    def device_weights(self, dtype: str | None, keep: tuple[str, ...], parallel: Parallel) -> tuple:
        key = ("devices", dtype, keep, parallel)
        if key not in self._weights:
            self._weights[key] = _device_weights(self, self.priced(dtype, keep), parallel)
        return self._weights[key]

    def caches(self, kv_dtype: str, parallel: Parallel) -> list[StageCache]:
        key = (kv_dtype, parallel.tp, parallel.pp, parallel.layer_partition)
        if key not in self._caches:
            stages = pipeline_stages(self.arch.num_hidden_layers, parallel.pp, parallel.layer_partition)
            self._caches[key] = stage_caches(self.arch, kv_dtype, parallel.tp, stages)
        return self._caches[key]


@functools.cache
def _named_dtype(name: str) -> Any:
    """get_dtype(name), or None for a stored format dtypes.py does not name ("stored"): once per name, as its
    refusal builds a did-you-mean with difflib (per shard, 9 of the 10 s of fit DeepSeek-V3 --gpu l4 --tp 64)."""
    try:
        return get_dtype(name)
    except OptionError:
        return None


def _shard_bytes(tb: Any, shape: tuple[int, ...], priced: Any, parallel: Parallel) -> int:
    if shape == tuple(tb.shape):
        return tb.bytes
    dtype = _named_dtype(tb.dtype)
    if dtype is None:  # a stored format dtypes.py does not name: its bytes in proportion
        whole, part = _count(tb.shape), _count(shape)
        return -(-tb.bytes * part // whole) if whole else 0
    try:
        return tensor_bytes(dtype, shape, priced.group_size if tb.dtype == priced.dtype else None, tb.name)
    except OptionError as error:
        raise OptionError("--tp", f"the shard {shape} of {tb.name} at --tp {parallel.tp}: {error}; vLLM refuses a "
                                  "quantization group split across devices") from None


def _device_weights(setup: _Setup, priced: Any, parallel: Parallel,
                    grouped: bool | None = None) -> tuple[list[list[int]], dict[str, int], dict[str, int]]:
    """Bytes on each device ([stage][rank]), what they hold beyond the whole model, by cause, and what vLLM does
    not load, by component (towers.py; ``grouped``: each kind of layer placed once, as past GROUPED_PAST layers;
    None: by the depth)."""
    arch, rules = setup.arch, setup.rules
    rules.unclassified.clear()
    if rules.towers is not None:
        rules.towers.tp, rules.towers.pp = parallel.tp, parallel.pp
    stages = pipeline_stages(arch.num_hidden_layers, parallel.pp, parallel.layer_partition)
    tp = parallel.tp
    held = [[0] * tp for _ in stages]
    extra = {"replicated tensors": 0, "replicated KV heads": 0, "vocabulary padding": 0,
             "tied table's copy on the last stage": 0}
    tied_copy = bool(setup.inv.aliases) and parallel.pp > 1
    left: dict[str, int] = {}
    for t, tb, where in placed_tensors(setup.inv, setup.naming, priced, stages, _per_tensor, grouped):
        rule = rules.rule(t)
        if rule[0] == ABSENT:  # a component vLLM never builds (Qwen2.5-Omni's talker): on no device
            label = rules.towers.absent_label(t.name)
            left[label] = left.get(label, 0) + tb.bytes * sum(times for _, times in where)
            continue
        copy = tied_copy and rule[0] == "vocab" and t.component == "embedding"
        if copy:
            where = [(0, 1), (len(stages) - 1, 1)]
        per_rank = [shard_shape(t, rule, arch, parallel, 0)] * tp
        if rule[0] in ("experts", EXPERT_OWN) and parallel.expert_parallel:
            per_rank = [shard_shape(t, rule, arch, parallel, rank) for rank in range(tp)]
        sizes = [_shard_bytes(tb, shape, priced, parallel) for shape in per_rank]
        for stage, times in where:
            for rank in range(tp):
                held[stage][rank] += times * sizes[rank]
        if copy:
            extra["tied table's copy on the last stage"] += sum(sizes)
        # one stage's copy beyond the tensor itself, in every layer that holds it
        beyond = (sum(sizes) - tb.bytes) * (1 if copy else sum(times for _, times in where))
        if rule[0] == "replicated" or rule == (EXPERT_OWN, None) and not parallel.expert_parallel:  # (its fc2 bias)
            extra["replicated tensors"] += beyond
        elif rule[0] in ("kv", "qkv", TOWER_ROWS):
            extra["replicated KV heads"] += beyond
        elif rule[0] == "vocab":
            extra["vocabulary padding"] += beyond
    buffers = priced.by_component.get("buffers", 0)  # RoPE's inv_freq and kin: every device builds its own
    if left and rules.towers is not None:  # a component vLLM does not build registers none
        for row in priced.tensors:
            if row.component == "buffers" and rules.towers.never_loaded(row.name):
                label = rules.towers.absent_label(row.name)
                left[label] = left.get(label, 0) + row.bytes
                buffers -= row.bytes
    for row in held:
        for rank in range(tp):
            row[rank] += buffers
    extra["replicated tensors"] += buffers * (len(stages) * tp - 1)
    return held, extra, left


_KV_SMALLER = ("fp8_e4m3",)
_WEIGHTS_SMALLER = ("fp8_e4m3", "int4")


def fit_plan(source: Inventory | str, *, gpu: str | None = None, gpu_memory: int | None = None,
             gpus: int | None = None, tp: int | None = None, pp: int | None = None, ep: int | None = None,
             dtype: str | None = None, kv_dtype: str | None = None, keep: list[str] | None = None,
             context: int | None = None, batch: int = 1, training: str | None = None, zero: int | None = None,
             lora: str | None = None, block_size: int = DEFAULT_BLOCK_SIZE,
             gpu_memory_utilization: float | Fraction | str = GPU_MEMORY_UTILIZATION, cuda_context: int = CUDA_CONTEXT,
             non_torch: int = NON_TORCH, cuda_graphs: int = CUDA_GRAPHS, activation_memory: int | None = None,
             max_batched_tokens: int | None = None, layer_partition: tuple[int, ...] | None = None,
             suggest: bool = True) -> FitPlan:
    """Whether ``source`` fits on ``gpus`` devices of ``gpu`` (a catalog name) or ``gpu_memory`` bytes each."""
    from .. import inventory

    inv = source if isinstance(source, Inventory) else inventory(source)
    if (gpu is None) == (gpu_memory is None):
        raise OptionError("--gpu", "give either --gpu NAME or --gpu-memory SIZE")
    chosen = get_gpu(gpu) if gpu is not None else None
    memory = chosen.memory_bytes if chosen else gpu_memory
    if isinstance(memory, bool) or not isinstance(memory, int) or memory <= 0:
        raise OptionError("--gpu-memory", f"must be more than 0 bytes, got {memory!r}")
    parallel = _parallel(gpus, tp, pp, ep, layer_partition, training is not None)
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
        raise OptionError("--block-size", f"must be a whole number of at least 1, got {block_size!r}")
    overhead = Overhead(Fraction(str(gpu_memory_utilization)) if not isinstance(gpu_memory_utilization, Fraction)
                        else gpu_memory_utilization, cuda_context, non_torch, cuda_graphs, activation_memory,
                        max_batched_tokens)
    setup = _Setup(inv)
    if lora is not None or training is not None:
        return _training_plan(setup, chosen, memory, parallel, dtype, keep, training, zero, lora, overhead)
    check_parallel(setup.arch, parallel)
    config = _Config(chosen, memory, parallel, dtype, tuple(keep or ()), kv_dtype, context, batch, block_size,
                     overhead)
    return _inference_plan(setup, config, suggest)


def _parallel(gpus: int | None, tp: int | None, pp: int | None, ep: int | None,
              layer_partition: tuple[int, ...] | None, training: bool) -> Parallel:
    for option, value in (("--gpus", gpus), ("--tp", tp), ("--pp", pp), ("--ep", ep)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise OptionError(option, f"must be a whole number of at least 1, got {value!r}")
    if training:
        if (tp or 1) > 1 or (pp or 1) > 1 or (ep or 1) > 1:
            raise OptionError("--training", "training fit shards by ZeRO over --gpus (--zero STAGE), not --tp/--pp/--ep")
        return Parallel(tp=gpus or 1)  # tp carries the device count for ZeRO
    if tp is None and pp is None:
        tp = gpus or 1
    tp, pp = tp or 1, pp or 1
    if gpus is not None and gpus != tp * pp:
        raise OptionError("--gpus", f"{gpus} devices, but --tp {tp} × --pp {pp} = {tp * pp} (data-parallel "
                                    "replicas are not modelled: each would hold the same)")
    if ep not in (None, 1, tp):
        raise OptionError("--ep", f"vLLM's expert parallelism spans the tensor-parallel devices (--enable-expert-"
                                  f"parallel: ep = tp = {tp}; fused_moe/config.py FusedMoEParallelConfig.make), "
                                  f"not {ep}")
    return Parallel(tp, pp, ep is not None and ep > 1, tuple(layer_partition) if layer_partition else None)


@dataclass(frozen=True)
class _Config:
    gpu: GPU | None
    memory: int
    parallel: Parallel
    dtype: str | None
    keep: tuple[str, ...]
    kv_dtype: str | None
    context: int | None
    batch: int
    block_size: int
    overhead: Overhead


def _devices(setup: _Setup, config: _Config, kv_dtype: str, context: int, batch: int) -> tuple[Device, ...]:
    parallel, overhead, arch = config.parallel, config.overhead, setup.arch
    held, *_ = setup.device_weights(config.dtype, config.keep, parallel)
    caches = setup.caches(kv_dtype, parallel)
    stages = pipeline_stages(arch.num_hidden_layers, parallel.pp, parallel.layer_partition)
    label = config.gpu.label if config.gpu else ""
    tokens = overhead.max_batched_tokens or default_max_batched_tokens(config.memory, label)
    seqs = overhead.max_num_seqs or default_max_num_seqs(config.memory, label)
    reserve = config.memory - overhead.budget(config.memory)
    out = []
    for stage, (layers, cache) in enumerate(zip(stages, caches)):
        last = stage == len(stages) - 1
        act = overhead.activation if overhead.activation is not None else activation_bytes(
            arch, tokens, parallel.tp, last, seqs)
        kv = cache.bytes(context, batch, config.block_size, parallel.pp * tokens)
        for rank in range(parallel.tp):
            out.append(Device(stage, rank, layers, config.memory, held[stage][rank], kv, cache.state_bytes(batch),
                              act, overhead.non_torch, overhead.cuda_graphs, reserve))
    return tuple(out)


def _fits(devices: tuple[Device, ...], config: _Config) -> bool:
    reserve = config.memory - config.overhead.budget(config.memory)
    return all(d.fits for d in devices) and config.overhead.cuda_context <= reserve


def _inference_plan(setup: _Setup, config: _Config, suggest: bool) -> FitPlan:
    arch = setup.arch
    priced = setup.priced(config.dtype, config.keep)
    kv_dtype = config.kv_dtype or (config.dtype if config.dtype in KV_DTYPES else
                                   priced.dtype if priced.dtype in KV_DTYPES else "bf16")
    kv_dtype = get_dtype(kv_dtype, "kv-dtype").name
    if kv_dtype not in KV_DTYPES:
        raise OptionError("--kv-dtype", f"{kv_dtype} is a group-quantized weight format; the KV cache takes "
                                        f"{', '.join(KV_DTYPES)}")
    context = config.context or arch.max_position_embeddings
    if isinstance(config.batch, bool) or not isinstance(config.batch, int) or config.batch < 1:
        raise OptionError("--batch", f"must be a whole number of at least 1, got {config.batch!r}")
    if isinstance(context, bool) or not isinstance(context, int) or context < 1:
        raise OptionError("--context", f"must be a whole number of at least 1, got {context!r}")
    devices = _devices(setup, config, kv_dtype, context, config.batch)
    fits = _fits(devices, config)
    reasons = []
    reserve = config.memory - config.overhead.budget(config.memory)
    if config.overhead.cuda_context > reserve:
        reasons.append(f"the CUDA context ({config.overhead.cuda_context:,} bytes) does not fit in the reserve "
                       f"gpu_memory_utilization leaves ({reserve:,} bytes): vLLM refuses to start")
    for d in devices:
        if not d.fits:
            reasons.append(f"stage {d.stage} device {d.tp_rank} needs {d.total_bytes:,} of {d.memory_bytes:,} bytes")
            break
    max_context, limit = _max_context(setup, config, kv_dtype)
    max_batch = _max_batch(setup, config, kv_dtype, context)
    _, extra, left = setup.device_weights(config.dtype, config.keep, config.parallel)
    notes = [note for note in (retired_note(arch), not_run_note(arch)) if note]
    if context > arch.max_position_embeddings:
        notes.append(f"--context {context:,} is beyond max_position_embeddings {arch.max_position_embeddings:,}: "
                     "vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1")
    plan = FitPlan(setup.inv.source, config.gpu, config.memory, config.parallel, priced.dtype, kv_dtype, context,
                   config.batch, config.block_size, _resolved(config), devices, fits, tuple(reasons), max_context,
                   limit, max_batch, (), priced.total, extra, tuple(setup.rules.unclassified), None, tuple(notes))
    plan = dataclasses.replace(plan, weights_format=getattr(priced, "assumed", priced.dtype), not_loaded=tuple(
        (label, size, setup.rules.towers.left_out_source(label)) for label, size in left.items()),
        towers=setup.rules.towers is not None)
    if suggest and not fits:
        plan = dataclasses.replace(plan, suggestions=tuple(_suggestions(setup, config, plan)))
    return plan


def _resolved(config: _Config) -> Overhead:
    label = config.gpu.label if config.gpu else ""
    o = config.overhead
    return dataclasses.replace(o, max_batched_tokens=o.max_batched_tokens or default_max_batched_tokens(
        config.memory, label), max_num_seqs=o.max_num_seqs or default_max_num_seqs(config.memory, label))


def _max_context(setup: _Setup, config: _Config, kv_dtype: str) -> tuple[int, str]:
    """The longest context (a whole number of blocks) that fits at the batch, up to max_position_embeddings."""
    limit = setup.arch.max_position_embeddings
    block = config.block_size

    def fits(context: int) -> bool:
        return _fits(_devices(setup, config, kv_dtype, context, config.batch), config)

    if fits(limit):
        return limit, "max_position_embeddings"
    low, high = 0, -(-limit // block)  # fits at low blocks (0: nothing), not at high
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle * block):
            low = middle
        else:
            high = middle
    return low * block, "memory"


def _max_batch(setup: _Setup, config: _Config, kv_dtype: str, context: int) -> int | None:
    empty = _devices(setup, config, kv_dtype, context, 0)
    one = _devices(setup, config, kv_dtype, context, 1)
    reserve = config.memory - config.overhead.budget(config.memory)
    if config.overhead.cuda_context > reserve:
        return 0
    best = None
    for base, single in zip(empty, one):
        per_sequence = single.total_bytes - base.total_bytes
        room = base.memory_bytes - base.total_bytes
        if room < 0:
            return 0
        if per_sequence:
            best = room // per_sequence if best is None else min(best, room // per_sequence)
    return best


def _suggestions(setup: _Setup, config: _Config, plan: FitPlan) -> list[str]:
    out = []

    def fits(**changes: Any) -> FitPlan | None:
        try:
            variant = dataclasses.replace(config, **changes)
            if "parallel" in changes:
                check_parallel(setup.arch, variant.parallel)
            candidate = _inference_plan(setup, variant, suggest=False)
        except OptionError:
            return None
        return candidate if candidate.fits else None

    bits = get_dtype(plan.dtype).bits if plan.dtype in _known_dtypes() else 16
    for name in _WEIGHTS_SMALLER:
        if get_dtype(name).bits < bits and (found := fits(dtype=name)):
            out.append(f"--dtype {name} (weights {max(d.weights_bytes for d in found.devices):,} bytes per device)")
            break
    if get_dtype(plan.kv_dtype).bits > 8 and (found := fits(kv_dtype=_KV_SMALLER[0])):
        out.append(f"--kv-dtype {_KV_SMALLER[0]} (KV cache {max(d.kv_cache_bytes for d in found.devices):,} bytes "
                   "per device)")
    parallel = config.parallel
    for tp, pp in [(t, parallel.pp) for t in (2, 4, 8) if t > parallel.tp] + [(8, p) for p in (2, 4, 8)
                                                                             if p > parallel.pp]:
        if fits(parallel=Parallel(tp, pp, parallel.expert_parallel)):
            out.append(f"--tp {tp}" + (f" --pp {pp}" if pp > 1 else "") + f" ({tp * pp} devices)")
            break
    if plan.max_context:
        out.append(f"--context {plan.max_context:,} (the longest that fits at --batch {plan.batch})")
    if plan.max_batch and plan.max_batch < plan.batch:
        out.append(f"--batch {plan.max_batch} (the most that fit at --context {plan.context:,})")
    for gpu in sorted(GPUS.values(), key=lambda g: g.memory_bytes):
        if gpu.memory_bytes > config.memory and not gpu.name.startswith("apple") and fits(gpu=gpu,
                                                                                        memory=gpu.memory_bytes):
            out.append(f"--gpu {gpu.name} ({gpu.memory_bytes:,} bytes)")
            break
    return out


def _known_dtypes() -> set[str]:
    from ..dtypes import DTYPES

    return set(DTYPES)


def _training_plan(setup: _Setup, gpu: GPU | None, memory: int, parallel: Parallel, dtype: str | None,
                   keep: list[str] | None, training: str | None, zero: int | None, lora: str | None,
                   overhead: Overhead) -> FitPlan:
    """Training: training.py's weights, gradients and optimizer states per device, ZeRO over the devices, plus the
    CUDA context and non-torch memory; activations are not modelled (they depend on checkpointing)."""
    from ..training import training_memory

    if training is None:
        raise OptionError("--lora", "fit --lora sizes training: give --training RECIPE")
    devices = parallel.tp
    if devices > 1 and not zero:
        raise OptionError("--gpus", "training over several devices needs --zero STAGE (1, 2 or 3): without ZeRO "
                                    "every device holds everything")
    inv = setup.inv
    if lora is not None:
        from ..adapters import lora_inventory
        from ..adapters.memory import lora_memory_report

        inv = lora_inventory(inv, lora)
        options = {"dtype": dtype} if dtype is not None else {}
        report = lora_memory_report(inv, keep=keep, training=training, zero_stage=zero,
                                    devices=devices if zero else None, context=1, **options)
        memory_of = report.training
    else:
        memory_of = training_memory(inv, training, zero or 0, devices if zero else None)
    per_device = tuple(Device(0, rank, (0, setup.arch.num_hidden_layers), memory, memory_of.weights, 0, 0, 0,
                              overhead.cuda_context + overhead.non_torch, 0, 0, memory_of.gradients,
                              memory_of.optimizer) for rank in range(devices))
    fits = all(d.fits for d in per_device)
    reasons = () if fits else (f"each device needs {per_device[0].total_bytes:,} of {memory:,} bytes",)
    whole = memory_of.weights * (devices if (zero or 0) >= 3 else 1)  # ZeRO-3 shards rounded up per device
    return FitPlan(inv.source, gpu, memory, Parallel(devices), memory_of.recipe.dtype, "-", 0, 0, 0, overhead,
                   per_device, fits, reasons, None, None, None, (), whole, {}, (), memory_of.definition,
                   ("activations, temporary buffers and the CUDA graphs are not modelled in training fit; "
                    "no gpu_memory_utilization reserve (that is vLLM's)",))

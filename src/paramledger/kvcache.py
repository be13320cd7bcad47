"""The KV cache: what each layer keeps per token, and what a batch of sequences holds.

Per layer and per token (one sequence):
- MHA, GQA, MQA: a key and a value per KV head, 2 × num_key_value_heads × head_dim values
  (head_dim as declared, not hidden_size / heads); num_key_value_heads × (head_dim + v_head_dim)
  where values are narrower (MiMo-V2-Flash, whose sliding layers also have their own
  sliding_num_key_value_heads).
- Multi-head latent attention (DeepSeek V2/V3), two layouts, both reported:
  "latent": the compressed latent kv_lora_rank plus the shared rotary key qk_rope_head_dim,
  as DeepSeek's inference code and vLLM store it, and as transformers 5.24.0's DynamicCache
  holds it (modeling_deepseek_v3.py caches kv_nope and k_rot before expand_kv);
  "decompressed": per-head keys (qk_nope_head_dim + qk_rope_head_dim) and values
  (v_head_dim) for every head, as transformers 4.x's DynamicCache held them
  (modeling_deepseek_v3.py called past_key_values.update(key_states, value_states) before
  padding values for flash attention) and as 5.24.0's expand_kv rebuilds them each pass.
- DeepSeek Sparse Attention (index_n_heads): a layer that runs its own lightning indexer also
  caches the indexer's one key of index_head_dim per token, whatever the MLA layout
  (transformers 5.24.0's DynamicIndexedLayer.indexer_keys; GLM-5's "shared" layers run none).
- A sliding-window layer holds at most ``sliding_window - 1`` tokens: transformers'
  DynamicSlidingWindowLayer (cache_utils.py) keeps the last ``sliding_window - 1`` keys and
  values after each update; the token being processed makes the window whole.  (With
  ``sliding_window = 1`` transformers 5.24.0 slices ``[-0:]`` and keeps every token; we
  hold 0, what the window means.)  A layer is sliding when ``sliding_window`` is set and
  its ``layer_types`` entry is "sliding_attention"; with no ``layer_types``, every layer is
  (Mistral, Mixtral, Phi-3: transformers' get_layer_types_and_kwargs infers the same).
  Exception, stated in the figure's definition: MASK_ONLY_WINDOWS, families whose
  transformers code applies the local window by mask alone, so their DynamicCache keeps
  every token on local layers too.  Our figure stays what the attention pattern needs.
  Likewise BROADCAST_KV_HEADS: families whose transformers code repeats each key/value group
  for its query heads before caching, so its DynamicCache holds every head's keys and values.
- A layer run more than once a token (layer_passes: HRM-Text's cycles, parts/repeated.py) caches its keys and
  values once per run, each run in a slot of its own (HrmTextModel.forward's cycle_offset).
- A layer that reuses an earlier layer's keys and values (num_kv_shared_layers, Gemma 3n) caches
  nothing: transformers 5.24.0 gives it a DummyLayer (cache_utils.py, get_layer_types_and_kwargs).
- Per-layer head widths and KV heads (Gemma 4's per_layer_config: head_dim 512 on its full layers)
  are each layer's own.  Gemma 4's attention_k_eq_v projects no values on full layers, but its
  values (the keys' projection, v_norm'd and not rotated) are cached beside the keys all the same
  (Gemma4TextAttention.forward: cache.update(key_states, value_states)).
- A Gated DeltaNet layer (linear_attention_layers: Qwen3-Next, Qwen3.5) caches no keys or values
  that grow with the context: it holds a fixed-size state per sequence instead, the last
  linear_conv_kernel_dim inputs of its depthwise conv over q, k and v (conv_dim × kernel) and
  the recurrent state (linear_num_value_heads × linear_key_head_dim × linear_value_head_dim),
  transformers 5.24.0's LinearAttentionLayer conv_states and recurrent_states.  That state is
  its own figure (``state_values``, ``state_bytes``, at the cache dtype), not in the keys and
  values (``values``, ``bytes``).

- DeepSeek-V4's compressing layers (parts/shared_kv_attention.py) hold, beside their window's keys (K = V, once),
  floor(context / rate) compressed entries, the context mod rate tokens not yet compressed (kv and gate) and, on
  CSA layers, the last window's overlap: a step function of the context, which the part answers whole
  (``kv_values``); its overlap gate is float32 whatever the cache's dtype (``kv_float32_values``).

- A decoder's cross-attention (add_cross_attention: BART's encoder_attn) caches a key and a value per
  head for every token of the encoder's input, fixed by the encoder's length whatever the generated
  length (transformers 5.24.0's EncoderDecoderCache.cross_attention_cache, filled on the first step):
  its own figure (``cross_attention_cache``), never in the self-attention's keys and values here.

The cache dtype is separate from the weights' (KV_DTYPES: one value per element).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress, count, repeat
from operator import and_, is_
from typing import Any, NamedTuple

from ._exceptions import OptionError
from .architecture import Architecture
from .design.flat import layer_plan
from .design.layers import Layer
from .dtypes import KV_DTYPES, DType, get_dtype
from .inventory import Inventory

MLA_LAYOUTS = {
    "latent": "compressed latent (kv_lora_rank + qk_rope_head_dim per layer and token), as DeepSeek's "
              "inference code, vLLM and transformers 5.24.0's DynamicCache store it",
    "decompressed": "per-head keys (qk_nope_head_dim + qk_rope_head_dim) and values (v_head_dim) for every "
                    "head, as transformers 4.x's DynamicCache held them",
}


MASK_ONLY_WINDOWS = {
    # transformers 5.24.0 models/gpt_neo: the local window is a causal-mask band
    # (modeling_gpt_neo.py, tril(bias, -window_size)); its config has no sliding_window or
    # layer_types, so DynamicCache builds full layers.
    "gpt_neo": "transformers' GPT-Neo applies its local window by mask only: its DynamicCache keeps every "
               "token on local layers too (as many as a full layer)",
}


BROADCAST_KV_HEADS = {
    # transformers 5.24.0 models/falcon: with new_decoder_architecture, FalconAttention._split_heads
    # broadcasts each key/value group to its query heads, and that is what DynamicCache stores.
    "falcon": "with new_decoder_architecture, transformers' Falcon broadcasts each key/value group to its query "
              "heads before caching: its DynamicCache holds num_attention_heads heads per layer (the multi-query "
              "old decoder caches its one head)",
}


NO_CACHE = {
    # transformers 5.24.0 models/blt: BltModel.forward makes EncoderDecoderCache(DynamicCache(config=BltConfig), ...)
    # whenever use_cache (BltConfig's default), and DynamicCache reads num_hidden_layers, which BltConfig lacks; its
    # local encoder and decoder would cache per byte, its global transformer per patch (a length the patcher sets)
    "blt": "transformers 5.24.0 keeps no KV cache for BLT (BltModel.forward's DynamicCache(config=BltConfig) fails: "
           "BltConfig has no num_hidden_layers), so there is no cache to size exactly; run it with use_cache=False",
    # transformers 5.24.0 models/reformer ReformerDynamicCache (states_cache, buckets_cache), as a forward pass with
    # use_cache fills it: tests/test_encoders_rf.py
    "reformer": "transformers 5.24.0's ReformerDynamicCache holds each layer's input hidden states (hidden_size "
                "values a token) and the LSH layers' int64 bucket ids (heads × num_hashes a token), no keys and "
                "values of one dtype: paramledger does not size it",
    # transformers 5.24.0 models/pi0/modeling_pi0.py (PI0Model.forward, sample_actions): the VLM's prefix cache, then
    # each denoising step's state and chunk_size action tokens appended by the action expert and cropped again
    "pi0": "transformers 5.24.0's PI0 cache holds the VLM's prefix and, at each of num_inference_steps denoising "
           "steps, the action expert's 1 + chunk_size tokens cropped after it: not a cache per decoder token, so "
           "paramledger does not size it",
    # transformers 5.24.0 models/diffusion_gemma (DiffusionGemmaDecoderTextAttention, lines 360-374): the encoder
    # writes the prompt's cache; the decoder re-reads it (read-only) at every denoising step over a canvas of
    # canvas_length tokens, which it never appends
    "diffusion_gemma": "transformers 5.24.0's DiffusionGemma cache holds the encoder's prompt, which the diffusion "
                       "decoder re-reads at every denoising step over a canvas of canvas_length tokens it never "
                       "caches: not a cache per generated token, so paramledger does not size it",
}


def refused(arch: Architecture) -> None:
    """A design whose KV cache is not sized (NO_CACHE), refused in one line."""
    if arch.model_type in NO_CACHE:
        raise OptionError("kv-cache", f"{arch.model_type}: {NO_CACHE[arch.model_type]}")


def tokens_held(window: int | None, context: int) -> int:
    """Tokens a layer's cache holds after ``context`` tokens (window: None for a full layer)."""
    return context if window is None else min(context, window - 1)


@dataclass(frozen=True, slots=True)
class LayerCache:
    layer: int
    values_per_token: int
    window: int | None  # the sliding window, None for a full-attention layer
    state_values: int = 0  # a recurrent mixer's fixed state per sequence (Gated DeltaNet, Mamba, short conv)
    state_label: str | None = None  # what holds it, in the parts' words: "state-space (Mamba-2)"
    mixer: bool = True  # False: the layer holds no token mixer (Nemotron-H's MLP and expert layers)
    # What one sequence's cache of the layer holds at the context, where that is not values_per_token × the tokens
    # held (DeepSeek-V4's compressed entries and pending tokens: parts' kv_values); None: it is
    sequence_values: int | None = None
    float32_values: int = 0  # of those, held in float32 whatever the cache's dtype (DeepSeek-V4's CSA overlap gate)
    state_float32_values: int = 0  # of state_values, held in float32 whatever the cache's dtype (KDA's recurrent state)

    def values_at(self, context: int) -> int:
        """Values held for one sequence after ``context`` tokens (the KVCache's context: sequence_values is its)."""
        if self.sequence_values is not None:
            return self.sequence_values
        return self.values_per_token * tokens_held(self.window, context)


class LayerRun(NamedTuple):
    """One distinct (kind of layer, sliding or not): its Layer, its first layer and how many layers are it."""
    layer: Layer
    sliding: bool
    first: int
    layers: int


def layer_runs(arch: Any) -> tuple[LayerRun, ...]:
    """Each distinct (Layer, sliding) of ``arch``'s layers, in order of first appearance, found without a Python
    step per layer (every scan below runs in C and stops at the first match): a 10⁷-layer design in milliseconds
    when only the kinds differ, a few C passes when layer_types also slides some layers of a kind."""
    plan = layer_plan(arch)
    layers = plan.layers
    if not (arch.sliding_window and arch.layer_types):  # every layer slides, or none does
        sliding = bool(arch.sliding_window)
        return tuple(LayerRun(layer, sliding, _first(layers, layer), n) for layer, n in plan.kinds if n)
    flags = arch.sliding_layers()
    runs = []
    for layer, n in plan.kinds:
        of_kind = layers if len(plan.kinds) == 1 else None
        slid = sum(flags) if of_kind is not None else sum(compress(flags, map(is_, layers, repeat(layer))))
        for value, held in ((True, slid), (False, n - slid)):
            if held:
                mask = map(is_, flags, repeat(value))
                if of_kind is None:
                    mask = map(and_, map(is_, layers, repeat(layer)), mask)
                runs.append(LayerRun(layer, value, next(compress(count(), mask)), held))
    return tuple(sorted(runs, key=lambda run: run.first))


def _first(layers: tuple[Layer, ...], layer: Layer) -> int:
    """The first index of ``layer`` (by identity: equal layers share one object) in ``layers``."""
    return 0 if layers[0] is layer else next(compress(count(), map(is_, layers, repeat(layer))))


@dataclass(frozen=True)
class KVCache:
    """The cache of ``batch`` sequences of ``context`` tokens, stored as ``dtype``.  ``runs``: each distinct
    layer's cache (its ``layer``, the first such layer) and how many layers hold it; ``layers`` and ``kinds``
    list them per layer (made on first use: every figure sums the runs, so a 10⁷-layer design costs no 10⁷
    objects)."""

    runs: tuple[tuple[LayerCache, int], ...]
    context: int
    batch: int
    dtype: DType
    mla_layout: str | None = None  # "latent" or "decompressed" for MLA, None otherwise
    # where a reference implementation holds something else (MASK_ONLY_WINDOWS, BROADCAST_KV_HEADS)
    note: str | None = None
    # the design's layer runs (layer_runs), one per entry of runs: what ``kinds`` is made from
    layer_runs: tuple[LayerRun, ...] = field(default=(), repr=False, compare=False)
    architecture: Any = field(default=None, repr=False, compare=False)

    @cached_property
    def kinds(self) -> tuple[int, ...]:
        """Each layer's run (an index into runs)."""
        if len(self.runs) == 1:
            return (0,) * self.runs[0][1]
        index = {(id(run.layer), run.sliding): i for i, run in enumerate(self.layer_runs)}
        plan = layer_plan(self.architecture)
        flags = self.architecture.sliding_layers()
        return tuple(map(index.__getitem__, zip(map(id, plan.layers), flags)))

    @property
    def layer_count(self) -> int:
        """Every layer, whatever it caches."""
        return sum(layers for _, layers in self.runs)

    @cached_property
    def layers(self) -> tuple[LayerCache, ...]:
        """Every layer's cache, in order."""
        runs = [layer for layer, _ in self.runs]
        return tuple(runs[run] if runs[run].layer == i else dataclasses.replace(runs[run], layer=i)
                     for i, run in enumerate(self.kinds))

    def _sum(self, value) -> int:  # noqa: ANN001 (a function of one LayerCache)
        return sum(value(layer) * layers for layer, layers in self.runs)

    @property
    def values_per_token(self) -> int:
        """Every layer's keys and values for one token (below any sliding window)."""
        return self._sum(lambda layer: layer.values_per_token)

    @property
    def bytes_per_value(self) -> int:
        return self.dtype.bits // 8

    @property
    def bytes_per_token(self) -> int:
        return self.values_per_token * self.bytes_per_value

    @property
    def values(self) -> int:
        """Elements held for the whole batch: each layer's tokens held × its values per token, or what a compressing
        layer holds at the context (LayerCache.sequence_values)."""
        return self.batch * self._sum(lambda layer: layer.values_at(self.context))

    @property
    def bytes(self) -> int:
        """Every value at the cache's dtype, but those a layer holds in float32 whatever it is."""
        float32 = self.batch * self._sum(lambda layer: layer.float32_values)
        return (self.values - float32) * self.bytes_per_value + float32 * 4

    @property
    def recurrent_layers(self) -> int:
        """Layers holding a fixed state instead of (or beside) keys and values."""
        return self._sum(lambda layer: bool(layer.state_values))

    linear_attention_layers = recurrent_layers  # the name the Gated DeltaNet gave it first

    def recurrent_kinds(self) -> dict[str, int]:
        """What holds each fixed state -> how many layers ("linear-attention (Gated DeltaNet)": 36)."""
        kinds: dict[str, int] = {}
        for layer, layers in self.runs:
            if layer.state_values:
                kinds[layer.state_label] = kinds.get(layer.state_label, 0) + layers
        return kinds

    @property
    def state_values(self) -> int:
        """The recurrent layers' fixed states (conv and recurrent) for the whole batch, apart from
        the keys and values: they do not grow with the context."""
        return self.batch * self._sum(lambda layer: layer.state_values)

    @property
    def state_bytes(self) -> int:
        """The states at the cache's dtype, but those a layer holds in float32 whatever it is."""
        float32 = self.batch * self._sum(lambda layer: layer.state_float32_values)
        return (self.state_values - float32) * self.bytes_per_value + float32 * 4

    @property
    def sliding_layers(self) -> int:
        """Sliding layers that cache (a layer sharing an earlier layer's keys and values holds none)."""
        return self._sum(lambda layer: layer.window is not None and bool(layer.values_per_token))

    def tokens_held(self) -> dict[str, dict[str, int]]:
        """Layer kind -> how many layers and how many tokens each holds (per sequence)."""
        out: dict[str, dict[str, int]] = {}
        for layer, layers in sorted(self.runs, key=lambda run: run[0].layer):
            if not layer.values_per_token:  # shares an earlier layer's keys and values: holds none
                continue
            kind = "full_attention" if layer.window is None else "sliding_attention"
            entry = out.setdefault(kind, {"layers": 0, "tokens": tokens_held(layer.window, self.context)})
            entry["layers"] += layers
        return out

    @property
    def definition(self) -> str:
        text = f"keys and values of {self.layer_count} layers for {self.batch} × {self.context} tokens"
        shared = self._sum(lambda layer: not layer.values_per_token and not layer.state_values and layer.mixer)
        # (a layer whose mixer is a cross-attention alone, Llama 3.2 Vision's: it caches the vision states' keys)
        crossed = sum(run.layers for run, (layer, _) in zip(self.layer_runs, self.runs)
                      if not layer.values_per_token and run.layer.cross_kv_values_per_token())
        if shared - crossed:
            text += f"; {shared - crossed} layers reuse an earlier layer's keys and values and cache none"
        if crossed:
            text += f"; {crossed} cross-attention layers hold none of the tokens' keys and values"
        unmixed = self._sum(lambda layer: not layer.mixer)
        if unmixed:
            text += f"; {unmixed} layers hold no token mixer (an FFN alone) and cache nothing"
        if self.recurrent_layers:
            kinds = " and ".join(f"{n} {label}" for label, n in self.recurrent_kinds().items())
            beside = self._sum(lambda layer: bool(layer.state_values and layer.values_per_token))
            held = ("cache no keys or values: they hold a fixed conv and recurrent state instead" if not beside
                    else f"hold a fixed conv and recurrent state ({beside} of them beside their keys and values)")
            text += (f"; {kinds} layers {held}, {self.state_values:,} values = {self.state_bytes:,} bytes for the "
                     "batch whatever the context, reported apart (KVCache.state_bytes), not in this figure")
        if self.sliding_layers:
            window = next(layer.window for layer, _ in self.runs if layer.window is not None)
            text += (f"; {self.sliding_layers} sliding layers hold at most sliding_window - 1 = {window - 1} "
                     "tokens (transformers' DynamicSlidingWindowLayer)")
        if self.mla_layout:
            text += f"; MLA {self.mla_layout}: {MLA_LAYOUTS[self.mla_layout]}"
        if self.note:
            text += f"; note: {self.note}"
        if any(run.layer.cross_kv_values_per_token() for run in self.layer_runs):  # a decoder over an encoder
            text += ("; the cross-attention's keys and values, fixed by the encoder's input length, are reported "
                     "apart (cross_attention_cache), not in this figure")
        return text


@dataclass(frozen=True)
class CrossAttentionCache:
    """The cross-attention keys and values of ``batch`` sequences whose encoder input is ``encoder_length``
    tokens, stored as ``dtype``: fixed by the encoder's length whatever the generated length (transformers
    5.24.0's EncoderDecoderCache.cross_attention_cache, filled on the first step and never grown)."""

    values_per_token: int  # every layer's keys and values for one encoder token
    layers: int  # layers holding a cross-attention
    encoder_length: int
    batch: int
    dtype: DType

    @property
    def values(self) -> int:
        return self.batch * self.encoder_length * self.values_per_token

    @property
    def bytes(self) -> int:
        return self.values * (self.dtype.bits // 8)

    @property
    def definition(self) -> str:
        if not self.layers:
            return "no cross-attention: nothing cached for an encoder's input"
        return (f"cross-attention keys and values of {self.layers} layers for {self.batch} × {self.encoder_length} "
                "encoder tokens, fixed by the encoder's input length (EncoderDecoderCache.cross_attention_cache)")


def cross_attention_cache(source: Architecture | Inventory, encoder_length: int, batch: int = 1,
                          dtype: str | DType = "bf16") -> CrossAttentionCache:
    """What the cross-attention layers of ``source`` hold for ``batch`` sequences of an ``encoder_length``-token
    encoder input (0 values for a design without one)."""
    arch = _architecture(source)
    refused(arch)
    plan = layer_plan(arch)
    for option, value in (("encoder-length", encoder_length), ("batch", batch)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError(option, f"must be a whole number of at least 1, got {value!r}")
    per_token = sum(layer.cross_kv_values_per_token() * layers for layer, layers in plan.kinds)
    holding = sum(layers for layer, layers in plan.kinds if layer.cross_kv_values_per_token())
    return CrossAttentionCache(per_token, holding, encoder_length, batch, kv_dtype(dtype))


def check_context(context: int, batch: int) -> None:
    for option, value in (("context", context), ("batch", batch)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError(option, f"must be a whole number of at least 1, got {value!r}")


def kv_dtype(name: str | DType) -> DType:
    dtype = name if isinstance(name, DType) else get_dtype(name, "kv-dtype")
    if dtype.name not in KV_DTYPES:
        raise OptionError("kv-dtype", f"{dtype.name} is a group-quantized weight format; the KV cache takes "
                          f"{', '.join(KV_DTYPES)}")
    return dtype


def _architecture(source: Architecture | Inventory) -> Architecture:
    arch = source.architecture if isinstance(source, Inventory) else source
    if arch is None:
        raise OptionError("source", "the KV cache needs the architecture (layers, heads), not a bare tensor list")
    return arch


def kv_cache(source: Architecture | Inventory, context: int, batch: int = 1, dtype: str | DType = "bf16",
             mla_layout: str = "latent") -> KVCache:
    """The KV cache of ``source`` for ``batch`` sequences of ``context`` tokens."""
    arch = _architecture(source)
    refused(arch)
    check_context(context, batch)
    if mla_layout not in MLA_LAYOUTS:
        raise OptionError("mla-layout", f"unknown layout {mla_layout!r}; one of {', '.join(MLA_LAYOUTS)}")
    runs = layer_runs(arch)
    caches = tuple((_layer_cache(run, arch.sliding_window, context, mla_layout), run.layers) for run in runs)
    note = None
    if any(layer.sequence_values is not None for layer, _ in caches):
        note = COMPRESSED_NOTE
    if any(layer.window is not None for layer, _ in caches):
        note = MASK_ONLY_WINDOWS.get(arch.model_type, note)
    if not arch.is_mla and arch.kv_heads < arch.num_attention_heads:
        note = BROADCAST_KV_HEADS.get(arch.model_type, note)
    if arch.layer_passes:  # each run of a layer caches its own keys and values (parts/repeated.py: HRM-Text's cycles)
        note = (f"layers run more than once a token cache each run's keys and values: {sum(arch.layer_passes):,} "
                f"runs of the {arch.num_hidden_layers:,} layers (layer_passes)")
    return KVCache(caches, context, batch, kv_dtype(dtype), mla_layout if arch.is_mla else None, note, runs, arch)


COMPRESSED_NOTE = ("some layers also hold compressed entries (one per compress rate tokens), the tokens not yet "
                   "compressed and, for CSA, the last window's overlap (DeepSeek-V4's compressors): counted in this "
                   "figure, not in the values per token")


def _layer_cache(run: LayerRun, window: int | None, context: int, mla_layout: str) -> LayerCache:
    """One run's cache: its values per token and, where its parts hold more than those for the tokens held (a
    compressing cache), what they hold at ``context``."""
    layer = run.layer
    per_token, window = layer.kv_values_per_token(mla_layout), window if run.sliding else None
    held = tokens_held(window, context)
    whole = layer.kv_values(context, held, mla_layout)
    return LayerCache(run.first, per_token, window, layer.state_values(), layer.state_label(),
                      layer.mixer_label() is not None, None if whole == per_token * held else whole,
                      layer.kv_float32_values(context), layer.state_float32_values())


def kv_values_per_token(source: Architecture | Inventory, mla_layout: str = "latent") -> int:
    """Seed 002: 24 layers × 2 × 16 heads × 128 = 98,304 values per token."""
    arch = _architecture(source)
    refused(arch)
    plan = layer_plan(arch)
    return sum(layer.kv_values_per_token(mla_layout) * layers for layer, layers in plan.kinds)

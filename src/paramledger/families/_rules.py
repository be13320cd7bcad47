"""The few conversions that are not plain key renames, shared by the families.

Each rule takes the config (the family's defaults filled in) and returns architecture
field -> value.  The attention-pattern rules mirror how each config class fills
``layer_types`` in transformers 5.24.0; they change no count but the KV cache.
Convention: ``sliding_window`` is None when no layer slides; otherwise ``layer_types``
lists every layer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._exceptions import ArchitectureError

Rule = Callable[[Mapping[str, Any]], Mapping[str, Any]]
SLIDING, FULL = "sliding_attention", "full_attention"


def positive(key: str, value: Any) -> int:
    """``value``, a whole number of at least 1 read from the config under ``key``, else a one-line refusal."""
    if type(value) is not int or value < 1:
        raise ArchitectureError(key, f"must be a positive whole number, got {value!r}")
    return value


def layer_pattern(window: Any, sliding: Sequence[bool], keep: bool = False) -> dict[str, Any]:
    """sliding_window and layer_types; ``keep``: the pattern stays without a window (no layer slides then, but
    the model still builds a rotary per layer type the pattern names: Gemma 3's sliding_attention_inv_freq)."""
    if keep and not window and any(sliding):
        return {"sliding_window": None, "layer_types": tuple(SLIDING if s else FULL for s in sliding)}
    if not window or not any(sliding):
        return {"sliding_window": None, "layer_types": ()}
    return {"sliding_window": window, "layer_types": tuple(SLIDING if s else FULL for s in sliding)}


def _given_types(config: Mapping[str, Any]) -> list[bool] | None:
    types = config.get("layer_types")
    if isinstance(types, (list, tuple)):
        return [t == SLIDING for t in types]
    return None


def no_sliding(config: Mapping[str, Any]) -> dict[str, Any]:
    """The family's attention never slides (Llama, GPT-2, ...)."""
    return {"sliding_window": None, "layer_types": ()}


def sliding_all(config: Mapping[str, Any]) -> dict[str, Any]:
    """Every layer slides when sliding_window is set (Mistral, Mixtral, Phi-3, Starcoder2)."""
    layers = config["num_hidden_layers"]
    given = _given_types(config)
    return layer_pattern(config.get("sliding_window"), given if given is not None else [True] * layers)


def sliding_every(period_key: str | None = None, period: int = 2, keep: bool = False) -> Rule:
    """Layer i slides unless (i + 1) is a multiple of the period (Gemma 2: 2, Gemma 3: 6); ``keep``: as
    layer_pattern's."""

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        given = _given_types(config)
        if given is None:  # the period is read only here: EXAONE 4.0's real configs say "LLLG" beside layer_types
            if not config.get("sliding_window") and not keep:
                step = config.get(period_key) if period_key else None
                if type(step) is int and step < 1:  # (the config class takes (i + 1) % it all the same)
                    positive(period_key, step)
                return layer_pattern(None, ())
            step = config.get(period_key) if period_key else None
            step = period if step is None else positive(period_key, step)
            given = [bool((i + 1) % step) for i in range(config["num_hidden_layers"])]
        return layer_pattern(config.get("sliding_window"), given, keep)

    return rule


def qwen_window(config: Mapping[str, Any]) -> dict[str, Any]:
    """Qwen2/Qwen3: only with use_sliding_window, and only layers >= max_window_layers."""
    window = config.get("sliding_window") if config.get("use_sliding_window") else None
    given = _given_types(config)
    if given is None:
        if window is None:
            return layer_pattern(None, ())
        given = [i >= config.get("max_window_layers", 0) for i in range(config["num_hidden_layers"])]
    return layer_pattern(window, given)


def qwen_moe_window(config: Mapping[str, Any]) -> dict[str, Any]:
    """Qwen2-MoE: with use_sliding_window, odd-numbered layers below max_window_layers."""
    window = config.get("sliding_window") if config.get("use_sliding_window") else None
    given = _given_types(config)
    if given is None:
        if window is None:
            return layer_pattern(None, ())
        given = [bool((i + 1) % 2) and i < config.get("max_window_layers", 0)
                 for i in range(config["num_hidden_layers"])]
    return layer_pattern(window, given)


def qwen3_moe_window(config: Mapping[str, Any]) -> dict[str, Any]:
    """Qwen3-MoE: with use_sliding_window, every layer (its config has no layer_types)."""
    window = config.get("sliding_window") if config.get("use_sliding_window") else None
    return layer_pattern(window, [True] * config["num_hidden_layers"])


def sparse_step(config: Mapping[str, Any]) -> dict[str, Any]:
    """Qwen-MoE: layer i is MoE when (i + 1) % decoder_sparse_step == 0 and it is not in
    mlp_only_layers; every other layer is dense (modeling_qwen2_moe.py, Qwen2MoeDecoderLayer)."""
    step = config.get("decoder_sparse_step")
    step = 1 if step is None else step
    only = set(config.get("mlp_only_layers") or ())
    # (read as the decoder layer reads it: only for a layer outside mlp_only_layers, where 0 divides by zero)
    dense = [i for i in range(config["num_hidden_layers"])
             if i in only or (i + 1) % positive("decoder_sparse_step", step)]
    return {"mlp_only_layers": tuple(dense)}


def first_k_dense(config: Mapping[str, Any]) -> dict[str, Any]:
    """DeepSeek: the first first_k_dense_replace layers are dense (modeling_deepseek_v3.py)."""
    k = config.get("first_k_dense_replace") or 0
    return {"mlp_only_layers": tuple(range(min(k, config["num_hidden_layers"])))}


def first_k_dense_by(key: str) -> Rule:
    """The first ``key`` layers are dense, the rest routed (AFMoE's num_dense_layers)."""

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        k = config.get(key) or 0
        return {"mlp_only_layers": tuple(range(min(k, config["num_hidden_layers"])))}

    rule.__doc__ = f"the first {key} layers are dense"
    return rule


def top_k_or_all(config: Mapping[str, Any]) -> dict[str, Any]:
    """num_experts_per_tok, or every routed expert when the config leaves it null (DeepseekV2Config,
    Dots1Config): such a config cannot route, its count does not depend on it, and the active
    count then reads every expert."""
    top_k = config.get("num_experts_per_tok")
    return {"num_experts_per_tok": top_k if top_k is not None else config.get("n_routed_experts")}


def output_bias_follows(key: str) -> Rule:
    """One config flag biases q, k, v and the output projection alike (Llama's attention_bias)."""

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        return {"attention_output_bias": bool(config.get(key, False))}

    return rule


def sliding_except(full: Callable[[int, Mapping[str, Any]], bool], keep: bool = False) -> Rule:
    """Every layer slides except where ``full(i, config)`` (when the config gives no layer_types); ``keep``: as
    layer_pattern's."""

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        given = _given_types(config)
        if given is None:
            given = [not full(i, config) for i in range(config["num_hidden_layers"])]
        return layer_pattern(config.get("sliding_window"), given, keep)

    return rule


def smollm3_window(config: Mapping[str, Any]) -> dict[str, Any]:
    """SmolLM3: with use_sliding_window, the layers without RoPE (no_rope_layers[i] == 0) slide."""
    layers = config["num_hidden_layers"]
    given = _given_types(config)
    if given is None:
        rope = config.get("no_rope_layers")
        if rope is None:
            interval = config.get("no_rope_layer_interval", 4)
            rope = [int((i + 1) % interval != 0) for i in range(layers)]
        window = config.get("sliding_window")
        given = [bool(config.get("use_sliding_window")) and window is not None and not rope[i] for i in range(layers)]
    return layer_pattern(config.get("sliding_window"), given)


def heads_fill_hidden(reason: str) -> Rule:
    """The family sizes a tensor by hidden_size where head_dim × heads belongs (Helium's
    o_proj, OLMoE's q_norm): only head_dim × heads = hidden_size builds a model that runs,
    and only that one is counted."""

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        heads, hidden = config["num_attention_heads"], config["hidden_size"]
        head_dim = config.get("head_dim") or hidden // heads
        if head_dim * heads != hidden:
            raise ArchitectureError("head_dim", f"{head_dim} × {heads} heads != hidden_size={hidden}; {reason}, "
                                    "so only head_dim × heads = hidden_size is counted")
        return {}

    return rule


def gpt_neo_window(config: Mapping[str, Any]) -> dict[str, Any]:
    """GPT-Neo: attention_types [[["global", "local"], 12]] expands to one kind per layer;
    the local layers attend within window_size (GPTNeoConfig.expand_attention_types_params)."""
    kinds: list[str] = []
    for pattern, repeat in config.get("attention_types") or [[["global", "local"], 12]]:
        for _ in range(repeat):
            kinds.extend(pattern)
    layers = config.get("num_hidden_layers")
    if type(layers) is int and layers != len(kinds):  # (GPTNeoConfig.validate_architecture)
        raise ArchitectureError("attention_types", f"expands to {len(kinds):,} layers, not num_layers={layers:,} "
                                "(GPTNeoConfig refuses the config)")
    return layer_pattern(config.get("window_size"), [kind == "local" for kind in kinds])


def mlp_layer_types(default_dense: Callable[[int, Mapping[str, Any]], bool]) -> Rule:
    """Dense layers from mlp_layer_types ("dense"/"sparse" per layer) or, when the config has
    none, ``default_dense(i, config)`` as the config class fills it in."""

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        kinds = config.get("mlp_layer_types")
        layers = config["num_hidden_layers"]
        if isinstance(kinds, (list, tuple)):
            return {"mlp_only_layers": tuple(i for i, kind in enumerate(kinds) if kind == "dense")}
        return {"mlp_only_layers": tuple(i for i in range(layers) if default_dense(i, config))}

    return rule


def head_dim_floor(config: Mapping[str, Any]) -> dict[str, Any]:
    """head_dim = hidden_size // heads when absent, rounded down as the modeling code does
    (GLM-4-MoE's default: 4096 // 96 = 42), even when the heads do not divide the width."""
    return {"head_dim": config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]}


def must_be_set(key: str) -> Rule:
    """The config class defaults ``key`` to None but the modeling code cannot build without it
    (transformers 5.24.0's Ministral and HunYuan read head_dim, Nemotron num_key_value_heads):
    say so instead of guessing what the checkpoint holds."""

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        if config.get(key) is None:
            raise ArchitectureError(key, "missing (required: transformers 5.24.0 cannot build this family "
                                         "without it)")
        return {}

    return rule


def unbuildable_when_set(key: str, why: str) -> Rule:
    """transformers 5.24.0 cannot build the family with ``key`` set (any true value): refused in one line saying
    why (issue #15: a count where transformers builds nothing would be a number no model has)."""

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        if config.get(key):
            raise ArchitectureError(key, f"{config[key]!r}: transformers 5.24.0 cannot build it ({why})")
        return {}

    rule.__doc__ = f"{key} set: transformers 5.24.0 cannot build it"
    return rule


def head_dim_unless_given(config: Mapping[str, Any]) -> dict[str, Any]:
    """head_dim = hidden_size // heads, which the config class sets in __post_init__ (Cohere2Config,
    configuration_cohere2.py line 92) before PreTrainedConfig.__post_init__ sets the keywords it was given
    (configuration_utils.py lines 499-506): a head_dim the config gives wins, and the attention reads it."""
    if "head_dim" not in config:
        return {"head_dim": config["hidden_size"] // config["num_attention_heads"]}
    if config["head_dim"] is None:
        raise ArchitectureError("head_dim", "null is not counted: the config class sets hidden_size // heads, then "
                                            "the given null over it, and its attention cannot be built that wide")
    return {"head_dim": config["head_dim"]}



def window_required(full: Callable[[int, Mapping[str, Any]], bool], always: bool = False) -> Rule:
    """sliding_except(full), refusing a sliding_window that is null or not positive where a layer slides
    (Kolibri1Config.validate_architecture), or anywhere with ``always`` (CwmConfig turns a falsy window into None,
    which its @strict int field refuses): transformers 5.24.0 builds neither."""
    pattern = sliding_except(full)

    def rule(config: Mapping[str, Any]) -> dict[str, Any]:
        window = config.get("sliding_window")
        if not (type(window) is int and window > 0):
            given = _given_types(config)
            slides = any(given) if given is not None else any(
                not full(i, config) for i in range(config["num_hidden_layers"]))
            if always or slides:
                raise ArchitectureError("sliding_window", f"must be a positive whole number where layers slide, "
                                        f"got {window!r}: transformers 5.24.0 cannot build it")
        return pattern(config)

    return rule


def forward_fails_note(arch: Any) -> str | None:
    """(a Family.explain) The note where a rule found that transformers builds the design but cannot run it: the
    count is what it builds (issue #15: Falcon's layouts, Pix2Struct's d_kv)."""
    if arch.forward_fails is None:
        return None
    return f"transformers 5.24.0 builds this and it is counted so, but its forward cannot run it: {arch.forward_fails}"

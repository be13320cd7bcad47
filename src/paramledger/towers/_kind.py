"""The record a tower module declares its towers with (``TOWERS``: vision_config model_type -> TowerKind)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..limits import MAX_INTEGER, big

TOWER_LAYERS = 10_000  # a tower's layers and blocks, named one tensor at a time (docs/limits.md)
_DEPTH_WORDS = ("layer", "depth", "blocks")  # the keys that count a tower's layers: num_hidden_layers, depth, ...
_LEAVES = (str, float, bool, type(None))  # a config's values that hold no section (no Mapping check: an ABC's is slow)
_LEARNED = frozenset({"prelu", "xielu"})  # families/learned_activations.LEARNED's names (imported when one is met)
_counts_depth = re.compile("|".join(_DEPTH_WORDS)).search  # one C call a key (a tower config has dozens)


class TowerKind(NamedTuple):
    """A tower a module of this package builds."""
    defaults: Mapping[str, Any]  # its config class's defaults (cite the configuration file)
    make: Any  # (module prefix, the vision_config over the defaults, where) -> the tower (tensors(), buffers())
    learned: bool = True  # its class applies the sub-config's activations through ACT2FN (``depth_bounded``)


def stamped(prefixes: Any, block: Any, component: str = "vision") -> list[Any]:
    """Every layer of a tower: ``block``'s (name, shape) pairs under each of ``prefixes`` (a layer's full path and
    its dot), layer by layer.  One comprehension: half the time of a generator extended per layer (a Qwen3.5
    tower's 351 tensors were most of its whole model's count)."""
    from ..inventory import Tensor

    new = tuple.__new__
    return [new(Tensor, (prefix + name, shape, component, None, False, 0)) for prefix in prefixes
            for name, shape in block]


def section(config: Mapping[str, Any], key: str, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The sub-config ``key`` of a whole model's config over its class's ``defaults`` (absent or null: the
    defaults), refused in one line unless a JSON object."""
    given = config.get(key)
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise ArchitectureError(key, "must be a JSON object")
    return {**defaults, **given}


def flag(config: Mapping[str, Any], key: str, section: str, where: str | None = None) -> bool:
    """``config``'s bool ``key``, refused in one line under ``section`` (vision_config, audio_config) unless true or
    false, as the config classes declare it."""
    value = config.get(key)
    if not isinstance(value, bool):
        raise ArchitectureError(f"{section}.{key}", f"must be true or false, got {value!r}"[:200], where)
    return value


def positive(config: Mapping[str, Any], key: str, section: str, where: str | None = None) -> int:
    """``config``'s size ``key``, a positive whole number within the bound (docs/limits.md), else refused in one
    line under ``section`` ("": the whole config's own key)."""
    value = config.get(key)
    if type(value) is not int or not 0 < value <= MAX_INTEGER:
        raise ArchitectureError(f"{section}.{key}" if section else key, f"must be a positive whole number, got "
                                f"{value!r}"[:200], where)
    return value


def whole_number(config: Mapping[str, Any], key: str, section: str, low: int = 1) -> int:
    """``config``'s ``key``, a whole number from ``low`` within the bound, else refused in one line under
    ``section``, each failure said apart (Janus's tower and VQ-VAE)."""
    value = config.get(key)
    if type(value) is not int or value < low:
        raise ArchitectureError(f"{section}.{key}", f"must be a whole number from {low}, got {value!r}"[:200])
    if value > MAX_INTEGER:
        raise ArchitectureError(f"{section}.{key}", f"{big(value)} is beyond the bound of {MAX_INTEGER:,} "
                                "(docs/limits.md)")
    return value


def depth_bounded(config: Mapping[str, Any], section: str, where: str | None = None, learned: bool = True) -> None:
    """Refuse, in one line naming the key, a tower sub-config (its nested sections too) that counts its layers or
    blocks past TOWER_LAYERS: a tower's tensors are named layer by layer (``stamped``), so 10^8 layers would take
    minutes and gigabytes; real towers have at most a few dozen.  ``learned``: refuse a learned activation too
    (prelu, xielu: issue #15), whatever key names it (hidden_act, activation_function, dense_act_fn, pooler_act,
    Phi-4's conv_glu_type, ...): transformers makes each module that applies it through ACT2FN, with weights of its
    own (families/learned_activations.py), and no tower places them (scripts/tower_flag_parity.py found every tower
    kind and sub-section the smallest configs build counting 1 or 2 short per module); False for a section counted by a
    decoder's own table, which refuses or places them itself (PI0's dit_config)."""
    for key, value in config.items():
        kind = type(value)
        if kind is int:  # most values: a size, refused only where it counts layers past the bound
            counts = (value,) if value > TOWER_LAYERS else ()
        elif kind is dict or kind not in _LEAVES and isinstance(value, Mapping):
            depth_bounded(value, f"{section}.{key}", where, learned)
            continue
        elif kind is str:  # an activation's name, or a kind's: refused only where it is a learned activation
            if learned and value in _LEARNED:
                raise _learned(f"{section}.{key}", value, where)
            continue
        else:
            counts = value if kind is list else ()
        for count in counts:
            if type(count) is int and count > TOWER_LAYERS and _counts_depth(key):
                raise ArchitectureError(f"{section}.{key}", f"{big(count)} is beyond the bound of "
                                        f"{TOWER_LAYERS:,} a tower's layers are named to (docs/limits.md)", where)


def head_width(hidden: int, heads: int, key: str, where: str | None = None, hidden_key: str = "hidden_size") -> int:
    """``hidden // heads``, a head's width where the config gives no head_dim, refused in one line under ``key`` (the
    heads') where it is 0: transformers scales the attention by head_dim ** -0.5, a ZeroDivisionError
    (scripts/tower_flag_parity.py: Granite Speech's, HunYuan-VL's, Muse Glimmer's and Phi-4's towers counted it)."""
    if heads > hidden:
        raise ArchitectureError(key, f"{heads} heads are more than {hidden_key} {hidden}: head_dim = {hidden_key} // "
                                "heads would be 0 (transformers' head_dim ** -0.5 divides by zero)", where)
    return hidden // heads


def odd_rotary(config: Mapping[str, Any], head_dim: int, section: str, where: str | None) -> None:
    """Refuse, in one line naming head_dim, what the config class's validate_rope refuses (modeling_rope_utils.py,
    families/even_rotary.py): an odd head_dim above 4 that RoPE rotates whole."""
    rope = config.get("rope_parameters")
    factor = rope.get("partial_rotary_factor", 1.0) if isinstance(rope, Mapping) else 1.0
    if head_dim > 4 and head_dim % 2 and isinstance(factor, (int, float)) and int(head_dim * factor) == head_dim:
        raise ArchitectureError(f"{section}.head_dim", f"{head_dim} is odd and rotated whole (partial_rotary_factor "
                                f"{factor}): RoPE rotates pairs (transformers' validate_rope refuses it)", where)


def _learned(key: str, value: str, where: str | None) -> ArchitectureError:
    from ..families.learned_activations import LEARNED

    return ArchitectureError(key, f"{value!r} is not counted: {LEARNED[value]} of its own in each module that applies "
                             "it, which paramledger does not place in a tower or projector (transformers 5.24.0 "
                             "activations.py ACT2CLS)", where)


def projector_activations(config: Mapping[str, Any], where: str | None = None) -> None:
    """Refuse a learned activation (``depth_bounded``) in the whole config's projector: its projector_hidden_act (the
    LLaVA kin's, InternVL's, the audio LLMs': ACT2FN between its Linears) and the projector sections
    (``PROJECTOR_SECTIONS``): each short by 1 (prelu) or 2 (xielu) per module, scripts/tower_flag_parity.py."""
    value = config.get("projector_hidden_act")
    if type(value) is str and value in _LEARNED:
        raise _learned("projector_hidden_act", value, where)
    for key in PROJECTOR_SECTIONS:
        inner = config.get(key)
        if type(inner) is dict:
            depth_bounded(inner, key, where)


# the whole configs' projector sections, each read by its projector rule (no tower kind): Fun-ASR-Nano's
# adaptor_config, Molmo 2's adapter_config, IDEFICS 2's perceiver_config, the Q-Formers' qformer_config, Granite
# Speech's projector_config
PROJECTOR_SECTIONS = ("adaptor_config", "adapter_config", "perceiver_config", "qformer_config", "projector_config")

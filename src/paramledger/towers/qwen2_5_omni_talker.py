"""Qwen2.5-Omni's talker (Qwen2_5OmniTalkerForConditionalGeneration, transformers 5.24.0
models/qwen2_5_omni/modeling_qwen2_5_omni.py lines 2187-2327), under the whole model's "talker.": the thinker's
hidden states into speech codes.

It registers thinker_to_talker_proj, a biased Linear from embedding_size to hidden_size (line 2311), then
Qwen2_5OmniTalkerModel under "model." (embed_tokens an nn.Embedding of (vocab_size, embedding_size), line 2201; the
layers are Qwen2_5OmniDecoderLayer, the thinker's own: q, k and v biased, o not, head_dim read from the config, line
1403; the final norm; a rotary of head_dim // 2 frequencies, lines 1299-1314), then codec_head, an unbiased Linear
from hidden_size to vocab_size (line 2315), never tied (the class declares no _tied_weights_keys: checked with
tie_word_embeddings true).  The decoder is built by the decoder's own parts: Qwen2's table at the talker's sizes
(families/llama.py), its names moved under "talker.model." and its head named codec_head; the table's width and the
projection are the talker's own."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .._exceptions import ArchitectureError
from ..inventory import Buffer, Tensor
from ._kind import TowerKind, odd_rotary, positive

_new = tuple.__new__
COMPONENT = "talker"
SECTION = "talker_config"

# transformers 5.24.0 models/qwen2_5_omni/configuration_qwen2_5_omni.py (Qwen2_5OmniTalkerConfig, lines 335-369)
TALKER = {"vocab_size": 8448, "embedding_size": 3584, "hidden_size": 3584, "intermediate_size": 18944,
          "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4, "head_dim": 128,
          "hidden_act": "silu", "tie_word_embeddings": False}
_SIZES = ("vocab_size", "embedding_size", "hidden_size", "intermediate_size", "num_hidden_layers",
          "num_attention_heads", "num_key_value_heads", "head_dim")


class Talker(NamedTuple):
    """The talker's tensors, listed once, and its rotary buffers."""
    listed: tuple[Tensor, ...]
    buffers_: tuple[Buffer, ...]
    table: str  # its nn.Embedding: Hugging Face's non-embedding count drops it

    def tensors(self) -> list[Tensor]:
        return list(self.listed)

    def buffers(self) -> list[Buffer]:
        return list(self.buffers_)

    def embedding_tables(self) -> list[str]:
        return [self.table]


def make_talker(prefix: str, talker: Mapping[str, Any], where: str | None) -> Talker:
    """The talker of a talker_config over its class's defaults, each size refused in one line naming its key."""
    # (num_key_value_heads: an int field, never null, whatever __post_init__ says of None)
    sizes = {key: positive(talker, key, SECTION, where) for key in _SIZES}
    odd_rotary(talker, sizes["head_dim"], SECTION, where)
    from ..families.padding_idx import pad_problem

    if (problem := pad_problem("qwen2", talker)) is not None:  # embed_tokens' padding_idx (line 2201)
        raise ArchitectureError(f"{SECTION}.pad_token_id", problem, where)
    return _talker(prefix, tuple(sorted(sizes.items())), where)


@lru_cache(maxsize=32)
def _talker(prefix: str, items: tuple[tuple[str, int], ...], where: str | None) -> Talker:
    from .._builder import build
    from ..architecture import Architecture
    from ..families import get
    from . import whole_naming

    sizes = dict(items)
    qwen2 = get("qwen2")
    values = {key: value for key, value in sizes.items() if key != "embedding_size"}
    try:
        arch = Architecture.from_mapping({**values, **qwen2.switches, "tie_word_embeddings": False}, where)
    except ArchitectureError as error:  # said under the talker's own key
        raise ArchitectureError(f"{SECTION}.{error.key}", error.message, where) from None
    names = dataclasses.replace(whole_naming(qwen2.naming, prefix + "model."), lm_head=prefix + "codec_head")
    built = build(arch, names).tensors
    flat = built.restamped(COMPONENT) if hasattr(built, "restamped") else tuple(
        t._replace(component=COMPONENT, layer=None) for t in built)
    table, width, hidden = names.embed + ".weight", sizes["embedding_size"], sizes["hidden_size"]
    listed = [_new(Tensor, (prefix + "thinker_to_talker_proj.weight", (hidden, width), COMPONENT, None, False, 0)),
              _new(Tensor, (prefix + "thinker_to_talker_proj.bias", (hidden,), COMPONENT, None, False, 0))]
    listed += [t._replace(shape=(sizes["vocab_size"], width)) if t.name == table else t for t in flat]
    rotary = (sizes["head_dim"] + 1) // 2  # torch.arange(0, head_dim, 2)
    buffers = tuple(Buffer(f"{names.rotary}.{which}", (rotary,), "float32", False)
                    for which in ("inv_freq", "original_inv_freq"))
    return Talker(tuple(listed), buffers, table)


TALKER_KIND = TowerKind(TALKER, make_talker)
TOWERS = {"qwen2_5_omni_talker": TALKER_KIND}


def speech(config: Mapping[str, Any], where: str | None, decoder: Any = None) -> tuple[Any, ...]:
    """The talker and token2wav beside the thinker (towers.Whole.made), where enable_audio_output builds them
    (Qwen2_5OmniForConditionalGeneration.__init__, lines 3726-3741: True by default; False builds the thinker
    alone)."""
    from .qwen2_5_omni_token2wav import TOKEN2WAV

    return speech_stacks(config, where, ((SECTION, TALKER_KIND, "talker."), ("token2wav_config", TOKEN2WAV,
                                                                               "token2wav.")))


def speech_stacks(config: Mapping[str, Any], where: str | None, stacks: tuple[tuple[str, Any, str], ...]
                  ) -> tuple[Any, ...]:
    """An omni model's speech stacks (sub-config key, tower kind, prefix), each read from its own sub-config over
    its class's defaults, where enable_audio_output (true by default) builds them: Qwen2.5-Omni's and Qwen3-Omni's."""
    from ._kind import depth_bounded

    enabled = config.get("enable_audio_output", True)
    if enabled is None:
        enabled = True
    if not isinstance(enabled, bool):
        raise ArchitectureError("enable_audio_output", f"must be true or false, got {enabled!r}"[:200], where)
    if not enabled:
        return ()
    made = []
    for key, kind, prefix in stacks:
        given = config.get(key)
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise ArchitectureError(key, "must be a JSON object", where)
        merged = {**kind.defaults, **given}
        depth_bounded(merged, key, where)
        made.append(kind.make(prefix, merged, where))
    return tuple(made)

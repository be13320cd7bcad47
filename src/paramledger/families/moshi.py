"""Moshi's text decoder (Kyutai; transformers 5.24.0 models/moshi, MoshiForCausalLM): Llama's block with the
attention's projections one module down (MoshiFlexibleLinear's ``linear``), a fused gate-and-up fc1 ffn_dim wide
and fc2 from half of it (MoshiGatingMLP), a rotary in every attention layer (parts/local_attention.py), a sliding
KV cache, and one more row in the token table than the head has (the text padding id)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import ArchitectureError
from ..naming import Naming
from ..parts import MIXER_MODULES
from . import _rules as rules
from ._family import Family, same
from ._tables import LLAMA_SWITCHES

TF = "transformers 5.24.0 models/moshi/configuration_moshi.py"


def moshi_layers(config: Mapping[str, Any]) -> dict[str, Any]:
    """MoshiModel (modeling_moshi.py lines 737-750): embed_tokens has vocab_size + 1 rows, lm_head vocab_size;
    MoshiGatingMLP's fc1 is ffn_dim wide, fc2 reads ffn_dim // 2 (ffn_dim must be even: validate_architecture);
    every layer's MoshiAttention holds its own rotary; DynamicCache(config) slides every layer within
    sliding_window (no layer_types: get_layer_types_and_kwargs)."""
    _check_sub_configs(config)
    ffn = config["ffn_dim"]
    if type(ffn) is not int or ffn < 2 or ffn % 2:
        raise ArchitectureError("ffn_dim", f"must be an even whole number of at least 2, got {ffn!r}"[:200])
    vocab = config["vocab_size"]
    return {"vocab_size": vocab + 1, "output_vocab_size": vocab, "intermediate_size": ffn // 2,
            "local_attention_layers": tuple(range(config["num_hidden_layers"])), **rules.sliding_all(config)}


def _check_sub_configs(config: Mapping[str, Any]) -> None:
    """What MoshiConfig refuses in the keys that size nothing in MoshiForCausalLM (configuration_moshi.py lines
    158-191): each sub-config an object or null; a depth_decoder_config object is given audio_vocab_size, which is
    null unless the config or its audio_encoder_config (MimiConfig, codebook_size) gives it; num_codebooks no more
    than the audio encoder's (MimiConfig.num_codebooks: its num_quantizers, 32 by default, a read-only property)."""
    for key in ("audio_encoder_config", "depth_decoder_config"):
        if config.get(key) is not None and not isinstance(config[key], Mapping):
            raise ArchitectureError(key, f"must be a JSON object or null, got {config[key]!r}"[:200])
    audio = config.get("audio_encoder_config")
    if isinstance(config.get("depth_decoder_config"), Mapping) and audio is None and config.get(
            "audio_vocab_size") is None:
        raise ArchitectureError("depth_decoder_config", "an object with neither audio_vocab_size nor "
                                "audio_encoder_config: transformers cannot build it (MoshiDepthConfig's "
                                "audio_vocab_size would be null)")
    if audio is not None and "num_codebooks" in audio:
        raise ArchitectureError("audio_encoder_config.num_codebooks", "is MimiConfig's read-only alias of "
                                "num_quantizers: transformers cannot set it (AttributeError)")
    most = (audio or {}).get("num_quantizers", 32)
    codebooks = config.get("num_codebooks", 8)
    if type(codebooks) is int and type(most) is int and codebooks > most:
        raise ArchitectureError("num_codebooks", f"{codebooks} is more than the audio encoder's {most} codebooks "
                                "(audio_encoder_config.num_quantizers): MoshiConfig refuses it")


FAMILIES = [] if "local_attention" not in MIXER_MODULES else [
    # identical to llama (the default Naming) except: the projections' ".linear" modules, the fused fc1/fc2 MLP,
    # a rotary per layer, every layer sliding, the table's extra row and a head never tied (MoshiForCausalLM has
    # no tied keys) (configuration_moshi.py)
    Family(
        model_type="moshi",
        causal_lm_class="MoshiForCausalLM",
        source=TF,
        naming=Naming(q="self_attn.q_proj.linear", k="self_attn.k_proj.linear", v="self_attn.v_proj.linear",
                      o="self_attn.o_proj.linear", gate_up="mlp.fc1", down="mlp.fc2", rotary=None,
                      layer_rotary="self_attn.rotary_emb"),
        keys=same("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
                  "head_dim", "max_position_embeddings", "hidden_act"),
        defaults={"vocab_size": 32000, "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                  "num_key_value_heads": None, "head_dim": None, "max_position_embeddings": 3000,
                  "hidden_act": "silu", "sliding_window": 3000, "ffn_dim": 22528, "tie_word_embeddings": False},
        switches={**LLAMA_SWITCHES, "tie_word_embeddings": False},
        # ffn_dim and sliding_window: read by moshi_layers; tie_word_embeddings: no tied keys, never tied; the
        # codebooks, the audio vocabulary and the two sub-configs belong to the depth decoder and the audio encoder
        # (MoshiForConditionalGeneration), not to MoshiForCausalLM
        count_neutral=frozenset({"ffn_dim", "sliding_window", "tie_word_embeddings", "num_codebooks",
                                 "audio_vocab_size", "audio_encoder_config", "depth_decoder_config"}),
        derive=(moshi_layers,),
    ),
]

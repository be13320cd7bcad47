"""Instruct, -it and -Chat releases whose config.json is their bundled base's but for keys no view
reads (the end-of-turn token): such a name counts as its base, with no hub and no network.

Only releases whose config was read are here, each with the keys its config gives as they were
read (``quoted``: the whole config, or the architecture keys a public copy quotes); tests/
test_hub_aliases.py asserts, for each, that the base's bundled config with those keys over it
makes the same Architecture, and that every quoted key that differs changes nothing a view reads.
Any other variant is not guessed: its config comes from the hub (the [hub] extra).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Alias(NamedTuple):
    repo: str  # the variant's hub id
    base: str  # the bundled model whose config it shares
    source: str  # where its config was read
    quoted: dict[str, Any]  # its config's keys as read there


ALIASES = (
    Alias("meta-llama/Meta-Llama-3-8B-Instruct", "Meta-Llama-3-8B",
          "https://huggingface.co/meta-llama/Meta-Llama-3-8B-Instruct/blob/main/config.json, read from a verbatim "
          "copy (llama_3_8B_Instruct_cfg_str) in a public GitHub repo",
          {"_name_or_path": "meta-llama/Meta-Llama-3-8B-Instruct", "architectures": ["LlamaForCausalLM"],
           "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": 128000, "eos_token_id": 128009,
           "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 14336,
           "max_position_embeddings": 8192, "model_type": "llama", "num_attention_heads": 32,
           "num_hidden_layers": 32, "num_key_value_heads": 8, "pretraining_tp": 1, "rms_norm_eps": 1e-05,
           "rope_scaling": None, "rope_theta": 500000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16",
           "transformers_version": "4.40.0.dev0", "use_cache": True, "vocab_size": 128256}),
    Alias("meta-llama/Llama-3.1-8B-Instruct", "Llama-3.1-8B",
          "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/blob/main/config.json, its architecture keys as a "
          "public GitHub test of that config quotes them (TestLlama31_8BInstructConfigDerivesProductionAxes)",
          {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
           "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
           "intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 131072,
           "rms_norm_eps": 1e-05, "rope_theta": 500000.0, "bos_token_id": 128000,
           "eos_token_id": [128001, 128008, 128009], "tie_word_embeddings": False,
           "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                            "original_max_position_embeddings": 8192, "rope_type": "llama3"}}),
)

_BY_NAME = {alias.repo.split("/")[1].lower(): alias for alias in ALIASES}


def alias_of(text: str) -> Alias | None:
    """The alias ``text`` names: its release name (any case) or its exact hub id; another org's
    repo of the same name is a different model (a fine-tune) and is not an alias."""
    org, slash, name = text.rpartition("/")
    alias = _BY_NAME.get(name.lower())
    if alias is None or slash and org.lower() != alias.repo.split("/")[0].lower():
        return None
    return alias


VARIANT_SUFFIXES = ("-instruct", "-it", "-chat")


def is_variant(text: str) -> bool:
    """Whether ``text`` names an instruction-tuned or chat release (by its name's suffix)."""
    name = text.rsplit("/", 1)[-1].lower()
    return any(name.endswith(suffix) or f"{suffix}-" in name for suffix in VARIANT_SUFFIXES)

"""Every supported model_type against transformers on the meta device: the inventory's
tensor names, shapes, aliases and total equal ``<Family>ForCausalLM.named_parameters()``,
for the config class's defaults (full size) and for random small configs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError
from paramledger.parts.sublayers import engaged_kinds
from paramledger.families.kept_float32 import kept_in_float32
from paramledger.reference import DEFAULTS_NEED, build_reference, default_config, diff, hf_config

from _family_configs import CONFIGS
from test_engaged import every_kind_asked

SUPPORTED = families.supported()
SLIDING = "sliding_attention"


def assert_matches_reference(config: dict) -> None:
    family = families.get(config["model_type"])
    arch = paramledger.load(config)
    inventory = paramledger.inventory(arch)
    reference = build_reference(config, text_config=family.text_decoder_only)
    result = diff(inventory, reference)
    assert result.matches, result.to_json()
    assert inventory.total == reference.total
    assert tuple(kept_in_float32(arch.model_type)) == reference.kept_in_float32  # what memory holds in float32
    assert engaged_kinds(arch) == every_kind_asked(arch)  # the short cut of a design given no kind's key
    # The listing follows named_parameters(): the order a user compares a manifest with.
    assert [t.name for t in inventory.tensors] == [name for name, _ in reference.tensors]
    # Which layers slide, as transformers decides it: the config's layer_types when the
    # class has them (else every layer), and only when a window is set.
    cfg = hf_config(config)
    if family.text_config or family.seq2seq is not None:  # (T5Gemma's decoder section; else the config itself)
        cfg = cfg.get_text_config(decoder=True) if family.seq2seq is not None else cfg.get_text_config()
    if cfg.__dict__.get("_heterogeneity_spec") is not None:  # (NeoMME's windows per layer: the config's own read)
        cfg.allow_global_per_layer_attribute_access = True
    window = getattr(cfg, "sliding_window", None)
    types = getattr(cfg, "layer_types", None) or [SLIDING] * arch.num_hidden_layers
    if hasattr(cfg, "attention_layers"):  # GPT-Neo: "local" layers attend within window_size
        window = cfg.window_size
        types = [SLIDING if kind == "local" else "full" for kind in cfg.attention_layers]
    if "chunked_attention" in types:  # Llama 4: a chunked layer holds at most attention_chunk_size keys
        window = cfg.attention_chunk_size
        types = [SLIDING if kind == "chunked_attention" else kind for kind in types]
    types = [SLIDING if kind == "hybrid_sliding" else kind for kind in types]  # ZAYA's: a sliding cache layer
    # DeepSeek-V4's compressing layers keep their window's keys too (DeepseekV4HCACache: a sliding layer's)
    types = [SLIDING if kind in ("compressed_sparse_attention", "heavily_compressed_attention") else kind
             for kind in types]
    sliding = [bool(window) and kind == SLIDING for kind in types]
    # (a family may keep its pattern without a window, for the rotary per layer type: no layer slides then)
    assert arch.sliding_layers() == sliding
    assert arch.sliding_window == (window if any(sliding) else None)


def test_every_family_has_a_strategy():
    assert sorted(CONFIGS) == SUPPORTED


@pytest.mark.parametrize("model_type", SUPPORTED)
def test_config_class_defaults_match_transformers(model_type):
    assert_matches_reference(default_config(model_type))


@pytest.mark.parametrize("model_type", sorted(DEFAULTS_NEED))
def test_defaults_transformers_cannot_build_are_refused(model_type):
    key = next(iter(DEFAULTS_NEED[model_type]))  # the first missing key is the one refused
    # (a tower's key is refused as the key inside it: "config: vision_config.num_attention_heads: ...")
    with pytest.raises(ArchitectureError, match=f"config: {key}(: missing \\(required: transformers 5.24.0 cannot "
                                                "build this family without it\\)|\\.)"):
        paramledger.load({"model_type": model_type})


@pytest.mark.parametrize("model_type", SUPPORTED)
@given(data=st.data())
def test_random_small_configs_match_transformers(model_type, data):
    """The "ci" profile draws 40 configs per model_type (at least 25 required)."""
    assert_matches_reference(data.draw(CONFIGS[model_type], label="config"))


@pytest.mark.parametrize("model_type", SUPPORTED)
def test_family_reads_or_classifies_every_config_class_key(model_type):
    """No key the config class knows is silently dropped: each one is read, required or
    known to be count-neutral (else a real config.json would pass it by unreported)."""
    family = families.get(model_type)
    cfg = hf_config(default_config(model_type))
    if family.text_config:
        cfg = cfg.get_text_config()
    keys = set(cfg.to_dict())
    assert sorted(keys - family.understood) == []


@pytest.mark.parametrize("model_type", SUPPORTED)
def test_family_cites_its_configuration_file(model_type):
    family = families.get(model_type)
    assert family.source.startswith("transformers 5.24.0 models/")
    assert "configuration_" in family.source
    assert family.causal_lm_class.endswith(("ForCausalLM", "LMHeadModel", "ForConditionalGeneration",
                                            "GenerationDecoder", "ForMaskedLM", "ForTextToText",  # SeamlessM4T's
                                            "_Omni_Reasoning_V3",  # Nemotron-H Omni's whole class has no suffix
                                            "ForVisionText2Text",  # IDEFICS's whole class
                                            "ForProteinText2Text",  # Evolla's whole class
                                            "ForBlockDiffusion",  # DiffusionGemma's whole class
                                            "EncoderDecoderModel"))  # nor has the encoder-decoder's


# Classes that tie nothing whatever tie_word_embeddings says (no _tied_weights_keys): their heads are their own.
# (BigBirdPegasusForConditionalGeneration, which a bigbird_pegasus config is counted as, ties model.shared.)
NEVER_TIED = {"cpmant": "CpmAntForCausalLM declares _tied_weights_keys = {}"}
ACTIVATION_KEYS = ("hidden_act", "hidden_activation", "activation_function", "afn")


@pytest.mark.parametrize("model_type", SUPPORTED)
def test_facts_for_the_family_table_match_the_config_class(model_type):
    """What seed 002's family table reads (activation, tying, KV heads, learned positions)
    agrees with the config class's own defaults, not just the tensor count."""
    family = families.get(model_type)
    config = default_config(model_type)
    arch = paramledger.load(config)
    cfg = hf_config(config)
    if family.text_config:
        cfg = cfg.get_text_config()
    activation = next((getattr(cfg, key) for key in ACTIVATION_KEYS if getattr(cfg, key, None)), None)
    if activation is not None:  # BLOOM hard-codes GELU in its modeling code
        assert arch.hidden_act == activation
    tying = hf_config(config) if family.whole is not None else cfg  # a whole model ties by its own key
    # (a whole config class with no tying key of its own, Qwen2-Audio's: its class ties nothing)
    ties = getattr(tying, "tie_word_embeddings", False) and model_type not in NEVER_TIED
    if family.whole is not None and not family.whole.tie_keys and family.whole.tie_from_text:
        ties = cfg.tie_word_embeddings  # (no key of its own: its language model's, BLIP-2's and Llama 4's)
    assert arch.tie_word_embeddings == ties
    inventory = paramledger.inventory(arch)
    assert inventory.tied == ties
    # learned positions: a position table, or a learned relative-position table (MPNet's, CPM-Ant's, DeBERTa-v2's,
    # T5's in its attention)
    learned = (arch.position_embedding_type == "learned" or arch.relative_attention_num_buckets is not None
               or arch.relative_embeddings_size is not None or arch.relative_bias_num_buckets is not None)
    assert (inventory.component("positions") > 0) == learned
    if not arch.is_mla and getattr(cfg, "num_key_value_heads", None):
        assert arch.kv_heads == cfg.num_key_value_heads


def test_coverage_doc_is_current():
    """docs/coverage.md is generated (scripts/coverage.py) and must match the families."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "scripts" / "coverage.py"
    spec = importlib.util.spec_from_file_location("coverage_script", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.DOC.read_text(encoding="utf-8") == module.render(), "run python scripts/coverage.py"

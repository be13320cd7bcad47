"""Set MB's MobileBERT and LUKE beyond tests/test_families.py's tensor-by-tensor check: the masked-LM class as the
reference, Hugging Face's own non-embedding count, every tying and switch combination, NoNorm's order, a closed form,
and the refusals of what transformers cannot build or run."""

from __future__ import annotations

import itertools
import json

import pytest
from _family_configs_mb import CONFIGS_MB
from hypothesis import given
from hypothesis import strategies as st
from test_encoders_k import masked_lm  # AutoModelForMaskedLM on the meta device

import paramledger
from paramledger import families
from paramledger._exceptions import ArchitectureError
from paramledger.formula import closed_form
from paramledger.reference import default_config, diff, reference_of

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL = {"model_type": "mobilebert", "vocab_size": 40, "hidden_size": 16, "num_attention_heads": 2,
         "intermediate_size": 12, "num_hidden_layers": 2, "embedding_size": 8, "intra_bottleneck_size": 6,
         "max_position_embeddings": 10, "pad_token_id": 0}


def test_defaults_total_and_hugging_face_non_embedding_count():
    """MobileBertConfig's defaults: 36,596,538, 32,426,554 without the three nn.Embedding tables (measured)."""
    config = default_config("mobilebert")
    model = masked_lm(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert type(model).__name__ == families.get("mobilebert").causal_lm_class == "MobileBertForMaskedLM"
    assert inventory.total == model.num_parameters() == 36_596_538
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True) == 32_426_554


@pytest.mark.parametrize(("tie", "bottleneck", "attention", "shared", "trigram", "norm"), list(itertools.product(
    [True, False], [True, False], [True, False], [True, False], [True, False], ["no_norm", "layer_norm"])))
def test_every_switch_combination_matches_transformers(tie, bottleneck, attention, shared, trigram, norm):
    """The decoder tied to the token table (its bias then cls.predictions.bias) or its own, each bottleneck switch,
    the 3-gram input and both norms: names, shapes, aliases and order as MobileBertForMaskedLM's."""
    config = {**SMALL, "tie_word_embeddings": tie, "use_bottleneck": bottleneck, "use_bottleneck_attention": attention,
              "key_query_shared_bottleneck": shared, "trigram_input": trigram, "normalization_type": norm,
              "num_feedforward_networks": 2}
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, reference_of(masked_lm(config), "mobilebert")).matches
    tied = {"cls.predictions.decoder.weight": "mobilebert.embeddings.word_embeddings.weight",
            "cls.predictions.decoder.bias": "cls.predictions.bias"}
    assert inventory.aliases == (tied if tie else {})


@given(data=st.data())
def test_the_masked_lm_class_is_the_reference(data):
    config = data.draw(CONFIGS_MB["mobilebert"], label="config")
    assert diff(paramledger.inventory(paramledger.load(config)), reference_of(masked_lm(config), "mobilebert")).matches


def test_no_norm_registers_its_bias_first_and_the_head_norm_is_a_layer_norm():
    names = [t.name for t in paramledger.inventory(paramledger.load(SMALL)).tensors]
    assert names.index("mobilebert.embeddings.LayerNorm.bias") < names.index("mobilebert.embeddings.LayerNorm.weight")
    layer = "mobilebert.encoder.layer.1.ffn.0.output.LayerNorm."
    assert names.index(layer + "bias") < names.index(layer + "weight")
    head = "cls.predictions.transform.LayerNorm."
    assert names.index(head + "weight") < names.index(head + "bias")


def test_equal_widths_build_an_empty_head_dense():
    """hidden_size = embedding_size: cls.predictions.dense is (0, vocab), as nn.Linear builds it."""
    inventory = paramledger.inventory(paramledger.load({**SMALL, "embedding_size": 16}))
    assert inventory["cls.predictions.dense.weight"].shape == (0, 40)


def test_the_closed_form_follows_the_sizes():
    """The head's extra rows and the bottleneck's FFN widths are symbols: the traced total holds at perturbed sizes."""
    assert closed_form(paramledger.load(default_config("mobilebert"))).evaluate() == 36_596_538


def test_set_keeps_the_trigram_projection_at_the_new_width():
    arch = paramledger.load(default_config("mobilebert")).replace(embedding_size=64)
    assert paramledger.inventory(arch)["mobilebert.embeddings.embedding_transformation.weight"].shape == (512, 192)


@pytest.mark.parametrize(("key", "value", "message"), [
    ("normalization_type", "batch_norm", "normalization_type: 'batch_norm' is not one of 'no_norm', 'layer_norm'"),
    ("trigram_input", "yes", "trigram_input: must be true or false, got 'yes'"),
    ("use_bottleneck", 2, "use_bottleneck: must be true or false, got 2"),
    ("embedding_size", 600, "embedding_size: 600 is wider than hidden_size=512"),
    ("embedding_size", None, "embedding_size: null: MobileBertEmbeddings sizes its token table by it"),
    ("intra_bottleneck_size", 0, "intra_bottleneck_size: must be positive, got 0"),
    ("intra_bottleneck_size", 2, "intra_bottleneck_size: 2 is narrower than num_attention_heads=4"),
    ("num_feedforward_networks", 0, "num_feedforward_networks: must be positive, got 0"),
])
def test_refusals_name_the_key(tmp_path, cli, key, value, message):
    config = {"model_type": "mobilebert", key: value}
    with pytest.raises(ArchitectureError, match="config: " + message):
        paramledger.load(config)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    status, out, err = cli("count", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1 and f"{key}: " in err


def test_set_hidden_size_below_the_table_is_refused():
    arch = paramledger.load(default_config("mobilebert"))
    with pytest.raises(ArchitectureError, match="embedding_size: 128 is wider than hidden_size=64"):
        paramledger.inventory(arch.replace(hidden_size=64, num_attention_heads=2))


LUKE_SMALL = {"model_type": "luke", "vocab_size": 30, "hidden_size": 8, "num_attention_heads": 2,
              "intermediate_size": 12, "num_hidden_layers": 2, "max_position_embeddings": 10, "entity_vocab_size": 20,
              "pad_token_id": 1}


def test_luke_defaults_total_and_hugging_face_non_embedding_count():
    """LukeConfig's defaults: 314,445,435; without its six nn.Embedding tables (the entity table and the entity
    embeddings' own position and token-type tables among them) 147,050,875 (measured)."""
    config = default_config("luke")
    model = masked_lm(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert type(model).__name__ == families.get("luke").causal_lm_class == "LukeForMaskedLM"
    assert inventory.total == model.num_parameters() == 314_445_435
    assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True) == 147_050_875


@pytest.mark.parametrize(("tie", "entity_width", "aware"), list(itertools.product([True, False], [8, 4], [True, False])))
def test_luke_every_tying_combination_matches_transformers(tie, entity_width, aware):
    """tie_word_embeddings ties the entity decoder to the entity table and lm_head.decoder.bias to lm_head.bias, never
    the LM head's weight to the token table; entity_embedding_dense only where entity_emb_size differs."""
    config = {**LUKE_SMALL, "tie_word_embeddings": tie, "entity_emb_size": entity_width,
              "use_entity_aware_attention": aware}
    inventory = paramledger.inventory(paramledger.load(config))
    assert diff(inventory, reference_of(masked_lm(config), "luke")).matches
    tied = {"lm_head.decoder.bias": "lm_head.bias",
            "entity_predictions.decoder.weight": "luke.entity_embeddings.entity_embeddings.weight"}
    assert inventory.aliases == (tied if tie else {})
    assert "lm_head.decoder.weight" in inventory.names()
    assert ("luke.entity_embeddings.entity_embedding_dense.weight" in inventory.names()) == (entity_width != 8)
    assert ("luke.encoder.layer.1.attention.self.e2e_query.bias" in inventory.names()) == aware


@given(data=st.data())
def test_luke_the_masked_lm_class_is_the_reference(data):
    config = data.draw(CONFIGS_MB["luke"], label="config")
    assert diff(paramledger.inventory(paramledger.load(config)), reference_of(masked_lm(config), "luke")).matches


@pytest.mark.parametrize(("key", "value", "message"), [
    ("entity_vocab_size", None, "entity_vocab_size: null: LukeEntityEmbeddings sizes its entity table by it"),
    ("entity_emb_size", None, "entity_emb_size: null: LukeEntityEmbeddings sizes its entity table by it"),
    ("entity_vocab_size", 0, "entity_vocab_size: must be positive, got 0"),
    ("entity_emb_size", 0, "entity_emb_size: must be positive, got 0"),
    ("use_entity_aware_attention", "yes", "use_entity_aware_attention: must be true or false, got 'yes'"),
])
def test_luke_refusals_name_the_key(tmp_path, cli, key, value, message):
    config = {"model_type": "luke", key: value}
    with pytest.raises(ArchitectureError, match="config: " + message):
        paramledger.load(config)
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    status, out, err = cli("count", str(path))
    assert status == 2 and out == "" and err.count("\n") == 1 and f"{key}: " in err

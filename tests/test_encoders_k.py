"""Set K's encoders (issue #17) beyond tests/test_families.py's tensor-by-tensor check: Hugging Face's own
non-embedding count of each masked-LM class, and the refusals of what a family's table does not build."""

from __future__ import annotations

import contextlib
import io
import warnings

import pytest
from _family_configs_k import CONFIGS_K
from hypothesis import given
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import default_config, diff, hf_config, reference_of

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def masked_lm(config: dict):
    """AutoModelForMaskedLM's model of ``config`` on the meta device."""
    transformers.logging.set_verbosity_error()
    cfg = hf_config(config)
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(), torch.device("meta"):
        warnings.simplefilter("ignore")
        return transformers.AutoModelForMaskedLM.from_config(cfg)


# I-BERT's tables are QuantEmbedding modules, no nn.Embedding: Hugging Face's non-embedding figure keeps all three in,
# paramledger's drops them as every other family's (docs/notes/encoders-k.md has the change that would follow it)
HF_KEEPS_TABLES = {"ibert"}


@pytest.mark.parametrize("model_type", sorted(CONFIGS_K))
def test_hugging_face_non_embedding_count_at_the_class_defaults(model_type):
    """num_parameters(exclude_embeddings=True) drops the nn.Embedding weights as named_parameters() names them:
    a table tied into a head registered first (Jina v3's lm_head.decoder) stays in, as it does here."""
    config = default_config(model_type)
    model = masked_lm(config)
    inventory = paramledger.inventory(paramledger.load(config))
    assert inventory.total == model.num_parameters()
    tables = inventory.total - inventory.non_embedding("hf")
    if model_type in HF_KEEPS_TABLES:
        assert model.num_parameters(exclude_embeddings=True) == inventory.total
        assert tables == sum(inventory.component(name) for name in ("embedding", "positions", "token_types"))
    else:
        assert inventory.non_embedding("hf") == model.num_parameters(exclude_embeddings=True)


@pytest.mark.parametrize("model_type", ["rembert"])  # set K's types that register a CausalLM class too
@given(data=st.data())
def test_the_masked_lm_class_holds_the_causal_lm_class_tensors(model_type, data):
    """test_families checks RemBertForCausalLM; RemBertForMaskedLM holds the same tensors, names and order."""
    config = data.draw(CONFIGS_K[model_type], label="config")
    inventory = paramledger.inventory(paramledger.load(config))
    reference = reference_of(masked_lm(config), model_type)
    assert diff(inventory, reference).matches
    assert [t.name for t in inventory.tensors] == [name for name, _ in reference.tensors]


def test_ibert_refuses_an_activation_other_than_gelu():
    with pytest.raises(ArchitectureError, match="hidden_act: 'relu' is refused by transformers 5.24.0: "
                                                 "IBertIntermediate supports only 'gelu'"):
        paramledger.load({"model_type": "ibert", "hidden_act": "relu"})
    with pytest.raises(ValueError, match="only supports 'gelu'"):  # as transformers refuses it
        masked_lm({"model_type": "ibert", "hidden_act": "relu", "num_hidden_layers": 1})


@pytest.mark.parametrize(("change", "message"), [
    ({"conv_kernel_size": 3, "conv_groups": 5}, "conv_groups: 5 does not divide hidden_size=1536"),
    ({"legacy": "no"}, "legacy: must be true or false"),
    ({"embedding_size": 128}, "embedding_size: 128 apart from hidden_size is not supported for deberta-v2"),
])
def test_deberta_v2_refuses_what_its_table_does_not_build(change, message):
    """Each of these builds tensors transformers has and this table does not (a ConvLayer, a head without a decoder,
    embed_proj without a bias; position projections and narrower heads are counted: tests/test_enc_deberta.py)."""
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load({"model_type": "deberta-v2", **change})


@pytest.mark.parametrize(("change", "message"), [
    ({"num_key_value_heads": 8}, "num_key_value_heads: 8 != num_attention_heads=40"),
    ({"head_dim": 32}, r"head_dim: 32 × 40 heads != hidden_size=2560"),
])
def test_esmc_refuses_what_its_hidden_wide_qk_norms_cannot_run(change, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load({"model_type": "esmc", **change})


@pytest.mark.parametrize(("change", "message"), [
    ({"position_embedding_type": "relative_key"}, "position_embedding_type: 'relative_key' is not supported for esm"),
    ({"vocab_size": None}, "vocab_size: may not be null"),
])
def test_esm_refuses_what_its_table_does_not_build(change, message):
    with pytest.raises(ArchitectureError, match=message):
        paramledger.load({"model_type": "esm", "vocab_size": 33, **change})


def test_esm_without_vocab_size_is_refused_as_transformers_cannot_build_it():
    with pytest.raises(ArchitectureError, match="vocab_size: missing"):
        paramledger.load({"model_type": "esm"})

"""MobileBERT's true_hidden_size given other than the width MobileBertConfig derives (helper enc, issue #15): the
given one wins (configuration_mobilebert.py lines 86-90, then PreTrainedConfig's kwargs), the attention and FFNs are
built that wide and the bottleneck's input projections intra_bottleneck_size wide (modeling_mobilebert.py lines
176-373), checked tensor by tensor against transformers 5.24.0 on the meta device; the note says its forward cannot
run (measured here on the CPU)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError

from _family_configs import CONFIGS
from _rope_parity import transformers_outcome
from test_families import assert_matches_reference
from test_padding_idx import _smallest


@st.composite
def _given_width(draw) -> dict:
    """MobileBERT's own strategy with true_hidden_size drawn from the heads' count up, mostly not the derived width."""
    config = dict(draw(CONFIGS["mobilebert"]))
    heads = config["num_attention_heads"]
    config["true_hidden_size"] = draw(st.integers(heads, 4 * heads + 3))
    return config


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(_given_width())
def test_a_given_true_hidden_size_matches_transformers(config):
    assert_matches_reference(config)
    notes = paramledger.load(config).notes
    derived = config["intra_bottleneck_size"] if config["use_bottleneck"] else config["hidden_size"]
    assert any("a model whose forward cannot run" in note for note in notes) == (config["true_hidden_size"] != derived)


def test_the_smallest_config_counts_it_with_a_note():
    config = {**_smallest("mobilebert"), "true_hidden_size": 1}  # (hidden_size 2, no bottleneck: derived 2)
    arch = paramledger.load(config)
    assert paramledger.inventory(arch).total == 57  # (79 at the derived width: refused before)
    assert any(note.startswith("true_hidden_size 1 is not hidden_size=2, the width MobileBertConfig derives: counted "
                               "as transformers builds it") for note in arch.notes)


@pytest.mark.parametrize("changes", [{"true_hidden_size": 6}, {"true_hidden_size": 4, "use_bottleneck": False}])
def test_its_forward_cannot_run_in_transformers(changes):
    torch = pytest.importorskip("torch")
    import transformers

    config = {"vocab_size": 10, "hidden_size": 8, "num_attention_heads": 2, "num_hidden_layers": 1,
              "intermediate_size": 6, "max_position_embeddings": 8, "type_vocab_size": 2, "embedding_size": 4,
              "intra_bottleneck_size": 4, **changes}
    model = transformers.MobileBertForMaskedLM(transformers.MobileBertConfig(**config))
    with pytest.raises(RuntimeError):
        model(torch.tensor([[1, 2, 3]]))
    assert any("forward cannot run" in note for note in paramledger.load({"model_type": "mobilebert", **config}).notes)


@pytest.mark.parametrize("changes, message", [
    ({"true_hidden_size": 2.0}, "true_hidden_size: must be a whole number, got 2.0"),
    ({"true_hidden_size": None}, "true_hidden_size: must be a whole number, got None"),
    ({"true_hidden_size": 0}, "true_hidden_size: must be positive, got 0"),
    ({"true_hidden_size": 1, "num_attention_heads": 2}, "true_hidden_size: 1 is narrower than num_attention_heads=2"),
])
def test_what_transformers_cannot_build_is_refused_in_one_line(changes, message):
    config = {**_smallest("mobilebert"), **changes}
    assert not transformers_outcome(config).startswith("builds ")
    with pytest.raises(ArchitectureError) as raised:
        paramledger.inventory(paramledger.load(config))
    assert message in str(raised.value) and "\n" not in str(raised.value)

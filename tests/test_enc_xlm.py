"""XLM's and FlauBERT's adaptive-softmax head (asm true with asm_cutoffs and asm_div_value; helper enc, issue #15):
XLMPredLayer.proj is nn.AdaptiveLogSoftmaxWithLoss (modeling_xlm.py lines 878-887, parts/adaptive_softmax.py), checked
tensor by tensor against transformers 5.24.0 on the meta device; the values torch refuses are refused in one line
naming the key."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paramledger
from paramledger._exceptions import ArchitectureError
from paramledger.reference import build_reference

from _family_configs import CONFIGS
from _rope_parity import transformers_outcome
from test_families import assert_matches_reference
from test_padding_idx import _smallest

DIV_VALUES = st.one_of(st.integers(1, 6), st.floats(0.25, 8.0), st.just(math.inf))


@st.composite
def _adaptive(draw, model_type: str) -> dict:
    """The family's own strategy with asm true: one to three cutoffs below the vocabulary (n_words: the config may
    spell it vocab_size or n_words), and a div_value an int, a float or inf (every tail 0 wide)."""
    config = dict(draw(CONFIGS[model_type]))
    words = config.get("vocab_size", config.get("n_words"))
    cutoffs = draw(st.lists(st.integers(1, words - 1), min_size=1, max_size=3, unique=True))
    config.update(asm=True, asm_cutoffs=sorted(cutoffs), asm_div_value=draw(DIV_VALUES))
    return config


@pytest.mark.parametrize("model_type", ["xlm", "flaubert"])
def test_the_adaptive_softmax_head_matches_transformers(model_type):
    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_adaptive(model_type))
    def check(config):
        assert_matches_reference(config)

    check()


@pytest.mark.parametrize("tied", [False, True])
def test_the_smallest_config_counts_the_head_and_tails(tied):
    config = {**_smallest("xlm"), "emb_dim": 8, "asm": True, "asm_cutoffs": [2, 3], "asm_div_value": 2.0,
              "tie_word_embeddings": tied}
    inventory = paramledger.inventory(paramledger.load(config))
    shapes = {t.name: t.shape for t in inventory.tensors}
    assert [(name, shape) for name, shape in shapes.items() if name.startswith("pred_layer")] == [
        ("pred_layer.proj.head.weight", (4, 8)), ("pred_layer.proj.head.bias", (4,)),  # shortlist 2 + 2 clusters
        ("pred_layer.proj.tail.0.0.weight", (4, 8)), ("pred_layer.proj.tail.0.1.weight", (1, 4)),  # 8 // 2
        ("pred_layer.proj.tail.1.0.weight", (2, 8)), ("pred_layer.proj.tail.1.1.weight", (1, 2))]  # 8 // 4
    assert inventory.total == 1018
    # the tie still names proj.weight (XLMWithLMHeadModel._tied_weights_keys): an alias of the table, no tensor
    assert inventory.aliases == ({"pred_layer.proj.weight": "transformer.embeddings.weight"} if tied else {})


def test_another_hidden_size_gets_its_own_tail_widths():
    config = {**_smallest("xlm"), "emb_dim": 8, "asm": True, "asm_cutoffs": [2], "asm_div_value": 4.0}
    wider = paramledger.load(config).replace(hidden_size=32)
    assert paramledger.inventory(wider).total == build_reference({**config, "emb_dim": 32}).total


def test_the_cli_counts_it(tmp_path, cli):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**_smallest("flaubert"), "asm": True, "asm_cutoffs": [1], "asm_div_value": 4}))
    status, out, err = cli("count", str(path), "--json")
    assert status == 0 and json.loads(out)["total"] == 36  # (emb_dim 1: head 2 × 1 + 2, one tail 0 wide)


@pytest.mark.parametrize("changes, message", [
    ({"asm_cutoffs": [3, 2]}, "asm_cutoffs: [3, 2] is refused by nn.AdaptiveLogSoftmaxWithLoss"),
    ({"asm_cutoffs": [2, 2]}, "asm_cutoffs: [2, 2] is refused"),
    ({"asm_cutoffs": [0, 2]}, "asm_cutoffs: [0, 2] is refused"),
    ({"asm_cutoffs": [2, 4]}, "asm_cutoffs: [2, 4] is refused"),  # (n_words 4: each below it)
    ({"asm_cutoffs": []}, "asm_cutoffs: [] is refused"),
    ({"asm_cutoffs": [2.0, 3]}, "asm_cutoffs: must be a list of whole numbers, got [2.0, 3]"),
    ({"asm_cutoffs": 2}, "asm_cutoffs: must be a list of whole numbers, got 2"),
    ({"asm_cutoffs": None}, "asm_cutoffs: null with asm true: transformers cannot build it"),
    ({"asm_div_value": 0}, "asm_div_value: 0 fails in nn.AdaptiveLogSoftmaxWithLoss (hidden_size // asm_div_value ** "
                           "1: ZeroDivisionError)"),
    ({"asm_div_value": -1.0}, "asm_div_value: -1.0 makes tail 0's width -8: a negative tensor size"),
    ({"asm_div_value": 1e200}, "asm_div_value: 1e+200 fails in nn.AdaptiveLogSoftmaxWithLoss (hidden_size // "
                               "asm_div_value ** 2: OverflowError)"),
    ({"asm_div_value": math.nan}, "asm_div_value: nan fails"),
    ({"asm_div_value": "2"}, "asm_div_value: must be a number, got '2'"),
])
def test_what_torch_refuses_is_refused_in_one_line(changes, message):
    config = {**_smallest("xlm"), "emb_dim": 8, "asm": True, "asm_cutoffs": [2, 3], "asm_div_value": 2.0, **changes}
    assert not transformers_outcome(config).startswith("builds ")
    with pytest.raises(ArchitectureError) as raised:
        paramledger.load(config)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_without_the_div_value_transformers_cannot_build_it():
    config = {**_smallest("xlm"), "asm": True, "asm_cutoffs": [2]}
    assert "AttributeError" in transformers_outcome(config)
    with pytest.raises(ArchitectureError, match="asm: true without asm_div_value: transformers cannot build it"):
        paramledger.load(config)

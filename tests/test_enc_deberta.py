"""DeBERTa-v2's attention where it is no plain multi-head attention (helper enc, issue #15): an attention_head_size
whose heads do not fill hidden_size (query, key and value heads × attention_head_size wide, the output dense still
hidden_size square) and the position projections of relative attention without share_att_key (pos_key_proj for c2p,
pos_query_proj for p2c), both built by transformers 5.24.0 (modeling_deberta_v2.py lines 42-53, 142-176) and checked
here tensor by tensor on the meta device (parts/disentangled_v2_attention.py)."""

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
def _disentangled(draw) -> dict:
    """DeBERTa-v2's own strategy with the new behaviour drawn in every example: an attention_head_size whose heads do
    not fill hidden_size, relative attention's unshared position projections, or both."""
    config = dict(draw(CONFIGS["deberta-v2"]))
    config.pop("attention_head_size", None)
    drawn = draw(st.sampled_from(["heads", "positions", "both"]))
    if drawn != "positions":
        derived = config["hidden_size"] // config["num_attention_heads"]
        config["attention_head_size"] = draw(st.integers(1, 6).filter(lambda size: size != derived))
    if drawn != "heads":
        config.update(relative_attention=True, share_att_key=draw(st.sampled_from([False, None])),
                      pos_att_type=draw(st.sampled_from(["c2p", "p2c", "p2c|c2p", ["c2p", "p2c"], ["p2c"]])))
        if config["share_att_key"] is None:
            del config["share_att_key"]  # (getattr's default: false)
    return config


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(_disentangled())
def test_the_attention_matches_transformers(config):
    assert_matches_reference(config)
    width = config["num_attention_heads"] * config.get("attention_head_size",
                                                       config["hidden_size"] // config["num_attention_heads"])
    notes = paramledger.load(config).notes
    assert any("a model whose forward cannot run" in note for note in notes) == (width != config["hidden_size"])


SMALLEST = {**_smallest("deberta-v2"), "hidden_size": 4, "num_attention_heads": 2}  # 185 parameters


@pytest.mark.parametrize("changes, total, more", [
    ({"attention_head_size": 3}, 215, ()),  # (q, k, v 6 wide: 3 × (6 × 4 + 6) over 3 × (4 × 4 + 4))
    ({"relative_attention": True, "pos_att_type": "c2p|p2c"}, 233,
     ("attention.self.pos_key_proj.weight", "attention.self.pos_key_proj.bias",
      "attention.self.pos_query_proj.weight", "attention.self.pos_query_proj.bias")),
])
def test_the_smallest_config_counts_it(changes, total, more):
    inventory = paramledger.inventory(paramledger.load({**SMALLEST, **changes}))
    assert inventory.total == total
    names = [t.name.removeprefix("deberta.encoder.layer.0.") for t in inventory.tensors]
    assert names[names.index("attention.self.value_proj.bias") + 1:names.index("attention.output.dense.weight")] \
        == list(more)


def test_its_forward_cannot_run_in_transformers():
    torch = pytest.importorskip("torch")
    import transformers

    config = {"vocab_size": 10, "hidden_size": 4, "num_attention_heads": 2, "num_hidden_layers": 1,
              "intermediate_size": 6, "max_position_embeddings": 8, "attention_head_size": 3}
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        transformers.DebertaV2ForMaskedLM(transformers.DebertaV2Config(**config))(torch.tensor([[1, 2, 3]]))
    notes = paramledger.load({"model_type": "deberta-v2", **config}).notes
    assert any(note.startswith("attention_head_size 3 × 2 heads is not hidden_size=4: counted as transformers "
                               "builds it") for note in notes)


@pytest.mark.parametrize("changes, message", [
    ({"attention_head_size": None}, "attention_head_size: null: transformers cannot build it"),
    ({"num_attention_heads": 3, "attention_head_size": 2}, "num_attention_heads: 3 does not divide hidden_size=4"),
])
def test_what_transformers_cannot_build_is_refused_in_one_line(changes, message):
    config = {**SMALLEST, **changes}
    assert not transformers_outcome(config).startswith("builds ")
    with pytest.raises(ArchitectureError) as raised:
        paramledger.load(config)
    assert message in str(raised.value) and "\n" not in str(raised.value)

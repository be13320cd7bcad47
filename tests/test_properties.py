"""Properties of the counting rule on random architectures (hypothesis)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import paramledger
from paramledger import COMPONENTS
from strategies import architectures


@given(architectures())
def test_total_is_the_sum_of_the_tensors(arch):
    inv = paramledger.inventory(arch)
    assert inv.total == sum(t.count for t in inv.tensors)
    assert sum(inv.components.values()) == inv.total
    assert sum(inv.by_layer.values()) == inv.total
    assert set(inv.components) <= set(COMPONENTS)
    assert all(isinstance(t.count, int) and t.count > 0 for t in inv.tensors)
    assert len(set(inv.names())) == len(inv.tensors)  # each tensor once


@given(architectures())
def test_untying_adds_exactly_one_table(arch):
    tied = paramledger.inventory(arch.replace(tie_word_embeddings=True))
    untied = paramledger.inventory(arch.replace(tie_word_embeddings=False))
    assert untied.total - tied.total == arch.vocab_size * arch.hidden_size
    assert tied.aliases and not untied.aliases


@given(architectures(), st.integers(1, 4))
def test_total_is_linear_in_depth(arch, extra):
    # Dense layers only, so every layer is alike (an MoE model's dense layers are listed by index).
    arch = arch.replace(mlp_only_layers=())
    base = paramledger.inventory(arch)
    deeper = paramledger.inventory(arch.replace(num_hidden_layers=arch.num_hidden_layers + extra))
    per_layer = base.by_layer[0]
    assert deeper.total - base.total == extra * per_layer


@given(architectures(), st.lists(st.sampled_from(["*embed*", "*q_proj*", "*norm*", "*experts*", "*"]), max_size=3))
def test_freezing_changes_nothing_in_the_total(arch, patterns):
    inv = paramledger.inventory(arch)
    frozen = paramledger.inventory(arch.replace(frozen=tuple(patterns)))
    assert frozen.total == inv.total
    assert frozen.trainable + frozen.frozen == inv.total
    assert [t.shape for t in frozen.tensors] == [t.shape for t in inv.tensors]


@given(architectures(), st.integers(1, 10**6), st.integers(1, 10**6))
def test_no_context_length_in_the_count(arch, window, positions):
    """Only a learned position table depends on a length, and that is a declared table size;
    the sliding window and the context a model runs at add nothing."""
    inv = paramledger.inventory(arch)
    assert paramledger.inventory(arch.replace(sliding_window=window)).total == inv.total
    if arch.position_embedding_type != "learned":
        assert paramledger.inventory(arch.replace(max_position_embeddings=positions)).total == inv.total


@given(architectures(moe=True))
def test_active_is_between_dense_part_and_total(arch):
    inv = paramledger.inventory(arch)
    assert inv.total - inv.component("experts") <= inv.active <= inv.total
    everyone = paramledger.inventory(arch.replace(num_experts_per_tok=arch.num_experts))
    assert everyone.active == everyone.total


@given(architectures())
def test_break_even_is_the_boundary(arch):
    v = paramledger.break_even_vocab_size(arch)
    if v is None:
        return
    at = paramledger.inventory(arch.replace(vocab_size=v))
    assert at.embedding > at.total - at.embedding
    if v > 1:
        below = paramledger.inventory(arch.replace(vocab_size=v - 1))
        assert below.embedding <= below.total - below.embedding


@given(architectures())
def test_spec_round_trip(arch):
    """A design written as a spec file (its own keys) loads back equal."""
    import tomllib

    mapping = arch.to_mapping()
    text = "\n".join(f"{k} = {_toml(v)}" for k, v in mapping.items())
    assert paramledger.Architecture.from_mapping(tomllib.loads(text)) == arch


def _toml(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


@given(architectures())
def test_factored_sums_equal_the_flat_list(arch):
    """The builder shares one block per layer kind; every sum must equal the flat list's."""
    inv = paramledger.inventory(arch)
    flat = list(inv.tensors)
    assert len(flat) == len(inv.tensors) and inv.tensors == tuple(flat)
    assert inv.total == sum(t.count for t in flat)
    components: dict = {}
    layers: dict = {}
    for t in flat:
        components[t.component] = components.get(t.component, 0) + t.count
        layers[t.layer] = layers.get(t.layer, 0) + t.count
    assert inv.components == {k: components[k] for k in inv.components} and set(components) == set(inv.components)
    assert inv.by_layer == layers
    assert [t.layer for t in flat if t.layer is not None] == sorted(t.layer for t in flat if t.layer is not None)
    assert inv.frozen == sum(t.count for t in flat if t.frozen)
    if arch.is_moe:
        routed = sum(t.count for t in flat if t.experts)
        share = sum(t.count // t.experts for t in flat if t.experts)
        assert inv.active == inv.total - routed + share * arch.num_experts_per_tok


def test_counting_ten_million_layers_never_lists_them():
    """A typo of 10,000,000 layers counts at once: totals, components, frozen and active
    parameters are summed per layer kind, never over an expanded tensor list."""
    arch = paramledger.load("seed-baseline", num_hidden_layers=10_000_000)
    inv = paramledger.inventory(arch)
    assert inv.total == 7_869_448_388_864
    assert inv.components["attention"] == 10_000_000 * 4 * 256 ** 2
    assert (inv.frozen, inv.active, inv.non_embedding("kaplan")) == (0, inv.total, inv.total - 8_388_608)
    assert inv.tensors._flat is None  # nothing above listed the 80,000,002 tensors

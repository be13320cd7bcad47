"""A kind's layers without a list of every layer (_layers.py): runs, and offsets of a period, against the layers
walked one by one."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from paramledger._layers import Layers, grouped_kinds, periodic_kinds


def runs_of(indices: list[int]) -> int:
    """How many runs of consecutive integers ``indices`` (ascending) are."""
    return sum(1 for i, at in enumerate(indices) if i == 0 or indices[i - 1] != at - 1)


@st.composite
def periodic_layers(draw):
    period = draw(st.integers(1, 12))
    offsets = sorted(draw(st.sets(st.integers(0, period - 1), min_size=1)))
    start = draw(st.integers(0, 20))
    depth = start + draw(st.integers(period, 80))
    return offsets, period, depth, start


@given(periodic_layers())
def test_periodic_layers_are_the_layers_walked(case):
    offsets, period, depth, start = case
    layers = Layers.periodic(offsets, period, depth, start)
    walked = [i for i in range(start, depth) if (i - start) % period in offsets]
    assert list(layers) == walked and len(layers) == len(walked)
    assert [layers[k] for k in range(len(walked))] == walked and layers[-1] == walked[-1]
    assert layers.runs == runs_of(walked)
    assert layers == Layers([range(i, i + 1) for i in walked])  # equal to the same layers held as runs


@given(st.lists(st.integers(0, 3), min_size=1, max_size=40), st.integers(1, 30), st.integers(0, 5))
def test_kinds_of_a_pattern_repeated(pattern, repeats, tail):
    """A pattern repeated (then cut short) is found periodic; each kind's layers are where its key is."""
    keys = (pattern * (repeats + 1))[:len(pattern) * repeats + min(tail, len(pattern) - 1)]
    found = periodic_kinds(keys, 7)
    if len(keys) >= 2 * len(pattern):
        assert found is not None
    for kinds in (found, grouped_kinds(keys, 7)):
        if kinds is None:
            continue
        assert [key for key, _ in kinds] == list(dict.fromkeys(keys))
        for key, layers in kinds:
            walked = [7 + i for i, k in enumerate(keys) if k == key]
            assert list(layers) == walked and layers.runs == runs_of(walked)


@given(st.lists(st.integers(0, 2), min_size=1, max_size=60))
def test_kinds_of_any_keys(keys):
    """Periodic or not, every layer is in exactly one kind's layers, in order."""
    kinds = grouped_kinds(keys)
    assert sorted(itertools.chain.from_iterable(layers for _, layers in kinds)) == list(range(len(keys)))
    for key, layers in kinds:
        assert all(keys[i] == key for i in layers)


@given(periodic_layers(), st.data())
def test_union_of_one_period_offsets(case, data):
    offsets, period, depth, start = case
    split = data.draw(st.integers(0, len(offsets)))
    parts = [Layers.periodic(part, period, depth, start) for part in (offsets[:split], offsets[split:]) if part]
    assert list(Layers.union(parts)) == list(Layers.periodic(offsets, period, depth, start))
    mixed = Layers.union([Layers([range(depth, depth + 3)]), Layers.periodic(offsets, period, depth, start)])
    assert list(mixed) == [*Layers.periodic(offsets, period, depth, start), depth, depth + 1, depth + 2]


def test_a_period_broken_at_the_end_is_not_one():
    keys = [0, 1] * 5000 + [1]
    assert periodic_kinds(keys) is None
    assert [(key, len(layers), layers.runs) for key, layers in grouped_kinds(keys)] == [(0, 5000, 5000),
                                                                                       (1, 5001, 5000)]

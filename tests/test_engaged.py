"""The short cuts of a count.  One asks no kind whether a design engages it (parts/sublayers.KIND_KEYS): sound
only if each kind's ``engaged`` reads its own flat keys alone and is off at their defaults.  Every family's defaults
and random configs (tests/test_families.py) and every bundled model check its answer against each kind asked.  The
other looks only at the sizes a mapping gives (design/sizes.py): sound only if every default is a valid size."""

from __future__ import annotations

import dataclasses

import pytest

import paramledger
from paramledger import registry
from paramledger.parts import MIXERS
from paramledger.parts.sublayers import DECLARED, SUBLAYERS, engaged_kinds


class Reads:
    """A design at every default that records which keys are read."""

    def __init__(self, defaults: dict) -> None:
        self.defaults, self.read = defaults, set()

    def __getattr__(self, key: str):
        self.read.add(key)
        return self.defaults[key]


def every_kind_asked(arch) -> tuple[tuple, tuple]:
    return (tuple(kind for kind in MIXERS if kind.engaged(arch)), tuple(kind for kind in SUBLAYERS if kind.engaged(arch)))


@pytest.mark.parametrize("kind", DECLARED, ids=lambda kind: kind.keys.__module__.rsplit(".", 1)[-1])
def test_a_kind_is_engaged_by_its_own_keys_alone(kind):
    own = vars(kind.keys)["__annotations__"]
    defaults = {f.name: f.default for f in dataclasses.fields(paramledger.Architecture)}
    design = Reads(defaults)
    assert not kind.engaged(design)  # off at the defaults
    assert design.read <= own.keys(), f"engaged reads {sorted(design.read - own.keys())}, not its own keys"


@pytest.mark.parametrize("name", registry.names())
def test_a_bundled_models_engaged_kinds_are_each_kind_asked(name):
    arch = paramledger.load(name)
    assert engaged_kinds(arch) == every_kind_asked(arch)
    changed = arch.replace(num_hidden_layers=arch.num_hidden_layers + 1)  # every field given: each kind asked
    assert engaged_kinds(changed) == every_kind_asked(changed)


def test_every_default_is_a_valid_size():
    """The short cut of design/sizes.check_sizes: a design from a mapping has only its given sizes looked at."""
    from paramledger.design.sizes import check_sizes

    fields = {f.name: f.default for f in dataclasses.fields(paramledger.Architecture)}
    fields.update(vocab_size=8, hidden_size=8, num_hidden_layers=1, num_attention_heads=1, index_n_heads=1)
    check_sizes(fields, "defaults")  # every size in order: none refused
    assert fields["index_head_dim"] is None and fields["index_topk"] is None


def test_a_copy_keeps_its_designs_engaged_kinds_only_where_no_kinds_key_changed():
    """Architecture.replace checks only the changed sizes and asks the kinds again only if a kind's key changed."""
    base = paramledger.load("Llama-3.2-1B")
    deeper = base.replace(num_hidden_layers=3)
    assert engaged_kinds(deeper) == every_kind_asked(deeper) == ((), ())
    crossed = base.replace(add_cross_attention=True)
    assert engaged_kinds(crossed) == every_kind_asked(crossed) and engaged_kinds(crossed)[1]
    hybrid = paramledger.load("AI21-Jamba-1.5-Mini")
    for copy in (hybrid.replace(vocab_size=1000), hybrid.replace(num_hidden_layers=9)):
        assert engaged_kinds(copy) == every_kind_asked(copy) and engaged_kinds(copy)[0]
    with pytest.raises(paramledger.ArchitectureError, match="head_dim: must be positive"):
        base.replace(head_dim=0)

"""Each tensor's shape on every tensor-parallel rank as fit places it, and the check that the shards add up: shared by
tests/test_fit_towers.py and tests/test_fit_towers2.py."""

from __future__ import annotations

import math

from paramledger import families
from paramledger.fit.sharding import Parallel, Rules, shard_shape


def ranks(inv, tp, layers=False):
    """{name: (rule kind, [shape on each rank], whole shape)} for every tensor outside the decoder layers (and in
    them too with ``layers``), and the rules."""
    rules = Rules(inv, families.naming_of(inv.architecture))
    if rules.towers is not None:
        rules.towers.tp = tp
    out = {}
    for t in inv.tensors:
        if t.layer is None or layers:
            rule = rules.rule(t)
            out[t.name] = (rule[0], [shard_shape(t, rule, inv.architecture, Parallel(tp), rank)
                                     for rank in range(tp)], t.shape)
    return out, rules


def check_sums(placed, prefix, tp, split_kinds, skip_absent):
    """Under ``prefix``: a split tensor's (one of ``split_kinds``) shards add up to it; a replicated one is held tp
    times; a tensor vLLM does not load skipped where ``skip_absent``.  The kinds seen."""
    seen = set()
    for name, (kind, shapes, whole) in placed.items():
        if not name.startswith(prefix) or skip_absent and kind == "absent":
            continue
        seen.add(kind)
        held = sum(math.prod(shape) for shape in shapes)
        if kind == "replicated":
            assert held == tp * math.prod(whole), name
        else:
            assert kind in split_kinds, name
            assert held == math.prod(whole) and all(shape != whole for shape in shapes), name
    return seen

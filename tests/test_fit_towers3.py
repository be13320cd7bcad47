"""fit for more towers fit/tower_tables_more.py classifies (test_fit_towers2.py holds the first ones)."""

from __future__ import annotations

import paramledger
from paramledger.fit import fit_plan

H100 = 81559 * 2**20


def test_inkling_towers_whole_and_listed_past_one_stage():
    # InklingVision / InklingAudio: plain nn.Linear, RMSNorm and an nn.Embedding, built outside _mark_tower_model
    inv = paramledger.inventory({"model_type": "inkling_mm_model"})
    towers = ("model.vision_tower.", "model.audio_tower.")
    plan = fit_plan(inv, gpu_memory=64 * H100, tp=2, context=2048, suggest=False)
    assert not any(name.startswith(towers) for name in plan.unclassified)
    held = sum(d.weights_bytes for d in plan.devices)
    assert held == plan.weights_bytes + sum(plan.weights_extra.values())
    staged = fit_plan(inv, gpu_memory=64 * H100, tp=2, pp=2, context=2048, suggest=False)
    listed = {name for name in staged.unclassified if name.startswith(towers)}
    assert listed == {t.name for t in inv.tensors if t.name.startswith(towers)}

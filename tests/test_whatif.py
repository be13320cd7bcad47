"""What-if and compare: seed 000's table, component attribution, tensor diffs, couplings."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from test_formula import architectures

import paramledger
from paramledger import OptionError, UnknownKeyError
from paramledger.whatif import compare, parse_change, what_if

SEED_000_CHANGES = ["num_hidden_layers=3", "tie_word_embeddings=false", "hidden_size=128,intermediate_size=512",
                    "vocab_size=8192"]
# Seed 000's what-if table (SEED_FACTS.md): total, delta, percent to the digits the seed prints.
SEED_000_TABLE = [
    (10_749_696, -2_360_832, "-18.007147"),
    (21_499_136, 8_388_608, "63.983754"),
    (5_375_616, -7_734_912, "-58.997715"),
    (6_819_072, -6_291_456, "-47.987816"),
]
SEED_000_COMPONENTS = [
    {"ffn": -1_572_864, "attention": -786_432, "norm": -1_536},
    {"lm_head": 8_388_608},
    {"embedding": -4_194_304, "ffn": -2_359_296, "attention": -1_179_648, "norm": -1_664},
    {"embedding": -6_291_456},
]


def test_seed_000_table_through_the_api():
    rows = what_if("seed-baseline", SEED_000_CHANGES)
    assert [row.label for row in rows] == SEED_000_CHANGES
    for row, (total, delta, percent), components in zip(rows, SEED_000_TABLE, SEED_000_COMPONENTS):
        assert row.base.total == 13_110_528
        assert (row.total, row.delta) == (total, delta)
        assert f"{float(row.delta_fraction * 100):.6f}" == percent
        assert row.delta_fraction == Fraction(delta, 13_110_528)
        assert row.components_delta == components
        assert list(row.components_delta) == list(components)  # largest move first
        assert sum(row.components_delta.values()) == row.delta


def test_seed_000_notes_on_the_rows():
    shallow, _, _, small_vocab = what_if("seed-baseline", SEED_000_CHANGES)
    assert f"{float(shallow.embedding_share * 100):.2f}" == "78.04"
    # V = 8,192: the non-embedding part is unchanged at 4,721,920
    assert small_vocab.other.total - small_vocab.other.embedding == 4_721_920


def test_seed_000_table_through_the_cli(cli):
    args = [a for change in SEED_000_CHANGES for a in ("--vary", change)]
    status, out, err = cli("whatif", "seed-baseline", *args)
    assert status == 0, err
    lines = out.splitlines()
    assert "13,110,528" in lines[0] and "63.983754 %" in lines[0]
    expected = [
        ("num_hidden_layers=3", "10,749,696", "\u22122,360,832", "\u221218.007147 %",
         "ffn \u22121,572,864, attention \u2212786,432, norm \u22121,536"),
        ("tie_word_embeddings=false", "21,499,136", "+8,388,608", "+63.983754 %", "lm_head +8,388,608"),
        ("hidden_size=128,intermediate_size=512", "5,375,616", "\u22127,734,912", "\u221258.997715 %",
         "embedding \u22124,194,304"),
        ("vocab_size=8192", "6,819,072", "\u22126,291,456", "\u221247.987816 %", "embedding \u22126,291,456"),
    ]
    for cells in expected:
        line = next(line for line in lines if line.startswith(cells[0] + " "))
        for cell in cells[1:]:
            assert cell in line


def test_whatif_json_rows(cli):
    args = [a for change in SEED_000_CHANGES for a in ("--vary", change)]
    status, out, _ = cli("whatif", "seed-baseline", *args, "--json")
    assert status == 0
    rows = json.loads(out)
    assert [(row["total"], row["delta"]) for row in rows] == [(t, d) for t, d, _ in SEED_000_TABLE]
    assert [f"{row['delta_percent']:.6f}" for row in rows] == [p for _, _, p in SEED_000_TABLE]
    assert rows[0]["components_delta"] == SEED_000_COMPONENTS[0]
    assert rows[2]["settings"] == {"hidden_size": "128", "intermediate_size": "512"}


def test_width_alone_moves_the_coupled_ffn():
    """seed-baseline declares intermediate_ratio = 4: d = 128 takes m to 512 by itself."""
    (row,) = what_if("seed-baseline", ["hidden_size=128"])
    assert row.total == 5_375_616
    assert row.other.architecture.ffn_size == 512


LLAMA_7B_SIZING = """\
description = "Llama 1 7B sized the original way: m = 8/3 d rounded up to a multiple of 256"
vocab_size = 32000
hidden_size = 4096
num_hidden_layers = 32
num_attention_heads = 32
intermediate_ratio = "8/3"
intermediate_multiple_of = 256
mlp_gated = true
norm_type = "rmsnorm"
tie_word_embeddings = false
"""


@pytest.fixture
def llama_ratio_spec(tmp_path):
    path = tmp_path / "llama-ratio.toml"
    path.write_text(LLAMA_7B_SIZING)
    return str(path)


def test_gated_ratio_rounded_to_a_multiple(llama_ratio_spec):
    arch = paramledger.load(llama_ratio_spec)
    assert arch.ffn_size == 11_008  # ⌈8/3 · 4096 / 256⌉ · 256, Llama 1 7B's intermediate_size
    assert paramledger.inventory(arch).total == 6_738_415_616  # LLaMA-7B's published exact count
    narrow, explicit = what_if(arch, ["hidden_size=2048", "hidden_size=2048,intermediate_size=5000"])
    assert narrow.other["model.layers.0.mlp.up_proj.weight"].shape == (5_632, 2_048)  # ⌈5461.3/256⌉·256
    assert explicit.other["model.layers.0.mlp.up_proj.weight"].shape == (5_000, 2_048)  # explicit: uncoupled
    assert explicit.other.architecture.intermediate_ratio is None


def test_compare_tensor_diff_untied():
    row = compare("seed-baseline", "seed-untied")
    diff = row.tensor_diff()
    assert [t.name for t in diff.added] == ["lm_head.weight"]
    assert diff.removed == () and diff.reshaped == ()
    assert diff.aliases_removed == (("lm_head.weight", "model.embed_tokens.weight"),)
    assert diff.delta == row.delta == 8_388_608


def test_compare_tensor_diff_shallow_and_narrow():
    shallow = compare("seed-baseline", "seed-shallow")
    diff = shallow.tensor_diff()
    assert {t.layer for t in diff.removed} == {3, 4, 5}
    assert diff.added == () and diff.delta == shallow.delta == -2_360_832
    narrow = compare("seed-baseline", "seed-narrow").tensor_diff()
    assert len(narrow.reshaped) == 6 * 8 + 2  # q k v o up down + two norms per layer, the table, the final norm
    assert narrow.delta == -7_734_912


def test_compare_cli_with_tensors(cli):
    status, out, err = cli("compare", "seed-baseline", "seed-untied", "--tensors")
    assert status == 0, err
    assert "+8,388,608" in out and "lm_head +8,388,608" in out
    assert "added (1 tensors, 8,388,608 parameters)" in out
    assert "lm_head.weight -> model.embed_tokens.weight" in out
    status, out, _ = cli("compare", "seed-baseline", "seed-baseline", "--set", "num_hidden_layers=3", "--json",
                         "--tensors")
    data = json.loads(out)
    assert status == 0 and data["total"] == 10_749_696 and data["delta"] == -2_360_832
    assert len(data["tensors"]["removed"]) == 3 * 8 and data["tensors"]["added"] == []


def test_identical_designs_have_no_diff(cli):
    status, out, _ = cli("compare", "seed-baseline", "seed-baseline", "--tensors")
    assert status == 0
    assert "tensors: identical names, shapes and aliases" in out and "no change" in out


def test_list_valued_change_keeps_its_commas():
    change = parse_change("mlp_only_layers=0,1,num_hidden_layers=4")
    assert change.as_dict() == {"mlp_only_layers": "0,1", "num_hidden_layers": "4"}


@pytest.mark.parametrize("text, message", [
    ("num_hidden_layers", r"--vary: expected KEY=VALUE\[,KEY=VALUE\.\.\.\], got 'num_hidden_layers'"),
    ("=3", r"--vary: expected KEY=VALUE.*a value has no key"),
    ("hidden_size=128,hidden_size=64", r"--vary: hidden_size is set twice"),
])
def test_bad_vary_syntax(text, message):
    with pytest.raises(OptionError, match=message):
        parse_change(text)


def test_unknown_vary_key_suggests_the_field():
    with pytest.raises(UnknownKeyError, match=r"--vary: hiden_size: unknown key \(did you mean 'hidden_size'\?\)"):
        parse_change("hiden_size=128")


@pytest.mark.parametrize("args, message", [
    (["--vary", "num_hidden_layers"], "paramledger: error: --vary: expected KEY=VALUE"),
    (["--vary", "hiden_size=128"], "paramledger: error: --vary: hiden_size: unknown key (did you mean 'hidden_size'?)"),
    (["--vary", "hidden_size=abc"], "paramledger: error: --vary hidden_size=abc: hidden_size: must be a whole number"),
    (["--vary", "hidden_size=130"], "heads do not divide hidden_size=130"),
    ([], "paramledger: error: --vary: give at least one change"),
])
def test_whatif_cli_refusals(cli, args, message):
    status, out, err = cli("whatif", "seed-baseline", *args)
    assert status == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_compare_unknown_source(cli):
    status, _, err = cli("compare", "seed-baseline", "seed-basline")
    assert status == 2 and "did you mean 'seed-baseline'" in err


@given(architectures(), architectures())
def test_every_explanation_adds_up(first, second):
    """Component deltas and the tensor diff each account for the whole change."""
    row = compare(first, second)
    assert sum(row.components_delta.values()) == row.delta == row.tensor_diff().delta
    assert row.delta == paramledger.inventory(second).total - paramledger.inventory(first).total
    assert all(row.components_delta.values())


def test_compare_tensors_groups_a_difference_every_layer_repeats(cli):
    """Six layers reshaped alike are one line each tensor, with the layers it stands for."""
    status, out, _ = cli("compare", "seed-baseline", "seed-narrow", "--tensors")
    assert status == 0
    assert "  model.layers.{0-5}.mlp.up_proj.weight  1024 × 256 -> 512 × 128  −196,608 each (6 layers)" in out
    assert "model.layers.3." not in out
    assert "  model.norm.weight  256 -> 128  −128" in out

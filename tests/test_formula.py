"""Closed forms: traced from the builder, equal to the inventory everywhere, solved exactly."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

import paramledger
from paramledger import Architecture, OptionError
from paramledger.formula import closed_form, parse_count, parse_share, solve_budget, solve_share

V, d, L, m = (sympy.Symbol(name, integer=True, nonnegative=True) for name in ("V", "d", "L", "m"))


def test_seed_baseline_closed_form():
    form = closed_form("seed-baseline")
    # Seed 000: P = V·d + 12·L·d² + 2·L·d + d with m = 4d; uncoupled V·d + L·(4d² + 2dm + 2d) + d
    assert sympy.expand(form.coupled_total - (V * d + 12 * L * d**2 + 2 * L * d + d)) == 0
    assert sympy.expand(form.uncoupled_total - (V * d + L * (4 * d**2 + 2 * d * m + 2 * d) + d)) == 0
    assert form.evaluate() == 13_110_528
    assert {name: str(form.substitute(e)) for name, e in form.components.items()} == {
        "embedding": "V*d", "attention": "4*L*d**2", "ffn": "8*L*d**2", "norm": "2*L*d + d"}


def test_break_even_matches_the_seed_and_analysis():
    be = closed_form("seed-baseline").break_even()
    assert sympy.expand(be.threshold - (12 * L * d + 2 * L + 1)) == 0  # V > 12·L·d + 2·L + 1
    assert be.vocab_size == 18_446
    for name in ("seed-baseline", "seed-shallow", "seed-narrow", "seed-small-vocab", "seed-1.1b", "seed-untied"):
        arch = paramledger.load(name)
        be = closed_form(arch).break_even()
        assert be.vocab_size == paramledger.break_even_vocab_size(arch), name


@st.composite
def architectures(draw):
    """Random valid designs over every counting axis (dense, GQA, MoE, MLA, couplings)."""
    heads = draw(st.integers(1, 8))
    kv_heads = draw(st.sampled_from([h for h in range(1, heads + 1) if heads % h == 0] + [None]))
    explicit_head_dim = draw(st.booleans())
    layers = draw(st.integers(1, 4))
    values: dict = dict(
        vocab_size=draw(st.integers(1, 5000)),
        hidden_size=heads * draw(st.integers(1, 24)) if not explicit_head_dim else draw(st.integers(1, 96)),
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        head_dim=draw(st.integers(1, 32)) if explicit_head_dim else None,
        mlp_gated=draw(st.booleans()),
        attention_bias=draw(st.booleans()),
        attention_output_bias=draw(st.booleans()),
        mlp_bias=draw(st.booleans()),
        lm_head_bias=draw(st.booleans()),
        norm_type=draw(st.sampled_from(["rmsnorm", "layernorm", "layernorm_nobias", "nonparametric"])),
        norm_placement=draw(st.sampled_from(["pre", "post", "parallel", "none"])),  # sandwich: see report
        qk_norm=draw(st.sampled_from(["none", "head", "full"])),
        final_norm=draw(st.booleans()),
        position_embedding_type=draw(st.sampled_from(["rope", "learned", "sinusoidal"])),
        max_position_embeddings=draw(st.integers(1, 512)),
        tie_word_embeddings=draw(st.booleans()),
        attention_sinks=draw(st.booleans()),
    )
    sizing = draw(st.sampled_from(["explicit", "ratio", "default"]))
    if sizing == "explicit":
        values["intermediate_size"] = draw(st.integers(1, 256))
    elif sizing == "ratio":
        values["intermediate_ratio"] = draw(st.sampled_from(["4", "8/3", "3.5", "2"]))
        values["intermediate_multiple_of"] = draw(st.sampled_from([1, 8, 64, 256]))
    if draw(st.booleans()):
        experts = draw(st.integers(1, 8))
        values.update(num_experts=experts, num_experts_per_tok=draw(st.integers(1, experts)),
                      moe_intermediate_size=draw(st.one_of(st.none(), st.integers(1, 64))),
                      n_shared_experts=draw(st.integers(0, 2)), shared_expert_gate=draw(st.booleans()),
                      router_bias=draw(st.booleans()),
                      mlp_only_layers=sorted(draw(st.sets(st.integers(0, layers - 1), max_size=layers))))
    if draw(st.booleans()):
        values.update(q_lora_rank=draw(st.one_of(st.none(), st.integers(1, 32))),
                      kv_lora_rank=draw(st.integers(1, 32)), qk_nope_head_dim=draw(st.integers(1, 16)),
                      qk_rope_head_dim=draw(st.integers(0, 16)), v_head_dim=draw(st.integers(1, 16)))
    return Architecture.from_mapping(values, "hypothesis")


@given(architectures(), st.integers(1, 3), st.integers(1, 9))
def test_closed_form_equals_the_inventory(arch, extra_layers, vocab_step):
    form = closed_form(arch)
    inv = paramledger.inventory(arch)
    assert form.evaluate() == inv.total
    assert form.evaluate(form.coupled_total) == inv.total
    assert form.evaluate(form.embedding) == inv.embedding
    assert form.evaluate(form.active) == inv.active
    for name, expr in form.components.items():
        assert form.evaluate(expr) == inv.component(name)
    # ... and at another design: the form is in the variables, not the design's numbers.
    other = arch.replace(num_hidden_layers=arch.num_hidden_layers + extra_layers,
                         vocab_size=arch.vocab_size + vocab_step)
    assert form.evaluate(form.coupled_total, other) == paramledger.inventory(other).total


@given(architectures())
def test_break_even_agrees_with_analysis(arch):
    be = closed_form(arch).break_even()
    expected = paramledger.break_even_vocab_size(arch)
    assert (be.vocab_size if be is not None else None) == expected


def test_largest_depth_under_a_budget():
    solution = solve_budget("seed-baseline", "num_hidden_layers", 20_000_000)
    assert (solution.value, solution.rounding) == (14, "floor")
    assert solution.total == paramledger.inventory("seed-baseline", num_hidden_layers=14).total <= 20_000_000
    assert solution.neighbour == 15
    assert solution.neighbour_total == paramledger.inventory("seed-baseline", num_hidden_layers=15).total > 20_000_000


def test_largest_width_respects_the_heads():
    solution = solve_budget("seed-baseline", "hidden_size", 20_000_000)
    assert solution.value % 4 == 0  # 4 heads must divide the width
    assert solution.total <= 20_000_000 < solution.neighbour_total
    assert solution.neighbour == solution.value + 4


def test_budget_under_any_width():
    solution = solve_budget("seed-baseline", "num_hidden_layers", 1_000)
    assert solution.value is None and "exceeds the budget" in solution.reason


def test_vocabulary_at_a_share():
    # At V = 18,445 the table is exactly half (18,445 · 256 = 4,721,920, the rest).
    solution = solve_share("seed-baseline", Fraction(1, 2))
    assert (solution.value, solution.rounding) == (18_445, "ceil")
    inv = paramledger.inventory("seed-baseline", vocab_size=18_445)
    assert inv.embedding_share == Fraction(1, 2)
    assert paramledger.inventory("seed-baseline", vocab_size=18_444).embedding_share < Fraction(1, 2)
    share = solve_share("seed-baseline", Fraction(9, 10))
    assert paramledger.inventory("seed-baseline", vocab_size=share.value).embedding_share >= Fraction(9, 10)
    assert paramledger.inventory("seed-baseline", vocab_size=share.value - 1).embedding_share < Fraction(9, 10)


def test_untied_head_never_reaches_half():
    solution = solve_share("seed-untied", Fraction(1, 2))
    assert solution.value is None and "approaches 50.000000 %" in solution.reason


def test_ratio_coupling_in_the_form(tmp_path):
    spec = tmp_path / "gated.toml"
    spec.write_text('vocab_size = 32000\nhidden_size = 4096\nnum_hidden_layers = 32\nnum_attention_heads = 32\n'
                    'intermediate_ratio = "8/3"\nintermediate_multiple_of = 256\nmlp_gated = true\n'
                    'tie_word_embeddings = false\n')
    form = closed_form(str(spec))
    assert "ceiling" in str(form.coupled_total)
    assert form.evaluate() == 6_738_415_616
    assert sympy.expand(form.uncoupled_total - (2 * V * d + L * (4 * d**2 + 3 * d * m + 2 * d) + d)) == 0


def test_formula_cli(cli):
    status, out, err = cli("formula", "seed-baseline")
    assert status == 0, err
    assert "total = 12·L·d² + 2·L·d + V·d + d" in out
    assert "with m = intermediate_size free: L·(4·d² + 2·d·m + 2·d) + V·d + d" in out
    assert "m = 4·d (intermediate_size)" in out
    assert "V > 12·L·d + 2·L + 1; smallest V = 18,446" in out
    assert "at the design: 13,110,528" in out


def test_formula_cli_json(cli):
    status, out, _ = cli("formula", "seed-baseline", "--json")
    data = json.loads(out)
    assert status == 0 and data["value"] == 13_110_528
    assert sympy.expand(sympy.sympify(data["total"], locals={"V": V, "d": d, "L": L})
                        - (V * d + 12 * L * d**2 + 2 * L * d + d)) == 0
    assert data["break_even"]["vocab_size"] == 18_446
    assert data["couplings"] == {"h_kv": "h", "d_head": "d/h", "m": "4*d"}


@pytest.mark.parametrize("args, answer", [
    (["--solve", "num_hidden_layers", "--budget", "20000000"], "num_hidden_layers = 14 (floor); total 19,406,080"),
    (["--solve", "num_hidden_layers", "--budget", "20M"], "num_hidden_layers = 14 (floor)"),
    (["--solve", "vocab_size", "--share", "0.5"], "vocab_size = 18,445 (ceil); total 9,443,840"),
    (["--solve", "vocab_size", "--share", "50%"], "vocab_size = 18,445 (ceil)"),
    (["--solve", "vocab_size"], "smallest V = 18,446"),
])
def test_formula_cli_solves(cli, args, answer):
    status, out, err = cli("formula", "seed-baseline", *args)
    assert status == 0, err
    assert answer in out


def test_formula_cli_solution_json(cli):
    status, out, _ = cli("formula", "seed-baseline", "--solve", "hidden_size", "--budget", "2e7", "--json")
    solution = json.loads(out)["solution"]
    assert status == 0 and solution["rounding"] == "floor" and solution["total"] <= 20_000_000


@pytest.mark.parametrize("args, message", [
    (["--solve", "hiden_size", "--budget", "1M"],
     "--solve: cannot solve for 'hiden_size' (did you mean 'hidden_size'?)"),
    (["--solve", "tie_word_embeddings", "--budget", "1M"], "--solve: cannot solve for 'tie_word_embeddings'; one of"),
    (["--budget", "1M"], "--solve: --budget and --share need --solve KEY"),
    (["--solve", "hidden_size"], "--solve: hidden_size needs --budget N"),
    (["--solve", "hidden_size", "--share", "0.5"], "--share: solves for vocab_size only, not hidden_size"),
    (["--solve", "vocab_size", "--share", "1.5"], "--share: must be between 0 and 1 (exclusive), got 3/2"),
    (["--solve", "vocab_size", "--share", "half"], "--share: expected a share like 0.5, 1/2 or 50%, got 'half'"),
    (["--solve", "num_hidden_layers", "--budget", "lots"], "--budget: expected a parameter count like 20000000, 128k or 20M"),
    (["--solve", "num_hidden_layers", "--budget", "1.5"], "--budget: must be a whole number of parameters"),
    (["--solve", "num_hidden_layers", "--budget", "-5"], "--budget: must be positive, got -5"),
    (["--solve", "vocab_size", "--budget", "1M", "--share", "0.5"], "--share: give --budget or --share, not both"),
])
def test_formula_cli_refusals(cli, args, message):
    status, out, err = cli("formula", "seed-baseline", *args)
    assert status == 2 and out == ""
    assert f"paramledger: error: {message}" in err and len(err.strip().splitlines()) == 1


def test_parsers():
    assert parse_count("20_000_000", "--budget") == parse_count("20M", "--budget") == 20_000_000
    assert parse_count("1.5B", "--budget") == 1_500_000_000
    assert parse_share("1/2") == parse_share("50%") == Fraction(1, 2)
    with pytest.raises(OptionError, match="--budget: expected a parameter count"):
        parse_count("", "--budget")


@pytest.mark.parametrize("model", ["mamba-2.8b-hf", "falcon-mamba-7b", "Mamba-Codestral-7B-v0.1", "AI21-Jamba-1.5-Mini",
                                   "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "Qwen3-Next-80B-A3B-Instruct"])
def test_closed_form_of_a_hybrid(model):
    """A state-space or hybrid design's form equals the inventory at the design and at a deeper one: its new layers
    unlisted (attention ones), as a design's new layers are, but of the listed kind where a list names every
    layer (a Mamba's).  Every such design was refused as having no closed form before."""
    from paramledger.design.values import repeating_lists

    arch = paramledger.load(model)
    form = closed_form(arch)
    assert form.evaluate() == paramledger.inventory(arch).total
    depth = arch.num_hidden_layers
    lists = {key: tuple(range(depth + 2)) if len(getattr(arch, key)) == depth else getattr(arch, key)
             for key in repeating_lists(arch) if getattr(arch, key)}
    deeper = arch.replace(num_hidden_layers=depth + 2, **lists)
    assert form.evaluate(form.coupled_total, deeper) == paramledger.inventory(deeper).total
    if model == "mamba-2.8b-hf":  # every layer a Mamba block: L of them
        assert form.coupled_total == sympy.sympify("15361*L*d + V*d + 1920000*L + d", locals={"L": L, "V": V, "d": d})

"""Issue 23: norm and formula on hostile numbers: one line, exit 2, no traceback, no
Infinity or NaN in JSON, and formula --solve says what bound it met."""

from __future__ import annotations

import json

import pytest
from test_reliability_inputs import refused, refused_bounded

from paramledger.commands._common import print_json


def test_norm_with_a_negative_eps_is_refused(cli):
    refused(cli, "norm", "0", "0", "--eps", "-1", match=r"--eps: must be a finite number of zero or more, got -1")


@pytest.mark.parametrize("value", ["inf", "nan", "1e999"])
def test_norm_of_a_non_finite_value_is_refused_not_printed_as_json(cli, value):
    refused(cli, "norm", value, "1", "--json", match=r"x: must be finite numbers")


@pytest.mark.parametrize("values", [["1e308", "1e308", "1e307"], ["1e200", "1e200", "2e200"]])
def test_norm_whose_squares_overflow_is_refused(cli, values):
    refused(cli, "norm", *values, "--json", match=r"x: too large for (LayerNorm|RMSNorm) in floating point")


def test_norm_json_is_strict(cli):
    status, out, err = cli("norm", "1", "2", "3", "--json")
    assert status == 0, err
    json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))


def test_print_json_refuses_infinity():
    from paramledger._exceptions import OptionError

    with pytest.raises(OptionError, match=r"--json: the result holds a NaN or an infinity"):
        print_json({"x": float("inf")})


@pytest.mark.parametrize(("option", "value"), [("--budget", "1e99999999"), ("--share", "1e-99999999"),
                                               ("--budget", "9" * 5000)])
def test_formula_with_a_huge_number_is_refused_at_once(tmp_path, option, value):
    refused_bounded(tmp_path, "formula", "seed-baseline", "--solve", "vocab_size", option, value,
                    match=rf"{option}: .*(exponent beyond ±400|more than 400 digits)")


def test_formula_solve_names_the_bound_instead_of_claiming_no_bound(cli):
    refused(cli, "formula", "seed-baseline", "--solve", "num_hidden_layers", "--budget", "1e25",
            match=r"--budget: more than 10,000,000 num_hidden_layers fit within .*beyond paramledger's bound")


def test_formula_solve_at_1e15_is_refused_not_out_of_memory(tmp_path):
    refused_bounded(tmp_path, "formula", "seed-baseline", "--solve", "num_hidden_layers", "--budget", "1e15",
                    match=r"more than 10,000,000 num_hidden_layers fit")


def test_formula_solve_still_says_no_bound_when_the_total_does_not_grow(cli):
    refused(cli, "formula", "seed-baseline", "--solve", "num_experts", "--budget", "1e12",
            match=r"no bound: the total does not grow with num_experts")


def test_sweep_where_with_30000_terms_is_refused(cli):
    refused(cli, "sweep", "seed-baseline", "--grid", "vocab_size=1:10", "--where", "+".join(["1"] * 30_000) + " > 0",
            match=r"--where: 60,003 characters: beyond the bound of 2,000")


@pytest.mark.parametrize("where", ["-" * 1990 + "1 > 0", "(" * 600 + "1" + ")" * 600 + " > 0"])
def test_sweep_where_nested_deeply_is_refused(cli, where):
    refused(cli, "sweep", "seed-baseline", "--grid", "vocab_size=1:10", "--where", where,
            match=r"--where: (nested too deeply|cannot parse)")


@pytest.mark.parametrize(("command", "option"), [("memory", "--context"), ("memory", "--batch"),
                                                 ("fit", "--context"), ("memory", "--tokens")])
def test_count_option_beyond_two_to_the_53_is_refused(cli, command, option):
    """Found by tests/test_fuzz_inputs.py: memory --context 1e400 raised OverflowError formatting its bytes."""
    extra = ["--gpu", "h100"] if command == "fit" else ["--training", "fp32-adam"] if option == "--tokens" else []
    status, out, err = cli(command, "seed-1.1b", *extra, option, "1e400")
    assert (status, out) == (2, "")
    assert err == (f"paramledger {command}: error: argument {option}: a 401-digit number is beyond the bound of "
                   "9,007,199,254,740,992\n")
    status, out, err = cli(command, "seed-1.1b", *extra, option, str(2**53), "--json")
    assert status in (0, 1) and json.loads(out), err

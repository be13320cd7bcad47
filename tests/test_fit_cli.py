"""fit on the command line: exit 0 fits, 1 does not, 2 bad input in one line; the JSON fields; the size parser."""

from __future__ import annotations

import json

import pytest

from paramledger._exceptions import OptionError
from paramledger.cli import main
from paramledger.cli_numbers import parse_count, parse_size


def _run(capsys, *argv):
    code = main(["fit", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_seed_example_does_not_fit_on_one_h100(capsys):
    code, out, _ = _run(capsys, "Llama-3.1-70B", "--dtype", "int4", "--context", "32768", "--batch", "4",
                        "--gpu", "H100")
    assert code == 1
    assert "verdict: does NOT fit" in out and "--tp 2 (2 devices)" in out
    assert "gpu_memory_utilization = 0.92" in out and "GB is 10⁹ bytes, GiB is 2³⁰" in out


def test_fits_exits_0_and_json_fields(capsys):
    code, out, _ = _run(capsys, "Llama-3.1-8B", "--gpu", "h100", "--context", "8k", "--json")
    data = json.loads(out)
    assert code == 0 and data["fits"] is True
    for field in ("per_device", "max_context", "max_batch", "assumptions"):
        assert field in data
    device = data["per_device"][0]
    for field in ("weights_bytes", "kv_cache_bytes", "overhead_bytes", "total_bytes"):
        assert isinstance(device[field], int)
    assert device["total_bytes"] == (device["weights_bytes"] + device["kv_cache_bytes"]
                                     + device["recurrent_state_bytes"] + device["overhead_bytes"])


def test_one_entry_per_device(capsys):
    _, out, _ = _run(capsys, "Llama-3.1-70B", "--gpu", "h100", "--tp", "4", "--pp", "2", "--context", "8k", "--json")
    data = json.loads(out)
    assert len(data["per_device"]) == 8 and data["parallel"] == {"tp": 4, "pp": 2, "ep": 1}


@pytest.mark.parametrize(("argv", "message"), [
    (["Llama-3.1-8B", "--gpu", "h100", "--tp", "3"], r"--tp: 3 does not divide num_attention_heads 32; vLLM refuses"),
    (["Llama-3.1-8B", "--gpu", "H10"], r"unknown GPU 'H10' \(did you mean 'h100'\?\)"),
    (["Llama-3.1-8B", "--gpu-memory", "0"], r"--gpu-memory: must be more than 0 bytes"),
    (["Llama-3.1-8B", "--gpu-memory", "24"], r"give a unit: 24GB or 24GiB"),
    (["Llama-3.1-8B", "--gpu", "h100", "--gpus", "8", "--tp", "4"], r"--tp 4 × --pp 1 = 4"),
])
def test_bad_input_one_line_exit_2(capsys, argv, message):
    try:
        code = main(["fit", *argv])
    except SystemExit as exit_info:  # argparse's own refusal (a size it cannot read)
        code = exit_info.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    import re

    assert re.search(message, err)


def test_tp_refused_where_vllm_refuses_kv_heads():
    from paramledger import load
    from paramledger.fit import fit_plan

    # 24 query heads divide by 3, 8 KV heads do not (and 3 does not divide 8): QKVParallelLinear refuses it
    arch = load("Llama-3.1-8B", num_attention_heads=24, head_dim=128)
    with pytest.raises(OptionError, match="num_key_value_heads 8: one must divide the other"):
        fit_plan(paramledger_inventory(arch), gpu="h100", tp=3)


def paramledger_inventory(arch):
    import paramledger

    return paramledger.inventory(arch)


def test_sizes_and_counts_parse_with_their_units():
    assert parse_size("24GB", "--x") == 24 * 10**9
    assert parse_size("24GiB", "--x") == 24 * 2**30
    assert parse_size("1.5TB", "--x") == 1_500_000_000_000
    assert parse_size("512 MiB", "--x") == 2**29
    assert (parse_count("128k", "--x"), parse_count("1M", "--x"), parse_count("8e3", "--x")) == (128_000, 10**6, 8000)
    with pytest.raises(OptionError, match="must be more than 0 bytes"):
        parse_size("0GB", "--gpu-memory")
    with pytest.raises(OptionError, match="unknown unit"):
        parse_size("24XB", "--gpu-memory")
    with pytest.raises(OptionError, match="whole number of bytes"):
        parse_size("0.5B", "--gpu-memory")


def test_training_fit_rows_add_up_to_the_total(cli):
    status, out, _ = cli("fit", "Llama-3.2-1B", "--lora", "r=16,target_modules=q_proj+v_proj", "--training",
                         "bf16-mixed-adam", "--gpu", "rtx4090")
    rows = {line.strip().split("  ")[0]: int(line.split("bytes")[0].split()[-1].replace(",", ""))
            for line in out.splitlines() if line.startswith("  ") and " bytes (" in line}
    assert status == 0 and rows["CUDA context + non-torch"] > 0
    parts = ("weights", "gradients", "optimizer states", "CUDA context + non-torch")
    assert sum(rows[name] for name in parts) == rows["total"]

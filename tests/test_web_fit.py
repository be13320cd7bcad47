"""The fit panel's API (server_fit.py) against the library and the CLI, on a real server.

/api/fit must be exactly plan_json(fit_plan(...)) for the same design and options, as `paramledger fit --json`
prints it; every bad input a 400 with the library's one line (or the API's own bound), never a 500.
"""

from __future__ import annotations

import json

import pytest
from test_web_api import get

import paramledger
from paramledger._exceptions import OptionError
from paramledger.architecture import Architecture
from paramledger.fit import GPUS, fit_plan, plan_json
from paramledger.server import BLANK_DESIGN, BLANK_NAME

LLAMA_70B = "Llama-3.1-70B"


def fit(server, params: dict[str, str]) -> dict:
    status, body = get(server, "/api/fit", params)
    assert status == 200, body
    return body


@pytest.mark.parametrize(("params", "options"), [
    ({"source": LLAMA_70B, "gpu": "h100", "dtype": "int4"}, {"gpu": "h100", "dtype": "int4"}),
    ({"source": LLAMA_70B, "gpu": "h100", "dtype": "int4", "tp": "2", "context": "131072"},
     {"gpu": "h100", "dtype": "int4", "tp": 2, "context": 131072}),
    ({"source": LLAMA_70B, "gpu": "H100", "dtype": "int4", "context": "65536", "batch": "4", "suggest": "false"},
     {"gpu": "H100", "dtype": "int4", "context": 65536, "batch": 4, "suggest": False}),
    ({"source": LLAMA_70B, "gpu": "a100-80gb", "tp": "4", "pp": "2", "kv_dtype": "fp8_e4m3", "dtype": "stored"},
     {"gpu": "a100-80gb", "tp": 4, "pp": 2, "kv_dtype": "fp8_e4m3"}),
    ({"source": LLAMA_70B, "gpu": "l40s", "tp": "16"}, {"gpu": "l40s", "tp": 16}),  # 8 KV heads, each on 2
    ({"source": "DeepSeek-V3", "gpu": "h200", "gpus": "8", "ep": "8", "context": "32768"},
     {"gpu": "h200", "gpus": 8, "ep": 8, "context": 32768}),
    ({"source": "gemma-2-2b", "gpu_memory": "24GB", "context": "8192"}, {"gpu_memory": 24 * 10**9, "context": 8192}),
    ({"gpu_memory": "1.5GiB"}, {"gpu_memory": 3 * 2**29}),  # the blank design of seed 001's page
])
def test_fit_is_plan_json_of_fit_plan(server, params, options):
    source = params.get("source")
    inv = paramledger.inventory(source or Architecture.from_mapping(BLANK_DESIGN, BLANK_NAME))
    assert fit(server, params) == plan_json(fit_plan(inv, **options))


def test_a_design_edited_on_the_page_is_the_design_planned(server):
    params = {"source": "seed-1.1b", "num_key_value_heads": "16", "hidden_size": "4096", "gpu": "l4",
              "dtype": "fp16", "context": "8192"}
    arch = paramledger.load("seed-1.1b", num_key_value_heads=16, hidden_size=4096)
    expected = plan_json(fit_plan(paramledger.inventory(arch), gpu="l4", dtype="fp16", context=8192))
    assert fit(server, params) == expected
    assert expected["per_device"][0]["kv_cache_bytes"] == 2 * 24 * 16 * 128 * 8192 * 2  # k and v, 24 layers, fp16


def test_fit_is_what_the_cli_prints(server, cli):
    status, out, err = cli("fit", LLAMA_70B, "--gpu", "h100", "--dtype", "int4", "--context", "131072", "--json")
    assert status == 1, err  # does not fit: 1, the same report
    assert fit(server, {"source": LLAMA_70B, "gpu": "h100", "dtype": "int4", "context": "131072"}) == json.loads(out)


def test_the_gpu_catalog_lists_every_entry_with_its_memory_and_source(server):
    status, body = get(server, "/api/gpus")
    assert status == 200
    assert [g["name"] for g in body["gpus"]] == list(GPUS)
    assert body["default"] in GPUS
    h100 = body["gpus"][0]
    assert (h100["name"], h100["memory_bytes"], h100["text"]) == ("h100", 81559 * 2**20, "85.52 GB")
    assert all(g["source"] and g["label"] for g in body["gpus"])
    assert "stored" in body["dtypes"] and "int4" in body["dtypes"] and "int4" not in body["kv_dtypes"]
    assert get(server, "/api/gpus", {"gpu": "h100"}) == (400, {"error": "/api/gpus takes no parameters"})


def test_the_panels_view_places_the_plans_figures(server):
    params = {"source": LLAMA_70B, "gpu": "h100", "dtype": "int4", "context": "131072"}
    status, view = get(server, "/api/fit/view", params)
    assert status == 200
    plan = fit(server, params)
    assert view["plan"] == plan
    assert view["fits"] is False and view["verdict"].startswith("does not fit: 89.86 GB of 85.52 GB")
    (device,) = view["devices"]
    one = plan["per_device"][0]
    assert sum(row["bytes"] for row in device["rows"]) == one["total_bytes"]
    assert {row["key"]: row["bytes"] for row in device["rows"]}["kv_cache"] == one["kv_cache_bytes"]
    assert device["edge"] == pytest.approx(one["memory_bytes"] / one["total_bytes"])  # over: the card ends early
    assert device["free"] == "over by 4.33 GB"
    assert view["suggestions"] == plan["suggestions"] and "--tp 2 (2 devices)" in view["suggestions"]
    slider = view["context"]
    assert (slider["min"], slider["max"], slider["step"], slider["value"]) == (16, 131072, 16, 131072)
    assert slider["max_context"] == plan["max_context"] == 117_840
    assert slider["marker"] == pytest.approx((117_840 - 16) / (131_072 - 16))
    assert [a["text"].split(" = ")[0] for a in view["assumptions"]] == [a["name"] for a in plan["assumptions"]]

    two = get(server, "/api/fit/view", {**params, "tp": "2"})[1]
    assert two["fits"] is True and two["verdict"].startswith("fits: ")
    assert two["devices"][0]["title"] == "stage 0, tp ranks 0-1, each: layers 0-79"


def _library_error(**options) -> str:
    with pytest.raises(OptionError) as caught:
        fit_plan(paramledger.inventory(LLAMA_70B), **options)
    return str(caught.value)


@pytest.mark.parametrize(("params", "options"), [
    ({"gpu": "h1000"}, {"gpu": "h1000"}),  # with a "did you mean"
    ({"gpu": "h100", "tp": "3"}, {"gpu": "h100", "tp": 3}),  # 3 does not divide 64 query heads: vLLM refuses it
    ({}, {}),  # neither a GPU nor a size
    ({"gpu": "h100", "gpu_memory": "24GB"}, {"gpu": "h100", "gpu_memory": 24 * 10**9}),
    ({"gpu": "h100", "gpus": "4", "tp": "2"}, {"gpu": "h100", "gpus": 4, "tp": 2}),
    ({"gpu": "h100", "ep": "4", "tp": "2"}, {"gpu": "h100", "ep": 4, "tp": 2}),
    ({"gpu": "h100", "kv_dtype": "int4"}, {"gpu": "h100", "kv_dtype": "int4"}),
    ({"gpu": "h100", "dtype": "fp7"}, {"gpu": "h100", "dtype": "fp7"}),
    ({"gpu": "h100", "pp": "3", "tp": "3"}, {"gpu": "h100", "pp": 3, "tp": 3}),
])
def test_what_the_library_refuses_is_its_one_line(server, params, options):
    status, body = get(server, "/api/fit", {"source": LLAMA_70B, **params})
    expected = _library_error(**options)
    assert (status, body) == (400, {"error": expected})
    assert "\n" not in body["error"]
    assert get(server, "/api/fit/view", {"source": LLAMA_70B, **params}) == (400, {"error": expected})


@pytest.mark.parametrize(("params", "message"), [
    ({"gpu_memory": "0GB"}, "gpu_memory: must be more than 0 bytes, got '0GB'"),
    ({"gpu_memory": "80"}, "gpu_memory: give a unit: 80GB or 80GiB"),
    ({"gpu_memory": "2PB"}, "gpu_memory: 2PB is above the API's bound of 2**50 bytes (1 PiB) a device"),
    ({"gpu_memory": "1e999999999GB"}, "gpu_memory: '1e999999999': an exponent beyond ±400"),
    ({"gpu": "h100", "context": "0"}, "context: must be between 1 and 2**40, got 0"),
    ({"gpu": "h100", "context": str(2**41)}, "context: must be between 1 and 2**40"),
    ({"gpu": "h100", "batch": "four"}, "batch: must be a whole number, got 'four'"),
    ({"gpu": "h100", "tp": "-2"}, "tp: must be between 1 and 2**40, got -2"),
    ({"gpu": "h100", "tp": "64", "pp": "2"}, "tp × pp: 128 devices is above the page's bound of 64"),
    ({"gpu": "h100", "gpus": "4096"}, "gpus: 4,096 devices is above the page's bound of 64"),
    ({"gpu": "h100", "suggest": "maybe"}, "suggest: must be true or false, got 'maybe'"),
    ({"gpu": "h100", "gpu_count": "2"}, "unknown key 'gpu_count'"),
    ({"gpu": "h100", "hidden_size": str(2**41)}, "hidden_size: 2.2e+12 is above the API's bound of 2**40"),
])
def test_the_apis_own_bounds_are_one_line(server, params, message):
    status, body = get(server, "/api/fit", {"source": LLAMA_70B, **params})
    assert status == 400
    assert body["error"].startswith(message), body["error"]
    assert "\n" not in body["error"]


def test_an_unknown_gpu_suggests_the_catalogs_name(server):
    status, body = get(server, "/api/fit", {"source": LLAMA_70B, "gpu": "h10"})
    assert status == 400
    assert "--gpu: unknown GPU 'h10' (did you mean 'h100'?" in body["error"]


def test_more_stages_than_layers_is_the_librarys_refusal(server):
    status, body = get(server, "/api/fit", {"gpu": "h100", "pp": "2"})  # the blank design: one layer
    assert (status, body) == (400, {"error": "--pp: 2 stages for 1 layers leaves a stage empty"})

"""The pasted config.json and the model list over the real server on 127.0.0.1 (conftest's server fixture).

POST /api/paste/<path> must answer what the GET route answers for a bundled name, and what the CLI prints for
the same config.json as a file; every bad body is a 400 with the library's one line, never a 500.  GET
/api/models must keep what `paramledger models TEXT` keeps, designs first.
"""

from __future__ import annotations

import json
import socket
import urllib.parse

import pytest

import paramledger
from paramledger.limits import JSON_BOUNDS
from paramledger.registry import bundled, get
from paramledger.sources import bundled_designs

from test_web_api import send

GEMMA = "gemma-3-4b-it"


def exchange(server, head: bytes, body: bytes = b"") -> tuple[int, bytes, dict]:
    """Send one raw request; return (status, response head, JSON body)."""
    status, reply_head, reply = send(server, head + body, timeout=30)
    return status, reply_head, json.loads(reply)


def post(server, path: str, body: bytes, params: dict[str, str] | None = None) -> tuple[int, dict]:
    query = urllib.parse.urlencode(params or {})
    target = (path + ("?" + query if query else "")).encode("ascii")
    head = b"POST %s HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (target, len(body))
    status, _, reply = exchange(server, head, body)
    return status, reply


def get_json(server, path: str) -> tuple[int, dict]:
    status, _, reply = exchange(server, f"GET {path} HTTP/1.0\r\n\r\n".encode())
    return status, reply


def config_text(name: str) -> bytes:
    return json.dumps(get(name).config, indent=2).encode()


# ---------------------------------------------------------------- one engine

@pytest.mark.parametrize("name", [GEMMA, "Llama-3.1-8B", "gpt-oss-20b", "Qwen3-30B-A3B", "falcon-mamba-7b"])
def test_a_pasted_config_counts_as_its_bundled_name(server, cli, tmp_path, name):
    status, view = post(server, "/api/paste/view", config_text(name))
    assert status == 200, view
    config = get(name).config
    assert view["count"]["total"] == paramledger.inventory(paramledger.load(config)).total
    assert view["count"]["total"] == paramledger.inventory(name).total
    _, bundled_view = get_json(server, f"/api/view?source={name}")
    assert view["rows"] == bundled_view["rows"] and view["components"] == bundled_view["components"]
    assert view["memory"]["rows"] == bundled_view["memory"]["rows"]
    # /api/paste/count is `paramledger count config.json --json` but for the label it gives the source
    (tmp_path / "config.json").write_bytes(config_text(name))
    status, out, err = cli("count", str(tmp_path / "config.json"), "--json")
    assert status == 0, err
    _, count = post(server, "/api/paste/count", config_text(name))
    printed = json.loads(out)
    assert count.pop("source") == "pasted config.json" and printed.pop("source") == str(tmp_path / "config.json")
    assert count == printed


def test_the_query_changes_a_pasted_config_as_set_does(server):
    status, view = post(server, "/api/paste/view", config_text("Llama-3.2-1B"),
                        {"num_hidden_layers": "4", "dtype": "int4", "context": "4096"})
    assert status == 200, view
    inv = paramledger.inventory("Llama-3.2-1B", num_hidden_layers=4)
    assert view["count"]["total"] == inv.total
    assert view["memory"]["dtype"] == "int4" and view["memory"]["context"] == "4096"
    status, memory = post(server, "/api/paste/memory", config_text("Llama-3.2-1B"), {"dtype": "int4"})
    bundled_memory = get_json(server, "/api/memory?source=Llama-3.2-1B&dtype=int4")[1]
    assert status == 200 and memory.pop("source") == "pasted config.json"
    assert memory == {key: value for key, value in bundled_memory.items() if key != "source"}


def test_a_pasted_config_has_a_fit_plan(server):
    status, fit = post(server, "/api/paste/fit/view", config_text("Llama-3.1-70B"),
                       {"gpu": "h100", "dtype": "int4", "context": "65536"})
    assert status == 200, fit
    _, bundled_fit = get_json(server, "/api/fit/view?source=Llama-3.1-70B&gpu=h100&dtype=int4&context=65536")
    assert fit["verdict"] == bundled_fit["verdict"] and fit["fits"]
    status, plan = post(server, "/api/paste/fit", config_text("Llama-3.1-70B"), {"gpu": "h100", "dtype": "int4"})
    assert status == 200 and plan["fits"] == get_json(server, "/api/fit?source=Llama-3.1-70B&gpu=h100&dtype=int4")[1]["fits"]


def test_the_notes_come_with_the_count(server):
    _, view = post(server, "/api/paste/view", config_text(GEMMA))
    assert view["count"]["notes"] == ["gemma3 is multimodal: counting the whole model (vision tower, projector and text decoder); --text-only counts the decoder alone"]
    config = {**get("Llama-3.2-1B").config, "not_a_llama_key": 1}
    _, view = post(server, "/api/paste/view", json.dumps(config).encode())
    assert view["count"]["notes"] == ["config keys not understood (they might change the count): not_a_llama_key"]


# ---------------------------------------------------------------- refusals: a 400 and one line

@pytest.mark.parametrize(("body", "message"), [
    (b"garbage", "pasted config.json: invalid JSON at line 1 column 1: Expecting value"),
    (b"[1, 2]", "pasted config.json: a config must be a JSON object"),
    (b"", "pasted config.json: empty: paste the text of a model's config.json"),
    (b"\xff\xfe{}", "pasted config.json: not UTF-8 text"),
    (b"{}", "model_type: missing (required to choose the family)"),
    (b'{"model_type": "no-such-family"}', "pasted config.json: model_type 'no-such-family' is not supported"),
    (b'{"model_type": "llama", "hidden_size": "wide"}', "hidden_size: must be a whole number, got 'wide'"),
    (b'{"model_type": "llama", "hidden_size": -5}', "hidden_size: must be positive, got -5"),
    (b'{"model_type": "llama", "num_hidden_layers": 1000001}', "num_hidden_layers: 1,000,001 is above the page's bound"),
    (b'{"model_type": "llama", "vocab_size": 1e400}', "pasted config.json"),
    (b"[" * 100 + b"]" * 100, "nested too deeply (more than 64 levels)"),
    (b"[" + b"0," * 1_000_000 + b"0]", "more than 1,000,000 values"),
])
def test_a_bad_paste_is_one_line(server, body, message):
    status, reply = post(server, "/api/paste/view", body)
    assert status == 400 and message in reply["error"], reply
    assert "\n" not in reply["error"] and len(reply["error"]) < 300


def test_a_body_past_the_bound_is_refused_before_it_is_parsed(server):
    limit = JSON_BOUNDS["config"][0]
    status, reply = post(server, "/api/paste/view", b" " * (limit + 1))
    assert status == 400
    assert reply["error"] == f"pasted config.json: {limit + 1:,} bytes: beyond the {limit:,}-byte bound for a config json"
    # a length far past the bound is refused at once, without waiting for a byte of the body
    status, _, reply = exchange(server, b"POST /api/paste/view HTTP/1.0\r\nContent-Length: 1000000000000\r\n\r\n")
    assert status == 400 and "1,000,000,000,000 bytes: beyond" in reply["error"]


@pytest.mark.parametrize(("head", "message"), [
    (b"POST /api/paste/view HTTP/1.0\r\n\r\n", "a pasted config needs a Content-Length"),
    (b"POST /api/paste/view HTTP/1.0\r\nContent-Length: -1\r\n\r\n", "Content-Length: not a byte count"),
    (b"POST /api/paste/view HTTP/1.0\r\nContent-Length: 10\r\n\r\n{}", "the body ended after 2 of 10 bytes"),
    (b"POST /api/paste/view HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "not chunked"),
])
def test_a_malformed_body_is_400(server, head, message):
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=30) as sock:
        sock.sendall(head)
        sock.shutdown(socket.SHUT_WR)  # the short body ends here
        reply = b"".join(iter(lambda: sock.recv(65536), b""))
    assert reply.startswith(b"HTTP/1.0 400"), reply
    assert message in json.loads(reply.partition(b"\r\n\r\n")[2])["error"]
    assert server.internal_errors == 0


def test_paths_and_keys_a_paste_does_not_take(server):
    body = config_text("Llama-3.2-1B")
    status, reply = post(server, "/api/paste/names", body)
    assert status == 404 and "a config is posted to /api/paste/view, /api/paste/count" in reply["error"]
    status, reply = post(server, "/api/paste/view", body, {"source": "gpt2"})
    assert status == 400 and reply["error"] == "source: the pasted config is the design; give no bundled name with it"
    status, reply = post(server, "/api/paste/view", body, {"hiden_size": "8"})
    assert status == 400 and "unknown key 'hiden_size' (did you mean 'hidden_size'?)" in reply["error"]
    # every other path stays read-only
    status, reply = post(server, "/api/count", body)
    assert status == 405 and reply["error"] == "method POST not allowed here; the API takes GET (POST only at /api/paste/...)"
    # and a GET of a paste path is a 404, as any unknown path
    assert get_json(server, "/api/paste/view")[0] == 404


# ---------------------------------------------------------------- the model list

def names_of(reply: dict) -> list[str]:
    return [entry["name"] for group in reply["groups"] for entry in group["names"]]


@pytest.mark.parametrize("search", ["qwen", "QWEN3 moe", "llama 70b", "gemma3", "meta-llama", "seed", "no-such-thing"])
def test_search_keeps_what_paramledger_models_keeps(server, cli, search):
    status, reply = get_json(server, "/api/models?" + urllib.parse.urlencode({"search": search}))
    assert status == 200
    status, out, _ = cli("models", *search.split(), "--json")
    models = {row["name"] for row in json.loads(out)} if status == 0 else set()
    designs = {name for name in bundled_designs() if all(word in name for word in search.lower().split())}
    assert set(names_of(reply)) == models | designs
    assert reply["shown"] == len(models | designs)


def test_designs_first_then_models_by_org_in_natural_order(server):
    _, reply = get_json(server, "/api/models")
    groups = reply["groups"]
    assert groups[0]["label"] == "designs" and names_of({"groups": groups[:1]}) == list(bundled_designs())
    orgs = [group["label"] for group in groups[1:]]
    assert orgs == sorted({m.repo.split("/")[0] for m in bundled()}, key=str.lower)
    qwen = [entry["name"] for entry in groups[1 + orgs.index("Qwen")]["names"]]
    assert qwen.index("Qwen3-4B") < qwen.index("Qwen3-8B") < qwen.index("Qwen3-14B") < qwen.index("Qwen3-32B")
    assert sorted(names_of(reply)) == sorted([*bundled_designs(), *(m.name for m in bundled())])
    assert reply["text"] == f"{len(bundled_designs()) + len(bundled())} designs and models"
    assert get_json(server, "/api/models?sort=name") == (400, {"error": "unknown key 'sort': /api/models takes search only"})

"""The calculator's JSON API against the library and the CLI, on a real server.

The server runs in-process on a free port (port 0) in a thread; requests go over a real
socket as raw bytes, so malformed request lines and non-UTF-8 queries reach it as a
browser or a script could send them.  No answer may be a 500: each one is a bug.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paramledger
from paramledger import OptionError
from paramledger.architecture import Architecture
from paramledger.render import inventory_json
from paramledger.server import BLANK_DESIGN, MAX_QUERY_BYTES, make_server
from paramledger.sources import bundled_names

ARCH_KEYS = Architecture.field_names()


def send(server, request: bytes, timeout: float = 10) -> tuple[int, bytes, bytes]:
    """Send one raw request; return (status, response head, body).  No answer may be a 500."""
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert status != 500, body
    assert server.internal_errors == 0
    return status, head, body


def raw_request(server, target: bytes, method: bytes = b"GET") -> tuple[int, dict]:
    """Send one request line as bytes; return (status, JSON body)."""
    status, head, body = send(server, method + b" " + target + b" HTTP/1.0\r\nHost: localhost\r\n\r\n")
    return status, json.loads(body) if b"application/json" in head else {"page": body}


def get(server, path: str, params: dict[str, str] | list[tuple[str, str]] | None = None) -> tuple[int, dict]:
    query = urllib.parse.urlencode(params or {})
    return raw_request(server, (path + ("?" + query if query else "")).encode("ascii"))


def cli_json(cli, *argv: str) -> dict:
    status, out, err = cli(*argv)
    assert status == 0, err
    return json.loads(out)


# ---------------------------------------------------------------- one engine

DESIGNS = [
    ("seed-baseline", {}),
    ("seed-baseline", {"hidden_size": "512", "num_hidden_layers": "3", "mlp_gated": "true"}),
    ("seed-1.1b", {"num_key_value_heads": "16"}),
    ("seed-untied", {"attention_bias": "true", "norm_type": "layernorm", "qk_norm": "head"}),
    ("gpt2", {}),
    ("Mixtral-8x7B-v0.1", {"num_experts": "4", "num_experts_per_tok": "1"}),
    ("DeepSeek-V3", {}),
    ("Qwen3-4B", {"tie_word_embeddings": "false", "position_embedding_type": "learned"}),
]


@pytest.mark.parametrize(("source", "overrides"), DESIGNS)
def test_count_is_exactly_count_json(server, cli, source, overrides):
    sets = [arg for key, value in overrides.items() for arg in ("--set", f"{key}={value}")]
    status, body = get(server, "/api/count", {"source": source, **overrides})
    assert status == 200
    assert body == cli_json(cli, "count", source, "--json", *sets)
    status, body = get(server, "/api/count", {"source": source, "manifest": "1", **overrides})
    assert status == 200
    assert body == cli_json(cli, "count", source, "--json", "--manifest", *sets)


def test_blank_design_is_seed_001s_page(server):
    """d=4, f=8, 1 layer, vocabulary 100, no norms: 528; seed 001's defaults: 540; untied: 940."""
    assert get(server, "/api/count")[1]["total"] == 528
    two_norms = {"norm_placement": "pre", "final_norm": "true"}
    assert get(server, "/api/count", two_norms)[1]["total"] == 540
    assert get(server, "/api/count", {**two_norms, "tie_word_embeddings": "false"})[1]["total"] == 940
    expected = inventory_json(paramledger.inventory(paramledger.load(BLANK_DESIGN, hidden_size=8)))
    body = get(server, "/api/count", {"hidden_size": "8"})[1]
    assert {k: v for k, v in body.items() if k != "source"} == {k: v for k, v in expected.items() if k != "source"}


def _layer_sum(inv, component, layer):
    return sum(t.count for t in inv.select(component=component, layer=layer))


@pytest.mark.parametrize(("source", "overrides"), DESIGNS)
def test_view_rows_are_the_librarys_sums(server, source, overrides):
    status, view = get(server, "/api/view", {"source": source, **overrides})
    assert status == 200
    inv = paramledger.inventory(source, **overrides)
    assert view["count"] == inventory_json(inv)
    rows = {row["key"]: row for row in view["rows"]}
    for row in view["rows"]:
        assert row["text"] == f"{row['count']:,}"
    layers = [k for k in inv.by_layer if k is not None]
    for component in ("attention", "ffn", "norm", "router", "experts", "shared_experts"):
        if component in rows:
            assert rows[component]["count"] == _layer_sum(inv, component, layers[0])
    assert rows["block"]["count"] == inv.by_layer[layers[0]]
    assert rows["blocks"]["count"] == sum(inv.by_layer[i] for i in layers)
    assert rows["embedding"]["count"] == inv.embedding
    assert rows["lm_head"]["count"] == inv.component("lm_head")
    assert rows["total"]["count"] == inv.total
    outside = [r["count"] for k, r in rows.items() if k not in
               ("attention", "ffn", "norm", "router", "experts", "shared_experts", "block", "blocks", "total")]
    assert rows["blocks"]["count"] + sum(outside) == inv.total  # the rows partition the inventory
    assert [c["name"] for c in view["components"]] == list(inv.components)
    arch = inv.architecture
    assert view["values"]["hidden_size"] == arch.hidden_size
    assert view["values"]["intermediate_size"] == arch.ffn_size
    assert view["values"]["num_key_value_heads"] == arch.kv_heads


def test_names_are_the_bundled_names(server):
    status, body = get(server, "/api/names")
    assert status == 200
    assert [entry["name"] for entry in body["names"]] == bundled_names()
    assert body["blank_design"] == BLANK_DESIGN


def test_memory_is_exactly_memory_json(server, cli):
    params = {"source": "seed-1.1b", "dtype": "int4", "context": "4096", "num_hidden_layers": "12"}
    status, body = get(server, "/api/memory", params)
    assert status == 200
    assert body == cli_json(cli, "memory", "seed-1.1b", "--json", "--dtype", "int4", "--context", "4096",
                            "--set", "num_hidden_layers=12")
    # Seed 002: 24 layers of 16 MHA heads of 128 hold 196,608 bytes per token at fp16.
    status, body = get(server, "/api/memory", {"source": "seed-1.1b", "num_key_value_heads": "16",
                                               "dtype": "fp16", "context": "8192"})
    assert body["kv_bytes_per_token"] == 196_608
    assert body["kv_cache_bytes"] == 1_610_612_736


def test_view_shows_a_memory_error_in_its_panel_and_keeps_the_count(server):
    status, view = get(server, "/api/view", {"source": "seed-baseline", "dtype": "int4", "hidden_size": "200"})
    assert status == 200  # 200 columns do not split into groups of 128: the panel says so
    assert view["rows"][-1]["count"] == paramledger.inventory("seed-baseline", hidden_size=200).total
    assert "group" in view["memory"]["error"]


def test_the_memory_panel_shows_a_hybrids_linear_attention_state(server):
    """Gated DeltaNet layers cache no keys or values but hold a fixed state: its own row, and the total's
    label says it is in (before, the total included it under "weights + KV cache")."""
    params = {"num_hidden_layers": "4", "linear_attention_layers": "0,2", "linear_num_value_heads": "4",
              "linear_num_key_heads": "2", "linear_key_head_dim": "32", "linear_value_head_dim": "32",
              "linear_conv_kernel_dim": "4"}
    status, view = get(server, "/api/view", params)
    assert status == 200
    rows = {row["key"]: row for row in view["memory"]["rows"]}
    _, memory = get(server, "/api/memory", params)
    assert memory["linear_attention_state_bytes"] == 20_480  # bf16: 2 layers x (conv 256 x 4 + 4 heads x 32 x 32)
    assert rows["linear_attention_state"]["text"].startswith("20,480 bytes")
    assert "2 Gated DeltaNet layers" in rows["linear_attention_state"]["label"]
    assert rows["total_bytes"]["label"] == "weights + KV cache + state"
    assert memory["total_bytes"] == memory["weights_bytes"] + memory["kv_cache_bytes"] + 20_480
    _, plain = get(server, "/api/view", {})
    assert [row["key"] for row in plain["memory"]["rows"]][-2:] == ["kv_cache", "total_bytes"]


def test_static_page_and_its_files(server):
    host, port = server.server_address[:2]
    for path, kind in (("/", b"text/html"), ("/app.js", b"text/javascript"), ("/style.css", b"text/css")):
        with socket.create_connection((host, port), timeout=10) as sock:
            sock.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
            reply = b""
            while chunk := sock.recv(65536):
                reply += chunk
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.0 200") and kind in head
        assert b"Content-Security-Policy: default-src 'none'" in head
        assert b"https://" not in body and b"cdn" not in body.lower()


# ---------------------------------------------------------------- each refusal, with its message

REFUSALS = [
    ({"hiden_size": "8"}, r"unknown key 'hiden_size' \(did you mean 'hidden_size'\?\)"),
    ({"hidden_size": "8", "num_attention_heads": "3"}, r"num_attention_heads: 3 heads do not divide hidden_size=8"),
    ({"hidden_size": "8", "num_attention_heads": "4", "num_key_value_heads": "3"},
     r"num_key_value_heads: 3 does not divide num_attention_heads=4"),
    ({"hidden_size": "-8"}, r"hidden_size: must be positive, got -8"),
    ({"vocab_size": str(10**30)}, r"vocab_size: 1e\+30 is above the API's bound of 2\*\*40"),
    ({"intermediate_size": str(2**40 + 1)}, r"intermediate_size: .* is above the API's bound"),
    ({"intermediate_ratio": "1e999999999"}, r"intermediate_ratio: expected a number like 4"),
    ({"num_hidden_layers": "1000001"}, r"num_hidden_layers: 1,000,001 is above the page's bound of 1,000,000"),
    ({"altup_num_inputs": "76804"}, r"altup_num_inputs: 76,804 is above the page's bound of 1,024"),
    ({"source": "stablelm-2-zephyr-1_6b", "qk_norm": "per_head", "num_attention_heads": "1048576", "head_dim": "1"},
     r"num_attention_heads: 1,048,576 is above the page's bound of 4,096"),
    ({"hidden_size": "eight"}, r"hidden_size: must be a whole number, got 'eight'"),
    ({"mlp_gated": "maybe"}, r"mlp_gated: must be true or false, got 'maybe'"),
    ({"norm_placement": "sandwhich"}, r"did you mean 'sandwich'"),
    ({"source": "../../etc/passwd"}, r"source: '../../etc/passwd' is not a bundled name"),
    ({"source": "seed-basline"}, r"did you mean 'seed-baseline'"),
    ({"manifest": "perhaps"}, r"manifest: must be true or false"),
    ([("hidden_size", "8"), ("hidden_size", "16")], r"'hidden_size' given twice"),
    ({"x" * 10: "1"}, r"unknown key"),
]


@pytest.mark.parametrize(("params", "message"), REFUSALS)
def test_refusals_are_400_with_one_line(server, params, message):
    status, body = get(server, "/api/count", params)
    assert status == 400
    assert "\n" not in body["error"]
    assert re.search(message, body["error"]), body["error"]


@pytest.mark.parametrize(("target", "status", "message"), [
    (b"/api/count?hidden_size=%ff", 400, "query is not UTF-8"),
    (b"/api/count?hidden_size=\xff\xfe", 400, "query is not UTF-8"),
    (b"/api/count?" + b"a=1&" * (MAX_QUERY_BYTES // 4 + 1), 400, "the limit is 4,096"),
    (b"/api/count?" + b"&".join(b"k%d=1" % i for i in range(60)), 400, "malformed query"),
    (b"/api/count?hidden_size", 400, "malformed query: bad query field"),
    (b"/api/count?hidden_size=" + b"9" * 300, 400, "the limit is 200"),
    (b"/api/names?source=gpt2", 400, "/api/names takes no parameters"),
    (b"/api/memory?dtype=fp7", 400, "fp7"),
    (b"/api/memory?context=-5", 400, "context: must be between 1 and 2\\*\\*40"),
    (b"/api/memory?context=lots", 400, "context: must be a whole number"),
    (b"/etc/passwd", 404, "no such path: '/etc/passwd'"),
    (b"/api/count/../../x", 404, "no such path"),
    (b"/" + b"a" * 70_000, 400, ""),  # http.server's own 414, answered as 400
], ids=["percent-ff", "raw-ff", "long-query", "many-fields", "no-equals", "long-value", "names-params",
        "bad-dtype", "negative-context", "word-context", "unknown-path", "dotted-path", "huge-line"])
def test_malformed_requests(server, target, status, message):
    got, body = raw_request(server, target)
    assert got == status
    assert re.search(message, body["error"]), body["error"]


def test_methods_other_than_get_are_refused(server):
    assert raw_request(server, b"/api/count", b"POST") == (
        405, {"error": "method POST not allowed here; the API takes GET (POST only at /api/paste/...)"})
    status, body = raw_request(server, b"/api/count", b"BREW")
    assert status == 405 and "BREW" in body["error"]


@pytest.mark.parametrize("line", [b"GET / HTTP/7.5", b"GET / FTP/1.0", b"GET", b"\x00\xff"])
def test_a_garbled_request_line_is_refused_as_json(server, line):
    """http.server refuses these itself (before a version is known it answers HTTP/0.9
    style, a body without a status line); the body is still our JSON."""
    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(line + b"\r\n\r\n")
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    body = reply.partition(b"\r\n\r\n")[2] if reply.startswith(b"HTTP/") else reply
    assert json.loads(body)["error"]
    assert not reply.startswith(b"HTTP/1.0 5") or reply.startswith(b"HTTP/1.0 505")
    assert server.internal_errors == 0


# ---------------------------------------------------------------- a few hundred drawn requests

_UTF8 = st.characters(codec="utf-8")  # any character a URL can carry (no lone surrogates)
_PATH_CHARS = st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="?#%")
_KNOWN_PATHS = {"/", "/index.html", "/app.js", "/style.css", "/api/names", "/api/count", "/api/view", "/api/memory"}


@settings(max_examples=100)
@given(st.text(_PATH_CHARS, min_size=1, max_size=60))
def test_drawn_paths_are_404(server, path):
    path = "/" + path
    status, body = raw_request(server, path.encode())
    if "/" + path.lstrip("/") in _KNOWN_PATHS:  # http.server folds a leading "//" into "/"
        assert status in (200, 400)
    else:
        assert status == 404 and body["error"].startswith("no such path")


@settings(max_examples=100)
@given(st.dictionaries(st.text(_UTF8, min_size=1, max_size=20)
                       .filter(lambda k: k not in ("source", "manifest", *ARCH_KEYS)),
                       st.text(_UTF8, max_size=20), min_size=1, max_size=5))
def test_drawn_unknown_keys_are_400(server, params):
    status, body = get(server, "/api/count", params)
    assert status == 400 and "unknown key" in body["error"]


_BAD_INT = st.one_of(st.integers(max_value=0).map(str), st.integers(min_value=2**40 + 1).map(str),
                     st.text(st.characters(codec="utf-8", exclude_categories=("Nd",)), min_size=1, max_size=12))


@settings(max_examples=100)
@given(st.sampled_from(["vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads"]), _BAD_INT,
       st.sampled_from(["/api/count", "/api/view", "/api/memory"]))
def test_drawn_bad_sizes_are_400(server, key, value, path):
    status, body = get(server, path, {key: value})
    assert status == 400, body
    assert key in body["error"] or "query" in body["error"]


@settings(max_examples=100)
@given(st.dictionaries(st.sampled_from(ARCH_KEYS + ("source", "dtype", "context", "batch")),
                       st.one_of(st.text(_UTF8, max_size=12), st.integers(-5, 2**41).map(str),
                                 st.sampled_from(["true", "false", "none", "1/0", "8/3", "seed-baseline", ""])),
                       max_size=6),
       st.sampled_from(["/api/count", "/api/view", "/api/memory"]))
def test_drawn_designs_never_500(server, params, path):
    """Anything in the known keys: a design (200) or a refusal (400), never a crash."""
    status, body = get(server, path, params)
    assert status in (200, 400), body
    if status == 400:
        assert body["error"] and "\n" not in body["error"]


@settings(max_examples=100)
@given(st.binary(max_size=200).filter(lambda b: not any(c in b for c in b" \r\n#")))
def test_drawn_bytes_never_500(server, query):
    status, body = raw_request(server, b"/api/view?" + query)
    assert status in (200, 400), body


# ---------------------------------------------------------------- the server itself

def test_make_server_refusals():
    with pytest.raises(OptionError, match=r"--port: must be between 0 and 65535, got 70000"):
        make_server("127.0.0.1", 70000)
    first = make_server("127.0.0.1", 0, quiet=True)
    try:
        with pytest.raises(OptionError, match=r"--port: cannot listen on 127.0.0.1:\d+ \(Address already in use\)"):
            make_server("127.0.0.1", first.server_address[1])
    finally:
        first.server_close()
    with pytest.raises(OptionError, match=r"--host: cannot listen on 192.0.2.1:0 \(Cannot assign requested address\)"):
        make_server("192.0.2.1", 0)  # TEST-NET-1: an address this machine does not have


def test_ipv6_loopback(cli):
    try:
        server = make_server("::1", 0, quiet=True)
    except OptionError as error:
        pytest.skip(f"no IPv6 loopback here: {error}")
    try:
        assert server.url.startswith("http://[::1]:")
    finally:
        server.server_close()


def test_serve_cli_refuses_a_bad_port(cli):
    status, out, err = cli("serve", "--port", "70000")
    assert status == 2
    assert err == "paramledger: error: --port: must be between 0 and 65535, got 70000\n"


def test_serve_command_prints_its_url_and_stops_on_ctrl_c():
    # -X faulthandler: a server that does not stop is made to print every thread's stack (SIGABRT) for the failure
    process = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "paramledger", "serve", "--port", "0",
                                "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = process.stdout.readline()
        assert line.startswith("paramledger: serving the calculator on http://127.0.0.1:")
        url = line.split(" on ", 1)[1].split()[0]
        host, port = urllib.parse.urlsplit(url).hostname, urllib.parse.urlsplit(url).port
        with socket.create_connection((host, port), timeout=10) as sock:
            sock.sendall(b"GET /api/count?source=seed-baseline HTTP/1.0\r\n\r\n")
            reply = b""
            while chunk := sock.recv(65536):
                reply += chunk
        assert json.loads(reply.partition(b"\r\n\r\n")[2])["total"] == 13_110_528
    finally:
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # where it waits, said in the failure (seen only in full-suite runs)
            process.send_signal(signal.SIGABRT)
            out, err = process.communicate(timeout=10)
            pytest.fail(f"serve did not stop 10 s after SIGINT; its threads:\n{err[-4000:]}")
    assert process.returncode == 0, err


def test_serve_stops_on_ctrl_c_where_its_parent_ignored_sigint():
    """A child inherits an ignored SIGINT (and Python then raises no KeyboardInterrupt): serve put its own back. The
    Ctrl-C test above hung in full-suite runs so, its server's only thread waiting in select."""
    process = subprocess.Popen([sys.executable, "-m", "paramledger", "serve", "--port", "0", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout.readline().startswith("paramledger: serving the calculator on ")
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("serve ignored SIGINT")
    assert process.returncode == 0

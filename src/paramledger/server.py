"""The calculator page's server: the static page and a small JSON API over the library.

One engine: the page sends the design (a bundled name and architecture keys, as the query string) and the
server answers with the library's own views.  Standard library only (http.server); bound to 127.0.0.1.

    GET /                  the page (web/index.html, app.js, style.css)
    GET /api/names         the bundled names and the blank design
    GET /api/count?...     exactly render.inventory_json (the JSON of `paramledger count --json`)
    GET /api/view?...      what the page shows: that JSON, seed 001's rows, shares, input values
    GET /api/memory?...    memory and KV cache, when paramledger.memory is installed
    GET /api/gpus, /api/fit?..., /api/fit/view?...   the fit panel (server_fit.py)
    GET /api/models?search=..., POST /api/paste/<path>   the model list, a pasted config.json (server_paste.py)

Every malformed request (an unknown key, a bad number, an absurd size, a long or
non-UTF-8 query) is a 400 with {"error": "<one line>"}; an unknown path is a 404.  A 500
means a bug: it is logged on stderr and counted in ``server.internal_errors``.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import traceback
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from ._exceptions import ParamledgerError, did_you_mean
from ._http_limits import ALLOWED_METHODS, IDLE_TIMEOUT, BoundedThreads
from .architecture import Architecture

MAX_QUERY_BYTES = 4096  # a full design is under 1 KB; anything longer is not a design
MAX_FIELDS = 48  # every architecture key once, plus the source and the page's own keys
MAX_VALUE_CHARS = 200
MAX_SIZE = 2**40  # any integer field (a width, a vocabulary): larger is a typo, not a model
# Sizes that repeat tensors: the deepest published decoders have ~128 layers, Gemma 3n 4 AltUp streams, the
# widest 128 query heads (StableLM's per-head norms are one tensor per head). 2**40 of any would never finish.
# Layers are summed per kind: 10^6 layers of a hybrid whose kinds alternate every layer (Jamba, Nemotron-H) are
# answered in 1-2 s of CPU and under 220 MB, every route (tests/test_reliability_scale_kinds.py); the CLI goes to 10^7.
MAX_REPEATS = {"num_hidden_layers": 1_000_000, "altup_num_inputs": 1024, "num_attention_heads": 4096,
               "num_key_value_heads": 4096, "num_attention_heads_per_layer": 4096}

# Seed 001's page as it opens: d = 4, f = 8, one layer, vocabulary 100, no biases, no
# norms, tied: the table's total is 528.  One head, so any width is valid.
BLANK_DESIGN = {
    "vocab_size": 100,
    "hidden_size": 4,
    "intermediate_size": 8,
    "num_hidden_layers": 1,
    "num_attention_heads": 1,
    "norm_placement": "none",
    "final_norm": False,
    "position_embedding_type": "none",
    "tie_word_embeddings": True,
}
BLANK_NAME = "blank design"

# Sizes shown in the page's inputs when the design leaves them to be derived.
_DERIVED = {
    "intermediate_size": "ffn_size",
    "head_dim": "attention_head_dim",
    "num_key_value_heads": "kv_heads",
    "moe_intermediate_size": "expert_size",
}

_STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
# Nothing the page loads comes from anywhere else.
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_KEY = re.compile(r"[a-z_]{1,64}")
_RATIO = re.compile(r"\d{1,12}(/\d{1,12}|\.\d{1,12})?")  # Fraction would expand "1e999999999"


class ApiError(Exception):
    """A request the API refuses: ``status`` (400, 404, 405) and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


# ---------------------------------------------------------------- requests -> designs

def parse_query(raw: bytes) -> dict[str, str]:
    """The query string as key -> value, refusing what no page would send."""
    if len(raw) > MAX_QUERY_BYTES:
        raise ApiError(400, f"query is {len(raw):,} bytes; the limit is {MAX_QUERY_BYTES:,}")
    try:
        text = raw.decode("utf-8")
        pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=True, encoding="utf-8",
                          errors="strict", max_num_fields=MAX_FIELDS)
    except UnicodeDecodeError:
        raise ApiError(400, "query is not UTF-8") from None
    except ValueError as error:  # a field without "=", or too many fields
        raise ApiError(400, f"malformed query: {error}") from None
    out: dict[str, str] = {}
    for key, value in pairs:
        if key in out:
            raise ApiError(400, f"{key!r} given twice")
        if len(value) > MAX_VALUE_CHARS:
            raise ApiError(400, f"{key!r}: value is {len(value):,} characters; the limit is {MAX_VALUE_CHARS}")
        out[key] = value
    return out


def _check_keys(query: dict[str, str], extra: tuple[str, ...]) -> None:
    known = ("source", *Architecture.field_names(), *extra)
    for key in query:
        if key not in known or not _KEY.fullmatch(key):
            raise ApiError(400, f"unknown key {key!r}{did_you_mean(key, known)}")


def design_from_query(query: dict[str, str]) -> Architecture:
    """The design a query names: ``source`` (a bundled name; blank: seed 001's page)
    with every architecture key in the query applied as an override, as --set would."""
    from . import load
    from .sources import bundled_names

    overrides = {key: value for key, value in query.items() if key in Architecture.field_names()}
    ratio = overrides.get("intermediate_ratio")
    if ratio is not None and ratio.strip().lower() not in ("", "none", "null") and not _RATIO.fullmatch(ratio.strip()):
        raise ApiError(400, f"intermediate_ratio: expected a number like 4, 2.6875 or 8/3, got {ratio!r}")
    source = query.get("source", "").strip()
    if source:
        names = bundled_names()
        if source not in names:  # the API reads no files and no hub: bundled names only
            raise ApiError(400, f"source: {source!r} is not a bundled name{did_you_mean(source, names)}")
        base = load(source)
    else:  # the config.json posted with this request (server_paste.py), else seed 001's page
        from .server_paste import PASTED
        base = PASTED.get() or Architecture.from_mapping(BLANK_DESIGN, BLANK_NAME)
    for key, value in overrides.items():  # before load, which has its own (higher) bounds
        digits = value.strip().replace("_", "")
        if digits.isascii() and digits.isdigit() and len(digits) <= 400 and int(digits) > MAX_SIZE:
            raise _too_large(key, int(digits))
    arch = load(base, **overrides) if overrides else base
    _check_bounds(arch)
    return arch


def _check_bounds(arch: Architecture) -> None:
    """Refuse sizes no model has before building anything from them."""
    values: dict[str, Any] = {key: getattr(arch, key) for key in Architecture.field_names()}
    values.update({key: getattr(arch, prop) for key, prop in _DERIVED.items()})
    values["shared_expert_intermediate_size"] = arch.shared_expert_size
    for key, value in values.items():
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, int) and not isinstance(item, bool) and item > MAX_SIZE:
                raise _too_large(key, item)
    for key, bound in MAX_REPEATS.items():
        for item in values[key] if isinstance(values[key], tuple) else (values[key],):
            if item is not None and item > bound:
                raise ApiError(400, f"{key}: {item:,} is above the page's bound of {bound:,}; "
                                    f"`paramledger count` has none")


def _too_large(key: str, item: int) -> ApiError:
    return ApiError(400, f"{key}: {item:.3g} is above the API's bound of 2**40 ({MAX_SIZE:,}); no model is that large")


def _flag(query: dict[str, str], key: str) -> bool:
    value = query.get(key, "false").strip().lower()
    if value in ("1", "true", "yes"):
        return True
    if value in ("0", "false", "no", ""):
        return False
    raise ApiError(400, f"{key}: must be true or false, got {value!r}")


# ---------------------------------------------------------------- the API

def api_names(query: dict[str, str]) -> dict[str, Any]:
    from .sources import bundled_designs, bundled_names

    _check_keys(query, ())
    if query:
        raise ApiError(400, "/api/names takes no parameters")
    designs = set(bundled_designs())
    return {"blank": BLANK_NAME, "blank_design": BLANK_DESIGN,
            "names": [{"name": name, "kind": "design" if name in designs else "model"} for name in bundled_names()]}


def api_count(query: dict[str, str]) -> dict[str, Any]:
    """Exactly what `paramledger count SOURCE --json [--manifest] --set K=V ...` prints."""
    from . import inventory
    from .render import inventory_json

    _check_keys(query, ("manifest",))
    manifest = _flag(query, "manifest")
    return inventory_json(inventory(design_from_query(query)), manifest=manifest)


def _memory_module():
    """paramledger.memory when it is installed (the page hides its panel otherwise)."""
    try:
        from . import memory
    except ImportError:
        return None
    return memory


_MEMORY_KEYS = ("dtype", "kv_dtype", "context", "batch")


def _whole(query: dict[str, str], key: str) -> int | None:
    text = query.get(key, "").strip()
    if not text:
        return None
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise ApiError(400, f"{key}: must be a whole number, got {text!r}") from None
    if not 0 < value <= MAX_SIZE:
        raise ApiError(400, f"{key}: must be between 1 and 2**40, got {value}")
    return value


def _memory_report(inv: Any, query: dict[str, str]) -> Any:
    """paramledger.memory's report for the query's dtype, KV dtype, context and batch."""
    memory = _memory_module()
    dtype = query.get("dtype", "").strip()
    # no dtype (or "stored"): the weights as the config stores them (issue #18), bf16 for a design of our own
    return memory.memory_report(inv, dtype=None if dtype in ("", "stored") else dtype,
                                kv_dtype=query.get("kv_dtype", "").strip() or None,
                                context=_whole(query, "context"), batch=_whole(query, "batch") or 1)


def api_view(query: dict[str, str]) -> dict[str, Any]:
    """Everything the page shows, formatted here so the page only places text."""
    from . import inventory
    from .render import inventory_json, percent
    from .report import calculator_rows, component_rows, summary

    _check_keys(query, _MEMORY_KEYS)
    arch = design_from_query(query)
    inv = inventory(arch)
    values = arch.to_mapping(include_defaults=True)
    derived = [key for key in _DERIVED if values.get(key) is None]
    for key in derived:
        values[key] = getattr(arch, _DERIVED[key])
    count = inventory_json(inv)
    return {
        "count": count,
        "summary": summary(inv),
        "rows": [{"key": r.key, "label": r.label, "detail": r.detail, "count": r.count, "text": f"{r.count:,}"}
                 for r in calculator_rows(inv)],
        "components": [{"name": name, "count": count, "text": f"{count:,}", "share": share,
                        "fraction": count / inv.total if inv.total else 0.0}
                       for name, count, share in component_rows(inv)],
        "embedding_share": percent(inv.embedding_share, digits=6),
        "facts": _facts(inv, count),
        "values": values,
        "derived": derived,
        "memory": _memory_view(inv, query) if _memory_module() is not None else None,
    }


def _facts(inv: Any, count: dict[str, Any]) -> list[str]:
    """The one-line findings of seeds 000 and 003, as text, from the count JSON."""
    from .render import beside_decoder, percent

    arch = inv.architecture
    facts = [f"text decoder: {inv.text_decoder:,} (the total less {beside_decoder(inv)})"] if inv.has_towers else []
    facts += [f"embedding share: {percent(inv.embedding_share, digits=6)} (token table / total)",
             f"non-embedding (Hugging Face exclude_embeddings): {inv.non_embedding('hf'):,}"]
    even = count["break_even_vocab_size"]
    facts.append("the token table outgrows everything else when vocab_size ≥ "
                 f"{even:,}" if even is not None else "the token table never outgrows the rest (untied head)")
    rule = count["rule_of_thumb"]
    facts.append(f"rule of thumb 12·L·d² = {rule['estimate']:,}: {abs(rule['gap']):,} "
                 f"{'under' if rule['gap'] >= 0 else 'over'} the exact count")
    if arch.is_moe:
        facts.append(f"active per token: {inv.active:,} ({percent(inv.active, inv.total)})")
    if inv.frozen:
        facts.append(f"frozen (still counted): {inv.frozen:,}")
    return facts


def _memory_view(inv: Any, query: dict[str, str]) -> dict[str, Any]:
    """The memory panel's rows.  A dtype the design cannot take (a group size that does
    not divide a row) is shown in the panel; the count above it stands."""
    from .dtypes import DTYPES
    from .memory import format_bytes, state_label, total_label

    panel: dict[str, Any] = {"dtypes": ["stored", *DTYPES], "dtype": query.get("dtype", "").strip() or "stored",
                             "context": query.get("context", "").strip(), "rows": [], "error": None}
    try:
        report = _memory_report(inv, query)
    except (ParamledgerError, ApiError) as error:
        panel["error"] = _one_line(str(error))
        return panel
    kv = report.kv
    panel["context"] = str(kv.context)
    panel["rows"] = [
        {"key": "weights", "label": "weights as stored: " + report.weights.assumed if report.weights.stored is not None
         else f"weights at {report.weights.dtype}", "text": format_bytes(report.weights.total)},
        {"key": "kv_per_token", "label": f"KV cache per token at {kv.dtype.name}",
         "text": f"{kv.values_per_token:,} values = {kv.bytes_per_token:,} bytes"},
        {"key": "kv_cache", "label": f"KV cache, {kv.batch} × {kv.context:,} tokens{_sliding_note(kv)}",
         "text": format_bytes(kv.bytes)},
    ]
    if kv.state_values:  # Gated DeltaNet layers cache no keys or values: a fixed state instead
        panel["rows"].append({"key": "linear_attention_state", "label": state_label(kv),
                              "text": format_bytes(kv.state_bytes)})
    panel["rows"].append({"key": "total_bytes", "label": total_label(kv), "text": format_bytes(report.total_bytes)})
    return panel


def _sliding_note(kv: Any) -> str:
    """How many layers slide and how many tokens each keeps ("" when none slides)."""
    held = kv.tokens_held().get("sliding_attention")
    if not held:
        return ""
    sliding = f"{held['layers']} of {len(kv.kinds)} layers slide" if len(kv.kinds) > 1 else "its one layer slides"
    return f" ({sliding}, each keeping {held['tokens']:,})"


def api_memory(query: dict[str, str]) -> dict[str, Any]:
    """Exactly what `paramledger memory SOURCE --json --dtype D --context N ...` prints."""
    if _memory_module() is None:
        raise ApiError(404, "memory estimates are not installed in this paramledger")
    from . import inventory
    from .memory_text import report_json

    _check_keys(query, _MEMORY_KEYS)
    return report_json(_memory_report(inventory(design_from_query(query)), query))


_ROUTES = {"/api/names": api_names, "/api/count": api_count, "/api/view": api_view, "/api/memory": api_memory}


def _more_routes() -> dict[str, Any]:
    from .server_fit import ROUTES  # these import this module's helpers: loaded on first use, not with it
    from .server_paste import ROUTES as PASTE_ROUTES

    return {**ROUTES, **PASTE_ROUTES}


# ---------------------------------------------------------------- HTTP

@dataclass
class _Reply:
    status: int
    body: bytes
    content_type: str
    static: bool = False


def _json_reply(status: int, value: Any) -> _Reply:
    return _Reply(status, json.dumps(value).encode("utf-8"), "application/json; charset=utf-8")


def _static_files() -> dict[str, bytes]:
    folder = resources.files("paramledger") / "web"
    return {name: (folder / name).read_bytes() for name, _ in _STATIC.values()}


class CalculatorServer(BoundedThreads, ThreadingHTTPServer):
    """The page's server.  ``internal_errors`` counts the 500s (each one is a bug)."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], *, quiet: bool = False) -> None:
        if ":" in address[0]:  # an IPv6 literal such as ::1
            self.address_family = socket.AF_INET6
        self.quiet = quiet
        self.internal_errors = 0
        self.static = _static_files()
        super().__init__(address, _Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        host = f"[{host}]" if ":" in str(host) else host
        return f"http://{host}:{port}/"


class _Handler(BaseHTTPRequestHandler):
    server: CalculatorServer
    server_version = "paramledger"
    sys_version = ""
    timeout = IDLE_TIMEOUT  # socket timeout: a silent client is dropped, never waited on for ever

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":  # "GET /" alone: answered with a status line like any other
            self.send_error(400, "HTTP/0.9 requests are not supported; send HTTP/1.0 or HTTP/1.1")
            return False
        return True

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._answer(head=False)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(head=True)

    def _refuse_method(self) -> None:
        self._send(_json_reply(405, {"error": f"method {_one_line(str(self.command))[:40]} not allowed here; the API "
                                              "takes GET (POST only at /api/paste/...)"}), allow=True)

    def do_POST(self) -> None:  # noqa: N802 (a pasted config.json: server_paste.py; the rest is read-only)
        self._answer(head=False) if self.path.startswith("/api/paste/") else self._refuse_method()

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse_method

    def _answer(self, head: bool) -> None:
        try:
            reply = self._route()
        except ApiError as error:
            reply = _json_reply(error.status, {"error": _one_line(str(error))})
        except ParamledgerError as error:
            reply = _json_reply(400, {"error": _one_line(str(error))})
        except Exception as error:  # a bug: say so on stderr, and never hide it as a 400
            self.server.internal_errors += 1
            print(f"paramledger serve: internal error on {self.path!r}:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            reply = _json_reply(500, {"error": _one_line(f"internal error: {error.__class__.__name__}")})
        self._send(reply, head=head)

    def _route(self) -> _Reply:
        raw = self.path.encode("latin-1")  # http.server decoded the request line as latin-1
        path, _, query = raw.partition(b"?")
        path, _, _ = path.partition(b"#")
        if path.startswith((b"http://", b"https://")):  # absolute-form request target
            path = urlsplit(path.decode("latin-1")).path.encode("latin-1") or b"/"
        name = path.decode("latin-1")
        if name in _STATIC:
            file, content_type = _STATIC[name]
            return _Reply(200, self.server.static[file], content_type, static=True)
        if self.command == "POST":  # the GET route the path names, for the posted config
            from .server_paste import answer
            return _json_reply(200, answer(self, name, parse_query(query)))
        handler = _ROUTES.get(name) or _more_routes().get(name)
        if handler is None:
            raise ApiError(404, f"no such path: {_one_line(name[:100])!r}")
        return _json_reply(200, handler(parse_query(query)))

    def _send(self, reply: _Reply, head: bool = False, allow: bool = False) -> None:
        self.send_response(reply.status)
        if allow:
            self.send_header("Allow", ALLOWED_METHODS)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if reply.static:
            self.send_header("Content-Security-Policy", _CSP)
        self.end_headers()
        if not head:
            self.wfile.write(reply.body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's own refusals (a bad request line, a line over 64 KB, too many
        headers, an unknown method) as JSON too; an oversized request is a 400."""
        if code in (414, 431):
            code = 400
        if code == 501:  # an unknown method (FOO, TRACE, lower-case get): not allowed here
            self._refuse_method()
            self.close_connection = True
            return
        text = _one_line(message or self.responses.get(code, ("error",))[0])
        self.close_connection = True
        if getattr(self, "request_version", "HTTP/0.9") == "HTTP/0.9":  # a malformed line: still a status line
            self.request_version = "HTTP/1.0"
        try:
            self._send(_json_reply(code, {"error": text}), head=self.command == "HEAD")
        except (AttributeError, OSError):  # no request line to answer, or the client left
            pass

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (http.server's name)
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {_one_line(format % args)}\n")


def make_server(host: str = "127.0.0.1", port: int = 0, *, quiet: bool = False) -> CalculatorServer:
    """A server bound to ``host``:``port`` (0: any free port), not yet serving."""
    from ._exceptions import OptionError

    if not 0 <= port <= 65535:
        raise OptionError("--port", f"must be between 0 and 65535, got {port}")
    try:
        return CalculatorServer((host, port), quiet=quiet)
    except OSError as error:
        raise OptionError("--port" if error.errno in (98, 13, 48) else "--host",
                          f"cannot listen on {host}:{port} ({error.strerror or error})") from None

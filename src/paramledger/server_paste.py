"""The page's model chooser beyond a bundled name in the query (issue 22, item 7): server.py routes these here.

    GET  /api/models?search=TEXT  the designs, then the bundled models grouped by who released them (the org
                                  of the repo: Qwen, google, meta-llama), each group in natural order (Qwen3-4B
                                  before Qwen3-14B); with search, only those whose name, repo or model_type
                                  holds every word of it (any case), as `paramledger models TEXT` keeps them
    POST /api/paste/<path>?...    the GET API's /api/<path> (view, count, memory, fit, fit/view) for the
                                  config.json in the body instead of a bundled name; the query's keys apply
                                  over it as --set does

A pasted config is read as `paramledger count config.json` reads a file: within limits.JSON_BOUNDS["config"]
(16 MiB, 1,000,000 values) and then by its family's table, and the page's bounds on a design apply to it.
Bad input (not UTF-8, not JSON, not an object, an unknown model_type, a bad key, a body past the bound) is a
400 with the library's one line.
"""

from __future__ import annotations

import re
import time
from contextvars import ContextVar
from typing import Any

from .architecture import Architecture
from .limits import JSON_BOUNDS
from .server import ApiError

PREFIX = "/api/paste/"
WHERE = "pasted config.json"
MAX_BODY = JSON_BOUNDS["config"][0]  # 16 MiB: a config.json past it is refused as a file would be
DRAIN_LIMIT = 4 * MAX_BODY  # a body past the bound is read and dropped up to here, so the browser gets the 400
BODY_SECONDS = 60.0  # the whole body, however slowly it comes (each read also has the server's idle timeout)
_PASTED_ROUTES = ("/api/view", "/api/count", "/api/memory", "/api/fit", "/api/fit/view")

# The design of the config posted with the request being answered, read by server.design_from_query in place
# of seed 001's blank page: every GET route then answers for it unchanged.  A ContextVar is per thread, and
# each request has its own thread (ThreadingHTTPServer); answer() sets it and resets it.
PASTED: ContextVar[Architecture | None] = ContextVar("pasted", default=None)


# ---------------------------------------------------------------- the model list

def _natural(name: str) -> list[Any]:
    """Digits compared as numbers: Qwen3-4B before Qwen3-14B, Llama-2-7b before Llama-2-13b."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name.lower())]


def api_models(query: dict[str, str]) -> dict[str, Any]:
    from .registry import bundled
    from .sources import bundled_designs

    for key in query:
        if key != "search":
            raise ApiError(400, f"unknown key {key!r}: /api/models takes search only")
    words = query.get("search", "").lower().split()
    designs = [name for name in bundled_designs() if all(word in f"{name} design" for word in words)]
    groups: dict[str, list[Any]] = {}
    for model in bundled():
        if all(word in f"{model.name} {model.repo} {model.model_type}".lower() for word in words):
            groups.setdefault(model.repo.split("/")[0], []).append(model)
    total = len(bundled_designs()) + len(bundled())
    shown = len(designs) + sum(map(len, groups.values()))
    listed = [{"label": "designs", "names": [{"name": name, "label": name} for name in designs]}] if designs else []
    for org, models in sorted(groups.items(), key=lambda item: item[0].lower()):
        listed.append({"label": org, "names": [{"name": m.name, "label": f"{m.name} ({m.model_type})",
                                                "repo": m.repo} for m in sorted(models, key=lambda m: _natural(m.name))]})
    return {
        "groups": listed,
        "shown": shown,
        "text": f"{shown} of {total} designs and models" if words else f"{total} designs and models",
    }


# ---------------------------------------------------------------- a pasted config.json

def read_body(handler: Any) -> bytes:
    """The request's body: a Content-Length within MAX_BODY, all of it within BODY_SECONDS."""
    if handler.headers.get("Transfer-Encoding"):
        raise ApiError(400, "send the pasted config with a Content-Length, not chunked")
    text = (handler.headers.get("Content-Length") or "").strip()
    if not text:
        raise ApiError(400, "a pasted config needs a Content-Length")
    if not (text.isascii() and text.isdigit() and len(text) <= 20):
        raise ApiError(400, f"Content-Length: not a byte count ({text[:40]!r})")
    length = int(text)
    if length > MAX_BODY:
        if length <= DRAIN_LIMIT:
            _read(handler, length)  # dropped, so the browser reads the answer rather than a reset connection
        handler.close_connection = True
        raise ApiError(400, f"{WHERE}: {length:,} bytes: beyond the {MAX_BODY:,}-byte bound for a config json")
    return _read(handler, length)


def _read(handler: Any, length: int) -> bytes:
    deadline = time.monotonic() + BODY_SECONDS
    chunks, left = [], length
    while left:
        if time.monotonic() > deadline:
            handler.close_connection = True
            raise ApiError(400, f"the body did not arrive within {BODY_SECONDS:g} seconds")
        try:
            chunk = handler.rfile.read1(min(left, 1 << 16))
        except OSError:  # the idle timeout: the client stopped sending
            chunk = b""
        if not chunk:
            handler.close_connection = True
            raise ApiError(400, f"the body ended after {length - left:,} of {length:,} bytes")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def pasted_design(body: bytes) -> Architecture:
    """The design of a pasted config.json, read as `paramledger count config.json` reads the file."""
    from ._exceptions import FileFormatError
    from .hf_config import architecture_from_config
    from .limits import json_text

    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise FileFormatError(WHERE, "not UTF-8 text") from None
    if not text.strip():
        raise FileFormatError(WHERE, "empty: paste the text of a model's config.json")
    config = json_text(text, WHERE)
    if not isinstance(config, dict):
        raise FileFormatError(WHERE, "a config must be a JSON object")
    return architecture_from_config(config, WHERE)


def answer(handler: Any, name: str, query: dict[str, str]) -> dict[str, Any]:
    """POST /api/paste/<path>: the GET route /api/<path> answered for the posted config."""
    from .server import _ROUTES
    from .server_fit import ROUTES

    route = "/api/" + name.removeprefix(PREFIX)
    if not name.startswith(PREFIX) or route not in _PASTED_ROUTES:
        handler.close_connection = True  # the body is not read
        raise ApiError(404, f"no such path: {name[:100]!r}; a config is posted to "
                            f"{', '.join(PREFIX + path.removeprefix('/api/') for path in _PASTED_ROUTES)}")
    if "source" in query:
        handler.close_connection = True
        raise ApiError(400, "source: the pasted config is the design; give no bundled name with it")
    design = pasted_design(read_body(handler))
    token = PASTED.set(design)
    try:
        return {**_ROUTES, **ROUTES}[route](query)
    finally:
        PASTED.reset(token)


ROUTES = {"/api/models": api_models}

"""A Hugging Face hub on 127.0.0.1 for the tests: the URL layout and headers huggingface_hub 2.4.0
asks for, over repos the tests write to folders.

- ``HEAD|GET /{org}/{name}/resolve/{revision}/{path}`` (file_download.py: hf_hub_url,
  get_hf_file_metadata, http_get): ``X-Repo-Commit``, ``ETag``, ``Content-Length``; a ``Range:
  bytes=a-b`` request gets 206 with ``Content-Range: bytes a-b/size`` and only those bytes.
- ``GET /api/models/{org}/{name}/revision/{revision}`` (hf_api.py: model_info): ``id``, ``sha``,
  ``siblings`` (``rfilename``).
- Failures as the hub answers them (utils/_http.py: hf_raise_for_status reads ``X-Error-Code``):
  ``RepoNotFound`` 404, ``GatedRepo`` 401 without the repo's token, ``RevisionNotFound`` 404,
  ``EntryNotFound`` 404 with ``X-Repo-Commit``.
- Hostile files, by ``Repo.hostile[path]``: "ignore-range" (200 and an endless body), "endless"
  (206, then more bytes than the range), "stall" (headers, then silence), "slow" (each answer
  ``Hub.delay`` seconds late).

Every byte written to a socket is counted by request (``Hub.log``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

_RESOLVE = re.compile(r"/([^/]+/[^/]+)/resolve/([^/]+)/(.+)")
_API = re.compile(r"/api/models/([^/]+/[^/]+)/revision/([^/]+)")
_RANGE = re.compile(r"bytes=(\d+)-(\d*)")
ENDLESS_CAP = 256 * 2**20  # a hostile body stops here if the client never hangs up


@dataclass
class Repo:
    folder: Path
    commit: str = "0123456789abcdef0123456789abcdef01234567"
    revisions: dict[str, str] = field(default_factory=dict)  # branch or tag -> commit
    token: str | None = None  # gated: only this bearer token is let in
    hostile: dict[str, str] = field(default_factory=dict)  # path -> behaviour

    def files(self) -> list[str]:
        return sorted(str(p.relative_to(self.folder)) for p in self.folder.rglob("*") if p.is_file())


@dataclass
class Request:
    method: str
    path: str
    range: str | None
    authorization: str | None
    status: int = 0
    sent: int = 0  # bytes written to the socket for this request (status line, headers, body)


class Hub:
    def __init__(self) -> None:
        self.repos: dict[str, Repo] = {}
        self.log: list[Request] = []
        self.delay = 0.0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def add(self, repo_id: str, folder: Path, **options) -> Repo:
        repo = Repo(Path(folder), **options)
        repo.revisions.setdefault("main", repo.commit)
        self.repos[repo_id] = repo
        return repo

    def sent(self, path_part: str = "") -> int:
        return sum(r.sent for r in self.log if path_part in r.path)

    def requests(self, path_part: str = "") -> list[Request]:
        return [r for r in self.log if path_part in r.path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _handler(hub: Hub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # one answer per connection: an endless body ends when the client hangs up

        def log_message(self, *args) -> None:  # quiet
            pass

        def setup(self) -> None:
            super().setup()
            self.wfile = _Counting(self.wfile, self)

        def do_HEAD(self) -> None:
            self._serve(body=False)

        def do_GET(self) -> None:
            self._serve(body=True)

        def _serve(self, body: bool) -> None:
            self.record = Request(self.command, self.path, self.headers.get("Range"), self.headers.get("Authorization"))
            hub.log.append(self.record)
            if hub.delay:
                time.sleep(hub.delay)
            path = unquote(urlsplit(self.path).path)
            try:
                if found := _API.fullmatch(path):
                    self._api(found.group(1), found.group(2))
                elif found := _RESOLVE.fullmatch(path):
                    self._resolve(found.group(1), found.group(2), found.group(3), body)
                else:
                    self._fail(404, None)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _repo(self, repo_id: str, revision: str) -> tuple[Repo, str] | None:
            repo = hub.repos.get(repo_id)
            if repo is None:
                self._fail(404, "RepoNotFound", "Repository not found")
                return None
            if repo.token is not None and self.headers.get("Authorization") != f"Bearer {repo.token}":
                self._fail(401, "GatedRepo", "Access to model is restricted. You must have access to it and be "
                                             "authenticated to access it. Please log in.")
                return None
            commit = repo.revisions.get(revision, revision if revision in repo.revisions.values() else None)
            if commit is None:
                self._fail(404, "RevisionNotFound", "Invalid rev id")
                return None
            return repo, commit

        def _api(self, repo_id: str, revision: str) -> None:
            found = self._repo(repo_id, revision)
            if found is None:
                return
            repo, commit = found
            data = json.dumps({"id": repo_id, "modelId": repo_id, "sha": commit, "private": False,
                               "gated": repo.token is not None,
                               "siblings": [{"rfilename": name} for name in repo.files()]}).encode()
            self._start(200, {"Content-Type": "application/json", "Content-Length": str(len(data))})
            self.wfile.write(data)

        def _resolve(self, repo_id: str, revision: str, name: str, body: bool) -> None:
            found = self._repo(repo_id, revision)
            if found is None:
                return
            repo, commit = found
            file = repo.folder / name
            if not file.is_file():
                self._fail(404, "EntryNotFound", "Entry not found", {"X-Repo-Commit": commit})
                return
            size = file.stat().st_size
            headers = {"X-Repo-Commit": commit, "ETag": f'"{_etag(file)}"', "Accept-Ranges": "bytes",
                       "Content-Type": "application/octet-stream"}
            hostile = repo.hostile.get(name)
            wanted = _RANGE.fullmatch(self.headers.get("Range", "") or "")
            if not body:
                self._start(200, {**headers, "Content-Length": str(size)})
                return
            if hostile == "ignore-range" or hostile == "endless" and wanted is None:
                self._start(200, headers)  # no length: the body ends when the connection does
                self._endless(file)
                return
            if wanted is None:
                self._start(200, {**headers, "Content-Length": str(size)})
                self._send(file, 0, size)
                return
            first = int(wanted.group(1))
            last = min(int(wanted.group(2)) if wanted.group(2) else size - 1, size - 1)
            if first >= size:
                self._start(416, {"Content-Range": f"bytes */{size}", "Content-Length": "0"})
                return
            span = {"Content-Range": f"bytes {first}-{last}/{size}"}
            if hostile == "endless":  # claims the range, sends it, then never stops
                self._start(206, {**headers, **span})
                self._send(file, first, last + 1)
                self._endless(file)
                return
            self._start(206, {**headers, **span, "Content-Length": str(last - first + 1)})
            if hostile == "stall":
                time.sleep(30)
                return
            self._send(file, first, last + 1)

        def _send(self, file: Path, start: int, end: int) -> None:
            with open(file, "rb") as handle:
                handle.seek(start)
                while start < end:
                    chunk = handle.read(min(1 << 20, end - start))
                    if not chunk:
                        return
                    self.wfile.write(chunk)
                    start += len(chunk)

        def _endless(self, file: Path) -> None:
            with open(file, "rb") as handle:
                head = handle.read(1 << 16) or b"\0"
            written = 0
            while written < ENDLESS_CAP:
                self.wfile.write(head)
                written += len(head)

        def _start(self, status: int, headers: dict[str, str]) -> None:
            self.record.status = status
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()

        def _fail(self, status: int, code: str | None, message: str = "", extra: dict[str, str] | None = None) -> None:
            data = json.dumps({"error": message or "not found"}).encode()
            headers = {"Content-Type": "application/json", "Content-Length": str(len(data)), **(extra or {})}
            if code is not None:
                headers.update({"X-Error-Code": code, "X-Error-Message": message})
            self._start(status, headers)
            if self.command != "HEAD":
                self.wfile.write(data)

    return Handler


class _Counting:
    """The handler's socket writer, counting what it writes into the request's record."""

    def __init__(self, raw, handler) -> None:
        self.raw, self.handler = raw, handler

    def write(self, data) -> int:
        written = self.raw.write(data)
        record = getattr(self.handler, "record", None)
        if record is not None:
            record.sent += len(data)
        return written

    def __getattr__(self, name):
        return getattr(self.raw, name)


def _etag(file: Path) -> str:
    stat = file.stat()
    return hashlib.sha1(f"{file}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()


def hub_env(hub: Hub | None, home: Path, **extra: str) -> dict[str, str]:
    """The environment of a paramledger subprocess pointed at ``hub`` (or at nothing) with its own
    cache: huggingface_hub reads these once, when it is imported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING"))}
    env.update(HF_HOME=str(home / "hf_home"), HF_HUB_CACHE=str(home / "hub_cache"), HF_HUB_DISABLE_TELEMETRY="1",
               HF_HUB_DISABLE_XET="1", NO_PROXY="127.0.0.1", no_proxy="127.0.0.1")
    if hub is not None:
        env["HF_ENDPOINT"] = hub.endpoint
    env.update(extra)
    return env

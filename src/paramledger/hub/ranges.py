"""Bytes of a hub file read by HTTP range requests, never the whole file, against any server.

Every request asks for an explicit range (``Range: bytes=a-b``) and reads the body as a stream,
stopping at the bytes asked for: a server that ignores the range (200 with the whole file), sends
more than it announced, or never ends its body costs at most what was asked.  A request waits at
most HF_HUB_DOWNLOAD_TIMEOUT for each read and six times that in all, so a server that stalls or
trickles one byte at a time cannot hang a count.  Redirects are followed (the hub sends LFS files
to its CDN); httpx drops the Authorization header when a redirect leaves the hub's host.
"""

from __future__ import annotations

import io
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


from .._exceptions import HeaderTooLargeError, SourceError
from . import HubId
from .errors import by_status, translated

FIRST_READ = 1 << 16  # a GGUF header's first range: 64 KiB, doubled on each further read
MAX_READ = 1 << 24  # a GGUF range grows up to 16 MiB
MAX_ONE_READ = 1 << 27  # no request asks for more than 128 MiB (a safetensors header is at most 100 MB)
DEADLINE_READS = 6  # a request may take six read timeouts in all
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+)")


class Counter:
    """Bytes received from the hub by this process (for progress, and for the tests' figures)."""

    received = 0
    requests = 0


class RemoteFile:
    """One file of a hub repo at a commit; ``size`` is known after the first read."""

    def __init__(self, hub_id: HubId, filename: str, commit: str) -> None:
        from huggingface_hub import constants, hf_hub_url
        from huggingface_hub.utils import build_hf_headers

        self.hub_id, self.filename = hub_id, filename
        self.url = hf_hub_url(hub_id.repo, filename, revision=commit, endpoint=constants.ENDPOINT)
        self.headers = build_hf_headers()  # the token (HF_TOKEN, `hf auth login`) and the user agent
        self.headers["Accept-Encoding"] = "identity"  # offsets count the stored bytes, not a compressed stream
        self.size: int | None = None

    def read_at(self, offset: int, n: int) -> bytes:
        """Bytes [offset, offset + n) of the file (fewer at its end), in one range request."""
        if n <= 0 or self.size is not None and offset >= self.size:
            return b""
        if n > MAX_ONE_READ:  # the callers bound n first (MAX_HEADER_SIZE); this is the last line of defence
            raise HeaderTooLargeError(self.label, f"a read of {n:,} bytes is beyond any header's bound")
        with translated(self.hub_id, self.filename):
            return self._get(offset, n)

    @property
    def label(self) -> str:
        return f"{self.hub_id.repo}/{self.filename}"

    def _get(self, offset: int, n: int) -> bytes:
        headers = {**self.headers, "Range": f"bytes={offset}-{offset + n - 1}"}
        with _stream(self.url, headers) as (response, deadline):
            status = response.status_code
            if status == 416:  # the range starts at or past the end
                return b""
            if status >= 400:
                raise by_status(self.hub_id, self.filename, status, response.headers.get("X-Error-Code"))
            if status != 206:
                raise SourceError(self.label, f"the hub answered HTTP {status} to a range request, not 206 "
                                              "(partial content): the server does not serve ranges")
            if response.headers.get("Content-Encoding", "identity").lower() != "identity":
                raise SourceError(self.label, "the hub compressed a range of the file (Content-Encoding)")
            found = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", "").strip())
            if found is None or int(found.group(1)) != offset or int(found.group(2)) < offset:
                raise SourceError(self.label, f"the hub's answer to bytes {offset:,}-{offset + n - 1:,} has no "
                                              "matching Content-Range")
            first, last, size = (int(group) for group in found.groups())
            if self.size is not None and size != self.size:
                raise SourceError(self.label, f"the file changed size during the read ({self.size:,} then {size:,})")
            self.size = size
            expected = min(n, last - first + 1, size - offset)
            data = _body(response, expected, deadline)
        if len(data) < expected:
            raise SourceError(self.label, f"the hub sent {len(data):,} of the {expected:,} bytes asked for at offset "
                                          f"{offset:,}")
        return data


@contextmanager
def _stream(url: str, headers: dict[str, str]) -> Iterator[tuple[Any, float]]:
    """A GET through huggingface_hub's session (its proxies and certificates), with timeouts."""
    import httpx2
    from huggingface_hub import constants
    from huggingface_hub.utils import get_session

    read = float(constants.HF_HUB_DOWNLOAD_TIMEOUT)
    connect = float(constants.HF_HUB_ETAG_TIMEOUT)
    deadline = time.monotonic() + DEADLINE_READS * read + connect
    Counter.requests += 1
    with get_session().stream("GET", url, headers=headers, timeout=httpx2.Timeout(read, connect=connect)) as response:
        yield response, deadline


def _body(response: Any, limit: int, deadline: float) -> bytes:
    """At most ``limit`` bytes of the body: whatever else the server sends is never read."""
    import httpx2

    chunks, received = [], 0
    for chunk in response.iter_raw(chunk_size=min(limit, 1 << 16) or 1):
        chunks.append(chunk[:limit - received])
        received += len(chunk)
        Counter.received += len(chunk)
        if received >= limit:
            break
        if time.monotonic() > deadline:
            raise httpx2.ReadTimeout("the answer took longer than its deadline")
    return b"".join(chunks)


def bounded_get(hub_id: HubId, url: str, limit: int, what: str) -> bytes:
    """The body of a GET (the hub's JSON API), refused beyond ``limit`` bytes."""
    from huggingface_hub.utils import build_hf_headers

    headers = {**build_hf_headers(), "Accept-Encoding": "identity"}
    with _stream(url, headers) as (response, deadline):
        if response.status_code >= 400:
            raise by_status(hub_id, what, response.status_code, response.headers.get("X-Error-Code"))
        if response.status_code != 200:
            raise SourceError(str(hub_id), f"the hub answered HTTP {response.status_code} for {what}")
        data = _body(response, limit + 1, deadline)
    if len(data) > limit:
        raise HeaderTooLargeError(str(hub_id), f"{what} is larger than the {limit:,}-byte bound")
    return data


class RangeStream(io.RawIOBase):
    """A file-like view (``read(n)``, ``seek(n, SEEK_CUR)``) of a RemoteFile for the GGUF reader:
    ranges that double from FIRST_READ up to MAX_READ, until the header parses; bytes skipped past
    (a long array the reader does not keep) are not fetched.  At most ``bound`` bytes in all."""

    def __init__(self, remote: RemoteFile, bound: int) -> None:
        super().__init__()
        self.remote, self.bound = remote, bound
        self.pos = 0
        self.start, self.data = 0, remote.read_at(0, FIRST_READ)
        self.fetched = len(self.data)
        self.next_read = FIRST_READ * 2

    @property
    def size(self) -> int:
        return self.remote.size or 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:  # type: ignore[override]
        if n < 0:
            raise ValueError("a remote header is read in bounded pieces")
        end = self.pos + n
        if not (self.start <= self.pos and end <= self.start + len(self.data)):
            self._fill(n)
        out = self.data[self.pos - self.start:end - self.start]
        self.pos += len(out)
        return out

    def _fill(self, n: int) -> None:
        held = self.start + len(self.data)
        keep = self.data[self.pos - self.start:] if self.start <= self.pos <= held else b""
        begin = self.pos + len(keep)
        want = min(max(n - len(keep), self.next_read), self.size - begin)
        if self.fetched + want > self.bound:
            raise HeaderTooLargeError(self.remote.label, f"the header runs past {self.bound:,} bytes: beyond the "
                                                         "bound for a header read over the network")
        self.next_read = min(self.next_read * 2, MAX_READ)
        more = self.remote.read_at(begin, want) if want > 0 else b""
        self.fetched += len(more)
        self.start, self.data = self.pos, keep + more

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        self.pos = offset if whence == os.SEEK_SET else self.pos + offset if whence == os.SEEK_CUR else self.size + offset
        return self.pos

    def tell(self) -> int:
        return self.pos



"""Issue 23: the server answers every malformed request with a status line and a 4xx, keeps a
listen queue for bursts, closes idle connections and caps its threads (127.0.0.1 only)."""

from __future__ import annotations

import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import serving

from paramledger import _http_limits


@pytest.fixture
def server():
    """A server of each test's own: these tests fill its queue and its threads."""
    yield from serving()


def exchange(server, data: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(server.server_address[:2], timeout=timeout) as sock:
        sock.sendall(data)
        try:
            sock.shutdown(socket.SHUT_WR)  # a half-close: the reply must still come, not a reset
        except OSError:  # the server already answered and closed (a 503 when its threads are full)
            pass
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    return reply


@pytest.mark.parametrize("method", [b"FOO", b"TRACE", b"CONNECT", b"get", b"BREW"])
def test_unknown_method_is_405_with_allow(server, method):
    reply = exchange(server, method + b" /api/count HTTP/1.0\r\n\r\n")
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.0 405"), head
    assert b"\r\nAllow: GET, HEAD" in head
    assert b"not allowed" in body


def test_post_is_405_with_allow(server):
    head = exchange(server, b"POST /api/count HTTP/1.0\r\nContent-Length: 0\r\n\r\n").partition(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1.0 405") and b"Allow: GET, HEAD" in head


@pytest.mark.parametrize("line", [b"GET", b"GET /", b"\x00\xff", b"GET / HTTP/7.5", b"A B C D"])
def test_malformed_request_line_gets_a_status_line(server, line):
    reply = exchange(server, line + b"\r\n\r\n")
    assert reply.startswith(b"HTTP/1.0 4") or reply.startswith(b"HTTP/1.0 505"), reply[:80]
    assert server.internal_errors == 0


def test_burst_of_200_requests_is_answered_without_resets(server):
    def one(_):
        start = time.monotonic()
        reply = exchange(server, b"GET /api/names HTTP/1.0\r\n\r\n")
        return reply.split(b" ", 2)[1], time.monotonic() - start

    with ThreadPoolExecutor(200) as pool:
        results = list(pool.map(one, range(200)))
    assert {status for status, _ in results} == {b"200"}
    assert max(seconds for _, seconds in results) < 2  # every request under 2 s (issue #23)


def test_listen_backlog_is_sized_for_bursts(server):
    assert server.request_queue_size >= 512


def test_silent_client_never_delays_another(server):
    with socket.create_connection(server.server_address[:2], timeout=10):  # says nothing
        start = time.monotonic()
        assert exchange(server, b"GET /api/names HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 200")
        assert time.monotonic() - start < 5


def test_idle_connection_is_closed_after_the_timeout(server, monkeypatch):
    monkeypatch.setattr(server.RequestHandlerClass, "timeout", 0.5)
    with socket.create_connection(server.server_address[:2], timeout=10) as sock:
        start = time.monotonic()
        assert sock.recv(100) == b""  # the server closed it
        assert time.monotonic() - start < 8


def test_threads_are_capped_and_extra_connections_get_503(server, monkeypatch):
    monkeypatch.setattr(server, "slots", threading.BoundedSemaphore(4))
    idle = [socket.create_connection(server.server_address[:2], timeout=10) for _ in range(4)]
    try:
        time.sleep(0.3)
        before = threading.active_count()
        reply = exchange(server, b"GET /api/names HTTP/1.0\r\n\r\n")
        assert reply.startswith(b"HTTP/1.0 503"), reply[:80]
        assert threading.active_count() <= before
    finally:
        for sock in idle:
            sock.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the slots come back as the idle ones leave
        if exchange(server, b"GET /api/names HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 200"):
            break
        time.sleep(0.1)
    else:
        pytest.fail("no slot came back")


def test_the_bounds_are_the_documented_ones():
    assert _http_limits.MAX_THREADS == 256 and _http_limits.IDLE_TIMEOUT == 10.0


def test_ctrl_c_while_a_connection_thread_starts_stops_the_server_and_gives_its_slot_back_once(monkeypatch):
    """SIGINT can land in Thread.start() after the thread has served and given its slot back: the server's error path
    released it a second time, whose ValueError masked the KeyboardInterrupt (socketserver handles an Exception and
    serves on: the full-suite hang of the Ctrl-C test of serve).  Here the thread runs in start(), then Ctrl-C."""
    from paramledger.server import CalculatorServer

    class StartedThenInterrupted(threading.Thread):
        def start(self) -> None:
            self.run()
            raise KeyboardInterrupt

    server = CalculatorServer(("127.0.0.1", 0), quiet=True)
    monkeypatch.setattr(server, "finish_request", lambda request, address: None)  # served: the thread gives its slot back
    monkeypatch.setattr(threading, "Thread", StartedThenInterrupted)  # (socketserver makes its thread so)
    a, b = socket.socketpair()
    try:
        with pytest.raises(KeyboardInterrupt):
            server.process_request(a, ("127.0.0.1", 1))
    finally:
        a.close(), b.close(), server.server_close()
    assert server.slots._value == _http_limits.MAX_THREADS and not server.taken  # one slot taken, given back once

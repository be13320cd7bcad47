"""Limits on the server's connections: a listen queue for bursts, a cap on threads and an idle timeout."""

from __future__ import annotations

import threading
from typing import Any

# A burst of a few hundred requests waits in the listen queue instead of being reset (the
# default is 5); the kernel caps it at net.core.somaxconn.
LISTEN_BACKLOG = 1024
# Connections served at once: a 200-request burst fits; one more is answered 503 at once (waiting
# for a slot would stall the accept loop, and with it every client, behind a flood of idle ones).
MAX_THREADS = 256
IDLE_TIMEOUT = 10.0  # seconds a connection may stay silent before it is closed
ALLOWED_METHODS = "GET, HEAD"


class BoundedThreads:
    """A mixin for ThreadingHTTPServer: a thread per connection, at most MAX_THREADS of them, so a
    flood of idle connections cannot grow threads without end (each one is closed after IDLE_TIMEOUT)."""

    request_queue_size = LISTEN_BACKLOG

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.slots = threading.BoundedSemaphore(MAX_THREADS)
        self.taken: dict[int, threading.BoundedSemaphore] = {}  # a request being served -> the slots it took from
        super().__init__(*args, **kwargs)

    def process_request(self, request: Any, client_address: Any) -> None:
        slots = self.slots
        if not slots.acquire(blocking=False):
            try:
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\n"
                                b"Connection: close\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        self.taken[id(request)] = slots  # the thread gives back the slot it took, whatever self.slots is by then
        try:
            super().process_request(request, client_address)
        except BaseException:  # (Ctrl-C while the thread starts: it may have served and given the slot back already)
            self._give_back(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._give_back(request)

    def _give_back(self, request: Any) -> None:
        """The request's slot, released once by whichever side takes its entry first (one pop, atomic): a second
        release raised ValueError, which masked a Ctrl-C and left the server running."""
        held = self.taken.pop(id(request), None)
        if held is not None:
            held.release()

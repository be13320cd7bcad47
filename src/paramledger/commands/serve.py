"""paramledger serve: the calculator page (seed 001's interactive counter) on localhost."""

from __future__ import annotations

import argparse
import signal
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve the calculator page on http://127.0.0.1",
        description="Serve the calculator page and its JSON API (the library's own counts). "
                    "The state of the page lives in its URL: copy it to share a design.")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on; 0 picks a free one (default 8000)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--quiet", action="store_true", help="do not log each request on stderr")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..server import make_server

    server = make_server(args.host, args.port, quiet=args.quiet)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"paramledger: warning: listening on {args.host}: other machines can reach the page",
              file=sys.stderr)
    # Ctrl-C stops it even where the parent left SIGINT ignored (a child inherits SIG_IGN, and Python then installs
    # no KeyboardInterrupt: a backgrounded job, or the test suite's process after some test left it so); put back
    # before the line that says it serves, so a Ctrl-C sent on reading that line is not lost (a loaded CI's race)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        print(f"paramledger: serving the calculator on {server.url} (Ctrl-C to stop)", flush=True)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0

"""One module per subcommand; each exposes ``register(subparsers)`` (see cli.py)."""

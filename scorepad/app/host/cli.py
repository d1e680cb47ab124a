"""The ``app`` and ``web`` subcommands of ``scorepad``, and what a bare ``scorepad`` does."""

from __future__ import annotations

import argparse
import importlib

# The server's module loads Flet and the store: only when the app or the web page is asked for.
SERVE = "scorepad.app.host.serve"

DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8550


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``app`` (a desktop window, else the page on 127.0.0.1) and ``web``."""
    app = subparsers.add_parser(
        "app",
        help="open the score-pad (a window where possible, otherwise a local web page)",
        description="Open the score-pad: a desktop window where a display and the Flet "
        "desktop client are available, otherwise serve it on 127.0.0.1 and print the address.",
    )
    app.add_argument("--db", metavar="URL", default=None, help="database URL (default: local SQLite)")
    app.set_defaults(func=run_default)

    web = subparsers.add_parser(
        "web",
        help="serve the score-pad to browsers, phones at the table included",
        description="Serve the score-pad as a web page. Everything is served locally (no CDN), "
        "so it works without internet. Use --host 0.0.0.0 to reach it from phones on the "
        "local network.",
    )
    web.add_argument("--host", default=DEFAULT_WEB_HOST, help=f"address to bind (default {DEFAULT_WEB_HOST})")
    web.add_argument("--port", type=int, default=DEFAULT_WEB_PORT, help=f"port (default {DEFAULT_WEB_PORT})")
    web.add_argument("--db", metavar="URL", default=None, help="database URL (default: local SQLite)")
    web.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="serve from N processes (PostgreSQL only; pages of one match follow each other across them)",
    )
    web.set_defaults(func=run_web)


def run_web(args: argparse.Namespace) -> int:
    """Serve the app in web mode on ``args.host``:``args.port`` until interrupted."""
    return importlib.import_module(SERVE).serve_web(
        host=args.host, port=args.port, db_url=getattr(args, "db", None), workers=args.workers
    )


def run_default(args: argparse.Namespace) -> int:
    """Open a desktop window when possible, otherwise serve on 127.0.0.1 and print the address."""
    db_url = getattr(args, "db", None)
    if importlib.import_module(SERVE).desktop_available():
        importlib.import_module(SERVE).serve_desktop(db_url=db_url)
        return 0
    return importlib.import_module(SERVE).serve_web(host=DEFAULT_WEB_HOST, port=DEFAULT_WEB_PORT, db_url=db_url)


def main(argv: list[str] | None = None) -> int:
    """``python -m scorepad.app [app|web ...]``: the app's own commands without the main cli."""
    parser = argparse.ArgumentParser(prog="python -m scorepad.app")
    subparsers = parser.add_subparsers(dest="command")
    add_commands(subparsers)
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        return run_default(args)
    return args.func(args)

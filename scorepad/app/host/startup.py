"""What stops ``scorepad web`` before it serves anything: each a sentence naming the option or setting.

``serve_web`` asks these before it prints where to open the page, so that a
server that cannot serve says so in one line (status 2) instead of printing
an address and then dying in uvicorn's words.
"""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

from scorepad.app.host.fastload import CACHE_ENV, cache_dir

LOWEST_PORT, HIGHEST_PORT = 1, 65535


def port_refused(port: int) -> str | None:
    """Why ``--port`` cannot be ``port`` (one sentence), or None."""
    if LOWEST_PORT <= port <= HIGHEST_PORT:
        return None
    shown = str(port) if len(str(port)) <= 12 else f"{str(port)[:12]}..."
    return f"--port takes a port number from {LOWEST_PORT} to {HIGHEST_PORT}, not {shown}"


def listening_refused(host: str, port: int) -> str | None:
    """Why the server cannot listen on ``host``:``port`` (one sentence), or None when it can.

    Binds a socket the way uvicorn will (IPv6 when the host has a colon,
    ``SO_REUSEADDR``) and lets it go at once: an address that is no
    address of this machine, a port another program holds, a port below 1024
    without the right to it.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host.strip("[]"), port))
    except socket.gaierror:
        return f"--host {host} is not an address of this computer (such as 127.0.0.1 or 0.0.0.0)"
    except (UnicodeError, ValueError, OverflowError):
        return f"--host {host[:60]} is not an address of this computer (such as 127.0.0.1 or 0.0.0.0)"
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            return f"port {port} on {host} is in use by another program: stop it or choose another --port"
        if err.errno == errno.EADDRNOTAVAIL:
            return f"--host {host} is not an address of this computer (such as 127.0.0.1 or 0.0.0.0)"
        if err.errno == errno.EACCES:
            return f"port {port} needs administrator rights on this computer: choose --port 1024 or above"
        return f"cannot listen on {host} port {port}: {err.strerror or err}"
    return None


def cache_refused(cache: Path | None = None) -> str | None:
    """Why the cache directory of the compressed runtime cannot be used (one sentence naming its setting), or None.

    The directory is made if missing and a file written to it and removed.
    """
    cache = cache or cache_dir()
    probe = cache / f".probe-{os.getpid()}"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        return (
            f"cannot keep the compressed page files in {cache.parent} ({err.strerror or err}): "
            f"set {CACHE_ENV} to a directory this user can write"
        )
    return None

"""A Flet page without a browser, and score-pad servers in subprocesses: for the server tests and benchmark.

``FletClient`` speaks Flet's WebSocket protocol (msgpack frames) the way the
web client does: it registers a page at an address, applies every patch the
server sends to its copy of the page's tree of controls (``PageTree``), so it
knows which controls with a semantic identifier the page shows now, answers
the server's method calls, and taps a control by its identifier. It draws
nothing, so hundreds of pages fit on a small machine.

``WebServer`` runs ``python -m scorepad.app web`` (optionally ``--workers N``)
on 127.0.0.1 and a free port, with its output in a log file.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import msgpack

from tests.browser import free_port

REGISTER, PATCH, EVENT, UPDATE, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6


def _identifiers(obj: Any, found: dict[str, int], index: dict[int, Any] | None = None) -> None:
    """Record ``identifier -> id of the control inside`` for every identified control under ``obj``.

    With ``index``, also every control under ``obj`` by its id.
    """
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if index is not None and isinstance(item.get("_i"), int):
                index[item["_i"]] = item
            ident = item.get("identifier")
            content = item.get("content")
            if isinstance(ident, str) and isinstance(content, dict) and isinstance(content.get("_i"), int):
                found[ident] = content["_i"]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class PageOutOfStep(Exception):
    """A patch does not fit the page's tree as this client holds it (a bug here or in the server)."""


class PageTree:
    """The page's controls as the server last described them: the registration's page, then every patch applied.

    A patch (``flet.controls.object_patch.ObjectPatch.to_message``) is a table
    of paths below the control it names, then operations on them, in order:
    replace, add (into a list: insert), remove, move. Flet sends only what
    changed (a component's page is patched control by control), so the
    controls shown are known only from the whole tree.
    """

    REPLACE, ADD, REMOVE, MOVE = 0, 1, 2, 3

    def __init__(self, page: dict[str, Any]) -> None:
        self.page = page
        self.index: dict[int, Any] = {}
        self.shown: dict[str, int] = {}  # identifier -> id of the control inside, for the controls in the tree
        self._reindex()

    def apply(self, target: int, patch: list[Any]) -> None:
        """Apply one patch message to the control ``target``. Raises PageOutOfStep if it does not fit."""
        root = self.index.get(target)
        if root is None:
            raise PageOutOfStep(f"a patch for control {target}, which the page does not hold")
        paths: dict[int, list[Any]] = {}
        stack: list[tuple[list[Any], list[Any]]] = [(patch[0], [])]
        while stack:
            node, prefix = stack.pop()
            paths[node[0]] = prefix
            if len(node) > 1:
                stack.extend((child, [*prefix, part]) for part, child in node[1].items())

        def at(node: int) -> Any:
            found = root
            for part in paths[node]:
                found = found[part]
            return found

        try:
            for op in patch[1:]:
                kind = op[0]
                if kind == self.MOVE:
                    _put(at(op[3]), op[4], at(op[1]).pop(op[2]), insert=True)
                    continue
                parent = at(op[1])
                if kind == self.REMOVE:
                    parent.pop(op[2])
                else:
                    _put(parent, op[2], op[3], insert=kind == self.ADD)
        except (KeyError, IndexError, TypeError) as err:
            raise PageOutOfStep(f"a patch for control {target} does not fit the page: {err!r}") from None
        self._reindex()

    def _reindex(self) -> None:
        self.index = {}
        self.shown = {}
        _identifiers(self.page, self.shown, self.index)


def _put(parent: Any, key: Any, value: Any, *, insert: bool) -> None:
    if isinstance(parent, list) and (insert or key == len(parent)):
        parent.insert(key, value)
    else:
        parent[key] = value


class FletClient:
    """One page on a score-pad server, over a raw WebSocket."""

    def __init__(
        self,
        base_url: str,
        route: str = "/",
        *,
        width: int = 412,
        height: int = 900,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.ws_url = base_url.replace("http://", "ws://").rstrip("/") + "/ws"
        # Sent with the WebSocket's opening request: the join cookie, an X-Forwarded-For (a LAN phone).
        self.headers = headers or {}
        self.route = route
        self.width, self.height = width, height
        # identifier -> control id, for every identified control the page has shown (the latest of each).
        self.ids: dict[str, int] = {}
        self.patches = 0
        self.tree: PageTree | None = None
        # The identifiers of the controls the page shows now, and when each patch (a draw, whole
        # or in part) arrived (time.monotonic()).
        self.drawn: set[str] = set()
        self.drawn_at: list[float] = []
        self.crashed: str | None = None
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._patched = asyncio.Event()

    async def open(self, *, timeout: float = 30.0, ready: str | None = None) -> FletClient:
        """Connect and register; waits for the first patch (and for ``ready``'s control, if named)."""
        from websockets.asyncio.client import connect

        self._ws = await connect(self.ws_url, max_size=None, open_timeout=timeout, additional_headers=self.headers)
        page = {"route": self.route, "width": self.width, "height": self.height, "web": True, "platform": "linux"}
        await self._send(REGISTER, {"session_id": "", "page_name": "", "page": page})
        self._reader = asyncio.create_task(self._read())
        deadline = time.monotonic() + timeout
        while self.patches == 0 or (ready is not None and ready not in self.ids):
            await self._next_patch(
                self.patches, deadline, f"the page did not show {ready or 'anything'} within {timeout} s"
            )
        return self

    async def tap(self, identifier: str, *, timeout: float = 30.0) -> float:
        """Click the control with this identifier; returns the seconds until the server's next patch."""
        return await self._event(identifier, "click", None, timeout=timeout)

    async def type(self, identifier: str, text: str, *, timeout: float = 30.0, answered: bool = True) -> float:
        """Type ``text`` into the text field with this identifier, as the web client does.

        The client sends the field's new value, then its change event. Returns
        the seconds until the server's next patch; with ``answered=False`` (a
        field whose handler draws nothing) it waits for none and returns 0.
        """
        target = self.ids[identifier]
        await self._send(UPDATE, {"id": target, "props": {"value": text}})
        if self.tree is not None and target in self.tree.index:
            self.tree.index[target]["value"] = text  # the field shows what was typed, as the browser's does
        if not answered:
            await self._send(EVENT, {"target": target, "name": "change", "data": text})
            return 0.0
        return await self._event(identifier, "change", text, timeout=timeout)

    async def go(self, route: str, *, timeout: float = 30.0) -> float:
        """Change the open page's route as the browser does (its address edited, Back): the page's new
        ``route``, then its ``route_change`` event. Returns the seconds until the server's next patch."""
        assert self.tree is not None, "the page is not open"
        page_id = self.tree.page["_i"]
        before = self.patches
        started = time.perf_counter()
        await self._send(UPDATE, {"id": page_id, "props": {"route": route}})
        await self._send(EVENT, {"target": page_id, "name": "route_change", "data": {"route": route}})
        deadline = time.monotonic() + timeout
        while self.patches == before:
            await self._next_patch(before, deadline, f"no answer to the route {route} within {timeout} s")
        return time.perf_counter() - started

    async def showing(self, identifier: str, *, timeout: float = 30.0) -> None:
        """Wait until the page's latest draw holds the control with this identifier. Raises TimeoutError."""
        deadline = time.monotonic() + timeout
        while identifier not in self.drawn:
            await self._next_patch(self.patches, deadline, f"{identifier} was not drawn within {timeout} s")

    async def redrawn(self, draws: int, *, timeout: float = 30.0) -> None:
        """Wait until the page has drawn more than ``draws`` times (``len(drawn_at)``). Raises TimeoutError."""
        deadline = time.monotonic() + timeout
        while len(self.drawn_at) <= draws:
            await self._next_patch(self.patches, deadline, f"the page did not draw again within {timeout} s")

    async def _event(self, identifier: str, name: str, data: Any, *, timeout: float) -> float:
        target = self.ids[identifier]
        before = self.patches
        self._patched.clear()
        started = time.perf_counter()
        await self._send(EVENT, {"target": target, "name": name, "data": data})
        deadline = time.monotonic() + timeout
        while self.patches == before:
            await self._next_patch(before, deadline, f"no answer to a tap on {identifier} within {timeout} s")
        return time.perf_counter() - started

    async def _next_patch(self, before: int, deadline: float, late: str) -> None:
        """Wait for a patch after the ``before``-th (at once if one came); ``TimeoutError(late)`` at the deadline."""
        if self.crashed is not None:
            raise RuntimeError(f"the page crashed: {self.crashed}")
        if self._reader is not None and self._reader.done():
            raise RuntimeError("the server closed the page")
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(late)
        self._patched.clear()
        if self.patches == before:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._patched.wait(), left)

    async def close(self) -> None:
        """Close the WebSocket (the server sees the page disconnect)."""
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 10)
            except (TimeoutError, Exception):
                self._reader.cancel()

    async def _send(self, action: int, body: Any) -> None:
        await self._ws.send(b"\x00" + msgpack.packb([action, body]))

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in self._ws:
                if not isinstance(frame, bytes) or not frame or frame[0] != 0:
                    continue
                action, body = msgpack.unpackb(frame[1:], strict_map_key=False, raw=False, ext_hook=_ext)
                if action == PATCH:
                    if self.tree is None:
                        raise PageOutOfStep("a patch before the page was registered")
                    self.tree.apply(body["id"], body["patch"])
                    self._shown(self.tree)
                    self.drawn_at.append(time.monotonic())
                    self.patches += 1
                    self._patched.set()
                elif action == REGISTER and isinstance(body.get("page_patch"), dict):
                    self.tree = PageTree(body["page_patch"])
                    self._shown(self.tree)
                elif action == INVOKE:
                    # The page answers every method call at once, with nothing to report.
                    reply = {
                        "control_id": body["control_id"],
                        "call_id": body["call_id"],
                        "result": None,
                        "error": None,
                    }
                    await self._send(INVOKE, reply)
                elif action == CRASHED:
                    self.crashed = str(body)
                    self._patched.set()
        except ConnectionClosed:
            pass
        except PageOutOfStep as err:
            self.crashed = f"this client lost step with the page: {err}"
            self._patched.set()

    def _shown(self, tree: PageTree) -> None:
        self.drawn = set(tree.shown)
        self.ids.update(tree.shown)


def _ext(code: int, data: bytes) -> Any:
    return msgpack.ExtType(code, data)


class WebServer:
    """``python -m scorepad.app web`` in a subprocess on 127.0.0.1 (``--workers N`` when asked)."""

    def __init__(
        self,
        db_url: str,
        log_path: Path,
        *,
        workers: int = 1,
        env: dict[str, str] | None = None,
        host: str = "127.0.0.1",
        open_files: int | None = None,
    ) -> None:
        self.db_url = db_url
        self.log_path = log_path
        self.workers = workers
        self.host = host
        # The server's limit on open files (RLIMIT_NOFILE), when a test needs a small one.
        self.open_files = open_files
        self.port = free_port()
        self.env = env or {}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self, *, timeout: float = 60.0) -> WebServer:
        """Start it and wait until the page answers. Raises RuntimeError if it never does."""
        env = dict(os.environ, FLET_WEB_NO_CDN="1", PYTHONUNBUFFERED="1", **self.env)
        args = [sys.executable, "-m", "scorepad.app", "web", "--host", self.host, "--port", str(self.port)]
        args += ["--db", self.db_url]
        if self.workers > 1:
            args += ["--workers", str(self.workers)]
        with open(self.log_path, "ab") as out:
            self.process = subprocess.Popen(
                args, env=env, stdout=out, stderr=subprocess.STDOUT, preexec_fn=self._limit_files
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}: {self.log()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url, timeout=2) as reply:
                    if reply.status == 200:
                        return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not answer at {self.url} within {timeout} s")

    def _limit_files(self) -> None:
        if self.open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def terminate(self) -> None:
        """Send SIGTERM (and nothing else)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log(self) -> str:
        """Everything the server has written so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

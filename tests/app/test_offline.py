"""The policy that keeps the served page on this machine, and the middleware that sends it."""

from __future__ import annotations

import asyncio
from typing import Any

from scorepad.app.host.offline import LocalOnly, content_security_policy


def test_the_policy_allows_only_the_page_own_address() -> None:
    policy = content_security_policy()
    directives = dict(part.split(" ", 1) for part in policy.split("; "))
    assert directives["default-src"] == "'self'"
    for name in ("script-src", "connect-src", "worker-src", "img-src", "font-src", "style-src"):
        sources = directives[name].split()
        assert "'self'" in sources, name
        assert all(s.startswith("'") or s in ("blob:", "data:") for s in sources), (name, sources)
    assert "'unsafe-eval'" not in directives["script-src"].split()
    assert directives["object-src"] == "'none'"


async def _run(app: Any, scope: dict[str, Any]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await LocalOnly(app)(scope, receive, send)
    return sent


def test_every_http_response_carries_the_policy_and_websockets_pass_untouched() -> None:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = [(b"content-type", b"text/html"), (b"Content-Security-Policy", b"default-src *")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": b"<html>"})
        else:
            await send({"type": "websocket.accept"})

    sent = asyncio.run(_run(app, {"type": "http", "path": "/"}))
    policies = [v for k, v in sent[0]["headers"] if k.lower() == b"content-security-policy"]
    assert policies == [content_security_policy().encode()], "one policy, ours"
    assert (b"content-type", b"text/html") in sent[0]["headers"]
    assert sent[1] == {"type": "http.response.body", "body": b"<html>"}
    assert asyncio.run(_run(app, {"type": "websocket", "path": "/ws"})) == [{"type": "websocket.accept"}]

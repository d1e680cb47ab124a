"""The join code, its rate limit, the QR codes and the "Join from another phone" panel, without a server."""

from __future__ import annotations

import flet as ft
import pytest

from scorepad.app.host import join
from scorepad.app.host.join import JoinCode, _safe_next, is_loopback, is_wildcard
from scorepad.app.models import limits, links
from scorepad.app.models.limits import SlidingLimit
from scorepad.app.models.links import JoinLink, qr_png, qr_svg
from scorepad.app.screens.join_panel import join_panel, join_words


def test_the_code_is_kept_hashed_and_verified() -> None:
    code = JoinCode("123456")
    assert "123456" not in code._hash and code._hash.startswith("$argon2id$")
    assert code.verify("123456") and code.verify(" 123456 ")
    assert not code.verify("123457") and not code.verify("")
    assert len(JoinCode().code_for_printing) == join.CODE_DIGITS


def test_tokens_are_random_and_only_ours_admit() -> None:
    code = JoinCode("123456")
    token = code.new_token()
    assert code.admits(token)
    assert not code.admits(None) and not code.admits("") and not code.admits(token + "x")
    assert not code.admits(token.split(".")[0] + ".") and not code.admits("made.up")
    assert code.new_token() != token
    # Another process of the same run (--workers) knows the same code, so it takes the cookie;
    # a server with another code does not.
    assert JoinCode("123456").admits(token)
    assert not JoinCode("654321").admits(token)


def test_wrong_codes_wait_per_client_and_in_all() -> None:
    attempts = SlidingLimit()
    for i in range(limits.MAX_WRONG_PER_CLIENT):
        assert attempts.wait_seconds("a", now=100.0 + i) == 0
        attempts.count("a", now=100.0 + i)
    assert attempts.wait_seconds("a", now=110.0) == pytest.approx(100.0 + limits.WINDOW_SECONDS - 110.0)
    assert attempts.wait_seconds("b", now=110.0) == 0, "another phone is not held up by one guesser"
    assert attempts.wait_seconds("a", now=100.0 + limits.WINDOW_SECONDS + 5) == 0, "the window slides"
    many = SlidingLimit()
    for i in range(limits.MAX_WRONG_IN_ALL):
        many.count(f"client-{i}", now=200.0)
    assert many.wait_seconds("fresh", now=201.0) > 0, "guessing from many addresses is held up too"


@pytest.mark.parametrize(
    ("target", "safe"),
    [("/match/3", "/match/3"), ("//evil.example/", "/"), ("http://evil.example/", "/"), ("/\\evil", "/"), (None, "/")],
)
def test_after_joining_the_page_goes_only_to_this_server(target: str | None, safe: str) -> None:
    assert _safe_next(target) == safe


def test_addresses() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("[::1]")
    assert not is_loopback("192.168.1.5") and not is_loopback("evil.example")
    assert is_wildcard("0.0.0.0") and is_wildcard("::") and not is_wildcard("127.0.0.1")


def test_qr_codes() -> None:
    url = "http://192.168.1.5:8550/join?code=123456"
    assert qr_png(url).startswith(b"\x89PNG\r\n\x1a\n")
    assert qr_svg(url).lstrip().startswith(b"<svg")


def _texts(control: ft.Control) -> list[str]:
    found: list[str] = []
    stack = [control]
    while stack:
        node = stack.pop()
        if isinstance(node, ft.Text):
            found.append(str(node.value))
        for name in ("content", "controls"):
            child = getattr(node, name, None)
            if isinstance(child, list):
                stack += child
            elif isinstance(child, ft.Control):
                stack.append(child)
    return found


def test_the_panel_shows_the_address_code_and_qr() -> None:
    link = JoinLink(url="http://192.168.1.5:8550/join?code=123456", code="123456", address="http://192.168.1.5:8550/")
    panel = join_panel(link)
    assert isinstance(panel, ft.Semantics) and panel.identifier == "join-qr"
    image = panel.content.content.controls[1]  # type: ignore[union-attr]
    assert isinstance(image, ft.Image) and isinstance(image.src, bytes) and image.src.startswith(b"\x89PNG")
    assert any("123456" in t and "http://192.168.1.5:8550/" in t for t in _texts(panel))


def test_served_on_this_computer_only_the_panel_says_how_to_share() -> None:
    links.set_join_link(None)
    panel = join_panel()
    assert "--host 0.0.0.0" in join_words(None)
    assert not [c for c in panel.content.content.controls if isinstance(c, ft.Image)]  # type: ignore[union-attr]


def test_a_malformed_host_is_asked_for_the_code_not_a_crash() -> None:
    import asyncio

    from scorepad.app.host.join import Door

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        raise AssertionError("a malformed Host must not reach the app")

    sent: list[dict] = []

    async def receive():  # type: ignore[no-untyped-def]
        return {"type": "http.request"}

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/", "client": ("127.0.0.1", 5), "headers": [(b"host", b"[::1")]}
    asyncio.run(Door(app, JoinCode("123456"), beyond_loopback=True)(scope, receive, send))
    assert sent[0]["status"] == 401


def _door_answer(door: join.Door, scope: dict) -> list[dict]:  # type: ignore[type-arg]
    """What ``door`` sends for one request (its app must not be reached)."""
    import asyncio

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        raise AssertionError("a join link must not reach the app")

    sent: list[dict] = []  # type: ignore[type-arg]

    async def receive():  # type: ignore[no-untyped-def]
        return {"type": "http.request"}

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    asyncio.run(door(scope, receive, send))
    return sent


def test_a_page_link_passes_the_door_and_goes_on_to_its_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table's QR link: the join code, then the table's page with its code; a phone already in goes straight on."""
    link = JoinLink(url="http://192.168.1.5:8550/join?code=123456", code="123456", address="http://192.168.1.5:8550/")
    url = links.page_link("/event/3/table?code=2-K7QM2X", link)
    assert url == "http://192.168.1.5:8550/join?code=123456&next=%2Fevent%2F3%2Ftable%3Fcode%3D2-K7QM2X"
    # Served on this computer only: no phone could open any link.
    monkeypatch.setattr(links, "_current", None)
    monkeypatch.delenv(links.LINK_ENV, raising=False)
    assert links.page_link("/event/3/table") is None
    code = JoinCode("123456")
    door = join.Door(lambda *a: None, code, beyond_loopback=True)
    query = url.split("?", 1)[1].encode()
    phone = {"type": "http", "method": "GET", "path": "/join", "query_string": query, "client": ("192.168.1.9", 5)}
    # A new phone: the code is taken, a cookie set, and on to the table's page with its code.
    first = _door_answer(door, {**phone, "headers": [(b"host", b"192.168.1.5:8550")]})
    headers = dict(first[0]["headers"])
    assert first[0]["status"] == 303 and headers[b"location"] == b"/event/3/table?code=2-K7QM2X"
    cookie = headers[b"set-cookie"].split(b";", 1)[0]
    # A phone that joined already (it scans the next round's table) goes straight on.
    again = _door_answer(door, {**phone, "headers": [(b"host", b"192.168.1.5:8550"), (b"cookie", cookie)]})
    assert again[0]["status"] == 303 and dict(again[0]["headers"])[b"location"] == b"/event/3/table?code=2-K7QM2X"
    # Never on to another server.
    away = {**phone, "query_string": b"code=123456&next=//evil.example/x"}
    sent = _door_answer(door, {**away, "headers": [(b"host", b"192.168.1.5:8550"), (b"cookie", cookie)]})
    assert dict(sent[0]["headers"])[b"location"] == b"/"


def test_a_cookie_is_let_in_for_a_day_from_its_issue_time() -> None:
    code = JoinCode("123456")
    issued = 1_000_000.0
    token = code.new_token(now=issued)
    assert code.admits(token, now=issued + 60)
    assert code.admits(token, now=issued + join.COOKIE_SECONDS)
    assert not code.admits(token, now=issued + join.COOKIE_SECONDS + 1), "a day old: asked for the code again"
    assert not code.admits(token, now=issued - 3600), "issued in the future"
    # The issue time is covered by the HMAC: made younger, it is no cookie of ours.
    _stamp, rest = token.split(".", 1)
    assert not code.admits(f"{int(issued) + 80_000}.{rest}", now=issued + join.COOKIE_SECONDS + 1)


def _form_post(client: str, code: str, headers: list[tuple[bytes, bytes]] | None = None) -> dict:  # type: ignore[type-arg]
    """A join form posted to the door from ``client`` (an address on the LAN)."""
    return {
        "type": "http",
        "method": "POST",
        "path": "/join",
        "query_string": b"",
        "client": (client, 5),
        "headers": [(b"host", b"192.168.1.5:8550"), *(headers or [])],
        "body": f"code={code}&next=/".encode(),
    }


def _door_status(door: join.Door, scope: dict) -> int:  # type: ignore[type-arg]
    """The status ``door`` answers a request with (a form's body sent as it arrives)."""
    import asyncio

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        raise AssertionError("the door must not let this through")

    sent: list[dict] = []  # type: ignore[type-arg]

    async def receive():  # type: ignore[no-untyped-def]
        return {"type": "http.request", "body": scope.get("body", b""), "more_body": False}

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    asyncio.run(door(scope, receive, send))
    return int(sent[0]["status"])


def test_wrong_codes_from_many_addresses_never_refuse_the_right_code() -> None:
    door = join.Door(lambda *a: None, JoinCode("123456"), beyond_loopback=True)
    for i in range(60):
        assert _door_status(door, _form_post(f"192.168.1.{i + 10}", "000000")) == 403
    # An honest phone that has not guessed wrong gets in with the right code.
    assert _door_status(door, _form_post("192.168.1.200", "123456")) == 303
    # A guesser that already guessed wrong waits now that so many have: the total tightens, never refuses.
    assert _door_status(door, _form_post("192.168.1.10", "123456")) == 429
    # A fresh guesser still gets its one try, and no more.
    assert _door_status(door, _form_post("192.168.1.201", "000000")) == 403
    assert _door_status(door, _form_post("192.168.1.201", "000000")) == 429


def test_the_total_tightens_each_address_instead_of_refusing_everyone() -> None:
    attempts = SlidingLimit(busy_per_client=1)
    for i in range(limits.MAX_WRONG_IN_ALL):
        attempts.count(f"client-{i}", now=200.0)
    assert attempts.wait_seconds("fresh", now=201.0) == 0, "a new address is not held up by the others"
    assert attempts.wait_seconds("client-0", now=201.0) > 0, "one that guessed wrong waits"
    # Without busy_per_client (events created), the total holds up everyone.
    assert SlidingLimit(in_all_max=1).wait_seconds("fresh", now=1.0) == 0
    everyone = SlidingLimit(in_all_max=1)
    everyone.count("a", now=1.0)
    assert everyone.wait_seconds("fresh", now=2.0) > 0


@pytest.mark.parametrize(
    "headers",
    [
        [(b"sec-fetch-site", b"cross-site"), (b"origin", b"null")],
        [(b"sec-fetch-site", b"same-site")],
        [(b"origin", b"http://evil.example")],
        [(b"referer", b"http://evil.example/page")],
        [(b"referer", b"http://[::1")],
    ],
)
def test_a_join_form_posted_from_another_site_is_refused_and_not_counted(headers: list[tuple[bytes, bytes]]) -> None:
    door = join.Door(lambda *a: None, JoinCode("123456"), beyond_loopback=True)
    for _ in range(limits.MAX_WRONG_PER_CLIENT + 3):
        assert _door_status(door, _form_post("192.168.1.9", "000000", headers)) == 403
    # None of those used up a try: the phone still has all of its own.
    for _ in range(limits.MAX_WRONG_PER_CLIENT):
        assert _door_status(door, _form_post("192.168.1.9", "000000")) == 403
    assert _door_status(door, _form_post("192.168.1.9", "000000")) == 429


@pytest.mark.parametrize(
    "headers",
    [
        # Chromium posting our own form: same-origin, and Origin null (our pages send no referrer).
        [(b"sec-fetch-site", b"same-origin"), (b"origin", b"null")],
        [(b"sec-fetch-site", b"none")],
        [(b"origin", b"http://192.168.1.5:8550")],
        [(b"referer", b"http://192.168.1.5:8550/match/3")],
        [],
    ],
)
def test_our_own_join_form_is_taken(headers: list[tuple[bytes, bytes]]) -> None:
    door = join.Door(lambda *a: None, JoinCode("123456"), beyond_loopback=True)
    assert _door_status(door, _form_post("192.168.1.9", "123456", headers)) == 303

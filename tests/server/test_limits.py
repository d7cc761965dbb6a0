"""Issue 16, item 5: every resource is bounded and every hostile input refused with a stable code.

Each limit of ``tapete.server.limits`` is exercised here with a small value; the codes
and values are listed in ``docs/operations.md``.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tapete.server import startup
from tapete.server.address import address_key
from tapete.server.httpguard import Proxies
from tapete.server.limits import Limits
from tests.server.helpers import Player, create_table, free_port, make_app, start_server, wait_until_up

HUMANS = ["human", "human", "human"]


def _post(c: TestClient, body: Any = None, **kw: Any) -> tuple[int, str]:
    r = c.post("/api/tables", json=body, **kw) if body is not None else c.post("/api/tables", **kw)
    return r.status_code, r.json()["code"]


def test_hostile_json_and_numbers_are_refused_with_codes(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        deep = b'{"profile": "cutthroat", "seats": ' + b"[" * 5000 + b"]" * 5000 + b"}"
        assert _post(c, content=deep) == (400, "too_deep")
        assert _post(c, content=b'{"seed": ' + b"9" * 5000 + b"}") == (400, "number_too_large")
        surrogate = b'{"profile": "cutthroat", "seats": ["human", "human", "human"], "name": "\\ud800"}'
        assert _post(c, content=surrogate) == (400, "bad_text")
        assert _post(c, {"profile": "cutthroat", "seats": HUMANS, "name": "a\u0000b"}) == (400, "bad_text")
        assert _post(c, content=b"\xff\xfe") == (400, "bad_text")
        official = {"profile": "cutthroat-official", "seats": HUMANS}
        assert _post(c, {**official, "options": {"target": 10**100}}) == (400, "number_too_large")
        for options in ({"target": 10**30}, {"floor": -(10**30)}, {"tokens": 10**9}, {"bag_limit": 10**6}):
            assert _post(c, {"profile": "cutthroat-official", "seats": HUMANS, "options": options}) == (
                400,
                "out_of_range",
            ), options
        assert _post(c, {"profile": "cutthroat", "seats": HUMANS, "seed": 1 << 62}) == (400, "out_of_range")
        t = create_table(c, "cutthroat", HUMANS)
        with c.websocket_connect("/ws") as ws:
            p = Player(ws)
            p.hello(t["table"], t["seats"][0]["token"])
            for text, code in [
                ('{"type": "ping", "id": "\\ud800"}', "bad_text"),
                ('{"type": "ping", "id": 99999999999999999999}', "out_of_range"),
                ('{"type": "ping", "id": ' + "1" * 3000 + "}", "number_too_large"),
                ('{"type": "ping", "x": ' + "[" * 100 + "]" * 100 + "}", "too_deep"),
                ('{"type": "action", "version": 10000000000, "action": {"seat": 0, "bid": 1}}', "out_of_range"),
                ('{"type": "action", "version": 0, "action": {"seat": 0, "bid": 100000}}', "out_of_range"),
                ('{"type": "ping", "x": NaN}', "bad_message"),
            ]:
                ws.send_text(text)
                assert p.recv_type("error")["code"] == code, text[:50]
            p.send({"type": "ping", "id": 1})
            assert p.recv_type("pong")["ref"] == 1  # the connection lives on


def test_connections_spectators_and_tables_are_counted(sqlite_url: str) -> None:
    limits = Limits(connections_per_seat=2, spectators_per_table=1, tables_per_client_minute=3, open_tables=2)
    with TestClient(make_app(sqlite_url, limits=limits)) as c:
        t = create_table(c, "cutthroat", HUMANS)
        token = t["seats"][1]["token"]
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b, c.websocket_connect("/ws") as d:
            assert Player(a).hello(t["table"], token)["type"] == "welcome"
            assert Player(b).hello(t["table"], token)["type"] == "welcome"
            assert Player(d).hello(t["table"], token)["code"] == "too_many_connections"
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            assert Player(a).hello(t["table"])["type"] == "welcome"
            refused = Player(b).hello(t["table"], lang="es")
            assert refused["code"] == "too_many_spectators"
            assert refused["message"] == "Esta mesa ya tiene todos los espectadores que admite."
        create_table(c, "cutthroat", HUMANS)
        assert _post(c, {"profile": "cutthroat", "seats": HUMANS}) == (503, "server_full")
    with TestClient(make_app(sqlite_url, limits=limits)) as c:  # the two open tables are back
        assert _post(c, {"profile": "cutthroat", "seats": HUMANS}) == (503, "server_full")
    limits = Limits(tables_per_client_minute=2)
    with TestClient(make_app(sqlite_url, limits=limits, table_prefix="x_")) as c:
        create_table(c, "cutthroat", HUMANS)
        create_table(c, "cutthroat", HUMANS)
        r = c.post("/api/tables", json={"profile": "cutthroat", "seats": HUMANS}, headers={"accept-language": "ru"})
        assert (r.status_code, r.json()["code"]) == (429, "too_many_tables")
        assert r.json()["message"].startswith("Вы создали слишком много столов")


def test_sockets_per_address_and_silent_sockets_are_closed(sqlite_url: str) -> None:
    limits = Limits(connections_per_client=2, hello_seconds=0.3, idle_seconds=0.6)
    with TestClient(make_app(sqlite_url, limits=limits)) as c:
        t = create_table(c, "cutthroat", HUMANS)
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            Player(a).hello(t["table"])
            with c.websocket_connect("/ws?lang=es") as extra:  # refused before any hello: the handshake's language
                refused = extra.receive_json()
                assert refused["code"] == "too_many_connections"
                assert refused["message"] == "Demasiadas conexiones: cierra antes otra ventana de esta mesa."
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_json()
                assert closed.value.code == 1013
            # b sent no hello: timed out
            assert b.receive_json()["code"] == "timeout"
            with pytest.raises(WebSocketDisconnect) as closed:
                b.receive_json()
            assert closed.value.code == 1008
            p = Player(a)  # a sent hello, then nothing: closed once idle
            assert p.recv_type("error")["code"] == "timeout"
            with pytest.raises(WebSocketDisconnect):
                p.recv()


def test_a_hello_without_lang_is_answered_in_the_handshakes_language(sqlite_url: str) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        with c.websocket_connect("/ws", headers={"accept-language": "ru-RU,ru;q=0.9"}) as ws:
            ws.send_json({"type": "hello", "table": "nope", "spectate": True})
            m = ws.receive_json()
            assert (m["code"], m["message"]) == ("no_table", "Такого стола нет.")
        with c.websocket_connect("/ws?lang=ru") as ws:
            ws.send_json({"type": "hello", "table": "nope", "spectate": True, "lang": "es"})  # the hello's own wins
            assert ws.receive_json()["message"] == "No existe esa mesa."


def test_a_full_disk_at_table_creation_is_a_storage_error(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(make_app(sqlite_url)) as c:
        store = c.app.state.hub.store  # type: ignore[attr-defined]

        def full(*args: Any) -> None:
            raise sa.exc.OperationalError("INSERT", {}, Exception("database or disk is full"))

        monkeypatch.setattr(store, "insert_table", full)
        assert _post(c, {"profile": "cutthroat", "seats": HUMANS}) == (503, "storage_error")
        assert c.get("/api/tables").json() == []


def test_slow_headers_are_cut_off(tmp_path: Path) -> None:
    proc = start_server(f"sqlite:///{tmp_path / 't.db'}")
    host, port = proc.url.removeprefix("http://").split(":")  # type: ignore[attr-defined]
    try:
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            start = time.monotonic()
            assert s.recv(1024) == b""  # closed by the server
            assert 1.5 < time.monotonic() - start < 6  # the test server's header deadline is 2 s
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert s.recv(1024).startswith(b"HTTP/1.1 200")
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


@contextlib.contextmanager
def _tapete_serve(tmp_path: Path, *extra: str) -> Iterator[int]:
    """``tapete serve`` on a fresh SQLite file; its port, once it answers."""
    port = free_port()
    cmd = [sys.executable, "-m", "tapete", "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 't.db'}"]
    proc = subprocess.Popen([*cmd, *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_up(proc, f"http://127.0.0.1:{port}")
        yield port
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


def _connect_from(address: str, port: int) -> socket.socket:
    s = socket.socket()
    s.bind((address, 0))
    s.connect(("127.0.0.1", port))
    return s


def _closed_by_server(s: socket.socket, wait: float) -> bool:
    s.settimeout(wait)
    try:
        return s.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


@pytest.fixture
def many_files() -> None:
    """Room for a few thousand sockets in this process and the server it starts."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 4096:
        pytest.skip(f"this system allows {hard} open files a process; the test needs 4096")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 4096) if hard == resource.RLIM_INFINITY else hard, hard))


def test_a_thousand_sockets_leave_the_pages_served_and_a_thousand_idle_connections_do_not(
    tmp_path: Path, many_files: None
) -> None:
    """uvicorn's own bound answered every request 503 once 1,000 connections *or WebSockets*
    were open: a server at a thousand tables refused its pages and its ``/healthz``. WebSockets
    now count apart; 1,000 idle HTTP connections (from ten addresses) still fill the server's
    room for them, and the next one is closed as it arrives."""
    import asyncio

    from websockets.asyncio.client import connect

    most, per_address = Limits().http_connections, Limits().http_connections_per_client

    async def sockets_open(port: int) -> int:
        sockets = [
            await connect(f"ws://127.0.0.1:{port}/ws", local_addr=(f"127.0.1.{2 + i // 50}", 0))
            for i in range(most + 10)
        ]
        try:
            return await asyncio.to_thread(_health_from, "127.0.2.2", port)
        finally:
            for ws in sockets:
                await ws.close()

    with _tapete_serve(tmp_path) as port:
        assert asyncio.run(sockets_open(port)) == 200
        time.sleep(0.5)  # the server sees them closed
        addresses = [f"127.0.3.{2 + i // per_address}" for i in range(most)]
        held = [_connect_from(address, port) for address in addresses]
        assert not _closed_by_server(held[-1], 0.5)
        beyond = _connect_from("127.0.4.2", port)
        held.append(beyond)
        try:
            assert _closed_by_server(beyond, 5)
        finally:
            for s in held:
                s.close()
        time.sleep(0.5)
        assert _health_from("127.0.4.2", port) == 200


def _health_from(address: str, port: int) -> int:
    with _connect_from(address, port) as s:
        s.settimeout(10)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return int(s.recv(1024).split(b" ", 2)[1])


def test_one_address_cannot_hold_every_connection(tmp_path: Path) -> None:
    """One address holding every HTTP connection the server has room for would shut everybody
    out: ``tapete serve`` closes a connection beyond ``http_connections_per_client`` from one
    address as it arrives, so others are still served; a connection stops counting once it closes
    or becomes a WebSocket, and the load balancers' addresses (127.0.0.1 by default) are not
    bounded by address."""
    from websockets.sync.client import connect

    cap = Limits().http_connections_per_client
    held: list[socket.socket] = []
    with _tapete_serve(tmp_path) as port, contextlib.ExitStack() as closing:
        closing.callback(lambda: [s.close() for s in held])
        held.extend(_connect_from("127.0.0.2", port) for _ in range(cap))
        assert not any(_closed_by_server(s, 0.01) for s in held[:-1]) and not _closed_by_server(held[-1], 0.5)
        extra = _connect_from("127.0.0.2", port)
        assert _closed_by_server(extra, 5)
        extra.close()
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"), timeout=10) as other:
            assert other.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
            figures = other.get(f"http://127.0.0.1:{port}/metrics").text.splitlines()
        assert "tapete_http_connections_refused_total 1" in figures
        assert f"tapete_http_connections_open {cap + 1}" in figures  # the 100 and the call asking
        held.extend(_connect_from("127.0.0.1", port) for _ in range(20))  # a load balancer's
        assert not any(_closed_by_server(s, 0.01) for s in held[cap:-1]) and not _closed_by_server(held[-1], 0.5)
        held.pop(0).close()
        time.sleep(0.3)  # the server sees it closed
        with connect(f"ws://127.0.0.1:{port}/ws", sock=_connect_from("127.0.0.2", port)) as ws:
            ws.send('{"type": "ping", "id": 1}')  # the WebSocket counts no more as an HTTP connection
            last = _connect_from("127.0.0.2", port)
            held.append(last)
            assert not _closed_by_server(last, 0.5)
            beyond = _connect_from("127.0.0.2", port)
            held.append(beyond)
            assert _closed_by_server(beyond, 5)


def test_the_load_balancers_are_named_as_uvicorn_names_them() -> None:
    proxies = Proxies("10.0.0.2, 192.168.0.0/16,fd00::/8, lb.internal")
    assert "10.0.0.2" in proxies and "192.168.4.5" in proxies and "fd00::1" in proxies and "lb.internal" in proxies
    assert "10.0.0.3" not in proxies and "172.16.0.1" not in proxies and "::1" not in proxies and "" not in proxies
    assert "203.0.113.9" in Proxies("*") and "127.0.0.1" not in Proxies("")


def _serve(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tapete", "serve", "--port", "1", *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_unusable_data_folders_stop_serve_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = _serve({"XDG_DATA_HOME": str(blocker)})
    assert out.returncode == 2 and "open http" not in out.stdout
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("tapete serve: cannot create the data folder")
    out = _serve({}, "--db", "sqlite:////proc/tapete-test/tapete.db")  # a read-only file system
    assert out.returncode == 2 and "open http" not in out.stdout and out.stderr.count("\n") == 1, out.stderr
    monkeypatch.setattr(startup.shutil, "disk_usage", lambda p: type("U", (), {"free": 1024})())
    with pytest.raises(startup.StartupError, match="is full"):
        startup.check_folder(tmp_path)


def _served(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    """``tapete serve`` on a free port with a fresh SQLite file; returns once ``/healthz`` answers."""
    port = free_port()
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tapete", "serve", "--port", str(port), "--db", db, *args],
        env={k: v for k, v in os.environ.items() if k != "FORWARDED_ALLOW_IPS"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    wait_until_up(proc, url)
    return proc, url


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limits(tmp_path: Path) -> None:
    """With ``--forwarded-allow-ips``, the client named by a trusted proxy's X-Forwarded-For is
    the address the per-address limits count (20 tables a minute here); a request from any
    other address is counted as its own, whatever header it sends."""
    import httpx

    proc, url = _served(tmp_path, "--forwarded-allow-ips", "127.0.0.3")
    body = {"profile": "cutthroat", "seats": HUMANS}
    try:
        proxy = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"), timeout=10)
        stranger = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.4"), timeout=10)
        with proxy, stranger:
            for k in range(Limits().tables_per_client_minute + 1):  # one table each for many clients
                r = proxy.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": f"198.51.100.{k + 1}"})
                assert r.status_code == 201, r.text
            for _ in range(Limits().tables_per_client_minute):  # one client behind the proxy, up to its limit
                r = proxy.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": "203.0.113.7"})
                assert r.status_code == 201, r.text
            r = proxy.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": "203.0.113.7"})
            assert (r.status_code, r.json()["code"]) == (429, "too_many_tables")
            for k in range(Limits().tables_per_client_minute):  # not a trusted proxy: the header is ignored
                r = stranger.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": f"192.0.2.{k + 1}"})
                assert r.status_code == 201, r.text
            r = stranger.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": "192.0.2.200"})
            assert (r.status_code, r.json()["code"]) == (429, "too_many_tables")
    finally:
        proc.terminate()
        proc.wait(10)


def test_api_calls_from_one_address_are_limited(sqlite_url: str) -> None:
    """``api_per_client_second`` / ``api_burst``: past the burst an address's API calls are
    refused 429 ``rate_limited`` with ``Retry-After``, in its language; other addresses and the
    pages are not counted."""
    limits = Limits(tables_per_client_minute=1000, api_per_client_second=2.0, api_burst=3)
    app = make_app(sqlite_url, limits=limits)
    with TestClient(app) as c:
        assert [c.get("/api/tables").status_code for _ in range(3)] == [200, 200, 200]
        r = c.get("/api/tables", headers={"accept-language": "es"})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert r.headers["retry-after"] == "1" and r.headers["content-language"] == "es"
        assert c.get("/").status_code == 200  # a page, not the API
        other = TestClient(app, client=("192.0.2.7", 50000))
        assert other.get("/api/tables").status_code == 200
        time.sleep(0.6)  # a token back
        assert c.get("/api/tables").status_code == 200
        assert c.get("/api/tables").status_code == 429


def test_an_operator_sets_the_limits_by_name() -> None:
    limits = Limits().with_settings(["open_tables=2000", "decision-queue=20000", "body_seconds=2.5"])
    assert (limits.open_tables, limits.decision_queue, limits.body_seconds) == (2000, 20000, 2.5)
    assert limits.hello_seconds == Limits().hello_seconds
    refusals = {
        "nope=1": "unknown limit 'nope'",
        "open_tables": "the limit open_tables needs a value",
        "open_tables=x": "the limit open_tables needs a whole number, not 'x'",
        "open_tables=1.5": "needs a whole number",
        "open_tables=0": "must be more than 0",
        "body_seconds=nan": "must be more than 0",
        "body_seconds=-1": "must be more than 0",
    }
    for setting, says in refusals.items():
        with pytest.raises(ValueError, match=says):
            Limits().with_settings([setting])


def test_serve_takes_limits_and_refuses_a_bad_one_in_one_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    bad = _serve({}, "--db", db, "--limit", "open_tables=many")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr == "tapete serve: the limit open_tables needs a whole number, not 'many'\n"
    with _tapete_serve(tmp_path, "--limit", "open_tables=1") as port:
        plan = {"profile": "runfast", "seats": ["human", "easy", "easy"]}
        first = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=plan, timeout=10)
        second = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=plan, timeout=10)
        assert first.status_code == 201 and second.status_code == 503 and second.json()["code"] == "server_full"


def test_an_ipv6_network_counts_as_one_address(sqlite_url: str) -> None:
    """An IPv6 client is usually given a /64: a fresh address from it for every call is counted
    with the others, as its network; another network, and IPv4 mapped into IPv6, count apart."""
    assert address_key("2001:db8:1:2:aaaa::5") == "2001:db8:1:2::/64"
    assert address_key("::ffff:192.0.2.9") == "192.0.2.9" and address_key("192.0.2.9") == "192.0.2.9"
    assert address_key("testclient") == "testclient" and address_key("") == ""
    limits = Limits(tables_per_client_minute=1000, api_per_client_second=0.01, api_burst=3)
    app = make_app(sqlite_url, limits=limits)
    with TestClient(app):
        calls = [TestClient(app, client=(f"2001:db8:1:2::{n}", 50000)).get("/api/tables") for n in range(1, 6)]
        assert [r.status_code for r in calls] == [200, 200, 200, 429, 429]
        assert TestClient(app, client=("2001:db8:1:3::1", 50000)).get("/api/tables").status_code == 200
        assert TestClient(app, client=("::ffff:192.0.2.9", 50000)).get("/api/tables").status_code == 200


def test_tables_not_in_memory_asked_by_one_address_are_limited(sqlite_url: str) -> None:
    """``lookups_per_client_second`` / ``lookups_burst``: each table asked for that is not in
    memory is a look in the database, counted per address (by ``hello`` and by HTTP alike);
    open tables held here cost nothing."""
    limits = Limits(tables_per_client_minute=1000, lookups_per_client_second=0.01, lookups_burst=2)
    app = make_app(sqlite_url, limits=limits)
    with TestClient(app) as c:
        t = create_table(c, "cutthroat", HUMANS)
        assert [c.get(f"/api/tables/nope{n}").status_code for n in range(2)] == [404, 404]
        r = c.get("/api/tables/nope2", headers={"accept-language": "ru"})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": "nope3", "spectate": True})
            assert ws.receive_json()["code"] == "rate_limited"
            with pytest.raises(WebSocketDisconnect) as closed:  # to try again later
                ws.receive_json()
            assert closed.value.code == 1013
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "table": t["table"], "spectate": True})
            assert ws.receive_json()["type"] == "welcome"  # in memory: free
        assert [c.get(f"/api/tables/{t['table']}").status_code for _ in range(5)] == [200] * 5
        other = TestClient(app, client=("192.0.2.7", 50000))
        assert other.get("/api/tables/nope4").status_code == 404

"""One process needs none of the cluster: no Redis, no Ray, no lease tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CODE = """
import sys
from starlette.testclient import TestClient
from tapete.server import create_app
with TestClient(create_app({url!r}, bot_workers=1, bot_delay=0.0)) as c:
    r = c.post("/api/tables", json={{"profile": "runfast", "seats": ["human", "easy", "easy"]}})
    assert r.status_code == 201, r.text
    assert type(c.app.state.hub.ownership).__name__ == "LocalOwnership"
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("redis", "ray") or m.startswith("tapete.server.cluster.node"))
print(",".join(loaded))
"""


def test_the_single_process_server_imports_no_cluster_part(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tapete.db'}"
    out = subprocess.run([sys.executable, "-c", CODE.format(url=url)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""
    import sqlite3

    with sqlite3.connect(tmp_path / "tapete.db") as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "tables" in names and not names & {"leases", "event_writers", "nodes"}


def test_a_node_needs_postgresql_and_a_redis_that_answers(tmp_path: Path) -> None:
    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "tapete", "serve", "--port", "1", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60)

    sqlite = serve("--db", f"sqlite:///{tmp_path / 'x.db'}", "--redis", "redis://127.0.0.1:1/0")
    assert sqlite.returncode == 2 and "PostgreSQL" in sqlite.stderr and sqlite.stdout == ""
    from tests.server.helpers import postgres_url

    pg = postgres_url()
    if pg is not None:
        no_redis = serve("--db", pg, "--table-prefix", "tapete_never_", "--redis", "redis://127.0.0.1:1/0")
        assert no_redis.returncode == 2 and "cannot use Redis" in no_redis.stderr and no_redis.stdout == ""
        import sqlalchemy as sa

        from tapete.server.db import normalize_url

        engine = sa.create_engine(normalize_url(pg))
        try:  # nothing is written before every check passes
            assert not [n for n in sa.inspect(engine).get_table_names() if n.startswith("tapete_never_")]
        finally:
            engine.dispose()

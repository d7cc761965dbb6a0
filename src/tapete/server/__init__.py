"""The tapete game server: tables, seats, bots, per-seat views and an event log.

``create_app(db_url=None, ...)`` builds the ASGI app; ``serve(...)`` runs it with
uvicorn (the ``tapete serve`` command). The protocol is in ``docs/protocol.md``.
"""

from __future__ import annotations

from tapete.server.app import create_app

__all__ = ["create_app", "serve"]


def serve(host: str = "127.0.0.1", port: int = 8000, db_url: str | None = None, bot_delay: float = 0.6) -> int:
    """Run the server until interrupted; prints the address to open."""
    import uvicorn

    from tapete.server.db import default_db_url

    url = db_url or default_db_url()
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    public = f"http://{shown}:{port}"
    app = create_app(url, bot_delay=bot_delay, public_url=public)
    safe_db = url.split("@")[-1] if "@" in url else url
    print(f"tapete server: open {public}/  (database: {safe_db})", flush=True)
    uvicorn.run(app, host=host, port=port, ws_max_size=65536, log_level="warning")
    return 0

"""Shared set-up of the browser tests: Debian's Chromium through Python Playwright, and a
uvicorn server in a thread on a free 127.0.0.1 port.

Playwright's own browser download cannot be used here, so Chromium is launched from its
system path; without it (or without playwright) the browser tests skip with a reason.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "artifacts"


def chromium_path() -> str | None:
    return CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")


def require_browser() -> Any:
    """The playwright sync API, or skip the calling module with the reason."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')"
    )
    pytest.importorskip("uvicorn", reason="uvicorn is not installed")
    if chromium_path() is None:
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)", allow_module_level=True)
    return sync_api


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(app: Any, **config: Any) -> Iterator[str]:
    """Run ``app`` with uvicorn in a thread on a free port; yields its base URL."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = require_browser()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=ARGS, headless=True)
        yield b
        b.close()

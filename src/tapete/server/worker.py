"""A bot worker process: ``python -m tapete.server.worker``.

It reads jobs from standard input and writes answers to standard output, one at a time.
A message is one JSON header line, followed by ``header["raw"]`` bytes when there are
any. Job: ``{"id", "kind", "args", "raw"}``; answer: ``{"id", "ok", "raw"}`` or
``{"id", "error", "code"?, "detail"}``.

It ends with its server: on end of input (the server closed the pipe or died), and when
its parent process changes (checked four times a second, also in the middle of a long
decision), so a ``kill -9`` of the server leaves no worker behind. It uses no
``multiprocessing``, hence no resource tracker either. Ctrl-C is the server's to handle.
It runs at a lower CPU priority (``NICENESS``) than the server, whose event loop must
answer sockets promptly while searches run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from typing import Any, BinaryIO

from tapete.errors import TapeteError
from tapete.server.jsoncodec import loads

WATCH_SECONDS = 0.25
"""How often the worker checks that its server is still alive."""
NICENESS = 10
"""How much lower the worker's CPU priority is than its server's."""


def watch_parent(parent: int) -> None:
    """Exit the process as soon as ``parent`` is no longer its parent (a daemon thread)."""

    def loop() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=loop, name="tapete-parent-watch", daemon=True).start()


def answer(out: BinaryIO, header: dict[str, Any], raw: bytes = b"") -> None:
    if raw:
        header["raw"] = len(raw)
    out.write(json.dumps(header, separators=(",", ":"), default=str).encode("utf-8") + b"\n")
    if raw:
        out.write(raw)
    out.flush()


def warm_up() -> None:
    """Import the jobs and every family's bots now, so that no job pays for it."""
    import tapete.server.jobs  # noqa: F401
    from tapete.families import families

    for fam in families():
        with contextlib.suppress(Exception):
            fam.bots()


def serve(inp: BinaryIO, out: BinaryIO) -> None:
    """Say ``{"ready": true}``, then answer jobs until end of input."""
    from tapete.server.jobs import run_job

    warm_up()
    answer(out, {"ready": True})
    while True:
        line = inp.readline()
        if not line:
            return
        head = loads(line)
        size = int(head.get("raw") or 0)
        raw = inp.read(size) if size else b""
        job_id = head.get("id")
        try:
            result, raw_out = run_job(str(head["kind"]), head.get("args") or {}, raw)
        except TapeteError as exc:
            answer(out, {"id": job_id, "error": type(exc).__name__, "code": exc.code, "detail": exc.message[:300]})
        except Exception as exc:
            answer(out, {"id": job_id, "error": type(exc).__name__, "detail": str(exc)[:300]})
        else:
            answer(out, {"id": job_id, "ok": result}, raw_out)


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)
    watch_parent(os.getppid())
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the answers
    serve(inp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Serving the debugger: a socket on 127.0.0.1 (an unused port unless one is asked for), a fresh token from
``secrets``, uvicorn running the app, and the URL printed (and opened in the browser unless told not to).

The token is printed once, inside the URL for the person who started the debugger; it is never logged (uvicorn's
access log is off: it would write the URL of the first request, which carries the token)."""

from __future__ import annotations

import gc
import secrets
import socket
import sys
import webbrowser
from typing import Final

import click
import uvicorn

from tools.debug.app import create_app
from tools.debug.session import Session

LOCAL: Final = "127.0.0.1"


def bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    return sock


def serve(session: Session, *, host: str = LOCAL, port: int = 0, open_browser: bool = True) -> None:
    """Serve ``session`` until interrupted. The session must not have opened its logs on this thread: the app
    opens them on its own (``tools.debug.app.Worker``)."""
    sock = bind(host, port)
    bound = sock.getsockname()[1]
    token = secrets.token_urlsafe(32)
    shown = f"[{host}]" if ":" in host else host
    hosts = [f"{shown}:{bound}", f"localhost:{bound}", shown, "localhost"]
    app = create_app(session, token, hosts)
    url = f"http://{shown}:{bound}/?token={token}"
    click.echo(f"kifu debug: {session.source.location} at\n  {url}\n"
               "(only this URL's token opens it; Ctrl-C stops it)")
    sys.stdout.flush()  # (the URL is what a script waiting on this process reads first)
    if open_browser:
        webbrowser.open(url)
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2,
                            limit_concurrency=64, h11_max_incomplete_event_size=16 * 1024)
    gc.freeze()  # (what starting made — modules, the app — is never walked by a full collection: no long pause)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        session.close()
        sock.close()

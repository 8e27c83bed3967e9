"""Push over WebSocket (``GET /api/v1/stream``) as a generator of messages, over the websockets
package (Debian's python3-websockets; optional: the rest of the client works without it). The key
travels in the upgrade; the subscriptions are sent after each ``welcome``, so a connection made again
after a drop (jittered exponential backoff) is subscribed again; a refused key (401, or close 4001),
too many connections (4008) or a subscription message over 64 KiB (1009) ends the generator with
StreamError. The socket lives on a private event loop on its own thread: it answers the server's
pings while the caller's code runs between messages, and the generator works where an event loop
runs already (Jupyter)."""

import asyncio
import inspect
import json
import random
import threading
import time

PACKAGE_HINT = "apt-get install python3-websockets on Debian (or pip install websockets in a venv)"

#: Close codes that end a stream for good: reconnecting would be refused the same way.
FINAL_CLOSES = {4001: "unauthorized", 4008: "too_many_connections", 1009: "message_too_big"}


class StreamError(Exception):
    """Why a stream ended: ``code`` (``unauthorized``: a bad, disabled or rotated key;
    ``too_many_connections``: the plan's connections per key; ``message_too_big``: a
    subscription message over 64 KiB; ``disconnected``: given up after
    ``reconnects`` drops in a row; or the code of the problem a refused upgrade answered),
    ``detail``, ``status`` (the HTTP status of a refused upgrade, else None) and ``close_code``
    (the WebSocket close code that ended it, else None)."""

    def __init__(self, code, detail, status=None, close_code=None):
        self.code = code
        self.detail = detail
        self.status = status
        self.close_code = close_code
        super().__init__("%s: %s" % (code, detail))


def require_websockets():
    """The websockets module, or an ImportError naming the package to install."""
    try:
        import websockets
        import websockets.exceptions
    except ImportError as error:
        raise ImportError("Client.stream() needs the websockets package: %s" % PACKAGE_HINT) from error
    return websockets


class _Loop:
    """A private event loop running on a daemon thread; ``run`` waits for one coroutine on it."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="mdq-stream", daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout=None):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self):
        try:
            self.run(_cancel_others(), timeout=5)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
            if not self.thread.is_alive():
                self.loop.close()


async def _cancel_others():
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _connect(websockets, url, key):
    connect = websockets.connect
    # websockets 14 renamed extra_headers (Debian 12 has 10.4) to additional_headers.
    header = "additional_headers" if "additional_headers" in inspect.signature(connect).parameters else "extra_headers"
    return await connect(url, max_size=None, open_timeout=10, **{header: {"X-API-Key": key}})


def _refusal(error):
    """``(status, code, detail, retry_after)`` of a refused upgrade, or status None for anything else."""
    response = getattr(error, "response", None)
    status = getattr(error, "status_code", None) or getattr(response, "status_code", None)
    if not isinstance(status, int):
        return None, "disconnected", str(error) or type(error).__name__, None
    headers = getattr(error, "headers", None) or getattr(response, "headers", None) or {}
    after = headers.get("Retry-After")
    problem = {}
    try:
        problem = json.loads(getattr(response, "body", b"") or b"{}")  # websockets >= 11 keeps the body
    except ValueError:
        pass
    # websockets 10 keeps no body: a 401 is the one refusal of the key.
    code = problem.get("code") or ("unauthorized" if status == 401 else "http_error")
    detail = problem.get("detail") or "the upgrade was answered %d" % status
    return status, code, detail, int(after) if after is not None and after.isdigit() else None


def messages(url, key, subscribe, reconnects=None, max_reconnect_wait=30):
    """Each message (a dict) the server at ``url`` sends, with ``subscribe`` (the subscribe
    messages) sent after every ``welcome``; closing the generator closes the socket."""
    websockets = require_websockets()
    closed_error = websockets.exceptions.ConnectionClosed
    loop = _Loop()
    socket = None
    drops = 0
    try:
        while True:
            close_code, reason, retry_after = None, "", None
            try:
                socket = loop.run(_connect(websockets, url, key))
            except Exception as error:  # refused, unreachable, or cut during the handshake
                status, code, reason, retry_after = _refusal(error)
                if status is not None and status != 429 and status < 500:
                    raise StreamError(code, reason, status=status) from None
            else:
                try:
                    while True:
                        message = json.loads(loop.run(socket.recv()))
                        if message.get("type") == "welcome":
                            drops = 0
                            for request in subscribe:
                                loop.run(socket.send(json.dumps(request)))
                        yield message
                except closed_error as closed:
                    close_code = 1006 if closed.rcvd is None else closed.rcvd.code
                    reason = "" if closed.rcvd is None else closed.rcvd.reason
                    socket = None
                if close_code in FINAL_CLOSES:
                    raise StreamError(FINAL_CLOSES[close_code], reason or "closed %d" % close_code, close_code=close_code)
            if reconnects is not None and drops >= reconnects:
                raise StreamError(
                    "disconnected",
                    "%s; gave up after %d reconnections" % (reason or "closed %s" % close_code, reconnects),
                    close_code=close_code,
                )
            wait = min(max_reconnect_wait, 0.5 * 2**drops) * (0.5 + random.random() * 0.5)  # jitter spreads clients out
            drops += 1
            time.sleep(max(wait, retry_after or 0))  # never sooner than a 429's or 503's Retry-After
    finally:
        if socket is not None:
            try:
                loop.run(socket.close(), timeout=3)
            except Exception:
                pass
        loop.stop()

"""`menagerie serve`: granian (or gunicorn's gthread workers) on a real Redis; one Flask server when embedded.

Embedded mode keeps its store in this process's memory, so it cannot be
shared by several worker processes: it always runs one Flask server.

granian, a Rust HTTP server, is the default: with the WSGI app it costs a
third less CPU a move than gunicorn's gthread workers and serves 1.5 to 3
times the moves a second on the same two cores (`bench/bench_http.py
--server granian|gthread`), and the fault tests and the fault run pass on it
(a killed worker process is started again). What it cannot parse it answers
itself with an empty 400, 414 or 431 (gunicorn: an HTML page); see docs/operators.md.

granian serves the app through its async interface (RSGI,
service/http/front.py): the Flask app answers every request on a pool of
threads as before, and live streams are served from a fan-out on the event
loop, one subscribing connection a shard (a Redis, or each master of a
Redis Cluster) over every watched game there, without a thread each, so a
process holds thousands of watchers (`bench/bench_spectators.py`). With
MENAGERIE_INTERFACE=wsgi it serves the WSGI app directly, a stream holding a thread.
`--server gunicorn` keeps gunicorn, and a thread a stream, for those who run it already.
"""

from __future__ import annotations

import gc
import logging
import os
from typing import Any

from gunicorn.app.base import BaseApplication

from service.adapters.connections import connect, rq_url
from service.adapters.durability import check_durability

log = logging.getLogger(__name__)

# Server worker processes with REDIS_URL: one a core of a two-core machine (`bench/bench_http.py`).
DEFAULT_WORKERS = 2
# Each worker process serves `threads` requests at once; a slow client holds
# one thread, never a whole process, and a request stuck past `timeout` gets
# its worker restarted.
THREADS = 8
TIMEOUT_S = 30
# The threads each worker process runs the app on (granian's own under WSGI, where at most 48
# of them hold live streams: service/http/streams.py; the front's pool under RSGI), and
# granian's limit on reading a request's headers.
GRANIAN_THREADS = 64
HEADER_READ_TIMEOUT_S = 10
# Requests one worker process serves at once through the async front, open streams included.
FRONT_REQUESTS = 10_000
# A granian worker process still running this long after the stop signal is killed. Without
# it, a worker that misses the signal (seen in our tests now and then, as in
# emmett-framework/granian#875) holds the whole server's stop forever.
GRANIAN_KILL_TIMEOUT_S = 10

# gunicorn answers a request it cannot parse itself, in HTML, before the app
# sees it. Its limits are set at their most generous, so that every request a
# client can reasonably send reaches the app and gets a JSON error; only an
# abusive one (a request line over 8190 bytes, over 200 header fields, a field
# over 8190 bytes) gets gunicorn's HTML 414, 431 or 400 (see docs/operators.md).
LIMITS = {"limit_request_line": 8190, "limit_request_fields": 200, "limit_request_field_size": 8190}


class ApiServer(BaseApplication):
    """gunicorn running the API, configured in code rather than by a config file."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        """Hand gunicorn our settings."""
        for name, value in self.options.items():
            self.cfg.set(name, value)

    def load(self) -> Any:
        """Build the app in each worker process, with its own Redis connections."""
        return worker_app()


def gunicorn_options(host: str, port: int, workers: int) -> dict[str, Any]:
    """Return the gunicorn settings of `menagerie serve`."""
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": int(os.environ.get("MENAGERIE_THREADS", THREADS)),
        "timeout": TIMEOUT_S,
        "graceful_timeout": TIMEOUT_S,
        "keepalive": 5,
        **LIMITS,
    }


def worker_app() -> Any:
    """Build one server worker process's app, then freeze what it built out of the collector's sight.

    What exists once the app is built (modules, the app, its services and
    connection pools) lives as long as the process: `gc.freeze()` keeps every
    full collection from walking it again (about 1% of a move's CPU).
    """
    from service.http import create_app

    app = create_app()
    gc.freeze()
    return app


def use_front() -> bool:
    """Tell whether granian serves through the async front: unless MENAGERIE_INTERFACE=wsgi (one Redis or a cluster)."""
    wanted = os.environ.get("MENAGERIE_INTERFACE", "rsgi")
    if wanted not in ("rsgi", "wsgi"):
        raise ValueError(f"MENAGERIE_INTERFACE is rsgi (the default) or wsgi, not {wanted!r}")
    return wanted == "rsgi"


def front_app() -> Any:
    """Build one server worker process's async front: the app on a pool of threads, live streams on the loop."""
    from service.http.front import Front

    app = worker_app()
    services = app.extensions["menagerie"]
    return Front(app, GRANIAN_THREADS, os.environ["REDIS_URL"], services.prefix)


def granian_server(host: str, port: int, workers: int) -> Any:
    """Return granian serving the API with `workers` processes (a killed one is started again).

    Through the async front (RSGI), or through WSGI if MENAGERIE_INTERFACE says so (see the module's doc).
    """
    from granian import Granian
    from granian.constants import Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels

    front = use_front()
    return Granian(
        "service.cli.server:front_app" if front else "service.cli.server:worker_app",
        factory=True,  # each worker process builds its own app, with its own Redis connections
        address=host,
        port=port,
        interface=Interfaces.RSGI if front else Interfaces.WSGI,
        workers=workers,
        # Under WSGI a request holds one of these Python threads while the app reads its body or streams
        # events (the front has its own pool). Headers are read by granian itself, and a client that
        # dawdles over them is cut off.
        blocking_threads=1 if front else GRANIAN_THREADS,
        # granian serves at most this many requests at once a worker process (by default half of
        # its 1,024 backlog over the workers), and an open stream is one: the front lets thousands
        # through; each process also needs as many file descriptors (`ulimit -n`).
        backpressure=FRONT_REQUESTS if front else None,
        http1_settings=HTTP1Settings(header_read_timeout=HEADER_READ_TIMEOUT_S * 1000),
        respawn_failed_workers=True,
        workers_kill_timeout=GRANIAN_KILL_TIMEOUT_S,
        log_level=LogLevels.warning,
    )


def page_address(host: str, port: int) -> str:
    """Return the address a browser on this machine opens the page at."""
    if host in ("", "0.0.0.0", "::"):  # every interface: this machine reaches it on loopback
        host = "127.0.0.1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(host: str, port: int, workers: int | None, server: str = "granian", require_durable: bool = False) -> int:
    """Serve the API: granian (or gunicorn) with `workers` processes when REDIS_URL is set, else one Flask server."""
    if os.environ.get("REDIS_URL"):
        rq_url()  # a cluster without RQ's own Redis is refused here, not in every server worker
    # The first line a newcomer sees says where the page is, before any server's own warnings.
    log.info("Menagerie is serving on %s (open it in a browser)", page_address(host, port))
    if os.environ.get("REDIS_URL"):
        # Once, here, not in every server worker: a warning per setting, or a refusal.
        check_durability(connect(os.environ["REDIS_URL"]), require_durable, log.warning)
        workers = workers or DEFAULT_WORKERS
        if server == "granian":
            granian_server(host, port, workers).serve()
        else:
            options = gunicorn_options(host, port, workers)
            # A live stream holds a thread: half of a gthread worker's at most (48 of granian's 64 is the default).
            os.environ.setdefault("MENAGERIE_MAX_STREAMS", str(max(1, options["threads"] // 2)))
            ApiServer(options).run()
        return 0
    from service.http import create_app

    if workers not in (None, 1):  # asked for explicitly: say why it is not done
        log.warning("embedded mode keeps its store in memory: one process serves, not %d", workers)
    # werkzeug's own warning (red, "do not use it in a production deployment") says less than this line.
    logging.getLogger("werkzeug").addFilter(_without_development_warning)
    log.info(EMBEDDED_SERVER)
    create_app().run(host=host, port=port, threaded=True)
    return 0


EMBEDDED_SERVER = (
    "embedded mode: werkzeug's development server, not granian, since its store lives in this one process's"
    " memory (for trying Menagerie out; set REDIS_URL for production, docs/operators.md)"
)


def _without_development_warning(record: logging.LogRecord) -> bool:
    """Drop werkzeug's development-server warning from its startup message (`EMBEDDED_SERVER` says why)."""
    if isinstance(record.msg, str) and "development server" in record.msg:
        lines = [line for line in record.msg.split("\n") if "development server" not in line]
        record.msg = "\n".join(lines)
        return bool(lines)
    return True

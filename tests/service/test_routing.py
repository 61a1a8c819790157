"""The app binds a request's URL as Flask does: its host part kept per host, its path, method and query its own."""

from __future__ import annotations

from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.http.routing import App

# Hosts a client may name (cased, with ports, international, invalid for idna), and what a server fills in.
_HOSTS = st.sampled_from(
    [
        None,
        "127.0.0.1:8000",
        "Example.COM",
        "example.com:80",
        "example.com:443",
        "bücher.de",
        "[::1]:8000",
        "a" * 70,
        "",
    ]
)
_TEXT = st.sampled_from(["", "/", "/games/abc", "/games/abc/actions", "//x", "/caf\xc3\xa9", "/\xff\xfe", "/games/"])
_QUERIES = st.sampled_from([None, "", "view=true", "a=%20&b", "\xc3\xa9=1"])
_ENVIRONS = st.fixed_dictionaries(
    {
        "REQUEST_METHOD": st.sampled_from(["GET", "POST", "HEAD", "get", "OPTIONS"]),
        "SERVER_NAME": st.sampled_from(["127.0.0.1", "localhost", "Example.com"]),
        "SERVER_PORT": st.sampled_from(["8000", "80", "443"]),
        "wsgi.url_scheme": st.sampled_from(["http", "https"]),
    },
    optional={
        "HTTP_HOST": _HOSTS.filter(lambda host: host is not None),
        "HTTP_CONNECTION": st.sampled_from(["keep-alive", "Upgrade", "keep-alive, upgrade", ""]),
        "HTTP_UPGRADE": st.sampled_from(["websocket", "WebSocket", "h2c"]),
        "SCRIPT_NAME": st.sampled_from(["", "/app", "/app/"]),
        "PATH_INFO": _TEXT,
        "QUERY_STRING": _QUERIES.filter(lambda query: query is not None),
    },
)


def _bound(app: Flask, environ: dict[str, Any]) -> tuple[str, Any]:
    """Bind `app`'s URL map to a request: the adapter's every attribute and the request's host, or what it raised."""
    request = app.request_class(dict(environ))
    try:
        adapter = app.create_url_adapter(request)
    except Exception as error:  # noqa: BLE001 - whatever Flask raises, the app must raise alike
        return "raised", type(error)
    assert adapter is not None
    kept = {name: value for name, value in vars(adapter).items() if name not in ("map", "_matches")}
    return "bound", (kept, request.host)


def _app_and_flask() -> tuple[App, Flask]:
    apps = App("service.http"), Flask("service.http")
    for app in apps:
        app.add_url_rule("/games/<game_id>", "game", lambda game_id: "")
    return apps


# One app for every example: the hosts it keeps are those of earlier requests, to other hosts too.
_APP, _FLASK = _app_and_flask()


@settings(max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
@given(first=_ENVIRONS, path=st.one_of(st.none(), _TEXT), query=_QUERIES, method=st.sampled_from(["GET", "POST"]))
def test_a_request_is_bound_as_flask_binds_it_after_another_to_the_same_host(first, path, query, method):
    app, flask = _APP, _FLASK
    # A request to the same host with another path, method and query: the host part is then the app's kept one.
    later = {**first, "REQUEST_METHOD": method}
    for name, value in (("PATH_INFO", path), ("QUERY_STRING", query)):
        later.pop(name, None)
        if value is not None:
            later[name] = value
    for environ in (first, later):
        assert _bound(app, environ) == _bound(flask, environ)


def test_an_app_configured_to_bind_otherwise_binds_as_flask():
    app, flask = _app_and_flask()
    for each in (app, flask):
        each.config["SERVER_NAME"] = "example.com"
    environ = {"REQUEST_METHOD": "GET", "SERVER_NAME": "x", "SERVER_PORT": "80", "wsgi.url_scheme": "http"}
    for path in ("/games/a", "/games/b"):
        assert _bound(app, {**environ, "PATH_INFO": path}) == _bound(flask, {**environ, "PATH_INFO": path})


# Paths of the app's routes, right and nearly (a trailing slash, a wrong method, a part missing or extra).
_PATHS = st.one_of(
    st.sampled_from(
        [
            "/",
            "/health",
            "/game-types",
            "/games",
            "/games/",
            "/games/0123456789abcdef",
            "/games/0123456789abcdef/",
            "/games/0123456789abcdef/actions",
            "/games/abc/join",
            "/games/abc/events",
            "/games/abc/stream",
            "/games/abc/export",
            "/games/abc/audit",
            "/tournaments",
            "/tournaments/t-1",
            "/tournaments/t-1/stream",
            "/leaderboards/bloede-kuh",
            "/nowhere",
            "/games/a/b/c",
            "//games/abc",
            "/games/caf\xc3\xa9",
        ]
    ),
    st.text(alphabet="/abcg-é.", max_size=12).map(lambda path: "/" + path),
)


def _matched(adapter: Any) -> tuple[str, Any]:
    try:
        rule, arguments = adapter.match(return_rule=True)
    except Exception as error:  # noqa: BLE001 - a 404, 405 or redirect must be the same one
        return "raised", (type(error), getattr(error, "new_url", None), getattr(error, "valid_methods", None))
    return "matched", (rule, arguments, adapter.match()[0])


@settings(max_examples=600, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    paths=st.lists(_PATHS, min_size=1, max_size=6),
    methods=st.lists(st.sampled_from(["GET", "POST", "HEAD", "OPTIONS", "DELETE"]), min_size=1),
)
def test_the_app_s_routes_match_as_werkzeug_matches_them_however_often_asked(fake_services, paths, methods):
    app = _served_app(fake_services)
    environ = {"SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "wsgi.url_scheme": "http", "HTTP_HOST": "h:1"}
    for index, path in enumerate(paths * 2):  # each path again: the second time from what the app keeps
        request = {**environ, "PATH_INFO": path, "REQUEST_METHOD": methods[index % len(methods)]}
        kept = app.create_url_adapter(app.request_class(dict(request)))
        own = Flask.create_url_adapter(app, app.request_class(dict(request)))
        assert _matched(kept) == _matched(own), (path, request["REQUEST_METHOD"])


_SERVED: dict[int, App] = {}


def _served_app(services: Any) -> App:
    """The service's app (one for the whole test), its URL map built as it serves it."""
    if not _SERVED:
        from service.http import create_app

        app = create_app(services)
        assert isinstance(app, App)
        _SERVED[0] = app
    return _SERVED[0]

"""The app's URL adapter for a request: its host part worked out once per host, its path part per request.

Flask binds the URL map to every request (`Flask.create_url_adapter`): it
reads the host twice, checks for a websocket upgrade, decodes the script
name, idna-encodes the server name, and only then takes the path, method and
query. All but those last three are the same for every request to the same
host, scheme and script name, which for a deployment is every request. `App`
keeps the adapter Flask bound for the first request of each such host (a
few, bounded: the host is the client's to name) and binds a later request's
path, method and query to the same host part, as werkzeug's
`Map.bind_to_environ` does. tests/service/test_routing.py holds the two
equal over many requests; anything configured to bind otherwise (a
SERVER_NAME, trusted hosts, host or subdomain matching) goes Flask's way.
"""

from __future__ import annotations

from flask import Flask, Request
from werkzeug.routing import MapAdapter

from service.adapters.cache import Bounded

# Hosts, schemes and script names an app is reached by: a deployment has a handful.
HOSTS = 64

# What Flask's and werkzeug's binding reads of the environ besides the path, method and query.
_HOST_KEYS = ("HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "wsgi.url_scheme", "HTTP_CONNECTION", "HTTP_UPGRADE")

HostKey = tuple[str | None, ...]


class App(Flask):
    """The Flask app, binding its URL map to a request's host once per host (see the module)."""

    def __init__(self, import_name: str) -> None:
        super().__init__(import_name)
        self._bound_hosts = Bounded[HostKey, tuple[str, MapAdapter]](HOSTS)

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        """Return the URL adapter for `request` (Flask's hook): Flask's own, its host part kept per host."""
        if request is None or not self._binds_by_host_alone():
            return super().create_url_adapter(request)
        environ = request.environ
        key = (*(environ.get(name) for name in _HOST_KEYS), environ.get("SCRIPT_NAME"))
        bound = self._bound_hosts.get(key)
        if bound is None:
            adapter = super().create_url_adapter(request)
            if adapter is not None:
                self._bound_hosts.put(key, (request.host, adapter))
            return adapter
        host, first = bound
        request.host = host  # as Flask sets it (werkzeug caches it on the request)
        path_info, query = environ.get("PATH_INFO"), environ.get("QUERY_STRING")
        return MapAdapter(
            self.url_map,
            first.server_name,
            first.script_name,
            first.subdomain,
            first.url_scheme,
            "/" if path_info is None else _decoded(path_info),
            environ["REQUEST_METHOD"],
            None if query is None else _decoded(query),
        )

    def _binds_by_host_alone(self) -> bool:
        """Tell whether the binding depends on nothing configured: no server name, trusted hosts or matching by host."""
        config = self.config
        return (
            config["SERVER_NAME"] is None
            and config["TRUSTED_HOSTS"] is None
            and not self.url_map.host_matching
            and not self.subdomain_matching
        )


def _decoded(text: str) -> str:
    """Return a WSGI string (bytes as latin-1) as the text werkzeug makes of it (UTF-8, errors replaced)."""
    return text.encode("latin1").decode(errors="replace")

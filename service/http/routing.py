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

from collections.abc import Mapping
from typing import Any

from flask import Flask, Request
from werkzeug.routing import MapAdapter, Rule

from service.adapters.cache import Bounded

# Hosts, schemes and script names an app is reached by: a deployment has a handful.
HOSTS = 64
# Paths matched lately, with their method: a game's few routes for each game in play, and a bound on the rest.
MATCHES = 4096

HostKey = tuple[str | None, ...]
MatchKey = tuple[str, str, bool]  # the path, the method, a websocket or not
Match = tuple[Rule, Mapping[str, Any]]


class App(Flask):
    """The Flask app, binding its URL map to a request's host once per host (see the module)."""

    def __init__(self, import_name: str) -> None:
        super().__init__(import_name)
        self._bound_hosts = Bounded[HostKey, tuple[str, MapAdapter]](HOSTS)
        self._matches = Bounded[MatchKey, Match](MATCHES)

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        """Return the URL adapter for `request` (Flask's hook): Flask's own, its host part kept per host."""
        if request is None or not self._binds_by_host_alone():
            return super().create_url_adapter(request)
        environ = request.environ
        # What Flask's and werkzeug's binding reads of the environ besides the path, method and query.
        get = environ.get
        key = (
            get("HTTP_HOST"),
            get("SERVER_NAME"),
            get("SERVER_PORT"),
            get("wsgi.url_scheme"),
            get("HTTP_CONNECTION"),
            get("HTTP_UPGRADE"),
            get("SCRIPT_NAME"),
        )
        bound = self._bound_hosts.get(key)
        if bound is None:
            adapter = super().create_url_adapter(request)
            if adapter is not None:
                self._bound_hosts.put(key, (request.host, adapter))
            return adapter
        host, first = bound
        request.host = host  # as Flask sets it (werkzeug caches it on the request)
        path_info, query = environ.get("PATH_INFO"), environ.get("QUERY_STRING")
        return _KeptMatches(
            self._matches,
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


class _KeptMatches(MapAdapter):
    """A URL adapter that answers a match it made lately from memory.

    A match is a function of the URL map, the path, the method and whether
    it is a websocket (and of the host, which without host or subdomain
    matching is the same for every request). The map no longer changes once
    the app has served a request (Flask refuses new routes then), so the rule
    and arguments found for a path and method stand. Only what matched is
    kept: a 404, 405 or redirect is looked for again.
    """

    def __init__(self, matches: Bounded[MatchKey, Match], *args: Any) -> None:
        super().__init__(*args)
        self._matches = matches

    def match(
        self,
        path_info: str | None = None,
        method: str | None = None,
        return_rule: bool = False,
        query_args: Mapping[str, Any] | str | None = None,
        websocket: bool | None = None,
    ) -> tuple[Any, Mapping[str, Any]]:
        """Return the rule (or endpoint) and arguments for the request bound (werkzeug's match)."""
        if path_info is not None or method is not None or query_args is not None or websocket is not None:
            found: tuple[Any, Mapping[str, Any]] = super().match(  # type: ignore[call-overload]
                path_info, method, return_rule, query_args, websocket
            )
            return found
        key = (self.path_info, self.default_method.upper(), self.websocket)
        kept = self._matches.get(key)
        if kept is None:
            rule, arguments = super().match(return_rule=True)
            kept = (rule, dict(arguments))
            self._matches.put(key, kept)
        rule, arguments = kept
        return (rule if return_rule else rule.endpoint), dict(arguments)

"""Real games and tournaments for schemathesis to aim at, with their tokens.

Schemathesis makes up the ids in a path, so on its own it meets 404 on every
route under /games/{id} and /tournaments/{tournament_id} and never reaches
the code behind them. This auth provider points most generated cases at an
existing target instead, with a token for it: a game waiting for a player
(join), a game in play with a human to move (actions), a finished game
(audit, export, the open view and past views, its stream), a tournament still
registering, one in play with a human entrant (the organiser's routes) and
one finished (its stream: a live stream would stay open while play goes on),
and an account (its id for /players/{player_id}, its token for /players/me;
each erasure gets an account of its own).
The rest keep their made-up ids and generated credentials, so the 401, 403
and 404 answers stay fuzzed too. Which target a case gets depends only on
the case's generated data: seeded runs pick the same targets every time.

A case whose id already names a real game or tournament (the stateful phase
follows openapi.yaml's links from a create) is left as it is.

Used by tests/service/test_schemathesis.py (in-process, on the WSGI app) and
by `make fuzz` (the schemathesis CLI against a running service, through
SCHEMATHESIS_HOOKS=tests.support.fuzz_targets).
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any

import requests
import schemathesis
from schemathesis.core.parameters import ParameterLocation

# How many cases share one set of targets before it is made again: a game in play
# may be finished by the fuzzer's moves, a tournament started by its requests.
RENEW_AFTER = 300

# The game types a create names in most cases (the rest keep the generated name, an unknown type: 422).
GAME_TYPES = ("life-is-life", "animals-on-board", "bloede-kuh", "zop-zoo")
CREATES = {("POST", "/games"), ("POST", "/tournaments")}
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

VISIBLE_ASCII = re.compile(r"^[!-~]{1,200}$")

# Ids as the server makes them (service/application): a made-up one almost never matches.
REAL_ID = re.compile(r"^(t-)?[0-9a-f]{16}$")

# Per route family, the targets a case may be aimed at; None keeps its made-up id.
GAME_AIMS = (None, "waiting", "playing", "finished")
TOURNAMENT_AIMS = (None, "registering", "running", "running_entrant")
# A live stream stays open while its game or tournament goes on: streams are aimed only at finished ones.
STREAM_AIMS = {"id": (None, "finished"), "tournament_id": (None, "finished_tournament")}
# An account's routes: a real player id in the path, or a real player token (its own account, for an erasure).
PLAYER_AIMS = (None, "player")
ACCOUNT_ROUTES = {"/players/me": (None, "account")}
ERASURE = ("DELETE", "/players/me")


@dataclass(frozen=True)
class Target:
    """Path parameters to put in a case and the token that goes with them (None: as a spectator)."""

    path: dict[str, Any]
    token: str | None


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class _Http:
    """The few requests that make the targets: to the app in-process, or over HTTP to a live service."""

    def __init__(self, app: Any, base_url: str | None) -> None:
        self.client = app.test_client() if app is not None else None
        self.base_url = base_url

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
        if self.client is not None:
            response = self.client.open(path, method=method, json=body, headers=_bearer(token))
            status, data = response.status_code, response.get_json()
        else:
            reply = requests.request(method, f"{self.base_url}{path}", json=body, headers=_bearer(token), timeout=60)
            status, data = reply.status_code, reply.json()
        if status >= 300:
            raise RuntimeError(f"{method} {path} -> {status}: {data}")
        return data


def _to_act(http: _Http, game: dict[str, Any]) -> str:
    """The token of a human seat that has a move to make (the first one if none has yet)."""
    tokens = [seat["token"] for seat in game["seats"]]
    for token in tokens:
        if http.call("GET", f"/games/{game['id']}", token=token)["legal_actions"]:
            return token
    return tokens[0]


def make_targets(http: _Http) -> dict[str, Target]:
    """Create one target of each kind and return them by name."""
    waiting = http.call("POST", "/games", {"game": "life-is-life", "seats": [{"name": "ann"}, {"bot": "random"}, {}]})
    two_humans = [{"name": "ann"}, {"name": "bob"}, {"bot": "random"}]
    playing = http.call("POST", "/games", {"game": "bloede-kuh", "seats": two_humans})
    finished = http.call("POST", "/games", {"game": "zop-zoo", "seats": [{"bot": "random"}, {"bot": "heuristic"}]})
    registering = http.call("POST", "/tournaments", {"game": "life-is-life", "rounds": 2})
    running = http.call("POST", "/tournaments", {"game": "animals-on-board", "rounds": 2})
    organiser = running["organiser_token"]
    entrant = http.call("POST", f"/tournaments/{running['id']}/register", {"name": "ann"})
    for _ in range(2):
        http.call("POST", f"/tournaments/{running['id']}/register", {"bot": "random"}, organiser)
    http.call("POST", f"/tournaments/{running['id']}/start", token=organiser)
    round_one = {"tournament_id": running["id"], "round_number": 1}
    # All bots: it plays to its end by itself (at once with inline jobs; soon on a live service).
    over = http.call("POST", "/tournaments", {"game": "zop-zoo", "rounds": 1})
    for _ in range(2):
        http.call("POST", f"/tournaments/{over['id']}/register", {"bot": "random"}, over["organiser_token"])
    http.call("POST", f"/tournaments/{over['id']}/start", token=over["organiser_token"])
    account = _new_account(http)
    return {
        "waiting": Target({"id": waiting["id"]}, waiting["seats"][0]["token"]),
        "playing": Target({"id": playing["id"]}, _to_act(http, playing)),
        "finished": Target({"id": finished["id"]}, None),
        "registering": Target({"tournament_id": registering["id"]}, registering["organiser_token"]),
        "running": Target(round_one, organiser),
        "running_entrant": Target(round_one, entrant["token"]),
        "finished_tournament": Target({"tournament_id": over["id"]}, None),
        "player": Target({"player_id": account["id"]}, None),
        "account": Target({}, account["token"]),
    }


def _new_account(http: _Http) -> dict[str, Any]:
    """Register an account of a handle no other case has (handles are unique)."""
    _new_account.made = getattr(_new_account, "made", 0) + 1  # type: ignore[attr-defined]
    return http.call("POST", "/players", {"handle": f"fuzz{_new_account.made}"})  # type: ignore[attr-defined]


def _crc(*values: Any) -> int:
    return zlib.crc32(repr(values).encode())


def _real_game_type(case: Any) -> None:
    """Name a real game type in most creates, so that games and tournaments get made.

    Only a name the spec allows is replaced (by another the spec allows), and the
    optional `options` are left out only of a body generated to match the spec: a
    body generated to break the schema stays broken.
    """
    body = case.body
    if (case.operation.method.upper(), case.operation.path) not in CREATES or not isinstance(body, dict):
        return
    game = body.get("game")
    if not isinstance(game, str) or not 1 <= len(game) <= 40 or CONTROL.search(game):
        return
    pick = _crc(case.operation.path, body) % (2 * len(GAME_TYPES) + 1)
    if pick == 2 * len(GAME_TYPES):
        return
    body = {**body, "game": GAME_TYPES[pick % len(GAME_TYPES)]}
    # Options are the union of every game's: most generated ones name another game's (422).
    # Half the time leave them out (they are optional), so that the create gets through.
    negative = case.meta is not None and case.meta.is_negative_at(ParameterLocation.BODY)
    if pick >= len(GAME_TYPES) and not negative:
        body.pop("options", None)
    case.body = body


def _unique_idempotency_key(case: Any) -> None:
    """Make a well-formed Idempotency-Key name its request too.

    Generated keys are few and short ("0", "!"): the same key with another body is
    422 `idempotency_key_reused`, which would be the answer to most creates, joins
    and moves. The same key with the same request still replays, as a retry should.
    """
    headers = case.headers or {}
    for name in list(headers):
        key = headers[name]
        if name.lower() == "idempotency-key" and isinstance(key, str) and VISIBLE_ASCII.match(key):
            headers[name] = f"{key[:190]}.{_crc(_plain(case.body), case.path_parameters):08x}"


@schemathesis.hook
def map_case(ctx: Any, case: Any) -> Any:
    """Let generated creates, joins and moves get through more often (see the two helpers)."""
    _real_game_type(case)
    _unique_idempotency_key(case)
    return case


def _plain(body: Any) -> Any:
    """The body, or None when unset (an object whose repr holds its address)."""
    return body if isinstance(body, (dict, list, str, int, float, bool)) else None


def _aim(case: Any) -> str | None:
    """The target a case is aimed at: None for a case without a made-up id, or one of the aims."""
    path = case.path_parameters or {}
    if case.operation.path in ACCOUNT_ROUTES:
        aims = ACCOUNT_ROUTES[case.operation.path]
        return aims[_crc(case.operation.label, case.query, _plain(case.body), case.headers) % len(aims)]
    if "player_id" in path:
        aims, named = PLAYER_AIMS, path["player_id"]
        if isinstance(named, str) and re.match(r"^p-[0-9a-f]{16}$", named):
            return None
        return aims[_crc(case.operation.label, named) % len(aims)]
    if "tournament_id" in path:
        aims, named = TOURNAMENT_AIMS, path["tournament_id"]
    elif "id" in path:
        aims, named = GAME_AIMS, path["id"]
    else:
        return None
    if isinstance(named, str) and REAL_ID.match(named):
        return None
    if case.operation.path.endswith("/stream"):
        aims = STREAM_AIMS["tournament_id" if "tournament_id" in path else "id"]
    # From the case's generated data only, so that seeded runs aim the same way every time.
    return aims[_crc(case.operation.label, sorted(path.items()), case.query, _plain(case.body)) % len(aims)]


def _linked_token(case: Any) -> Target | None:
    """A real token a link put in the case (from a join or a register), kept as the case's auth.

    Declared through the provider, it counts as credentials given on purpose: schemathesis's
    ignored_auth check then strips it and expects a 401, instead of taking a 200 with it for
    a route that accepts made-up credentials.
    """
    headers = case.headers or {}
    value = next((v for k, v in headers.items() if k.lower() == "authorization"), None)
    ids = [v for v in (case.path_parameters or {}).values() if isinstance(v, str) and REAL_ID.match(v)]
    if not isinstance(value, str) or not ids or not value.startswith(f"Bearer {ids[0]}."):
        return None
    return Target({}, value.removeprefix("Bearer "))


@schemathesis.auth(refresh_interval=None)
class AimAtRealTargets:
    """Point a case at a real game or tournament and send the token that goes with it."""

    def __init__(self) -> None:
        self.targets: dict[str, Target] = {}
        self.served = 0

    def get(self, case: Any, ctx: Any) -> Target | None:
        aim = _aim(case)
        if aim is None:
            return _linked_token(case)
        if not self.targets or self.served >= RENEW_AFTER:
            base_url = None if ctx.app is not None else case.operation.schema.get_base_url()
            try:
                self.targets = make_targets(_Http(ctx.app, base_url))
            except RuntimeError:
                # Refused (429 over the fair-use limits, 503): the old targets serve a while longer.
                pass
            self.served = 0
        self.served += 1
        if aim == "account" and (case.operation.method.upper(), case.operation.path) == ERASURE:
            # An erasure spends its account: each one gets an account of its own, so the others keep theirs.
            base_url = None if ctx.app is not None else case.operation.schema.get_base_url()
            try:
                return Target({}, _new_account(_Http(ctx.app, base_url))["token"])
            except RuntimeError:
                return None
        return self.targets.get(aim)

    def set(self, case: Any, target: Target, ctx: Any) -> None:
        for name, value in target.path.items():
            if name in case.path_parameters:
                case.path_parameters[name] = value
        if target.token is not None:
            case.headers = {**(case.headers or {}), **_bearer(target.token)}

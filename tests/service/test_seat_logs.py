"""A bot seat's redacted log, read incrementally, is the same as the log read whole."""

from __future__ import annotations

from domain.game import replay
from projections.game import redact_log
from service.application.seat_logs import SeatLogs
from tests.support.services import on_every_store

redis_client = on_every_store()


def test_the_kept_log_grows_with_the_game_and_equals_a_whole_read(fake_services):
    services = fake_services
    game, _ = services.games.create("bloede-kuh", [{"name": "ann"}, {"bot": "random"}, {"bot": "random"}], {})
    logs = SeatLogs(services.store)
    versions = []
    for _ in range(6):
        game = services.repository.load(game.id)
        seat = game.humans_to_act()[0] if game.humans_to_act() else 0
        whole = redact_log(game.type, services.store.read(game.id, upto=game.version), seat)
        assert logs(game, seat) == whole
        versions.append(game.version)
        if game.status != "active" or not game.legal_actions(seat):
            break
        services.games.act(game.id, seat, game.legal_actions(seat)[0])
    assert len(set(versions)) > 1  # the game moved between reads, so later reads were incremental


def test_a_game_read_at_an_older_version_gets_the_log_to_that_version(fake_services):
    services = fake_services
    game, _ = services.games.create("zop-zoo", [{"bot": "random"}, {"bot": "random"}], {"target": 60})
    logs = SeatLogs(services.store)
    finished = services.repository.load(game.id)
    assert len(logs(finished, 0)) == finished.version
    older = replay(services.store.read(game.id, upto=5))
    assert logs(older, 0) == redact_log("zop-zoo", services.store.read(game.id, upto=5), 0)

"""`menagerie tournament run`: an all-bot tournament with a progress bar on stderr and the standings on stdout."""

from __future__ import annotations

from service.cli import main


def test_tournament_run_prints_a_progress_bar_and_the_final_standings(monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("MENAGERIE_PREFIX", "cli-test")
    code = main(
        ["tournament", "run", "--game", "toy", "--players", "5", "--rounds", "2", "--bots", "random", "--seed", "c1"]
    )
    out, err = capsys.readouterr()
    assert code == 0
    assert "4/4 games" in err and "[" + "#" * 30 + "]" in err
    lines = out.splitlines()
    assert lines[0].startswith("toy swiss tournament t-") and "5 players, 2 rounds" in lines[0]
    assert lines[1].split()[:3] == ["rank", "player", "bot"]
    body = lines[3:]
    assert len(body) == 5 and body[0].split()[0] == "1"
    assert all(line.split()[2] == "random" for line in body)


def test_tournament_run_refuses_what_cannot_be_played(monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["tournament", "run", "--game", "toy", "--players", "1", "--rounds", "2", "--bots", "random"]) == 2
    assert "at least 2 players" in capsys.readouterr().err
    assert main(["tournament", "run", "--game", "toy", "--players", "4", "--rounds", "1", "--bots", "clever"]) == 2


def test_a_tournament_of_mcts_and_heuristic_bots_runs_to_the_end(monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("MENAGERIE_PREFIX", "cli-mcts")
    # A small search budget keeps the test quick; the budget travels with the games' options.
    args = ["tournament", "run", "--game", "bloede-kuh", "--players", "4", "--rounds", "1", "--format", "round-robin"]
    code = main([*args, "--bots", "mcts,heuristic", "--seed", "m1", "--mcts-iterations", "4"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "1/1 games" in err
    body = out.splitlines()[3:]
    assert sorted(line.split()[2] for line in body) == ["heuristic", "heuristic", "mcts", "mcts"]


def test_a_search_budget_out_of_range_is_refused(monkeypatch, capsys):
    monkeypatch.delenv("REDIS_URL", raising=False)
    args = ["tournament", "run", "--game", "bloede-kuh", "--players", "3", "--rounds", "1", "--bots", "mcts"]
    assert main([*args, "--mcts-iterations", "0"]) == 2
    assert "mcts_iterations" in capsys.readouterr().err

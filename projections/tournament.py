"""What anyone may see of a tournament: settings, players, rounds, tables, results, standings.

Nothing in a tournament is hidden except tokens (hashes never leave the
service) and the seed, which is revealed when the tournament is over. The seat
tokens of a human entrant's games are added by the service, for that entrant only.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from domain.chance import FIXED
from domain.events import RecordedEvent
from domain.tournament.scoring import bye_points, table_points
from domain.tournament.standings import standings
from domain.tournament.state import FINISHED, Entrant, Tournament


def public_event(event: RecordedEvent) -> dict[str, Any]:
    """Return a tournament event as anyone sees it, with its hash: all but token hashes and the command.

    The command may carry token hashes; its public effects are in the event itself.
    """
    out = event.to_dict()
    out["data"] = {k: v for k, v in event.data.items() if not k.endswith("_sha256")}
    out.pop("command", None)
    return out


def _number(value: Any) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def entrant_name(entrant: Entrant, handles: Mapping[str, str]) -> str:
    """Return what an entrant is called: a guest's or a bot's name, an account's handle (its id if not given)."""
    if entrant.player is not None:
        return handles.get(entrant.player, entrant.player)
    return str(entrant.name)


def tournament_view(
    tournament: Tournament, you: int | None = None, handles: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Return the public view of a tournament; `you` is the caller's entrant number, if any.

    `handles`: the handles of the entrants' accounts, by id (the chain holds the ids).
    """
    names = {e.index: entrant_name(e, handles or {}) for e in tournament.entrants}
    rounds = []
    for round_ in tournament.played:
        tables = []
        for table in round_.tables:
            row = tournament.scoring[str(len(table.entrants))]
            points = table_points(row, table.places) if table.counts and table.places is not None else None
            tables.append(
                {
                    "table": table.number,
                    "entrants": list(table.entrants),
                    "names": [names[e] for e in table.entrants],
                    "game_id": table.game_id,
                    "places": list(table.places) if table.places is not None else None,
                    "points": [_number(p) for p in points] if points is not None else None,
                    "forfeited": list(table.forfeited),
                    "void": table.void,
                    "annulled_games": list(table.annulled),
                }
            )
        rounds.append({"round": round_.number, "byes": list(round_.byes), "tables": tables})
    lines = []
    for line in standings(tournament):
        entrant = tournament.entrants[line.entrant]
        lines.append({**line.to_dict(), "name": names[entrant.index], "bot": entrant.bot})
    current = tournament.current
    return {
        "id": tournament.id,
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
        "version": tournament.version,
        "planned_rounds": tournament.rounds,
        "round": current.number if current else 0,
        "table_sizes": list(tournament.table_sizes),
        "scoring": {size: list(row) for size, row in tournament.scoring.items()},
        "bye_points": _number(bye_points(tournament.scoring)) if tournament.scoring else 0,
        "max_players": tournament.max_players,
        "options": dict(tournament.options),
        "players": [
            {
                "entrant": e.index,
                "name": names[e.index],
                "bot": e.bot,
                "status": e.status,
                "joined_round": e.joined_round,
                "player": e.player,
            }
            for e in tournament.entrants
        ],
        "late_entry_until": tournament.late_entry_until,
        "registration": tournament.registration,
        "corrections": [dict(correction) for correction in tournament.corrections],
        "rounds": rounds,
        "standings": lines,
        "you": you,
        "dealing": tournament.dealing or FIXED,  # one recorded before dealing was disclosed: not provably shared
        "seed_commitment": tournament.seed_commitment,
        "seed": tournament.seed if tournament.status == FINISHED else None,
    }


CSV_COLUMNS = (
    "rank",
    "entrant",
    "name",
    "bot",
    "status",
    "points",
    "opponents_points",
    "wins",
    "games",
    "byes",
    "rating",
)


def tournament_summary(tournament: Tournament) -> dict[str, Any]:
    """Return a tournament's line in a listing."""
    current = tournament.current
    return {
        "id": tournament.id,
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
        "round": current.number if current else 0,
        "planned_rounds": tournament.rounds,
        "players": len(tournament.entrants),
    }


def standings_csv(tournament: Tournament, handles: Mapping[str, str] | None = None) -> str:
    """Return the standings as CSV, one line per entrant, for the organiser's spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for line in standings(tournament):
        entrant = tournament.entrants[line.entrant]
        row = {
            **line.to_dict(),
            "name": spreadsheet_cell(entrant_name(entrant, handles or {})),
            "bot": entrant.bot or "",
        }
        writer.writerow([row[column] for column in CSV_COLUMNS])
    return out.getvalue()


# What makes a spreadsheet read a cell as a formula: = + - @ and their full-width forms (which
# spreadsheets with East Asian input treat alike), and a leading tab or carriage return.
FORMULA_STARTS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")
_LEADING_CONTROLS = ("\t", "\r")


def spreadsheet_cell(text: str) -> str:
    """Return a player's text as a CSV cell no spreadsheet runs as a formula (a quote mark before it if it could)."""
    # Spreadsheets skip leading whitespace (a space, a no-break or an ideographic space) before they look for a formula.
    if text.startswith(_LEADING_CONTROLS) or text.lstrip()[:1] in FORMULA_STARTS:
        return "'" + text
    return text


def pairings(
    tournament: Tournament, number: int, base_url: str = "/", handles: Mapping[str, str] | None = None
) -> dict[str, Any] | None:
    """Return one round's pairings (tables, seats, game links, byes), or None if there is no such round."""
    if not 1 <= number <= len(tournament.played):
        return None
    round_ = tournament.played[number - 1]
    names = {e.index: entrant_name(e, handles or {}) for e in tournament.entrants}
    tables = [
        {
            "table": table.number,
            "game_id": table.game_id,
            "game_url": f"{base_url}games/{table.game_id}" if table.game_id else None,
            "page_url": f"{base_url}#/game/{table.game_id}" if table.game_id else None,
            "seats": [{"seat": s, "entrant": e, "name": names[e]} for s, e in enumerate(table.entrants)],
            "result": "void" if table.void else "forfeit" if table.forfeited else "played" if table.places else None,
        }
        for table in round_.tables
    ]
    byes = [{"entrant": e, "name": names[e]} for e in round_.byes]
    return {"id": tournament.id, "game": tournament.game, "round": number, "tables": tables, "byes": byes}


def pairings_text(listed: dict[str, Any]) -> str:
    """Return a round's pairings as plain text to print and pin up.

    People read it: tables and seats are counted from 1, as the page counts
    them, and each table gives the API's number beside it (from 0), the one
    the organiser types to `annul` it.
    """
    lines = [f"{listed['game']} tournament {listed['id']} - round {listed['round']}", ""]
    for table in listed["tables"]:
        # A printed sheet is read by people: it links the game's page, not its JSON.
        where = table["page_url"] or "(game not created yet)"
        lines.append(f"Table {table['table'] + 1} (API table {table['table']})   {where}")
        lines += [f"  seat {seat['seat'] + 1}: {seat['name']}" for seat in table["seats"]]
        lines.append("")
    if listed["byes"]:
        lines.append("Byes: " + ", ".join(bye["name"] for bye in listed["byes"]))
    return "\n".join(lines).rstrip() + "\n"
